import Foundation
import Testing
import ViewfinderTestSupport

extension StudioWindowTests {
    /// The shared corpus through the app: good files open, broken ones give the error HUD with a
    /// one-line message, and nothing crashes or hangs.
    @Suite("Studio: the media corpus")
    struct CorpusTests {
        static let imageTypes: Set<String> = ["jpg", "jpeg", "png", "webp", "heic", "heif", "gif", "tif", "tiff"]

        /// Files that must never open: a truncated picture is refused, not shown half.
        static let truncated: Set<String> = ["jpeg_truncated.jpg", "jpeg_truncated_progressive.jpg", "png_truncated.png", "png_broken_80bytes.png"]

        @Test("every photo in the avatar editor, every video in the cover chooser (QuickTime converted to MP4 first), every broken file in both")
        func corpus() async throws {
            let folders = ["images", "exif_orientation", "phone_video", "slowmo", "video_features", "broken"]
            var script: [String] = ["wait library"]
            var expected: [(file: String, screen: String, mustOpen: Bool, mustFail: Bool)] = []
            for folder in folders {
                for url in TestPaths.mediaFiles(in: folder) {
                    let ext = url.pathExtension.lowercased()
                    let broken = folder == "broken"
                    var screens: [String] = []
                    if Self.imageTypes.contains(ext) || broken { screens.append("avatar") }
                    if !Self.imageTypes.contains(ext) || broken { screens.append("cover") }
                    for screen in screens {
                        script += ["open-\(screen) \(url.path)", "wait-any \(screen)-ready error 300", "back", "sleep 0.05"]
                        let name = url.lastPathComponent
                        let goodPhoto = (folder == "images" && !name.hasPrefix("huge_dims")) || (folder == "exif_orientation" && ext == "jpg")
                        expected.append((name, screen, goodPhoto && screen == "avatar", Self.truncated.contains(name)))
                    }
                }
            }
            try #require(expected.count > 60, "the corpus at \(TestPaths.media.path) looks incomplete")
            let folder = TestPaths.scratchFolder("studio-corpus")
            let run = try await StudioHarness.run(script, arguments: ["--library", folder.appendingPathComponent("lib").path],
                                            in: folder, timeout: 900)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(2000))")
            // Each open ended in its screen being ready or in one error; errors are one line.
            let outcomes = run.events.filter { ["avatar-ready", "cover-ready", "error"].contains($0["event"] as? String ?? "") }
            #expect(outcomes.count == expected.count)
            for (outcome, want) in zip(outcomes, expected) {
                let event = outcome["event"] as? String ?? ""
                if want.mustFail { #expect(event == "error", "\(want.file) is truncated but opened in the \(want.screen) screen") }
                if want.mustOpen { #expect(event != "error", "\(want.file) is a good photo: \(outcome["message"] ?? "")") }
                if event == "error" {
                    let message = outcome["message"] as? String ?? ""
                    #expect(!message.isEmpty && !message.contains("\n"), "\(want.file): \(message)")
                }
            }
            let opened = outcomes.filter { $0["event"] as? String != "error" }.count
            #expect(opened >= expected.count / 2, "only \(opened) of \(expected.count) opened")
        }
    }
}
