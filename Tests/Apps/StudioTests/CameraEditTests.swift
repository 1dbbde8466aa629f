import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// `pick photo --camera --edit`: the virtual camera takes the photo, xdotool keys work the
    /// crop editor, and the info object's crop is checked against the same steps worked out
    /// here from the editor's rules, its edited image against the CLI's replay of that crop.
    @Suite("Studio: camera with the editing step (xdotool)")
    struct CameraEditTests {
        /// The crop the editor shows after `keys`, from its rules alone: a crop frame of the
        /// photo's `aspect` as large as fits 16 points inside the viewport; the photo opens
        /// fitted (never leaving the frame uncovered, never above max(3 × the least zoom, 1)),
        /// centred; an arrow drags it 10 points; plus and minus zoom by 1.1 about the middle;
        /// the frame always stays inside the photo.
        static func expectedCrop(image: Size, viewport: Size, aspect: Double, keys: [String]) -> Rect {
            let room = Size(width: viewport.width - 32, height: viewport.height - 32)
            let frame = room.width >= room.height * aspect ? Size(width: room.height * aspect, height: room.height)
                : Size(width: room.width, height: room.width / aspect)
            let least = max(frame.width / image.width, frame.height / image.height)
            let most = max(3 * least, 1)
            var zoom = min(max(least, min(viewport.width / image.width, viewport.height / image.height)), most)
            var centre = Point(x: image.width / 2, y: image.height / 2)
            func keepInside() {
                let half = Size(width: frame.width / zoom / 2, height: frame.height / zoom / 2)
                centre = Point(x: min(max(centre.x, half.width), image.width - half.width),
                               y: min(max(centre.y, half.height), image.height - half.height))
            }
            for key in keys {
                switch key {
                case "Left": centre.x += 10 / zoom
                case "Right": centre.x -= 10 / zoom
                case "Up": centre.y += 10 / zoom
                case "Down": centre.y -= 10 / zoom
                case "plus": zoom = min(max(zoom * 1.1, least), most)
                case "minus": zoom = min(max(zoom / 1.1, least), most)
                default: break
                }
                keepInside()
            }
            let size = Size(width: frame.width / zoom, height: frame.height / zoom)
            return Rect(x: centre.x - size.width / 2, y: centre.y - size.height / 2, width: size.width, height: size.height)
        }

        @Test("Take Photo, then →, →, ↓, +, +, − and Ctrl+Return: the crop rect in the original's pixels is the one worked out, the edited PNG is the CLI's replay byte for byte, the metadata is the photo's")
        func edit() async throws {
            let folder = TestPaths.scratchFolder("camera-edit")
            let keys = ["Right", "Right", "Down", "plus", "plus", "minus"]
            let run = try await KeyboardTests.pick(["photo", "--camera", "--edit", "--device", "virtual"],
                                                   before: ["wait camera-preview", "press photo"], when: "edit-ready",
                                                   in: folder, keys: keys, delay: 0.2, last: "ctrl+Return")
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            #expect(object["mediaType"] as? String == "photo")
            let original = URL(fileURLWithPath: try #require(object["original"] as? String))
            let edited = URL(fileURLWithPath: try #require(object["edited"] as? String))
            let photo = try Photo(url: original)
            let metadata = try #require(object["metadata"] as? [String: Any])
            #expect(metadata["width"] as? Int == photo.size.width && metadata["height"] as? Int == photo.size.height)
            #expect(metadata["orientation"] as? Int == photo.info.orientation)
            #expect(metadata["device"] as? String == "virtual")
            let date = try #require((metadata["date"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(date.timeIntervalSince(try #require(photo.info.creationDate))) < 1)

            let viewport = try #require(try run.event("edit-ready")["viewport"] as? [Double])
            let aspect = Double(photo.size.width) / Double(photo.size.height)
            let expected = Self.expectedCrop(image: Size(width: Double(photo.size.width), height: Double(photo.size.height)),
                                             viewport: Size(width: viewport[0], height: viewport[1]), aspect: aspect, keys: keys)
            let crop = try #require(object["cropRect"] as? [String: Double])
            let got = Rect(x: crop["x"] ?? .nan, y: crop["y"] ?? .nan, width: crop["width"] ?? .nan, height: crop["height"] ?? .nan)
            for (a, b) in [(got.minX, expected.minX), (got.minY, expected.minY), (got.width, expected.width), (got.height, expected.height)] {
                #expect(abs(a - b) < 1e-9, "crop \(got), expected \(expected)")
            }
            // The crop was moved off the middle and zoomed, so a wrong step cannot pass unseen.
            #expect(abs(expected.midX - Double(photo.size.width) / 2) > 1 && expected.width < Double(photo.size.width) * 0.9)

            let pixels = try StudioHarness.pixels(of: edited)
            let side = Int(got.width.rounded())
            #expect(pixels.width == side && pixels.height == Int((Double(side) / aspect).rounded()))
            let spec = CropSpec(imageSize: photo.size, rect: got, shape: .rectangle(aspectRatio: aspect),
                                outputSize: PixelSize(width: pixels.width, height: pixels.height))
            #expect(try StudioHarness.matchesReplay(edited, photo: original, spec: Data(spec.json().utf8), in: folder))
        }

        @Test("--ratio 1:1 makes a square crop; Escape in the editor cancels: exit 3, nothing on stdout")
        func cancel() async throws {
            let folder = TestPaths.scratchFolder("camera-edit-cancel")
            let square = try await KeyboardTests.pick(["photo", "--camera", "--edit", "--ratio", "1:1", "--device", "virtual"],
                                                      before: ["wait camera-preview", "press photo"], when: "edit-ready",
                                                      in: folder, keys: [], last: "ctrl+Return")
            #expect(square.status == 0, "stderr: \(square.stderr.suffix(1500))")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(square.stdout.utf8)) as? [String: Any])
            let crop = try #require(object["cropRect"] as? [String: Double])
            #expect(crop["width"] != nil && crop["width"] == crop["height"])

            let run = try await KeyboardTests.pick(["photo", "--camera", "--edit", "--device", "virtual"],
                                                   before: ["wait camera-preview", "press photo"], when: "edit-ready",
                                                   in: folder, keys: ["Right"], last: "Escape")
            #expect(run.status == 3, "stderr: \(run.stderr.suffix(1500))")
            #expect(run.stdout.isEmpty)
        }
    }
}
