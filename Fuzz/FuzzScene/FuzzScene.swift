import FuzzSupport
import Motion

/// Any bytes are either a scene or a thrown error; a trap, a hang or a leak is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        _ = try Scene.parse(FuzzInput.data(bytes, size))
    } catch {
        _ = "\(error)"
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
