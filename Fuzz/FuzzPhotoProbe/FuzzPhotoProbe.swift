import FuzzSupport
import Imaging

/// The input, written to a file, is probed the way the library importer and `avatar` look at a
/// photo before decoding it: libvips' loader by content, then the header (size, orientation,
/// EXIF date). Each returns, returns nil or throws an `ImagingError`; a trap, a leak or a hang is
/// a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard scratch.write(bytes, size) else { return 0 }
    do {
        let info = try ImageInfo.probe(scratch.url)
        coverageHint(info?.format, among: formats)
        coverageHint(info.map { "\($0.orientation)" }, among: (1...8).map(String.init))
        coverageHint(info.map { "\($0.bands)" }, among: (1...5).map(String.init))
        coverageHint(info?.creationDate == nil ? nil : "dated", among: ["dated"])
        _ = info?.displaySize
    } catch {
        coverageHint(caseName(error), among: ["unreadable", "startFailed"])
        _ = error.description
    }
    return 0
}

/// libvips' native loaders, named as `ImageInfo.format` names them.
private let formats = ["jpeg", "png", "webp", "gif", "tiff", "heif", "svg", "pdf", "jp2k", "jxl", "ppm", "vips",
                       "matrix", "rad", "fits", "openexr"]

private let scratch = FuzzScratchFile("FuzzPhotoProbe")

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
