import Foundation
import FuzzSupport
import MediaIO
import ViewfinderCore

/// Any bytes as the cover art an export attaches: its first bytes give the picture's size and
/// format and whether it is ready or arrives late (made while the video is copied, the packet
/// written just before the trailer), the rest are the picture. A tiny clip made once by our own
/// writer is copied with it. Each export succeeds or throws a `MediaIOError`, and leaves no
/// partial file; a trap, a leak or a hang is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 5, let clip else { return 0 }
    let input = Array(UnsafeBufferPointer(start: bytes, count: size))
    let width = Int(input[0]) << 4 | Int(input[1] >> 4)
    let height = Int(input[1] & 0x0F) << 8 | Int(input[2])
    let format: CoverArt.Format = input[3] & 1 == 0 ? .jpeg : .png
    let late = input[3] & 2 != 0
    let fails = input[3] & 4 != 0
    let art = CoverArt(data: Data(input[4...]), format: format, size: PixelSize(width: width, height: height))
    struct Refused: Error {}
    let attachment = late
        ? CoverAttachment(format: format) { () throws -> CoverArt in
            if fails { throw Refused() }
            return art
        }
        : CoverAttachment(art)
    var settings = ExportSettings(preset: .passthrough)
    settings.cover = attachment
    do {
        try VideoExporter(input: clip, output: output, settings: settings).run()
        coverageHint("written", among: ["written", "refused"])
    } catch {
        coverageHint("refused", among: ["written", "refused"])
        _ = error.description
    }
    return 0
}

private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("FuzzCoverPacket-\(ProcessInfo.processInfo.processIdentifier)")
private let output = folder.appendingPathComponent("out.mp4")

/// A 4-frame 32×32 clip, written once by `VideoWriter`.
private let clip: URL? = {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("clip.mp4")
    guard let writer = try? VideoWriter(url: url, size: PixelSize(width: 32, height: 32), framesPerSecond: 10) else { return nil }
    for i in 0..<4 { try? writer.append(PixelBuffer(width: 32, height: 32, fill: RGB(UInt8(i * 60), 90, 200))) }
    return (try? writer.finish()) == nil ? nil : url
}()

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
