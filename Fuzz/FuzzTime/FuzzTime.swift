import FuzzSupport
import ViewfinderCore

/// Any text is either a position or a `TimeParseError`; a trap is a bug. The position's own
/// text is read again too, as a user would type back what the tool printed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        let position = try TimePosition(parsing: FuzzInput.text(bytes, size))
        _ = try? TimePosition(parsing: position.description)
    } catch {
        _ = error.description
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzInput.run(fuzz) }
}
