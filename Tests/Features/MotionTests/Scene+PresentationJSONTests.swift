import Foundation
import Testing
import ViewfinderTestSupport

@testable import Motion

@Suite("Scene presentation JSON")
struct ScenePresentationJSONTests {
    @Test("the example at 0.25 s prints every documented value")
    func example() throws {
        let scene = try Scene.parse(Data(exampleScene.utf8))
        let text = scene.presentationJSON(at: 0.25)
        #expect(!text.contains("\n"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["t"] as? Double == 0.25)
        let layers = try #require(document["layers"] as? [String: Any])
        let box = try #require(layers["box"] as? [String: Any])
        #expect(box["position"] as? [Double] == [185, 120])
        #expect(box["bounds"] as? [Double] == [0, 0, 100, 100])
        #expect(box["anchorPoint"] as? [Double] == [0.5, 0.5])
        #expect(box["opacity"] as? Double == 1)
        #expect(box["rotation"] as? [Double] == [0, 0, 1.5707963267948966])
        #expect(box["translation"] as? [Double] == [0, 0, 0])
        let scale = try #require(box["scale"] as? [Double])
        #expect(scale.count == 3 && isClose(scale[0], 1 + exampleSpringProgress(0.25), 1e-12))
        #expect(box["backgroundColor"] as? String == "#ff0000ff")
        #expect(box["borderColor"] as? String == "#000000ff")
        #expect(box["shadowOffset"] as? [Double] == [0, -3])
        for key in ["cornerRadius", "borderWidth", "shadowOpacity", "shadowRadius"] {
            #expect(box[key] is Double, "\(key)")
        }
    }

    @Test("nested layers are listed depth first; numbers print as written")
    func nested() throws {
        let json = """
        {"size": [10, 10], "layers": [{"name": "a", "sublayers": [{"name": "b \\"quoted\\""}]}, {"name": "c"}]}
        """
        let text = try Scene.parse(Data(json.utf8)).presentationJSON(at: 0)
        #expect(text.hasPrefix("{\"t\": 0, \"layers\": {\"a\": {\"position\": [0, 0], "))
        let a = try #require(text.range(of: "\"a\":")), b = try #require(text.range(of: "\"b \\\"quoted\\\"\":"))
        let c = try #require(text.range(of: "\"c\":"))
        #expect(a.lowerBound < b.lowerBound && b.lowerBound < c.lowerBound)
    }
}
