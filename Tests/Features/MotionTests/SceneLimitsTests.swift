import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Motion

@Suite("Scene limits")
struct SceneLimitsTests {
    /// Scenes with a number out of range, and the start of the one-line error each must give.
    static let outOfRange: [(String, String)] = [
        (#"{"size": [1e308, 10]}"#, "scene: size: 1e308 is out of range ("),
        (#"{"size": [10, 10], "duration": 1e308}"#, "scene: duration: 1e308 is out of range ("),
        (#"{"size": [10, 10], "duration": 1e9}"#, "scene: duration: 1000000000 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"shadowRadius": 1e308}]}"#, "scene: layers[0].shadowRadius: 1e308 is out of range ("),
        (#"{"size": [100, 100], "layers": [{"shadowRadius": 5000}]}"#, "scene: layers[0].shadowRadius: 5000 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"position": [1e300, 0]}]}"#, "scene: layers[0].position: 1e300 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"scale": -1e300}]}"#, "scene: layers[0].scale: -1e300 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "fade", "to": 0, "duration": 1e308}]}]}"#,
         "scene: layers[0].sprites[0].duration: 1e308 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "fade", "to": 0, "repeat": 1e308}]}]}"#,
         "scene: layers[0].sprites[0].repeat: 1e308 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "shadowRadius", "to": 1e308}]}]}"#,
         "scene: layers[0].sprites[0].to: 1e308 is out of range ("),
        (#"{"size": [10, 10], "layers": [{"sprites": [{"kind": "fade", "to": 0, "spring": {"stiffness": 1e308}}]}]}"#,
         "scene: layers[0].sprites[0].spring.stiffness: 1e308 is out of range ("),
        // Beyond what a Double holds: the decoder's own words were a type mismatch.
        (#"{"size": [10, 10], "layers": [{"shadowRadius": 1e309}]}"#, "scene: layers[0].shadowRadius: 1e309 is out of range ("),
        (#"{"size": [-1e309, 10]}"#, "scene: size[0]: -1e309 is out of range ("),
    ]

    @Test("a number beyond its limit is a one-line error naming the key, the value and the range", arguments: outOfRange)
    func numberOutOfRange(json: String, expected: String) {
        let message = parseError(json)
        #expect(message.hasPrefix(expected), "got: \(message)")
        #expect(!message.contains("\n"))
    }

    @Test("JSON nested too deeply says so, with the limit, whether or not Foundation could read it", arguments: [150, 600])
    func nestedTooDeeply(levels: Int) {
        let json = #"{"size": [10, 10], "layers": "# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}"
        let message = parseError(json)
        #expect(message.hasPrefix("scene: nested too deeply: "), "got: \(message)")
        #expect(!message.contains("not valid JSON"))
        #expect(message.contains("more than \(SceneLimits.maxJSONDepth) levels"), "got: \(message)")
    }

    @Test("sublayers deeper than the limit are refused, naming where")
    func sublayersTooDeep() {
        // `depth` layers each holding one more: the innermost is one level beyond the limit.
        let depth = SceneLimits.maxLayerDepth
        let json = #"{"size": [10, 10], "layers": ["# + String(repeating: #"{"sublayers": ["#, count: depth)
            + "{}" + String(repeating: "]}", count: depth) + "]}"
        let message = parseError(json)
        #expect(message.hasPrefix("scene: layers[0]" + String(repeating: ".sublayers[0]", count: depth)), "got: \(message)")
        #expect(message.contains("more than \(SceneLimits.maxLayerDepth) levels"), "got: \(message)")
    }

    @Test("more layers or sprites than the limits are refused")
    func tooMany() {
        let layers = Array(repeating: "{}", count: SceneLimits.maxLayerCount + 1).joined(separator: ",")
        let manyLayers = parseError(#"{"size": [10, 10], "layers": ["# + layers + "]}")
        #expect(manyLayers.contains("more than \(SceneLimits.maxLayerCount) layers"), "got: \(manyLayers)")
        let sprite = #"{"kind": "fade", "to": 0}"#
        let half = Array(repeating: sprite, count: SceneLimits.maxSpriteCount / 2 + 1).joined(separator: ",")
        let manySprites = parseError(#"{"size": [10, 10], "layers": [{"sprites": ["# + half + #"]}, {"sprites": ["# + half + "]}]}")
        #expect(manySprites.hasPrefix("scene: layers[1].sprites"), "got: \(manySprites)")
        #expect(manySprites.contains("more than \(SceneLimits.maxSpriteCount) sprites"), "got: \(manySprites)")
    }

    @Test("a scene at every limit is read")
    func atTheLimits() throws {
        let json = """
        {"size": [\(SceneLimits.maxCanvasSide), \(SceneLimits.maxCanvasSide)], "duration": \(SceneLimits.maxDuration),
         "layers": [{"shadowRadius": \(SceneLimits.maxShadowRadius), "position": [\(SceneLimits.maxMagnitude), 0]}]}
        """
        let scene = try Scene.parse(Data(json.utf8))
        #expect(scene.size.width == SceneLimits.maxCanvasSide && scene.duration == SceneLimits.maxDuration)
        #expect(scene.layers[0].model.shadowRadius == SceneLimits.maxShadowRadius)
    }

    @Test("the frame budget: duration × fps within maxFrameCount")
    func frameBudget() {
        #expect(SceneLimits.frameCount(duration: 2, fps: 30) == 60)
        #expect(SceneLimits.frameCount(duration: 0, fps: 30) == 1)
        #expect(SceneLimits.frameCount(duration: SceneLimits.maxDuration, fps: 120) == nil)
        #expect(SceneLimits.frameCount(duration: .infinity, fps: 30) == nil)
        #expect(SceneLimits.frameCount(duration: .nan, fps: 30) == nil)
    }

    @Test("the README's table of limits is SceneLimits.markdownTable")
    func readme() throws {
        let readme = try String(contentsOf: TestPaths.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(SceneLimits.markdownTable + "\n"), "paste SceneLimits.markdownTable into README.md:\n\(SceneLimits.markdownTable)")
    }

    private func parseError(_ json: String) -> String {
        do {
            _ = try Scene.parse(Data(json.utf8))
            return "parsed"
        } catch {
            return "\(error)"
        }
    }
}
