import Testing
import ViewfinderCore

@testable import Motion

@Suite("Animatable values")
struct AnimatableValueTests {
    @Test("numbers, points, rectangles and colours interpolate component-wise, and extrapolate")
    func interpolation() {
        #expect(AnimatableValue.number(10).interpolated(to: .number(20), fraction: 0.25) == .number(12.5))
        #expect(AnimatableValue.number(10).interpolated(to: .number(20), fraction: 1.5) == .number(25))
        #expect(Point(x: 0, y: 10).animatableValue.interpolated(to: .point(Point(x: 10, y: 30)), fraction: 0.5)
            == .point(Point(x: 5, y: 20)))
        #expect(AnimatableValue.rect(Rect(x: 0, y: 0, width: 10, height: 10))
            .interpolated(to: .rect(Rect(x: 10, y: 20, width: 30, height: 50)), fraction: 0.5)
            == .rect(Rect(x: 5, y: 10, width: 20, height: 30)))
        #expect(AnimatableValue.color(.black).interpolated(to: .color(.white), fraction: 0.5)
            == .color(RGBA(red: 0.5, green: 0.5, blue: 0.5)))
    }

    @Test("pictures and mismatched kinds jump at the end")
    func jumps() {
        let a = AnimatableValue.image("a.png"), b = AnimatableValue.image("b.png")
        #expect(a.interpolated(to: b, fraction: 0.99) == a)
        #expect(a.interpolated(to: b, fraction: 1) == b)
        #expect(AnimatableValue.number(1).interpolated(to: .point(.zero), fraction: 0.5) == .number(1))
    }

    @Test("adding offsets component-wise")
    func adding() {
        #expect(AnimatableValue.number(2).adding(.number(3)) == .number(5))
        #expect(AnimatableValue.point(Point(x: 1, y: 2)).adding(.point(Point(x: 10, y: 20))) == .point(Point(x: 11, y: 22)))
        #expect(AnimatableValue.image("a").adding(.image("b")) == .image("b"))
    }
}
