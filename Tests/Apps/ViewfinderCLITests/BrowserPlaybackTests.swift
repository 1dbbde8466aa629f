import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// Trim outputs played by a real browser (headless Chromium from Debian): the frame it shows at
/// the start, on both sides of every join between stretches and ranges, and at the end must be
/// the expected source frame. H.264 only: Debian's Chromium has no HEVC decoder (`hevcUnsupported`
/// below checks that this is still so).
@Suite("Browser playback", .serialized)
struct BrowserPlaybackTests {
    /// Trims with `arguments`, then reads the frames Chromium shows around every boundary.
    func check(_ arguments: [String], expected: [Int], label: String) throws {
        try #require(BrowserOracle.isInstalled, "chromium is not installed: scripts/install-deps puts it in the test packages")
        let fixture = try FixtureFactory.shared.fixture(SmartTrimCommandTests.clip)
        let out = TestPaths.scratchFolder("browser-trim").appendingPathComponent("out.mp4")
        let result = try viewfinder(["trim", fixture.url.path] + arguments + ["-o", out.path, "--json", "-q"])
        #expect(result.status == 0, "\(label): \(result.stderr)")
        let json = try #require(jsonObject(result))
        // Output frame numbers where a stretch (or a range) begins.
        var boundaries: [Int] = []
        var at = 0
        for part in json["parts"] as? [[String: Any]] ?? [] {
            boundaries.append(at)
            at += part["frames"] as? Int ?? 0
        }
        if boundaries.isEmpty { boundaries = [0] }
        var frames = Set([0, expected.count - 1])
        for b in boundaries where b > 0 { frames.formUnion([b - 1, b]) }
        for join in joins(expected) { frames.formUnion([join - 1, join]) }
        let probe = frames.sorted()
        let shown = try BrowserOracle.indices(of: out, at: probe.map { (Double($0) + 0.5) / 30 }, frameDuration: 1.0 / 30)
        #expect(shown == probe.map { expected[$0] }, "\(label) at output frames \(probe): \(json["parts"] ?? "")")
    }

    /// Output frames where the source index jumps (the joins between ranges).
    func joins(_ expected: [Int]) -> [Int] {
        expected.indices.dropFirst().filter { expected[$0] != expected[$0 - 1] + 1 }
    }

    @Test("a smart cut plays frame-exactly at its start, its joins and its end")
    func smartCut() throws {
        try check(["--from", "1.5", "--to", "8.2"], expected: Array(45..<246), label: "smart")
    }

    @Test("two ranges joined by a smart cut play frame-exactly")
    func smartJoin() throws {
        try check(["--keep", "1.5-4.1", "--keep", "7.25-9"], expected: Array(45..<123) + Array(217..<270), label: "join")
    }

    @Test("the full re-encode plays frame-exactly too, one range and two")
    func reencode() throws {
        try check(["--from", "1.5", "--to", "8.2", "--method", "reencode"], expected: Array(45..<246), label: "reencode")
        try check(["--keep", "1.5-4.1", "--keep", "7.25-9", "--method", "reencode"], expected: Array(45..<123) + Array(217..<270),
                  label: "reencode join")
    }

    @Test("Debian's Chromium cannot play HEVC at all, so no browser test of HEVC output exists; H.264 it can")
    func hevcUnsupported() throws {
        try #require(BrowserOracle.isInstalled, "chromium is not installed: scripts/install-deps puts it in the test packages")
        let answers = try BrowserOracle.canPlay(["video/mp4; codecs=\"hvc1.1.6.L93.B0\"", "video/mp4; codecs=\"hev1.1.6.L93.B0\"",
                                                 "video/mp4; codecs=\"avc1.64001e\""])
        #expect(answers == ["", "", "probably"], "if Chromium gains HEVC, add an HEVC browser test: \(answers)")
    }
}
