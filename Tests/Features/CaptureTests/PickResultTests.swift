import Capture
import Foundation
import Testing
import ViewfinderCore

/// The JSON schema of `viewfinder-studio pick`'s results: the exact text each type prints, and
/// that it reads back as the same value.
@Suite("Pick results: the printed JSON schema")
struct PickResultTests {
    static let date = Date(timeIntervalSince1970: 1_764_763_200)  // 2025-12-03T12:00:00Z

    @Test("media: an array of items in the order picked; a photo's duration is null, not missing")
    func media() throws {
        let result = PickResult.media([
            PickedItem(id: 7, file: "/lib/a b/IMG_1.jpg", kind: .photo, width: 4032, height: 3024, duration: nil, date: Self.date),
            PickedItem(id: 3, file: "/lib/clip.mp4", kind: .video, width: 1920, height: 1080, duration: 2.5, date: Self.date),
        ])
        let text = String(decoding: try result.json(), as: UTF8.self)
        #expect(text == #"[{"date":"2025-12-03T12:00:00Z","duration":null,"file":"/lib/a b/IMG_1.jpg","height":3024,"id":7,"kind":"photo","width":4032},"#
            + #"{"date":"2025-12-03T12:00:00Z","duration":2.5,"file":"/lib/clip.mp4","height":1080,"id":3,"kind":"video","width":1920}]"#)
        let read = try PickResult.decoder.decode([PickedItem].self, from: Data(text.utf8))
        #expect(PickResult.media(read) == result)
        #expect(result.paths == ["/lib/a b/IMG_1.jpg", "/lib/clip.mp4"])
    }

    @Test("cover: video, cover, time and frame; a frame that could not be counted is null")
    func cover() throws {
        for frame in [42, nil] as [Int?] {
            let result = PickResult.cover(PickedCover(video: "/v/clip.mov", cover: "/v/clip cover.jpg", time: 1.4, frame: frame))
            let text = String(decoding: try result.json(), as: UTF8.self)
            #expect(text == #"{"cover":"/v/clip cover.jpg","frame":\#(frame.map(String.init) ?? "null"),"time":1.4,"video":"/v/clip.mov"}"#)
            #expect(PickResult.cover(try PickResult.decoder.decode(PickedCover.self, from: Data(text.utf8))) == result)
            #expect(result.paths == ["/v/clip cover.jpg"])
        }
    }

    @Test("avatar: the crop spec is the object `viewfinder avatar --spec` reads")
    func avatar() throws {
        let spec = CropSpec(imageSize: PixelSize(width: 640, height: 480), rect: Rect(x: 80, y: 0, width: 480, height: 480),
                            shape: .circle, outputSize: PixelSize(width: 256, height: 256))
        let result = PickResult.avatar(PickedAvatar(original: "/p/face.jpg", avatar: "/p/me.png", spec: spec))
        let data = try result.json()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let printedSpec = try JSONSerialization.data(withJSONObject: try #require(object["spec"]))
        #expect(try CropSpec.parse(printedSpec) == spec)
        #expect(PickResult.avatar(try PickResult.decoder.decode(PickedAvatar.self, from: data)) == result)
        #expect(result.paths == ["/p/me.png"])
    }

    @Test("capture: every key present (null when a photo has no file, edit or size); paths name the edited copy, else the original")
    func capture() throws {
        let photo = PickedCapture(mediaType: .photo, original: "/c/IMG.jpg", file: nil,
                                  metadata: .init(date: Self.date, device: "virtual", orientation: 1, width: nil, height: nil),
                                  edited: nil, cropRect: nil)
        let text = String(decoding: try PickResult.capture(photo).json(), as: UTF8.self)
        #expect(text == #"{"cropRect":null,"edited":null,"file":null,"mediaType":"photo","#
            + #""metadata":{"date":"2025-12-03T12:00:00Z","device":"virtual","height":null,"orientation":1,"width":null},"original":"/c/IMG.jpg"}"#)
        #expect(try PickResult.decoder.decode(PickedCapture.self, from: Data(text.utf8)) == photo)
        #expect(PickResult.capture(photo).paths == ["/c/IMG.jpg"])
        var edited = photo
        edited.edited = "/c/IMG edited.png"
        edited.cropRect = .init(x: 10, y: 20, width: 300, height: 200)
        #expect(PickResult.capture(edited).paths == ["/c/IMG edited.png"])
        #expect(try PickResult.decoder.decode(PickedCapture.self, from: PickResult.capture(edited).json()) == edited)
    }

    @Test("an empty field's key left out (an older or hand-made result) reads as empty")
    func missingOptionalKeys() throws {
        let cover = try PickResult.decoder.decode(PickedCover.self, from: Data(#"{"cover":"/c.jpg","time":2,"video":"/v.mp4"}"#.utf8))
        #expect(cover == PickedCover(video: "/v.mp4", cover: "/c.jpg", time: 2, frame: nil))
    }

    @Test("a result that is not one of the kinds does not decode as one")
    func wrongShapes() {
        let decoder = PickResult.decoder
        #expect(throws: DecodingError.self) { try decoder.decode(PickedCover.self, from: Data(#"{"cover":"/x.jpg","time":1}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(PickedItem.self, from: Data(#"{"id":1,"file":"/a","kind":"sound","width":1,"height":1,"duration":null,"date":"2025-12-03T12:00:00Z"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(PickedItem.self, from: Data(#"{"id":1,"file":"/a","kind":"photo","width":1,"height":1,"duration":null,"date":"yesterday"}"#.utf8)) }
    }
}
