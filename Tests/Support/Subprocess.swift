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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw SubprocessError.timedOut(executable.lastPathComponent, arguments)
        }
        process.waitUntilExit()
        return RunResult(status: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         stdoutData: outData)
    }

    /// Runs a program found on PATH.
    public static func run(_ name: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> RunResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, timeout: timeout)
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
