import Foundation

/// The outcome of running a program.
public struct RunResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let stdoutData: Data
}

/// Runs programs for the tests (the tool under test, and ffmpeg/ffprobe as an oracle).
public enum Subprocess {
    /// Runs `executable` with `arguments` and waits, with a time limit that turns a hang into a
    /// test failure instead of a stuck run.
    public static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 120) throws -> RunResult {
        try start(executable, arguments).finish(timeout: timeout)
    }

    /// Starts `executable` and returns at once; `finish` collects what it printed. For tests
    /// that act on a program while it runs.
    public static func start(_ executable: URL, _ arguments: [String]) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, out: out, err: err)
    }

    /// Runs a program found on PATH.
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> RunResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, timeout: timeout)
    }
}

/// A program started by `Subprocess.start`. Both pipes are drained concurrently from the
/// start, so a chatty child never blocks on a full pipe.
public final class RunningProcess: @unchecked Sendable {
    private let process: Process
    private let group = DispatchGroup()
    private var outData = Data(), errData = Data()

    init(process: Process, out: Pipe, err: Pipe) {
        self.process = process
        group.enter()
        DispatchQueue.global().async { self.outData = out.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
        group.enter()
        DispatchQueue.global().async { self.errData = err.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }
    }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// Waits for it to end, with a time limit that turns a hang into a test failure (the
    /// program is terminated then).
    public func finish(timeout: TimeInterval) throws -> RunResult {
        let name = process.executableURL?.lastPathComponent ?? "program"
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw SubprocessError.timedOut(name, process.arguments ?? [])
        }
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         stdoutData: outData)
    }

    /// Stops it if it still runs.
    public func terminate() {
        if process.isRunning { process.terminate() }
    }
}

public enum SubprocessError: Error, CustomStringConvertible {
    case timedOut(String, [String])
    case failed(String, String)

    public var description: String {
        switch self {
        case .timedOut(let name, let arguments): return "\(name) \(arguments.joined(separator: " ")) timed out"
        case .failed(let name, let stderr): return "\(name) failed: \(stderr)"
        }
    }
}
