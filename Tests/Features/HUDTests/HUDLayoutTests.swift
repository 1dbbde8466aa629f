import Foundation
import Testing
import ViewfinderCore

@testable import HUD

@Suite("HUD layout")
struct HUDLayoutTests {
    let container = Size(width: 400, height: 300)
    let content = Size(width: 100, height: 50)

    @Test("centred, content padded by the 20-point margin")
    func centred() {
        #expect(HUDLayout().box(in: container, content: content) == Rect(x: 130, y: 105, width: 140, height: 90))
    }

    @Test("an offset moves the box from the centre")
    func offset() {
        let layout = HUDLayout(offset: Point(x: 10, y: -20))
        #expect(layout.box(in: container, content: content) == Rect(x: 140, y: 85, width: 140, height: 90))
    }

    @Test("maxOffset pins the box to each edge, margin away from it", arguments: [
        (Point(x: 0, y: HUDLayout.maxOffset), Point(x: 130, y: 190)),
        (Point(x: 0, y: -HUDLayout.maxOffset), Point(x: 130, y: 20)),
        (Point(x: HUDLayout.maxOffset, y: 0), Point(x: 240, y: 105)),
        (Point(x: -HUDLayout.maxOffset, y: 0), Point(x: 20, y: 105)),
        (Point(x: HUDLayout.maxOffset, y: HUDLayout.maxOffset), Point(x: 240, y: 190)),
    ])
    func pinned(offset: Point, origin: Point) {
        let box = HUDLayout(offset: offset).box(in: container, content: content)
        #expect(box == Rect(origin: origin, size: Size(width: 140, height: 90)))
    }

    @Test("the margin pads the content and keeps the box off the edge")
    func margin() {
        let layout = HUDLayout(offset: Point(x: 0, y: HUDLayout.maxOffset), margin: 10)
        #expect(layout.box(in: container, content: content) == Rect(x: 140, y: 220, width: 120, height: 70))
        #expect(HUDLayout(margin: -5).margin == 0)
    }

    @Test("minSize sets the smallest box")
    func minSize() {
        let layout = HUDLayout(minSize: Size(width: 200, height: 60))
        #expect(layout.box(in: container, content: content) == Rect(x: 100, y: 105, width: 200, height: 90))
    }

    @Test("square makes the box as wide as it is tall, the larger side winning")
    func square() {
        let layout = HUDLayout(isSquare: true)
        #expect(layout.box(in: container, content: content) == Rect(x: 130, y: 80, width: 140, height: 140))
    }

    @Test("a box larger than the container shrinks to the margins, still square if asked")
    func tooLarge() {
        let huge = Size(width: 500, height: 500)
        #expect(HUDLayout().box(in: container, content: huge) == Rect(x: 20, y: 20, width: 360, height: 260))
        #expect(HUDLayout(isSquare: true).box(in: container, content: huge) == Rect(x: 70, y: 20, width: 260, height: 260))
    }

    @Test("a container smaller than its margins gets an empty box in its middle")
    func tinyContainer() {
        let box = HUDLayout().box(in: Size(width: 30, height: 30), content: content)
        #expect(box == Rect(x: 15, y: 15, width: 0, height: 0))
    }

    @Test("sizes are never negative and a rectangle knows its centre")
    func geometry() {
        #expect(Size(clampingWidth: -3, height: .nan) == .zero)
        #expect(Rect(x: 10, y: 20, width: 100, height: 50).center == Point(x: 60, y: 45))
        #expect(Rect(x: 1, y: 2, width: 3, height: 4).description == "(1.0, 2.0, 3.0, 4.0)")
    }
}
