import Foundation

// Clips the smart cut's tests share: MediaIO's (the open-GOP slice header rewriter, cover
// attachment) and VideoEditing's (the smart cuts themselves).

extension FixtureSpec {
    /// A clip of `frames` frames encoded with `encode`, and 440 Hz of AAC as long.
    public static func withAAC(_ name: String, frames: Int, rate: String = "30", encode: [String], rotateTag: Int? = nil,
                               container: String = "mp4") -> FixtureSpec {
        let parts = rate.split(separator: "/").compactMap { Double($0) }
        let fps = parts.count == 2 ? parts[0] / parts[1] : (parts.first ?? 30)
        let seconds = String(format: "%.3f", Double(frames) / fps)
        return FixtureSpec(name, frames: frames, rate: rate, encode: encode + ["-c:a", "aac", "-b:a", "96k"], container: container,
                           input: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"],
                           rotateTag: rotateTag)
    }

    /// Open GOPs of 30 (x264 `open-gop`, three B-frames, b-pyramid: a leading B is a
    /// reference picture), 150 frames, CABAC.
    public static let smartOpenLong = withAAC("smart-open-150", frames: 150, encode: x264 + [
        "-bf", "3", "-g", "30", "-sc_threshold", "0", "-x264-params", "open-gop=1:keyint=30:min-keyint=30"])
    /// x264's `medium` preset: three references, weighted P prediction (which lists one
    /// picture twice, the second time a whole turn of picture numbers away), b-adapt 2.
    public static let smartOpenWeighted = withAAC("smart-open-150-medium", frames: 150, encode: x264 + [
        "-preset", "medium", "-bf", "3", "-g", "30", "-sc_threshold", "0",
        "-x264-params", "open-gop=1:keyint=30:min-keyint=30"])
    /// The same with CAVLC, whose slice data follows the header unaligned.
    public static let smartOpenCAVLC = withAAC("smart-open-150-cavlc", frames: 150, encode: x264 + [
        "-bf", "3", "-g", "30", "-sc_threshold", "0", "-x264-params", "open-gop=1:keyint=30:min-keyint=30:cabac=0"])
}
