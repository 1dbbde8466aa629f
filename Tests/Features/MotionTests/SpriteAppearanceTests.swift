import Testing

@testable import Motion

@Suite("Appearance defaults")
struct SpriteAppearanceTests {
    @Test("defaults are Core Animation's")
    func defaults() {
        let appearance = SpriteAppearance()
        #expect(appearance.duration == 0.25 && appearance.delay == 0 && appearance.curve == .linear)
        #expect(appearance.repetition == .once && !appearance.autoreverses && !appearance.keepsAlive)
    }

    @Test("apply to sprites built after they are set, not before; a chain call overrides them")
    func appliesToLaterSprites() {
        let rig = Rig()
        let before = rig.layer.motion.fade.to(0)
        rig.layer.motion.appearance.duration = 2
        rig.layer.motion.appearance.keepsAlive = true
        rig.layer.motion.appearance.curve = .easeIn
        let after = rig.layer.motion.fade.to(0)
        #expect(before.pending.recipe.resolvedDuration == 0.25 && !before.pending.recipe.keepsAlive)
        #expect(after.pending.recipe.resolvedDuration == 2 && after.pending.recipe.keepsAlive)
        #expect(after.pending.recipe.curve == .easeIn)
        #expect(after.duration(1).timing(.linear).pending.recipe.curve == .linear)
        after.activate()
        #expect(rig.state(at: 5).opacity == 0)
    }
}
