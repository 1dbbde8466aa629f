import Testing

@testable import ViewfinderCore

@Suite("Geometry")
struct GeometryTests {
    @Test("fitting keeps the aspect ratio and never enlarges")
    func fitting() {
        let hd = PixelSize(width: 1920, height: 1080)
        #expect(hd.fitting(in: PixelSize(width: 640, height: 640)) == PixelSize(width: 640, height: 360))
        #expect(hd.fitting(in: PixelSize(width: 100, height: 30)) == PixelSize(width: 53, height: 30))
        #expect(hd.fitting(in: PixelSize(width: 4000, height: 4000)) == hd)
        #expect(PixelSize(width: 5000, height: 1).fitting(in: PixelSize(width: 10, height: 10)) == PixelSize(width: 10, height: 1))
        #expect(hd.scaled(toHeight: 180) == PixelSize(width: 320, height: 180))
    }

    @Test("rotations from display-matrix angles", arguments: [
        (0.0, Rotation.none), (90, .clockwise90), (-90, .clockwise270), (270, .clockwise270),
        (180, .upsideDown), (-180, .upsideDown), (89.9, .clockwise90), (450, .clockwise90), (Double.nan, .none),
    ])
    func rotationAngles(_ degrees: Double, _ expected: Rotation) {
        #expect(Rotation(clockwiseDegrees: degrees) == expected)
    }

    @Test("rotating a picture moves its corners clockwise")
    func rotatingPixels() {
        var p = PixelBuffer(width: 3, height: 2)
        p[0, 0] = RGB(255, 0, 0)  // top-left red
        let cw = p.rotated(.clockwise90)
        #expect(cw.size == PixelSize(width: 2, height: 3))
        #expect(cw[1, 0] == RGB(255, 0, 0), "top-left goes to top-right")
        #expect(p.rotated(.upsideDown)[2, 1] == RGB(255, 0, 0))
        #expect(p.rotated(.clockwise270)[0, 2] == RGB(255, 0, 0))
        #expect(cw.rotated(.clockwise270) == p)
    }

    @Test("WxH is read once for every option: sides 1 to 16384, digits only, x or ×")
    func parsing() {
        #expect(PixelSize(parsing: "640x360") == PixelSize(width: 640, height: 360))
        #expect(PixelSize(parsing: "640×360") == PixelSize(width: 640, height: 360))
        #expect(PixelSize(parsing: "640X360") == PixelSize(width: 640, height: 360))
        #expect(PixelSize(parsing: "1x16384") == PixelSize(width: 1, height: 16384))
        for bad in ["0x10", "10x16385", "640", "640x", "x360", "640xx360", "-1x5", "+1x5", "1e3x5", "9999999999999999999x1", " 1x1", ""] {
            #expect(PixelSize(parsing: bad) == nil, "\(bad)")
        }
    }
}

@Suite("Frame index pattern")
struct FrameIndexPatternTests {
    @Test("every index survives a round trip", arguments: [0, 1, 2, 75, 1000, FrameIndexPattern.maximumIndex])
    func roundTrip(_ index: Int) {
        for size in [PixelSize(width: 192, height: 108), PixelSize(width: 97, height: 55), PixelSize(width: 16, height: 10)] {
            #expect(FrameIndexPattern.readIndex(from: FrameIndexPattern.render(index: index, size: size)) == index)
        }
    }

    @Test("a rotated or blank picture does not read as a frame")
    func rejectsWrongOrientation() {
        let frame = FrameIndexPattern.render(index: 42, size: PixelSize(width: 192, height: 108))
        #expect(FrameIndexPattern.readIndex(from: frame.rotated(.upsideDown)) == nil)
        #expect(FrameIndexPattern.readIndex(from: PixelBuffer(width: 192, height: 108)) == nil)
    }
}
