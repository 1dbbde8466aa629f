import Foundation
import Testing
import ViewfinderCore

/// The outcome of running a program.
public struct RunResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
    public let stdoutData: Data

    /// The same output with another exit status (a wrapper's report of the program it ran).
    public func withStatus(_ status: Int32) -> RunResult {
        RunResult(status: status, stdout: stdout, stderr: stderr, stdoutData: stdoutData)
    }
}

/// Runs programs for the tests (the tool under test, and ffmpeg/ffprobe as an oracle).
public enum Subprocess {
    /// Runs `executable` with `arguments` and waits, with a time limit that turns a hang into a
    /// test failure instead of a stuck run.
    public static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 120,
                           environment: [String: String] = [:]) throws -> RunResult {
        try start(executable, arguments, environment: environment).finish(timeout: timeout)
    }

    /// Starts `executable` and returns at once; `finish` collects what it printed. For tests
    /// that act on a program while it runs.
    /// `environment` adds to (or replaces entries of) the test's own environment.
    public static func start(_ executable: URL, _ arguments: [String],
                             environment: [String: String] = [:]) throws -> RunningProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // English unless a test names a language (TestLanguages), whatever the machine's locale.
        process.environment = ProcessInfo.processInfo.environment.merging(TestLanguages.english) { $1 }.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningProcess(process: process, out: out, err: err)
    }

    /// Runs blocking `work` on a thread of its own and waits for it without holding a thread
    /// of Swift's cooperative pool (two on a 2-core machine): long subprocess waits there
    /// starve every other suite, and time-sensitive tests fail.
    ///
    /// A `#require` that fails on that thread records its issue outside any test (task-locals
    /// do not reach the thread: the run fails, but as «unknown») and throws an error Swift
    /// Testing treats as already recorded, so the test itself would pass. That error comes back
    /// as a plain one, which fails the test it belongs to as well.
    public static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await BlockingWork.run(named: "test-subprocess") { Result { try work() } }.get()
        } catch let error as ExpectationFailedError {
            throw FailedOffThePool(description: "a requirement failed off the pool at \(error.expectation.sourceLocation) (its issue is recorded above, outside any test)")
        }
    }

    /// A requirement that failed on a thread of its own (see `offThePool`).
    public struct FailedOffThePool: Error, CustomStringConvertible {
        public let description: String
    }

    /// `run` for async tests, waiting off the cooperative pool. At most four such programs run
    /// at once: without the pool's two threads as a brake, a parameterized test would start
    /// all its cases' programs together.
    public static func runOffPool(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 120) async throws -> RunResult {
        try await offThePool {
            concurrentPrograms.wait()
            defer { concurrentPrograms.signal() }
            return try run(executable, arguments, timeout: timeout)
        }
    }

    private static let concurrentPrograms = DispatchSemaphore(value: 4)

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
        // Threads of their own, not dispatch's global queue: on Linux that queue's threads also
        // run Swift's tasks, and a read blocked for a program's whole run would hold one.
        group.enter()
        Thread { self.outData = out.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }.start()
        group.enter()
        Thread { self.errData = err.fileHandleForReading.readDataToEndOfFile(); self.group.leave() }.start()
    }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// Its process id.
    public var processID: pid_t { process.processIdentifier }

    /// Waits for it to end, with a time limit that turns a hang into a test failure (the
    /// program is terminated then).
    public func finish(timeout: TimeInterval) throws -> RunResult {
        let name = process.executableURL?.lastPathComponent ?? "program"
        let deadline = Date().addingTimeInterval(timeout)
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            throw SubprocessError.timedOut(name, process.arguments ?? [])
        }
        guard let status = exitStatus(before: deadline) else {
            process.terminate()
            throw SubprocessError.timedOut(name, process.arguments ?? [])
        }
        return RunResult(status: status,
                         stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self),
                         stdoutData: outData)
    }

    /// Its exit status once it has ended, nil when it still runs at `deadline`.
    ///
    /// Not `Process.waitUntilExit()`: beside a CPU hog, Foundation once never noticed an
    /// `xvfb-run` that had exited (a zombie nobody reaped, the test run stuck for good after
    /// every other test had finished). So the child's end is also read here with `waitid`,
    /// leaving it for Foundation to reap (`WNOWAIT`); an exit by a signal reads as the signal's
    /// number, as `terminationStatus` has it.
    private func exitStatus(before deadline: Date) -> Int32? {
        let pid = process.processIdentifier
        return Poll.value(deadline: deadline, every: 0.005) { () -> Int32? in
            if !process.isRunning { return process.terminationStatus }
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._kill.si_pid == pid {
                return info._sifields._sigchld.si_status
            }
            // Still running, or reaped by Foundation a moment ago: `isRunning` follows.
            return nil
        }
    }

    /// Sends it SIGINT, as Ctrl-C in a terminal does.
    public func interrupt() {
        if process.isRunning { process.interrupt() }
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
