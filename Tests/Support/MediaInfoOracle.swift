import Foundation

/// MediaInfo (MediaArea's reader, the one many users and support forums ask for) as an
/// independent reader of the containers the engines write.
public enum MediaInfoOracle {
    /// The fields MediaInfo reports for the first video track of `url` (`CodecID`,
    /// `FrameRate_Mode`, `FrameCount`, …), as its JSON output names them.
    public static func videoTrack(of url: URL) throws -> [String: String] {
        let result = try Subprocess.run("mediainfo", ["--Output=JSON", url.path])
        guard result.status == 0, let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
              let media = json["media"] as? [String: Any], let tracks = media["track"] as? [[String: Any]] else {
            throw SubprocessError.failed("mediainfo", result.stderr)
        }
        let video = tracks.first { $0["@type"] as? String == "Video" } ?? [:]
        return video.compactMapValues { $0 as? String }
    }
}
