import CVips
import CVipsShim
import Foundation

/// The libvips runtime: started once, on first use.
enum Vips {
    private static let started: Result<Void, ImagingError> = {
        if vf_vips_start("viewfinder") != 0 {
            return .failure(.startFailed(lastError()))
        }
        return .success(())
    }()

    static func start() throws(ImagingError) {
        if case .failure(let error) = started { throw error }
    }

    /// The libvips version this was built against ("8.14.1").
    static let version = VIPS_VERSION

    /// libvips' error text, cleared after reading; one line.
    static func lastError() -> String {
        let text = vf_vips_last_error().map { String(cString: $0) } ?? ""
        vf_vips_clear_error()
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? "unknown libvips error" : line
    }
}

/// Owns one `VipsImage` reference.
final class VipsImageRef {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        vf_vips_unref(pointer)
    }
}
