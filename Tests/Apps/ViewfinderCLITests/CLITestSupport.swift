import Foundation
import ViewfinderCore
import ViewfinderTestSupport

/// Runs the built `viewfinder` tool.
func viewfinder(_ arguments: String...) throws -> RunResult {
    try Subprocess.run(TestPaths.tool, arguments, timeout: 120)
}

/// Runs the built `viewfinder` tool; a run longer than `timeout` seconds is a failure (a hang).
func viewfinder(_ arguments: [String], timeout: TimeInterval = 120) throws -> RunResult {
    try Subprocess.run(TestPaths.tool, arguments, timeout: timeout)
}

/// Runs the built `viewfinder` tool from an async test, without holding a cooperative thread.
func viewfinderOffPool(_ arguments: String...) async throws -> RunResult {
    try await Subprocess.runOffPool(TestPaths.tool, arguments, timeout: 120)
}

/// Decodes an image file to RGB with the ffmpeg CLI (an independent decoder).
func decodeImage(_ url: URL) throws -> PixelBuffer? {
    let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path])
    let sides = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    guard sides.count == 2 else { return nil }
    let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    return PixelBuffer(width: sides[0], height: sides[1], bytes: [UInt8](raw.stdoutData))
}

/// Parses a JSON object printed on stdout.
func jsonObject(_ result: RunResult) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: result.stdoutData)) as? [String: Any]
}

/// Files left in `folder` (hidden partial files included).
func leftovers(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}
