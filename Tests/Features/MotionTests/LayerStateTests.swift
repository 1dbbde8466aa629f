import Testing
import ViewfinderCore

@testable import Motion

@Suite("Layer state")
struct LayerStateTests {
    @Test("defaults are Core Animation's")
    func defaults() {
        let state = LayerState()
        #expect(state.anchorPoint == Point(x: 0.5, y: 0.5))
        #expect(state.opacity == 1 && state.shadowOpacity == 0 && state.shadowRadius == 3)
        #expect(state.shadowOffset == Point(x: 0, y: -3))
        #expect(state.backgroundColor == .clear && state.borderColor == .black)
        #expect(state.contentsRect == Rect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test("the frame puts the anchor point on the position")
    func frame() {
        var state = LayerState(position: Point(x: 100, y: 50), bounds: Rect(x: 0, y: 0, width: 40, height: 20))
        #expect(state.frame == Rect(x: 80, y: 40, width: 40, height: 20))
        state.anchorPoint = .zero
        #expect(state.frame == Rect(x: 100, y: 50, width: 40, height: 20))
    }
}
