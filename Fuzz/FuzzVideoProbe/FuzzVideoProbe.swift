import FuzzSupport
import MediaIO

/// The input, written to a file, is probed as the commands do before any decoding: the
/// readability check, the header-only duration (`--max-duration`) and the full probe (`info`).
/// Each returns or throws a `MediaIOError`; a trap, a leak or a hang is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard scratch.write(bytes, size) else { return 0 }
    do {
        _ = try checkReadableMediaFile(scratch.url)
        let duration = try headerDuration(of: scratch.url)
        coverageHint(duration == nil ? "none" : "some", among: ["none", "some"])
    } catch {
        coverageHint(caseName(error), among: errors)
        _ = error.description
    }
    do {
        let info = try probeMedia(at: scratch.url)
        coverageHint(info.container, among: containers)
        coverageHint(info.video?.codec, among: codecs)
        coverageHint(info.audioCodec, among: codecs)
        coverageHint(info.video.map { "\($0.rotation.rawValue)" }, among: ["0", "90", "180", "270"])
        // What `info` prints: the derived sizes do arithmetic on header numbers.
        _ = info.video?.displaySize
        _ = info.duration.seconds
    } catch {
        coverageHint(caseName(error), among: errors)
        _ = error.description
    }
    return 0
}

// Without instrumented FFmpeg, libFuzzer tells formats apart only by these branches (see
// `coverageHint`).
private let containers = ["mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi", "mpegts", "gif", "image2", "mpeg",
                          "flv", "ogg", "asf", "wav", "mp3", "aac", "h264", "hevc", "ivf"]
private let codecs = ["h264", "hevc", "vp9", "vp8", "av1", "mpeg4", "mjpeg", "mpeg2video", "png", "gif", "aac",
                      "mp3", "opus", "vorbis", "pcm_s16le", "flac"]
private let errors = ["notMedia", "corrupt", "unknownDuration", "noVideoStream", "unreadable", "emptyFile",
                      "dimensionsTooLarge", "unsupportedCodec", "stillImage"]

private let scratch = FuzzScratchFile("FuzzVideoProbe")

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
