import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Motion

@Suite("Layers")
struct LayerTests {
    @Test("model values read and write by name; a sprite changes the presentation, never the model")
    func modelAndPresentation() {
        let rig = Rig()
        rig.layer.opacity = 0.8
        rig.layer.position = Point(x: 10, y: 20)
        #expect(rig.layer.model.opacity == 0.8 && rig.layer.model.position == Point(x: 10, y: 20))
        rig.layer.motion.fade.to(0).duration(1).activate()
        #expect(rig.layer.presentation(at: 0.5).opacity == 0.4)
        #expect(rig.layer.opacity == 0.8)
    }

    @Test("hasRunningSprites is true until the last unheld or held sprite finishes")
    func runningSprites() {
        let rig = Rig()
        #expect(!rig.layer.hasRunningSprites)
        rig.layer.motion.fade.to(0).duration(1).activate()
        rig.layer.motion.scale.to(2).duration(2).keepAlive().activate()
        rig.run(to: 0.5)
        #expect(rig.layer.hasRunningSprites)
        rig.run(to: 1.5)
        #expect(rig.layer.hasRunningSprites)
        rig.run(to: 2.5)
        #expect(!rig.layer.hasRunningSprites)
        #expect(rig.layer.presentation(at: 2.5).transform.scale.x == 2)
    }

    @Test("presentation at a time is pure: asking again, or out of order, gives the same answer")
    func pure() {
        let rig = Rig()
        rig.layer.motion.rotate.z.to(.pi).duration(2).repeat(.forever).activate()
        rig.layer.motion.move.to(Point(x: 50, y: 0)).duration(1).timing(.easeInEaseOut).autoreverse().activate()
        let times = [1.7, 0.3, 1.7, 0.9, 0.3]
        let first = times.map { rig.layer.presentation(at: $0) }
        let second = times.map { rig.layer.presentation(at: $0) }
        #expect(first == second)
        #expect(first[0] == first[2] && first[1] == first[4])
    }

    @Test("sublayers form a tree with one root; a layer moves between superlayers")
    func tree() {
        let root = Layer(name: "root"), a = Layer(name: "a"), b = Layer(name: "b")
        root.addSublayer(a)
        a.addSublayer(b)
        #expect(b.root === root && root.layer(named: "b") === b)
        root.addSublayer(b)
        #expect(a.sublayers.isEmpty && root.sublayers.map(\.name) == ["a", "b"] && b.superlayer === root)
        b.removeFromSuperlayer()
        #expect(b.superlayer == nil && root.sublayers.count == 1)
    }

    @Test("sublayers use the root's clock for activation")
    func rootClock() {
        let clock = VirtualClock(startingAt: 5)
        let root = Layer(), child = Layer()
        root.clock = clock
        root.addSublayer(child)
        #expect(child.currentTime == 5)
        child.motion.fade.to(0).duration(1).activate()
        #expect(child.presentation(at: 5.5).opacity == 0.5)
    }

    @Test("the presentation tree carries every layer's values")
    func presentationTree() {
        let root = Layer(name: "root"), child = Layer(name: "child")
        root.clock = VirtualClock()
        root.addSublayer(child)
        child.motion.cornerRadius.to(10).duration(1).activate()
        let tree = root.presentationTree(at: 0.5)
        #expect(tree.name == "root" && tree.sublayers.first?.state.cornerRadius == 5)
    }

    @Test("10 000 running sprites for one frame (timing printed, not asserted)")
    func tenThousandSprites() {
        let root = Layer(name: "root")
        root.clock = VirtualClock()
        var random = SplitMix64(seed: 10_000)
        for index in 0..<1_000 {
            let layer = Layer(name: "l\(index)")
            root.addSublayer(layer)
            for _ in 0..<10 {
                let duration = Double.random(in: 1...5, using: &random)
                switch random.next() % 5 {
                case 0: layer.motion.rotate.z.to(.pi * 2).duration(duration).repeat(.forever).activate()
                case 1: layer.motion.move.to(Point(x: 100, y: 50)).duration(duration).timing(.easeInEaseOut).repeat(.forever).activate()
                case 2: layer.motion.fade.to(0).duration(duration).autoreverse().repeat(.forever).activate()
                case 3: layer.motion.scale.to(2).spring(damping: 5).repeat(.forever).activate()
                default: layer.motion.backgroundColor.to(.red).duration(duration).repeat(.forever).activate()
                }
            }
        }
        var checksum = 0.0
        func frame(at t: Double) -> Double {
            root.advance(to: t)
            var sum = 0.0
            for layer in root.sublayers { sum += layer.presentation(at: t).opacity }
            return sum
        }
        checksum += frame(at: 0.5)  // warm-up
        let rounds = 20
        let start = DispatchTime.now().uptimeNanoseconds
        for round in 0..<rounds { checksum += frame(at: 1 + Double(round) / 30) }
        let perFrame = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1e6
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("Motion: 10 000 running sprites on 1 000 layers: \(String(format: "%.3f", perFrame)) ms per frame (\(build) build)")
        #expect(root.sublayers.reduce(0) { $0 + $1.activeSpriteCount } == 10_000)
        #expect(checksum.isFinite)
    }
}
