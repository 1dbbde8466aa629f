import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// The camera as a source: switching between two cameras, and a photo taken from the
    /// media picker coming back as a picked item.
    @Suite("Studio: camera switch and the camera as a picker's source")
    struct CameraSourceTests {
        @Test("two cameras offered: Switch moves the preview to the second (SMPTE bars) and the photo is taken with it; one camera has no switch")
        func switchCamera() async throws {
            let folder = TestPaths.scratchFolder("camera-switch")
            let lib = folder.appendingPathComponent("lib").path
            let run = try await StudioHarness.pick([
                "wait camera-preview", "press switch", "wait camera-switched", "wait camera-preview", "press photo", "wait pick-ended",
            ], arguments: ["pick", "photo", "--camera", "--device", "virtual,virtual-front", "--library", lib], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            #expect(run.events("camera-preview").compactMap { $0["device"] as? String } == ["virtual", "virtual-front"])
            #expect(run.events("camera-switched").map { $0["error"] as? String } == [""])
            let object = try #require(try PickTests.result(run) as? [String: Any])
            let metadata = try #require(object["metadata"] as? [String: Any])
            #expect(metadata["device"] as? String == "virtual-front")
            // The first bar of SMPTE bars is a 75 % grey; the first camera's picture is red there.
            let photo = try StudioHarness.pixels(of: URL(fileURLWithPath: try #require(object["original"] as? String)))
            let bar = photo.meanColour(Rect(x: 8, y: Double(photo.height) / 2 - 8, width: 16, height: 16))
            #expect(abs(bar.r - 190) < 12 && abs(bar.g - 190) < 12 && abs(bar.b - 190) < 12, "\(bar)")

            let single = try await StudioHarness.pick(["wait camera-preview", "press switch", "wait pick-ended"],
                                                      arguments: ["pick", "photo", "--camera", "--device", "virtual", "--library", lib], in: folder)
            #expect(single.status == 1)
            #expect(single.stderr.contains("has no button 'switch'"), "\(single.stderr.suffix(600))")
        }

        @Test("pick media --camera: the picker offers the camera; a photo taken there is kept in Captures and printed as the picked item")
        func mediaCamera() async throws {
            let folder = TestPaths.scratchFolder("pick-media-camera")
            let library = try await PickTests.library(in: folder)
            let run = try await StudioHarness.pick([
                "wait library", "press camera", "wait camera-preview", "press photo", "wait pick-ended",
            ], arguments: ["pick", "media", "--camera", "--device", "virtual", "--library", library.folder.path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1500))")
            let picked = try #require(try PickTests.result(run) as? [[String: Any]])
            #expect(picked.count == 1)
            let item = try #require(picked.first)
            let id = try #require((item["id"] as? NSNumber)?.int64Value)
            #expect(!library.ids.contains(id))
            #expect(item["kind"] as? String == "photo")
            let file = try #require(item["file"] as? String)
            #expect(file.hasPrefix(library.folder.path + "/"))
            let photo = try Photo(url: URL(fileURLWithPath: file))
            #expect(item["width"] as? Int == photo.size.width && item["height"] as? Int == photo.size.height)
            // The library's own listing has it, in Captures.
            let listed = try Subprocess.run(TestPaths.tool, ["library", "--library", library.folder.path, "list", "--json"])
            let items = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let row = try #require(items.first { ($0["id"] as? NSNumber)?.int64Value == id })
            #expect(row["source"] as? String == "capture", "\(row)")
        }
    }
}
