#if FUZZING
import CLibFuzzer
#endif
import Foundation

/// A fuzz target's body: called with each input, returns 0 (libFuzzer reserves other values).
public typealias FuzzBody = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

/// What the fuzz targets share: their main, and reading libFuzzer's bytes.
public enum FuzzInput {
    /// The program: built with -DFUZZING (and -sanitize=fuzzer), libFuzzer runs `body` with
    /// its options and corpus folders from the command line; otherwise each file named on the
    /// command line is run once, so a crash reproduces in a normal build, under the debugger:
    /// `.build/debug/FuzzTime Fuzz/crashes/FuzzTime/crash-…`.
    public static func run(_ body: FuzzBody) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, body))
        #else
        replay(body)
        #endif
    }

    /// libFuzzer's input as `Data` (an empty input has no valid pointer to copy from).
    public static func data(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Data {
        size > 0 ? Data(bytes: bytes, count: size) : Data()
    }

    /// libFuzzer's input as text; invalid UTF-8 is repaired, as a terminal or a file reader would.
    public static func text(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
    }

    /// Runs `body` once on each file named on the command line, the way libFuzzer replays
    /// inputs, then exits: 0 when every file was read, 1 otherwise, 2 without files.
    private static func replay(_ body: FuzzBody) -> Never {
        let arguments = CommandLine.arguments.dropFirst()
        guard !arguments.isEmpty else {
            let tool = CommandLine.arguments.first ?? "fuzz-target"
            FileHandle.standardError.write(Data("usage: \(tool) INPUT...\n(built without -DFUZZING, it runs each input once)\n".utf8))
            exit(2)
        }
        var status: Int32 = 0
        for path in arguments {
            guard let input = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                status = 1
                continue
            }
            // One byte more than the input, so even an empty input gets a valid pointer, as
            // libFuzzer gives one.
            let bytes = [UInt8](input) + [0]
            _ = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { body($0, input.count) }
            }
            print("ran \(path) (\(input.count) bytes)")
        }
        exit(status)
    }
}

/// The one file a probing target writes each input to, because the probes read paths, not
/// memory. It is per process, so parallel fuzzing jobs (`-jobs=N`) do not share it; `make fuzz`
/// points TMPDIR inside the build folder so it never litters /tmp.
public struct FuzzScratchFile: Sendable {
    /// Where the input is written.
    public let url: URL

    /// A scratch file named after `target`, with `pathExtension` if the probe looks at it.
    public init(_ target: String, pathExtension: String = "") {
        let name = "\(target)-\(ProcessInfo.processInfo.processIdentifier)"
        var url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        if !pathExtension.isEmpty { url.appendPathExtension(pathExtension) }
        self.url = url
    }

    /// Replaces the file's contents with `bytes`; false if the file could not be written (then
    /// the input is skipped: a full disk is not a bug in the probe).
    public func write(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Bool {
        do {
            try FuzzInput.data(bytes, size).write(to: url)
            return true
        } catch {
            return false
        }
    }
}

/// Tells libFuzzer which of `names` a value is.
///
/// libFuzzer keeps an input only when it reaches new code, and the C libraries behind the probes
/// (FFmpeg, libvips) are not instrumented: a PNG and a JPEG take the same Swift path, so it would
/// keep one and drop the other seed. A distinct branch per name keeps one input per format, codec
/// or error. Names past the sixteenth share the last branch.
public func coverageHint(_ value: String?, among names: [String]) {
    guard let value, let index = names.firstIndex(of: value) else { return branch(-1) }
    switch index {
    case 0: branch(0)
    case 1: branch(1)
    case 2: branch(2)
    case 3: branch(3)
    case 4: branch(4)
    case 5: branch(5)
    case 6: branch(6)
    case 7: branch(7)
    case 8: branch(8)
    case 9: branch(9)
    case 10: branch(10)
    case 11: branch(11)
    case 12: branch(12)
    case 13: branch(13)
    case 14: branch(14)
    default: branch(15)
    }
}

/// The case of an enum value with a payload (`notMedia` for `.notMedia(path: …)`), for
/// `coverageHint`.
public func caseName(_ value: some Any) -> String? {
    Mirror(reflecting: value).children.first?.label
}

/// One basic block per call site above; never inlined, so none of them is folded away.
@inline(never)
private func branch(_ index: Int) {
    _ = index
}
