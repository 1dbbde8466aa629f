import Foundation
import Testing

@testable import ViewfinderCore

@Suite("Crop spec")
struct CropSpecTests {
    static let photo = PixelSize(width: 6000, height: 4000)
    static let circle = CropSpec(
        imageSize: photo, rect: Rect(x: 1000, y: 0, width: 4000, height: 4000),
        shape: .circle, outputSize: PixelSize(width: 512, height: 512)
    )

    // MARK: - JSON

    @Test("a spec survives a JSON round trip", arguments: [
        circle,
        CropSpec(imageSize: photo, rect: Rect(x: 12.25, y: 100.5, width: 3000, height: 1500),
                 shape: .rectangle(aspectRatio: 2), outputSize: PixelSize(width: 800, height: 400)),
        CropSpec(imageSize: PixelSize(width: 1, height: 1), rect: Rect(x: 0, y: 0, width: 1, height: 1),
                 shape: .square, outputSize: PixelSize(width: 1, height: 1)),
        // Fractions that have no short decimal form must still come back bit for bit.
        CropSpec(imageSize: PixelSize(width: 3000, height: 3000), rect: Rect(x: 1.0 / 3, y: 0.1, width: 2000.0 / 3, height: 2000.0 / 3),
                 shape: .circle, outputSize: PixelSize(width: 300, height: 300)),
    ])
    func roundTrip(_ spec: CropSpec) throws {
        let text = spec.json()
        #expect(try CropSpec.parse(Data(text.utf8)) == spec)
        #expect(spec.json() == text, "the same spec always prints the same text")
    }

    @Test("the JSON is readable: sorted keys, a flat rectangle and a named shape")
    func jsonForm() throws {
        let wide = CropSpec(imageSize: Self.photo, rect: Rect(x: 0, y: 500, width: 6000, height: 3000),
                            shape: .rectangle(aspectRatio: 2), outputSize: PixelSize(width: 1000, height: 500))
        let text = wide.json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["imageSize", "outputSize", "rect", "shape"])
        let rect = try #require(object["rect"] as? [String: Double])
        #expect(rect == ["x": 0, "y": 500, "width": 6000, "height": 3000])
        let shape = try #require(object["shape"] as? [String: Any])
        #expect(shape["kind"] as? String == "rectangle")
        #expect(shape["aspectRatio"] as? Double == 2)
        #expect(try #require(object["outputSize"] as? [String: Int]) == ["width": 1000, "height": 500])

        let positions = ["imageSize", "outputSize", "rect", "shape"].compactMap { text.range(of: "\"\($0)\"")?.lowerBound }
        #expect(positions.count == 4 && positions == positions.sorted(), "keys in sorted order")
        #expect(text.contains("\n"), "pretty printed")

        let circle = try #require(try JSONSerialization.jsonObject(with: Data(Self.circle.json().utf8)) as? [String: Any])
        #expect(circle["shape"] as? [String: String] == ["kind": "circle"])
    }

    @Test("shapes decode from their hand-written form")
    func shapeForms() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(CropShape.self, from: Data(#"{"kind":"circle"}"#.utf8)) == .circle)
        #expect(try decoder.decode(CropShape.self, from: Data(#"{"kind":"square"}"#.utf8)) == .square)
        #expect(try decoder.decode(CropShape.self, from: Data(#"{"kind":"rectangle","aspectRatio":1.5}"#.utf8))
                == .rectangle(aspectRatio: 1.5))
        #expect(throws: DecodingError.self) { try decoder.decode(CropShape.self, from: Data(#"{"kind":"oval"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(CropShape.self, from: Data(#"{"kind":"rectangle"}"#.utf8)) }
    }

    // MARK: - Parsing

    @Test("input that is not a crop spec is refused with a reason", arguments: [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "should be an object"),
        (#"{"imageSize":{"width":10,"height":10}}"#, "missing"),
        (#"{"imageSize":{"width":"ten","height":10},"rect":{"x":0,"y":0,"width":1,"height":1},"shape":{"kind":"circle"},"outputSize":{"width":1,"height":1}}"#,
         "\"imageSize.width\" should be a whole number"),
        (#"{"imageSize":{"width":10,"height":10},"rect":{"x":0,"y":0,"width":1,"height":1},"shape":{"kind":"oval"},"outputSize":{"width":1,"height":1}}"#,
         "unknown shape \"oval\""),
        (#"{"imageSize":{"width":10,"height":10},"rect":{"x":5,"y":5,"width":10,"height":10},"shape":{"kind":"circle"},"outputSize":{"width":1,"height":1}}"#,
         "reaches outside"),
    ])
    func malformed(_ text: String, _ expected: String) {
        let error = #expect(throws: CropSpecError.self) { try CropSpec.parse(Data(text.utf8)) }
        #expect(error?.reason.contains(expected) == true, "\(error?.reason ?? "no error")")
        #expect(error?.description.hasPrefix("invalid crop spec: ") == true)
    }

    // MARK: - Validation

    @Test("a sound spec validates unchanged, with an ulp of slack at the edges")
    func validSpecs() throws {
        #expect(try Self.circle.validated() == Self.circle)
        var hair = Self.circle
        hair.rect = Rect(x: 2000 + 1e-7, y: -1e-7, width: 4000, height: 4000)
        #expect(try hair.validated() == hair)
        var rounded = Self.circle
        rounded.shape = .rectangle(aspectRatio: 1.5)
        rounded.rect = Rect(x: 0, y: 0, width: 6000, height: 4000)
        rounded.outputSize = PixelSize(width: 1000, height: 667)  // 1.4993, within 1 %
        #expect(try rounded.validated() == rounded)
    }

    @Test("each broken rule is reported", arguments: [
        ("rect left of the photo", broken { s in s.rect.origin.x = -1 }, "reaches outside"),
        ("rect past the bottom", broken { s in s.rect.origin.y = 0.001 }, "reaches outside"),
        ("rect past the right", broken { s in s.rect.size = Size(width: 5001, height: 4000) }, "reaches outside"),
        ("zero-width rect", broken { s in s.rect.size.width = 0 }, "positive width"),
        ("NaN rect", broken { s in s.rect.origin.x = .nan }, "only numbers"),
        ("zero photo", broken { s in s.imageSize = PixelSize(width: 0, height: 4000) }, "photo size"),
        ("zero output", broken { s in s.outputSize = PixelSize(width: 0, height: 0) }, "1 to 8192"),
        ("huge output", broken { s in s.outputSize = PixelSize(width: 8193, height: 8193) }, "1 to 8192"),
        ("oblong circle", broken { s in s.outputSize = PixelSize(width: 512, height: 500) }, "needs a square output"),
        ("oblong square", broken { s in s.shape = .square; s.outputSize = PixelSize(width: 500, height: 512) },
         "a square needs a square output"),
        ("output unlike rect", broken { s in
            s.shape = .rectangle(aspectRatio: 1); s.outputSize = PixelSize(width: 512, height: 500)
        }, "crop rectangle's shape"),
        ("output unlike shape", broken { s in
            s.shape = .rectangle(aspectRatio: 2); s.rect = Rect(x: 0, y: 0, width: 6000, height: 4000)
            s.outputSize = PixelSize(width: 600, height: 400)
        }, "aspect ratio 2.0"),
        ("negative aspect", broken { s in s.shape = .rectangle(aspectRatio: -1) }, "positive number"),
    ])
    func brokenRules(_ name: String, _ spec: CropSpec, _ expected: String) {
        let error = #expect(throws: CropSpecError.self, "\(name)") { try spec.validated() }
        #expect(error?.reason.contains(expected) == true, "\(name): \(error?.reason ?? "no error")")
    }

    /// The sound circle spec with one thing changed.
    static func broken(_ change: (inout CropSpec) -> Void) -> CropSpec {
        var spec = circle
        change(&spec)
        return spec
    }

    // MARK: - Centred crops

    @Test("the CLI's centred crop: largest fit, zoomed, moved onto the photo")
    func centred() throws {
        let photo = Self.photo
        #expect(CropSpec.centred(imageSize: photo, shape: .circle, outputSide: 512) == Self.circle)
        #expect(CropSpec.centred(imageSize: photo, shape: .circle, outputSide: 512, zoom: 2).rect
                == Rect(x: 2000, y: 1000, width: 2000, height: 2000))
        #expect(CropSpec.centred(imageSize: photo, shape: .circle, outputSide: 512, zoom: 2, center: Point(x: 0, y: 0)).rect
                == Rect(x: 0, y: 0, width: 2000, height: 2000))
        #expect(CropSpec.centred(imageSize: photo, shape: .square, outputSide: 64, zoom: 4, center: Point(x: 5900, y: 2000)).rect
                == Rect(x: 5000, y: 1500, width: 1000, height: 1000))
        // A zoom below 1 would need more photo than there is; it counts as 1.
        #expect(CropSpec.centred(imageSize: photo, shape: .circle, outputSide: 512, zoom: 0.5).rect == Self.circle.rect)
        #expect(CropSpec.centred(imageSize: photo, shape: .circle, outputSide: 512, zoom: .nan).rect == Self.circle.rect)

        let portrait = CropSpec.centred(imageSize: PixelSize(width: 3000, height: 4000), shape: .square, outputSide: 300)
        #expect(portrait.rect == Rect(x: 0, y: 500, width: 3000, height: 3000))
        #expect(portrait.outputSize == PixelSize(width: 300, height: 300))

        let wide = CropSpec.centred(imageSize: photo, shape: .rectangle(aspectRatio: 2), outputSide: 1000)
        #expect(wide.rect == Rect(x: 0, y: 500, width: 6000, height: 3000))
        #expect(wide.outputSize == PixelSize(width: 1000, height: 500))
        let tall = CropSpec.centred(imageSize: photo, shape: .rectangle(aspectRatio: 0.75), outputSide: 300)
        #expect(tall.rect == Rect(x: 1500, y: 0, width: 3000, height: 4000))
        #expect(tall.outputSize == PixelSize(width: 300, height: 400))

        for spec in [portrait, wide, tall] { #expect(try spec.validated() == spec) }
        #expect(throws: CropSpecError.self) {
            try CropSpec.centred(imageSize: PixelSize(width: 0, height: 0), shape: .circle, outputSide: 512).validated()
        }
    }

    @Test("JSON that only a decoder calls 'not valid JSON' is explained: numbers out of range, deep nesting")
    func jsonProblems() {
        let good = #"{"imageSize":{"height":1800,"width":1200},"outputSize":{"height":512,"width":512},"rect":{"height":1200,"width":1200,"x":0,"y":300},"shape":{"kind":"circle"}}"#
        func reason(_ text: String) -> String? {
            do {
                _ = try CropSpec.parse(Data(text.utf8))
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason(good) == nil)
        #expect(reason(good.replacingOccurrences(of: #""y":300"#, with: #""y":1e309"#))
                == #""rect.y": 1e309 is out of range (no number can be that large; a crop spec holds pixel sizes and positions)"#)
        #expect(reason(good.replacingOccurrences(of: #""outputSize":{"height":512"#, with: #""outputSize":{"height":1e308"#))
                == #""outputSize.height": 1e+308 is out of range for a whole number"#)
        #expect(reason(String(repeating: "[", count: 600) + String(repeating: "]", count: 600))
                == "nested too deeply: more than 16 levels of arrays and objects")
        #expect(reason(#"{"imageSize":"#)?.hasPrefix("not valid JSON") == true)
    }
}
