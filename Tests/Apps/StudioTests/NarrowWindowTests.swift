import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// Layouts that adapt: the crop editor and the cover preview take the room the window gives
    /// them, and a 360-point window still shows every control of each screen.
    @Suite("Studio: adaptive layouts (a 360-point window)")
    struct NarrowWindowTests {
        /// Where the `controls` step found the window and each named control.
        struct Layout {
            let window: Size
            let frames: [String: Rect?]
        }

        static func layout(_ file: URL) throws -> Layout {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            let window = try #require(object["window"] as? [Double])
            let frames = try #require(object["frames"] as? [String: Any])
            return Layout(window: Size(width: window[0], height: window[1]), frames: frames.mapValues { value in
                (value as? [Double]).map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
            })
        }

        /// Opens a screen with `arguments`, once `ready` reads where `names` are at the window's
        /// own size, then again at 360 × 640 (and takes a `screenshot` of it there, if given).
        /// `environment` adds to the app's (a language).
        static func measure(_ arguments: [String], ready: String, names: [String], in folder: URL,
                            environment: [String] = [], screenshot: URL? = nil) async throws -> (wide: Layout, narrow: Layout) {
            let wide = folder.appendingPathComponent("wide-\(ready).json"), narrow = folder.appendingPathComponent("narrow-\(ready).json")
            let list = names.joined(separator: " ")
            let run = try await StudioHarness.run([
                "wait \(ready)", "sleep 0.3", "controls \(wide.path) \(list)",
                "window-size 360 640", "sleep 0.3", "controls \(narrow.path) \(list)",
            ] + (screenshot.map { ["screenshot \($0.path)"] } ?? []),
               arguments: arguments + ["--library", folder.appendingPathComponent("lib").path], in: folder, environment: environment)
            try #require(run.status == 0, "stderr: \(run.stderr.suffix(1000))")
            return (try layout(wide), try layout(narrow))
        }

        /// Every control is on screen, inside the window, with room of its own.
        static func allShown(_ layout: Layout, _ screen: String) {
            #expect(layout.window.width <= 360, "\(screen): the window stayed \(layout.window.width) points wide")
            for (name, frame) in layout.frames {
                guard let frame else {
                    Issue.record("\(screen): \(name) is not on screen")
                    continue
                }
                #expect(frame.width >= 16 && frame.height >= 16 && frame.minX >= 0 && frame.minY >= 0
                        && frame.maxX <= layout.window.width && frame.maxY <= layout.window.height,
                        "\(screen): \(name) at \(frame) in a \(layout.window) window")
            }
        }

        @Test("avatar editor, cover chooser, camera and library at 360 points: every control shows; the editor and the preview grow past 480 points in the app's own window and shrink with a narrow one")
        func narrow() async throws {
            let folder = TestPaths.scratchFolder("narrow-window")
            let photo = try StudioHarness.copy(media: "images/progressive_beach_icc.jpg", to: folder, as: "beach.jpg")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 3)

            let avatar = try await Self.measure(["--avatar", photo.path], ready: "avatar-ready",
                                                names: ["editor", "back", "circle", "square", "done"], in: folder)
            Self.allShown(avatar.narrow, "avatar")
            let editorWide = try #require(avatar.wide.frames["editor"] ?? nil), editorNarrow = try #require(avatar.narrow.frames["editor"] ?? nil)
            #expect(editorWide.width > 480 && editorWide.height > 480, "\(editorWide)")
            #expect(editorNarrow.width < 360, "\(editorNarrow)")

            let cover = try await Self.measure(["--cover", video.path], ready: "cover-ready",
                                               names: ["preview", "strip", "back", "trim", "done"], in: folder)
            Self.allShown(cover.narrow, "cover")
            let previewWide = try #require(cover.wide.frames["preview"] ?? nil), previewNarrow = try #require(cover.narrow.frames["preview"] ?? nil)
            #expect(previewWide.width > 480, "\(previewWide)")
            #expect(previewNarrow.width < 360, "\(previewNarrow)")

            let camera = try await Self.measure(["--camera", "--device", "virtual,virtual-front"], ready: "camera-preview",
                                                names: ["preview", "back", "switch", "high", "medium", "low", "10s", "30s", "60s",
                                                        "cancel", "record", "photo"], in: folder)
            Self.allShown(camera.narrow, "camera")

            let library = try await Self.measure(["--device", "virtual"], ready: "library",
                                                 names: ["empty", "newest", "oldest", "name", "camera", "import"], in: folder)
            Self.allShown(library.narrow, "library")
        }

        @Test("library at 360 points: the folded sidebar comes back with its button, and choosing a group there returns to the grid with that group")
        func foldedSidebar() async throws {
            let folder = TestPaths.scratchFolder("narrow-sidebar")
            let files = ["wide", "folded", "side", "back"].map { folder.appendingPathComponent("\($0).json") }
            let run = try await StudioHarness.run([
                "wait library", "sleep 0.3", "controls \(files[0].path) sidebar groups",
                "window-size 360 640", "sleep 0.5", "controls \(files[1].path) sidebar groups empty",
                "press sidebar", "sleep 0.6", "controls \(files[2].path) groups empty",
                "press group-3", "sleep 0.6", "controls \(files[3].path) groups empty", "quit",
            ], arguments: ["--library", folder.appendingPathComponent("lib").path], in: folder)
            #expect(run.status == 0, "stderr: \(run.stderr.suffix(1000))")
            let (wide, folded, side, back) = (try Self.layout(files[0]), try Self.layout(files[1]), try Self.layout(files[2]), try Self.layout(files[3]))
            #expect(wide.frames["sidebar"] == .some(nil) && wide.frames["groups"] != .some(nil), "wide: \(wide.frames)")
            #expect(folded.frames["sidebar"] != .some(nil) && folded.frames["groups"] == .some(nil), "folded: \(folded.frames)")
            #expect(side.frames["groups"] != .some(nil) && side.frames["empty"] == .some(nil), "sidebar shown: \(side.frames)")
            #expect(back.frames["groups"] == .some(nil) && back.frames["empty"] != .some(nil), "back on the grid: \(back.frames)")
            #expect(run.events("library").last?["group"] as? String == "captures", "\(run.events("library").last ?? [:])")
        }

        @Test("trimmer at 360 points: the preview, the strip and every button show inside the window")
        func narrowTrim() async throws {
            let folder = TestPaths.scratchFolder("narrow-trim")
            let video = try await CoverScreenTests.clip(in: folder, seconds: 3)
            let trim = try await Self.measure(["--trim", video.path], ready: "trim-ready",
                                              names: ["preview", "strip", "back", "mark", "clear", "play", "export"], in: folder)
            Self.allShown(trim.narrow, "trim")
            let previewNarrow = try #require(trim.narrow.frames["preview"] ?? nil)
            #expect(previewNarrow.width < 360, "\(previewNarrow)")
        }
    }
}
