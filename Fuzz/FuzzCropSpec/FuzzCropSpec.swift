import Foundation
import FuzzSupport
import ViewfinderCore

/// Any bytes are either a valid crop spec or a `CropSpecError`; a trap is a bug. A spec that
/// validates must survive its own JSON (`--print-spec` then `--spec` replays the same crop).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let spec = try CropSpec.parse(FuzzInput.data(bytes, size))
        let again = try? CropSpec.parse(Data(spec.json().utf8))
        precondition(again != nil, "a valid spec's JSON does not read back: \(spec.json())")
    } catch {
        _ = error.description
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
