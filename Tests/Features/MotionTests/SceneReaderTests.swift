import Testing
import ViewfinderCore

@testable import Motion

@Suite("Scene reader")
struct SceneReaderTests {
    @Test("rectangles take [w, h] or [x, y, w, h]; vectors a number, [x, y] or [x, y, z]")
    func shapes() throws {
        let reader = try SceneReader(.object([
            "a": .array([.number(3), .number(4)]),
            "b": .array([.number(1), .number(2), .number(3), .number(4)]),
            "v": .number(2), "w": .array([.number(1), .number(2)]),
        ]), at: "x")
        #expect(try reader.rect("a") == Rect(x: 0, y: 0, width: 3, height: 4))
        #expect(try reader.rect("b") == Rect(x: 1, y: 2, width: 3, height: 4))
        #expect(try reader.vector("v", default: .one) == Vector3(all: 2))
        #expect(try reader.vector("w", default: .one) == Vector3(x: 1, y: 2, z: 1))
        #expect(reader.at("a") == "x.a")
    }

    @Test("negative sizes are refused")
    func negativeSize() throws {
        let reader = try SceneReader(.object(["r": .array([.number(-3), .number(4)])]), at: "")
        #expect(throws: SceneError.self) { try reader.rect("r") }
    }
}
