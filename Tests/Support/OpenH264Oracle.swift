import Foundation
import ViewfinderCore

/// Cisco's openh264 as a decoder of what the engines write, run by the project's own driver
/// (`Tests/Oracles/openh264-decode.c`, built by `scripts/install-oracles` with `make test`) on
/// the byte stream GStreamer's demuxer and parser make of a file, the way GStreamer's
/// openh264dec drives it, with either of two libraries.
public enum OpenH264Oracle {
    /// Which openh264 decodes.
    public enum Library: String, Sendable, CustomStringConvertible {
        /// Debian 12's openh264 2.3.1, the one GStreamer's openh264dec loads. At an IDR it lets
        /// a reference picture still waiting to be shown be over-written, and sorts pictures
        /// of two short sequences together (fixed in 2.4.1, openh264 #3707): even x264's own
        /// closed-GOP files come out with a frame replaced.
        case debian
        /// A later openh264 (Debian trixie's, 2.4.1 or newer), unpacked by
        /// `scripts/install-oracles`: the decoder a player of today has.
        case current

        public var description: String {
            switch self {
            case .debian: "openh264 2.3.1 (Debian 12)"
            case .current: "openh264 \(Self.currentVersion) (Debian trixie)"
            }
        }

        /// What the driver loads: the system's library by its name, or the unpacked one by path.
        var loadName: String {
            switch self {
            case .debian: "libopenh264.so.7"
            case .current: OpenH264Oracle.folder.appendingPathComponent("openh264-current/libopenh264.so").path
            }
        }

        private static var currentVersion: String {
            let file = OpenH264Oracle.folder.appendingPathComponent("openh264-current/VERSION")
            return (try? String(contentsOf: file, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        }
    }

    static let folder = TestPaths.repository.appendingPathComponent(".build/oracles")

    /// The index each frame of `url`'s H.264 video draws (nil where it cannot be read), in the
    /// order `library` outputs them.
    public static func drawnIndices(of url: URL, size: PixelSize, library: Library) throws -> [Int?] {
        let program = folder.appendingPathComponent("openh264-decode")
        for needed in [program.path, library.loadName] where needed.hasPrefix("/") && !FileManager.default.fileExists(atPath: needed) {
            throw SubprocessError.failed("openh264-decode", "\(needed) is missing: run scripts/install-oracles (make test does)")
        }
        return try GStreamerOracle.decodeByteStream(of: url, parser: "h264parse", caps: "video/x-h264") { stream, _ in
            let decode = try Subprocess.run(program.path, [library.loadName, stream.path])
            guard decode.status == 0 else { throw SubprocessError.failed("openh264-decode (\(library))", decode.stderr) }
            return try GStreamerOracle.drawnIndices(planar: [UInt8](decode.stdoutData), size: size, bitDepth: 8,
                                                    decoder: "openh264-decode (\(library))")
        }
    }
}
