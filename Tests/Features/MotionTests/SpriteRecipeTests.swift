import Testing
import ViewfinderCore

@testable import Motion

@Suite("Sprite recipes")
struct SpriteRecipeTests {
    @Test("with only from, the sprite goes to the model value (Core Animation's rule)")
    func fromOnly() {
        var recipe = SpriteRecipe(property: .opacity, appearance: SpriteAppearance())
        recipe.from = .number(0)
        var model = LayerState()
        model.opacity = 0.6
        let track = recipe.resolved(at: 0, presentation: model, model: model)
        guard case .between(let start, let end) = track.course else {
            Issue.record("expected from/to")
            return
        }
        #expect(start == .number(0) && end == .number(0.6))
    }

    @Test("the delay shifts the begin time; negative delays count as none")
    func delay() {
        var recipe = SpriteRecipe(property: .opacity, appearance: SpriteAppearance())
        recipe.to = .number(0)
        recipe.delay = 2
        #expect(recipe.resolved(at: 3, presentation: LayerState(), model: LayerState()).timing.begin == 5)
        recipe.delay = -2
        #expect(recipe.resolved(at: 3, presentation: LayerState(), model: LayerState()).timing.begin == 3)
    }

    @Test("contents cross-fade: the new picture shows over the old with a growing share")
    func crossFade() {
        var recipe = SpriteRecipe(property: .contents, appearance: SpriteAppearance())
        recipe.to = .image("b.png")
        recipe.duration = 1
        var model = LayerState()
        model.contents = "a.png"
        let track = recipe.resolved(at: 0, presentation: model, model: model)
        var state = model
        track.apply(at: 0.25, to: &state)
        #expect(state.contents == "b.png" && state.contentsCrossFade == ContentsCrossFade(from: "a.png", progress: 0.25))
        state = model
        track.apply(at: 1, to: &state)
        #expect(state.contents == "b.png" && state.contentsCrossFade == nil)
    }
}
