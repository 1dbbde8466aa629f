import Testing

@testable import Motion

@Suite("Scene errors")
struct SceneErrorTests {
    @Test("one line: scene, where, what")
    func description() {
        #expect(SceneError(path: "layers[0].opacity", message: "expected a number").description
            == "scene: layers[0].opacity: expected a number")
        #expect(SceneError(path: "", message: "not valid JSON").description == "scene: not valid JSON")
    }
}
