internal import CCrypto
import Foundation

/// SHA-256 of a stream of bytes, computed by OpenSSL's libcrypto (which uses the processor's
/// SHA extensions where it has them: about 7× the speed of a portable implementation on this
/// project's machines). The library names every original by it.
///
/// Not copyable: the hasher owns one OpenSSL context and frees it when it goes.
public struct SHA256: ~Copyable, @unchecked Sendable {
    private let context: OpaquePointer

    /// A hasher with nothing fed yet.
    public init() {
        // EVP_MD_CTX_new fails only when memory is exhausted, where nothing else could go on.
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Feeds `bytes`.
    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let fed = bytes.withContiguousStorageIfAvailable { buffer in
            EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
        if fed == nil {
            let copy = Array(bytes)
            copy.withUnsafeBufferPointer { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
    }

    /// Feeds `data`.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The digest of everything fed, as 64 lower-case hexadecimal digits.
    public consuming func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    /// The digest of `bytes` in one call.
    public static func hex<Bytes: Collection>(of bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
