import Foundation
import Testing
import ViewfinderCore

@testable import Motion

@Suite("Reading scene files")
struct SceneParsingTests {
    @Test("layer keys set the model; unnamed layers get numbered names")
    func layerKeys() throws {
        let json = """
        {"size": [100, 50], "layers": [{"position": [1, 2], "bounds": [30, 40], "anchorPoint": [0, 1], "zPosition": 3,
          "opacity": 0.5, "cornerRadius": 4, "borderWidth": 2, "borderColor": "#00ff00", "shadowOffset": [1, 1],
          "shadowOpacity": 0.3, "shadowRadius": 6, "shadowColor": "#0000ff80", "contents": "cat.jpg",
          "contentsRect": [0, 0, 0.5, 0.5], "scale": 2, "rotation": [0, 0, 1], "translation": [5, 6], "perspective": 500,
          "sublayers": [{}]}]}
        """
        let scene = try Scene.parse(Data(json.utf8))
        #expect(scene.duration == nil && scene.background == .black)
        let layer = scene.layers[0]
        #expect(layer.name == "layer1" && layer.sublayers[0].name == "layer2")
        let m = layer.model
        #expect(m.position == Point(x: 1, y: 2) && m.bounds == Rect(x: 0, y: 0, width: 30, height: 40))
        #expect(m.anchorPoint == Point(x: 0, y: 1) && m.zPosition == 3 && m.opacity == 0.5 && m.cornerRadius == 4)
        #expect(m.borderWidth == 2 && m.borderColor == .green && m.shadowOffset == Point(x: 1, y: 1))
        #expect(m.shadowOpacity == 0.3 && m.shadowRadius == 6 && m.shadowColor.hex == "#0000ff80")
        #expect(m.contents == "cat.jpg" && m.contentsRect == Rect(x: 0, y: 0, width: 0.5, height: 0.5))
        #expect(m.transform == LayerTransform(scale: Vector3(all: 2), rotation: Vector3(x: 0, y: 0, z: 1),
                                              translation: Vector3(x: 5, y: 6, z: 0), perspective: 500))
    }

    /// Malformed scenes and the start of the one-line message each must give.
    static let malformed: [(String, String)] = [
        ("not json", "scene: not valid JSON"),
        ("[1, 2]", "scene: expected an object, got an array of 2"),
        ("{}", "scene: size: missing; expected [width, height]"),
        (#"{"size": [0, 10]}"#, "scene: size: expected [width, height] with both above 0, got an array of 2"),
        (#"{"size": [10, 10], "sise": 1}"#, "scene: sise: unknown key"),
        (#"{"size": [10, 10], "duration": "long"}"#, "scene: duration: expected a number, got \"long\""),
        (#"{"size": [10, 10], "layers": {}}"#, "scene: layers: expected an array of layers, got an object"),
        (#"{"size": [10, 10], "layers": [{"postion": [1, 2]}]}"#, "scene: layers[0].postion: unknown key"),
        (#"{"size": [10, 10], "layers": [{"position": [1]}]}"#, "scene: layers[0].position: expected [x, y], got an array of 1"),
        (#"{"size": [10, 10], "layers": [{"backgroundColor": "red"}]}"#, "scene: layers[0].backgroundColor: expected a colour"),
        (#"{"size": [10, 10], "layers": [{"name": "a"}, {"name": "a"}]}"#, "scene: layers[1].name: \"a\" is used by another layer"),
        (#"{"size": [10, 10], "layers": [{"sublayers": [{"opacity": true}]}]}"#,
         "scene: layers[0].sublayers[0].opacity: expected a number, got true"),
    ]

    @Test("malformed scenes give a clear one-line error naming the key", arguments: malformed)
    func malformedScenes(json: String, expected: String) {
        do {
            _ = try Scene.parse(Data(json.utf8))
            Issue.record("\(json) parsed")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix(expected), "got: \(message)")
            #expect(!message.contains("\n"))
        }
    }
}
