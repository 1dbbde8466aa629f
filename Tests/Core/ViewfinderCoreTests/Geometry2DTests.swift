import Foundation
import Testing

@testable import ViewfinderCore

@Suite("Points, sizes and rectangles")
struct Geometry2DTests {
    @Test("edges and middles")
    func edges() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect([r.minX, r.minY, r.maxX, r.maxY, r.midX, r.midY] == [10, 20, 40, 60, 25, 40])
        #expect(r.center == Point(x: 25, y: 40))
        #expect(Rect(center: Point(x: 25, y: 40), size: Size(width: 30, height: 40)) == r)
        #expect(Size(PixelSize(width: 1920, height: 1080)) == Size(width: 1920, height: 1080))
        #expect(Size(width: 3, height: 2).aspectRatio == 1.5)
        #expect(Size(width: 3, height: 2).isPositive && !Size(width: 3, height: 0).isPositive && !Size(width: .nan, height: 1).isPositive)
    }

    @Test("containment allows exactly the tolerance")
    func containment() {
        let photo = Rect(x: 0, y: 0, width: 100, height: 50)
        #expect(photo.contains(photo))
        #expect(photo.contains(Rect(x: 10, y: 10, width: 20, height: 20)))
        #expect(!photo.contains(Rect(x: -0.5, y: 0, width: 10, height: 10)))
        #expect(photo.contains(Rect(x: -0.5, y: 0, width: 10, height: 10), tolerance: 0.5))
        #expect(!photo.contains(Rect(x: 95, y: 45, width: 5.25, height: 5), tolerance: 0.125))
        #expect(!photo.contains(Rect(x: .nan, y: 0, width: 1, height: 1), tolerance: 1))
        #expect(photo.contains(Point(x: 100, y: 50)) && !photo.contains(Point(x: 100.5, y: 0)))
    }

    @Test("a rectangle encodes flat, as a person would write it")
    func flatJSON() throws {
        let r = Rect(x: 1.5, y: 2, width: 3, height: 4)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(r), as: UTF8.self) == #"{"height":4,"width":3,"x":1.5,"y":2}"#)
        #expect(try JSONDecoder().decode(Rect.self, from: Data(#"{"x":1.5,"y":2,"width":3,"height":4}"#.utf8)) == r)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Rect.self, from: Data(#"{"x":1}"#.utf8)) }
    }

    @Test("aspectFit centres the content's shape inside; insetBy shrinks every side")
    func fitting() {
        let area = Rect(x: 10, y: 20, width: 400, height: 300)
        #expect(area.aspectFit(Size(width: 1920, height: 1080)) == Rect(x: 10, y: 57.5, width: 400, height: 225))
        #expect(area.aspectFit(Size(width: 100, height: 200)) == Rect(x: 135, y: 20, width: 150, height: 300))
        #expect(area.aspectFit(Size(width: 0, height: 5)).width == 0)
        #expect(area.insetBy(10) == Rect(x: 20, y: 30, width: 380, height: 280))
        #expect(area.insetBy(500).width == 0)
    }
}
