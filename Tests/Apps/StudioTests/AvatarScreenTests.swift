import AvatarCrop
import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    @Suite("Studio: avatar editor")
    struct AvatarScreenTests {
        /// What CropSession — on the main actor, as the app's — makes of a photo in a `viewport`
        /// (the editor's size, as `avatar-ready` says) after a pan by `pan` and a zoom by `zoom`
        /// about `focal`: the crop before and after, and the avatar.
        @MainActor
        static func model(_ photo: URL, viewport: Size, pan: Point, zoom: Double, at focal: Point) async throws -> (initial: CropSpec, expected: CropSpec, avatar: RasterImage) {
            let session = CropSession(viewportSize: viewport, shape: .circle)
            try await session.load(photo)
            let initial = try #require(session.spec(side: 512))
            session.pan(by: pan)
            session.zoom(by: zoom, at: focal)
            let expected = try #require(session.spec(side: 512))
            return (initial, expected, try await session.complete(side: 512))
        }

        @Test("after a drag and a wheel zoom, Done writes exactly the avatar CropSession makes for the same gestures")
        func dragAndZoom() async throws {
            let folder = TestPaths.scratchFolder("studio-avatar")
            // A rotated phone photo (EXIF orientation 6), copied so the avatar is written beside it.
            let photo = try StudioHarness.copy(media: "images/exif_orient6_samsung_galaxyS.jpg", to: folder, as: "face.jpg")
            let opened = folder.appendingPathComponent("opened.png").path
            let moved = folder.appendingPathComponent("moved.png").path
            let run = try await StudioHarness.run([
                "wait avatar-ready",
                "screenshot \(opened) editor",
                "pan 60 -40",
                "scroll -3 300 200",
                "screenshot \(moved) editor",
                "press done",
                "wait avatar-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--avatar", photo.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")

            // The same gestures on the model. The crop uses the whole editor (its viewport is
            // the editor's size); the wheel zooms about the pointer at (300, 200) of the editor.
            let editor = try run.event("screenshot")
            let width = try #require(editor["width"] as? Int), height = try #require(editor["height"] as? Int)
            let viewport = try Self.viewport(run)
            #expect(viewport == Size(width: Double(width), height: Double(height)))
            let (initial, expected, model) = try await Self.model(photo, viewport: viewport, pan: Point(x: 60, y: -40), zoom: pow(1.1, 3),
                                                                  at: Point(x: 300, y: 200))

            let ready = try CropSpec.parse(Data(try #require(try run.event("avatar-ready")["spec"] as? String).utf8))
            #expect(ready == initial)
            let saved = try run.event("avatar-saved")
            let spec = try CropSpec.parse(Data(try #require(saved["spec"] as? String).utf8))
            #expect(spec.imageSize == expected.imageSize && spec.shape == .circle && spec.outputSize == PixelSize(width: 512, height: 512))
            #expect(abs(spec.rect.minX - expected.rect.minX) < 1e-9 && abs(spec.rect.minY - expected.rect.minY) < 1e-9)
            #expect(abs(spec.rect.width - expected.rect.width) < 1e-9)
            #expect(spec.rect != initial.rect)

            // The file the app wrote is the model's avatar, byte for byte as the CLI writes it.
            let written = URL(fileURLWithPath: try #require(saved["path"] as? String))
            #expect(written == folder.appendingPathComponent("face avatar.png"))
            let specFile = folder.appendingPathComponent("spec.json")
            try Data(spec.json().utf8).write(to: specFile)
            let replay = folder.appendingPathComponent("replay.png")
            let cli = try Subprocess.run(TestPaths.tool, ["avatar", photo.path, "--spec", specFile.path, "-o", replay.path])
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(try Data(contentsOf: written) == Data(contentsOf: replay))
            let pixels = try StudioHarness.pixels(of: written)
            #expect(pixels.width == 512 && pixels.height == 512 && pixels.channels == 4)
            #expect(pixels.bytes == model.bytes)

            // On screen: the photo moved under the crop, and outside the circle is dimmed.
            let before = try StudioHarness.pixels(of: URL(fileURLWithPath: opened))
            let after = try StudioHarness.pixels(of: URL(fileURLWithPath: moved))
            // The editor is larger than the old fixed 480-point box: it takes the room it gets.
            #expect(before.width > 480 && before.height > 480, "\(before.width)×\(before.height)")
            #expect(before.bytes != after.bytes)
            // Just outside the circle (top and bottom, 16 points from the edges of the shorter
            // side) the photo is dimmed to 40 %; just inside it is not.
            let side = Double(min(before.width, before.height))
            let origin = Point(x: (Double(before.width) - side) / 2, y: (Double(before.height) - side) / 2)
            func brightness(_ y: Double) -> Double {
                let c = before.meanColour(Rect(x: origin.x + side / 2 - 10, y: origin.y + y, width: 20, height: 4))
                return c.r + c.g + c.b
            }
            let outside = brightness(6) + brightness(side - 10)
            let inside = brightness(22) + brightness(side - 26)
            #expect(outside < 0.6 * inside, "outside \(outside), inside \(inside)")
        }
    
        /// The editor's viewport, as `avatar-ready` reported it.
        static func viewport(_ run: StudioRun) throws -> Size {
            let sides = try #require(try run.event("avatar-ready")["viewport"] as? [Double])
            try #require(sides.count == 2)
            return Size(width: sides[0], height: sides[1])
        }

        @Test("Square reopens the photo under a square crop; Done writes an opaque square avatar")
        func square() async throws {
            let folder = TestPaths.scratchFolder("studio-avatar-square")
            let photo = try StudioHarness.copy(media: "images/progressive_beach_icc.jpg", to: folder, as: "beach.jpg")
            let shot = folder.appendingPathComponent("square.png")
            let run = try await StudioHarness.run([
                "wait avatar-ready",
                "press square",
                "wait avatar-ready",
                "screenshot \(shot.path) editor",
                "press done",
                "wait avatar-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--avatar", photo.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let readies = run.events("avatar-ready").compactMap { $0["spec"] as? String }
            try #require(readies.count == 2)
            #expect(try CropSpec.parse(Data(readies[0].utf8)).shape == .circle)
            #expect(try CropSpec.parse(Data(readies[1].utf8)).shape == .square)
            let saved = try run.event("avatar-saved")
            let spec = try CropSpec.parse(Data(try #require(saved["spec"] as? String).utf8))
            #expect(spec.shape == .square && spec.outputSize == PixelSize(width: 512, height: 512))
            let avatar = try StudioHarness.pixels(of: URL(fileURLWithPath: try #require(saved["path"] as? String)))
            #expect(avatar.width == 512 && avatar.height == 512)
            // Square avatars have no transparent corners.
            #expect(!avatar.hasAlpha || avatar[0, 0][avatar[0, 0].startIndex + 3] == 255)
        }

        @Test("Straighten turns the photo on screen about the crop's centre; Done writes the turned avatar the CLI replays byte for byte")
        func straighten() async throws {
            let folder = TestPaths.scratchFolder("studio-straighten")
            let photo = try StudioHarness.copy(media: "exif_orientation/Landscape_6.jpg", to: folder, as: "tilted.jpg")
            let opened = folder.appendingPathComponent("opened.png").path
            let turned = folder.appendingPathComponent("turned.png").path
            let run = try await StudioHarness.run([
                "wait avatar-ready",
                "screenshot \(opened) editor",
                "straighten 12",
                "screenshot \(turned) editor",
                "press done",
                "wait avatar-saved",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path, "--avatar", photo.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let saved = try run.event("avatar-saved")
            let spec = try CropSpec.parse(Data(try #require(saved["spec"] as? String).utf8))
            #expect(spec.rotation == 12)
            let specFile = folder.appendingPathComponent("spec.json")
            try Data(spec.json().utf8).write(to: specFile)
            let replay = folder.appendingPathComponent("replay.png")
            let cli = try Subprocess.run(TestPaths.tool, ["avatar", photo.path, "--spec", specFile.path, "-o", replay.path])
            #expect(cli.status == 0, "\(cli.stderr)")
            let written = URL(fileURLWithPath: try #require(saved["path"] as? String))
            #expect(try Data(contentsOf: written) == Data(contentsOf: replay))
            // On screen the photo turned about the middle: the centre pixel stays (the crop's
            // centre), a pixel far from it does not.
            let before = try StudioHarness.pixels(of: URL(fileURLWithPath: opened))
            let after = try StudioHarness.pixels(of: URL(fileURLWithPath: turned))
            #expect(before.width == after.width && before.height == after.height)
            func colour(_ picture: RasterImage, _ x: Int, _ y: Int) -> [Int] { picture[x, y].prefix(3).map(Int.init) }
            let (cx, cy) = (before.width / 2, before.height / 2)
            #expect(zip(colour(before, cx, cy), colour(after, cx, cy)).allSatisfy { abs($0 - $1) <= 12 })
            #expect(before.bytes != after.bytes)
        }
    }
}
