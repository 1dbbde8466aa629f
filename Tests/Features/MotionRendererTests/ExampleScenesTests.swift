import Foundation
import Motion
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import MotionRenderer

/// The demo scenes in Examples/Scenes (README's "Demo scenes") do what README says they do.
@Suite("Example scenes")
struct ExampleScenesTests {
    static func scene(_ name: String) throws -> Scene {
        try Scene.load(contentsOf: TestPaths.repository.appendingPathComponent("Examples/Scenes/\(name).json"))
    }

    static func state(_ name: String, in tree: PresentedLayer) -> LayerState? {
        if tree.name == name { return tree.state }
        return tree.sublayers.lazy.compactMap { state(name, in: $0) }.first
    }

    static func state(of layer: String, in scene: String, at t: Double) throws -> LayerState {
        try #require(state(layer, in: try Self.scene(scene).presentation(at: t)), "no layer \(layer) in \(scene)")
    }

    @Test("every example renders its first, middle and last frame", arguments: ["spinner", "shadow", "path", "card-flip", "progress"])
    func renders(_ name: String) throws {
        let scene = try Self.scene(name)
        let renderer = LayerRenderer(imageDirectory: TestPaths.repository.appendingPathComponent("Examples/Scenes"))
        let size = PixelSize(width: Int(scene.size.width), height: Int(scene.size.height))
        let root = scene.makeLayerTree()
        for t in [0, (scene.duration ?? 1) / 2, scene.duration ?? 1] {
            let frame = try renderer.render(root, at: t, size: size, background: scene.background)
            #expect(frame.size == size)
        }
    }

    @Test("spinner: a quarter turn at 0.25 s, and again a quarter turn at 1.25 s (forever)")
    func spinner() throws {
        for t in [0.25, 1.25] {
            let z = try Self.state(of: "spinner", in: "spinner", at: t).transform.rotation.z
            #expect(abs(z - .pi / 2) < 1e-9, "\(t): \(z)")
        }
    }

    @Test("shadow: one grouped sprite lifts offset, opacity, radius and colour together, and back")
    func shadow() throws {
        let top = try Self.state(of: "card", in: "shadow", at: 1)
        #expect(top.shadowOffset == Point(x: 0, y: 14) && abs(top.shadowOpacity - 0.6) < 1e-9 && abs(top.shadowRadius - 16) < 1e-9)
        #expect(top.shadowColor == RGBA(red: 0x1a / 255, green: 0x23 / 255, blue: 0x7e / 255, alpha: 1))
        #expect(abs(top.position.y - 110) < 1e-9)
        let back = try Self.state(of: "card", in: "shadow", at: 2)
        #expect(abs(back.shadowOpacity - 0.1) < 1e-9 && abs(back.shadowRadius - 2) < 1e-9 && abs(back.position.y - 120) < 1e-9)
    }

    @Test("path: each point reached at its key time along the cubic route", arguments: [
        (0.75, Point(x: 120, y: 60)), (1.5, Point(x: 200, y: 180)), (3.0, Point(x: 280, y: 40)),
    ])
    func path(_ t: Double, _ point: Point) throws {
        let p = try Self.state(of: "dot", in: "path", at: t).position
        #expect(abs(p.x - point.x) < 1e-6 && abs(p.y - point.y) < 1e-6, "\(t): \(p)")
    }

    @Test("card flip: edge-on at 1 s (a quarter turn, so almost nothing of the card shows), face on again at 2 s")
    func cardFlip() throws {
        let half = try Self.state(of: "card", in: "card-flip", at: 1).transform.rotation.y
        #expect(abs(half - .pi / 2) < 1e-9)
        let scene = try Self.scene("card-flip")
        let renderer = LayerRenderer()
        let root = scene.makeLayerTree()
        func redPixels(at t: Double) throws -> Int {
            let frame = try renderer.render(root, at: t, size: PixelSize(width: 320, height: 240), background: scene.background)
            return stride(from: 0, to: frame.bytes.count, by: 3).filter { frame.bytes[$0] > 150 && frame.bytes[$0 + 1] < 80 }.count
        }
        let flat = try redPixels(at: 0)
        #expect(flat > 100 * 150)
        #expect(try redPixels(at: 1) < flat / 50)
        #expect(try redPixels(at: 2) > flat * 9 / 10)
    }

    @Test("progress: the custom layer's progress runs 0 → 1 eased out, with its ring turning green")
    func progress() throws {
        let middle = try Self.state(of: "ring", in: "progress", at: 1)
        guard case .number(let value)? = middle.custom["progress"] else { Issue.record("no progress: \(middle.custom)"); return }
        #expect(value > 0.5 && value < 1)
        let end = try Self.state(of: "ring", in: "progress", at: 2)
        #expect(end.custom["progress"] == .number(1))
        #expect("\(end.borderColor)" == "#34a853ff")
    }
}
