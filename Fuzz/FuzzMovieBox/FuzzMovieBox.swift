import FuzzSupport
@_spi(Fuzzing) import MediaIO
import ViewfinderCore

/// Any bytes as a movie box's contents: the location editor of exports without location
/// keeps the box's size whatever it reads (sample offsets point past it), and the location
/// scanner that checks its work reads the input and the result to the end. A trap, a leak or
/// a hang is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = Array(UnsafeBufferPointer(start: bytes, count: size))
    let (edited, removed) = FuzzEntry.removeLocation(fromMoviePayload: payload)
    precondition(edited.count == payload.count + 8, "the movie box changed size: \(payload.count + 8) → \(edited.count)")
    coverageHint(removed == 0 ? "none" : "some", among: ["none", "some"])
    let before = LocationScanner.findings(in: Array(edited.prefix(8)) + payload)
    let after = LocationScanner.findings(in: edited)
    coverageHint(before.isEmpty ? "clean" : "located", among: ["clean", "located"])
    coverageHint(after.isEmpty ? "clean" : "located", among: ["clean", "located"])
    // The scanner on the bytes as any file (JPEG, PNG, WebP and box layouts are told by their start).
    _ = LocationScanner.findings(in: payload).map(\.description)
    return 0
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
