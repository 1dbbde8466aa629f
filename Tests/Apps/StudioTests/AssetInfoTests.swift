import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

extension StudioWindowTests {
    /// The library grid's info panel: its values against the catalogue's (`library list
    /// --json`), and Export without location against exiftool and the CLI's export.
    @Suite("Studio: asset info and export without location")
    struct AssetInfoTests {
        static let photo = TestPaths.media.appendingPathComponent("images/exif_orient3_iphone5.jpg")
        static let video = TestPaths.media.appendingPathComponent("phone_video/iphone6_h264_rot90_2997_vfr_gps.mov")

        /// A library holding the iPhone photo and the iPhone video (both with GPS), made by the CLI.
        static func library(in folder: URL) throws -> (path: String, items: [[String: Any]]) {
            let library = folder.appendingPathComponent("lib").path
            let imported = try Subprocess.run(TestPaths.tool, ["library", "--library", library, "import", photo.path, video.path, "-q"])
            guard imported.status == 0 else { throw SubprocessError.failed("viewfinder", imported.stderr) }
            let list = try Subprocess.run(TestPaths.tool, ["library", "--library", library, "list", "--json"])
            let items = try JSONSerialization.jsonObject(with: list.stdoutData) as? [[String: Any]] ?? []
            return (library, items)
        }

        /// The rows the panel must show for a `list --json` item, written from the catalogue's values.
        static func expectedRows(_ item: [String: Any]) throws -> [String: String] {
            let metadata = try #require(item["metadata"] as? [String: Any])
            func number(_ key: String) -> Double? { (metadata[key] as? NSNumber)?.doubleValue }
            var rows: [String: String] = [:]
            if let date = metadata["captureDate"] as? String {
                rows["Taken"] = date + ((metadata["captureZone"] as? String).map { " " + $0 } ?? "")
            }
            let bytes = try #require((item["byteSize"] as? NSNumber)?.doubleValue)
            rows["Size"] = "\(item["width"] ?? "") × \(item["height"] ?? ""), " + String(format: "%.1f MB", bytes / 1_000_000)
                + ((item["duration"] as? NSNumber).map { String(format: ", %.2f s", $0.doubleValue) } ?? "")
            if let latitude = number("latitude"), let longitude = number("longitude") {
                rows["Place"] = String(format: "%.7f, %.7f", latitude, longitude)
            }
            rows["Altitude"] = number("altitude").map { String(format: "%.2f m", $0) }
            for (key, label) in [("make", "Make"), ("model", "Model"), ("lens", "Lens"), ("software", "Software")] {
                rows[label] = metadata[key] as? String
            }
            rows["Exposure"] = (metadata["exposureTime"] as? String).map { $0 + " s" }
            rows["F-number"] = number("fNumber").map { String(format: "f/%.1f", $0) }
            rows["ISO"] = (metadata["iso"] as? Int).map(String.init)
            rows["Focal length"] = number("focalLength").map { String(format: "%.2f mm", $0) }
            rows["Flash"] = (metadata["flash"] as? Int).map { ($0 & 1 == 1 ? "Fired" : "Did not fire") + " (\($0))" }
            return rows
        }

        /// What exiftool says of a file's location (empty when it has none).
        static func location(_ path: String) throws -> String {
            try Subprocess.run("exiftool", ["-gps:all", "-location:all", "-s", path]).stdout
        }

        @Test("--script: each grid item's panel shows the catalogue's values; Export without location writes what the CLI's export --strip-location writes, with no GPS per exiftool")
        func scripted() async throws {
            let folder = TestPaths.scratchFolder("studio-info")
            let (library, items) = try Self.library(in: folder)
            #expect(items.count == 2)
            let run = try await StudioHarness.run([
                "wait library",
                "info 0",
                "wait asset-info",
                "press export-without-location",
                "wait exported-without-location",
                "back",
                "info 1",
                "wait asset-info",
                "press export-without-location",
                "wait exported-without-location",
                "wait toast",
            ], arguments: ["--library", library], in: folder, environment: ["HOME=\(folder.path)", "XDG_CONFIG_HOME=\(folder.path)/config"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let panels = run.events("asset-info")
            #expect(panels.count == 2)
            // The grid is newest first, as list --json.
            for (panel, item) in zip(panels, items) {
                #expect(panel["id"] as? Int == item["id"] as? Int)
                let rows = try #require(panel["rows"] as? [String: String])
                let expected = try Self.expectedRows(item)
                #expect(rows == expected, "\(item["originalFilename"] ?? "")")
                #expect(rows["Place"] != nil && rows["Make"] == "Apple", "the item carries a place and a camera")
            }
            let exported = run.events("exported-without-location")
            #expect(exported.count == 2)
            for (event, item) in zip(exported, items) {
                let path = try #require(event["path"] as? String)
                #expect(path.hasPrefix(folder.appendingPathComponent("Pictures").path) && path.contains("(no location)"), "\(path)")
                #expect(try Self.location(path).isEmpty, "exiftool still sees a location in \(path)")
                let original = try #require(item["path"] as? String)
                #expect(try !Self.location(original).isEmpty)
                // The same flow as the CLI's: byte for byte the same copy.
                let cli = folder.appendingPathComponent("cli-\(item["id"] ?? 0).\((path as NSString).pathExtension)")
                let written = try Subprocess.run(TestPaths.tool, ["library", "--library", library, "export", "\(item["id"] ?? 0)",
                                                                  "--strip-location", "-o", cli.path])
                #expect(written.status == 0, "\(written.stderr)")
                #expect(try Data(contentsOf: cli) == Data(contentsOf: URL(fileURLWithPath: path)))
            }
            #expect(run.events("toast").contains { ($0["title"] as? String)?.hasPrefix("Exported without location as ") == true })
            // Only the exports are in the folder: no temporary left beside them.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Pictures").path).sorted()
            #expect(names.count == 2 && names.allSatisfy { $0.contains("(no location)") }, "\(names)")
        }

        @Test("real input: I on the grid's focused item opens its panel; a click on Export without location writes a copy without GPS")
        func realInput() async throws {
            let folder = TestPaths.scratchFolder("studio-info-xdotool")
            let (library, items) = try Self.library(in: folder)
            let ready = folder.appendingPathComponent("ready.json"), panel = folder.appendingPathComponent("panel.json")
            let run = try await StudioHarness.runInteractive([
                "wait library",
                "wait thumbnail",
                "sleep 0.3",
                "signal \(ready.path) grid",
                "wait asset-info 30",
                "sleep 0.3",
                "signal \(panel.path) export-without-location",
                "wait exported-without-location 60",
                // xdotool is still connected when the export ends: the display stays a moment.
                "sleep 1",
            ], arguments: ["--library", library], in: folder, readyFile: ready,
               environment: ["HOME=\(folder.path)", "XDG_CONFIG_HOME=\(folder.path)/config"]) { signal in
                let grid = try #require(signal["frame"] as? [Double])
                // Keys go to the window under the pointer; the grid has the focus, on its first item.
                try StudioHarness.xdotool(signal, ["mousemove", "\(Int(grid[0] + grid[2] - 20))", "\(Int(grid[1] + grid[3] - 20))",
                                                   "sleep", "0.2", "key", "i", "sleep", "0.2"])
                guard try FileAppears.wait(for: panel, before: Date().addingTimeInterval(30)) else {
                    throw SubprocessError.failed("viewfinder-studio", "the panel never showed")
                }
                let shown = try JSONSerialization.jsonObject(with: Data(contentsOf: panel)) as? [String: Any] ?? [:]
                let button = try #require(shown["frame"] as? [Double])
                try StudioHarness.xdotool(shown, ["mousemove", "\(Int(button[0] + button[2] / 2))", "\(Int(button[1] + button[3] / 2))",
                                                  "sleep", "0.1", "click", "1"])
            }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let info = try run.event("asset-info")
            let first = try #require(items.first)
            #expect(info["id"] as? Int == first["id"] as? Int)
            #expect(info["rows"] as? [String: String] == (try Self.expectedRows(first)))
            #expect(run.run.events("screen").compactMap { $0["name"] as? String } == ["Library", first["originalFilename"] as? String ?? ""])
            let path = try #require(try run.event("exported-without-location")["path"] as? String)
            #expect(try Self.location(path).isEmpty, "exiftool still sees a location in \(path)")
            #expect(try !Self.location(try #require(first["path"] as? String)).isEmpty)
        }
    }
}
