import FuzzSupport
@_spi(Fuzzing) import MediaIO

/// Any bytes as an `avcC` or `hvcC` record and as packets of NAL units, read as a smart cut
/// reads a source's: every length and count comes from the input. A trap, a leak or a hang is
/// a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let found = FuzzEntry.readParameterSets(Array(UnsafeBufferPointer(start: bytes, count: size)))
    coverageHint(found == 0 ? "none" : found < 4 ? "few" : "many", among: ["none", "few", "many"])
    return 0
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
