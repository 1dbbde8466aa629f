import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// One run of `viewfinder-studio` under a virtual X display, driven by a script.
struct StudioRun: @unchecked Sendable {
    let status: Int32
    let events: [[String: Any]]
    let stderr: String
    let stdout: String

    /// Every event called `name`, in order.
    func events(_ name: String) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    /// The first event called `name`, or a test failure.
    func event(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(events(name).first, "no '\(name)' event; stderr: \(stderr)", sourceLocation: sourceLocation)
    }

    /// The frame-clock time of an event.
    static func time(_ event: [String: Any]) -> Double { event["t"] as? Double ?? .nan }
}

/// A run and what the test's interaction with it returned.
@dynamicMemberLookup
struct StudioRunWith<Value: Sendable>: Sendable {
    let run: StudioRun
    let interaction: Value

    subscript<T>(dynamicMember keyPath: KeyPath<StudioRun, T>) -> T { run[keyPath: keyPath] }

    func event(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try run.event(name, sourceLocation: sourceLocation)
    }
}

/// Runs the app the way a desktop would, but on Xvfb (`xvfb-run -a`) with GTK's Cairo renderer,
/// so the screenshots are made by the same code on every machine.
enum StudioHarness {
    /// Whether `program` is an executable on PATH.
    static func onPath(_ program: String) -> Bool {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// The GUI tests need a display, which xvfb-run makes. `make test` installs xvfb (through
    /// scripts/install-deps); without it the tests fail with the reason below, never skip.
    static let available = onPath("xvfb-run")
    static let unavailableReason = "xvfb-run is not on PATH (apt-get install xvfb), so no display can be made for the GTK tests"

    /// The real-input tests send X events with xdotool, which `make test` installs too; without
    /// it they fail with the reason below.
    static let hasXdotool = onPath("xdotool")
    static let noXdotoolReason = "xdotool is not on PATH (apt-get install xdotool), so no real X input can be sent"

    /// Runs the app with `arguments` and the script `lines`; returns its events. The wait
    /// happens on a thread of its own: a run lasts seconds, and blocking one of the two
    /// cooperative threads that long starves every other suite (time-sensitive ones fail).
    static func run(_ lines: [String], arguments: [String], in folder: URL, timeout: TimeInterval = 180,
                    environment: [String] = []) async throws -> StudioRun {
        try #require(available, "\(unavailableReason)")
        return try await offThePool {
            try parse(launch(lines, arguments: arguments, in: folder, environment: environment).finish(timeout: timeout))
        }
    }

    /// Runs blocking `work` off the cooperative pool (see `Subprocess.offThePool`).
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await Subprocess.offThePool(work)
    }

    /// The app running under xvfb-run. xvfb-run's exit status is the app's only until its own
    /// clean-up fails (it exits 5 when it cannot remove its temporary folder), so the app's status
    /// is written to a file of its own by a shell between xvfb-run and the app, and read from there.
    struct Launched {
        let process: RunningProcess
        let statusFile: URL

        var isRunning: Bool { process.isRunning }
        func terminate() { process.terminate() }

        /// The run's output with the app's own exit status (xvfb-run's when the app never ran).
        func finish(timeout: TimeInterval) throws -> RunResult {
            let result = try process.finish(timeout: timeout)
            let written = (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return written.map(result.withStatus) ?? result
        }
    }

    /// Starts the app under `xvfb-run -a` with GTK's Cairo renderer playing the script `lines`.
    /// `wrapper` runs the app (strace and its options, say), inside the display.
    private static func launch(_ lines: [String], arguments: [String], in folder: URL, environment: [String] = [],
                               wrapper: [String] = []) throws -> Launched {
        let tag = UUID().uuidString.prefix(6)
        let script = folder.appendingPathComponent("script-\(tag).txt")
        let statusFile = folder.appendingPathComponent("status-\(tag).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        let process = try Subprocess.start(URL(fileURLWithPath: "/usr/bin/env"), [
            // A fixed theme: the desktop (as libadwaita sees it) prefers light unless a test says.
            "GSK_RENDERER=cairo", "GDK_BACKEND=x11", "NO_AT_BRIDGE=1", "GTK_A11Y=none", "ADW_DEBUG_COLOR_SCHEME=prefer-light",
            "XDG_CACHE_HOME=\(folder.appendingPathComponent("cache").path)",
        ] + environment + [
            "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
            "/bin/sh", "-c", "file=$1; shift; \"$@\"; status=$?; echo $status >\"$file\"; exit $status", "sh", statusFile.path,
        ] + wrapper + [
            TestPaths.studio.path,
        ] + arguments + ["--script", script.path])
        return Launched(process: process, statusFile: statusFile)
    }

    /// Runs `viewfinder-studio pick …` (`arguments` start with `pick`) driven by the script
    /// `lines`, as another program would: stdout is the result alone, the events are on stderr.
    static func pick(_ lines: [String], arguments: [String], in folder: URL, timeout: TimeInterval = 180,
                     environment: [String] = [], wrapper: [String] = []) async throws -> StudioRun {
        try #require(available, "\(unavailableReason)")
        return try await offThePool {
            try parse(launch(lines, arguments: arguments, in: folder, environment: environment, wrapper: wrapper).finish(timeout: timeout),
                      eventsOnStderr: true)
        }
    }

    /// The events the app printed, one JSON object per line.
    private static func parse(_ result: RunResult, eventsOnStderr: Bool = false) -> StudioRun {
        let events = (eventsOnStderr ? result.stderr : result.stdout).split(separator: "\n").compactMap { line -> [String: Any]? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        return StudioRun(status: result.status, events: events, stderr: result.stderr, stdout: result.stdout)
    }

    /// Runs the app like `run`, but while it runs: waits for the script to write `readyFile`
    /// (its `signal` step), calls `interact` with what it wrote (the display, where a part is),
    /// and lets the script go on once `interact` returns.
    static func runInteractive<Value: Sendable>(_ lines: [String], arguments: [String], in folder: URL, readyFile: URL,
                                                timeout: TimeInterval = 120, pick: Bool = false, environment: [String] = [],
                                                interact: @escaping @Sendable ([String: Any]) throws -> Value) async throws -> StudioRunWith<Value> {
        try #require(available, "\(unavailableReason)")
        try #require(hasXdotool, "\(noXdotoolReason)")
        return try await offThePool { try runInteractiveBlocking(lines, arguments: arguments, in: folder, readyFile: readyFile,
                                                          timeout: timeout, pick: pick, environment: environment, interact: interact) }
    }

    private static func runInteractiveBlocking<Value: Sendable>(_ lines: [String], arguments: [String], in folder: URL, readyFile: URL,
                                                                timeout: TimeInterval, pick: Bool, environment: [String],
                                                                interact: ([String: Any]) throws -> Value) throws -> StudioRunWith<Value> {
        let process = try launch(lines, arguments: arguments, in: folder, environment: environment)
        defer { process.terminate() }
        let deadline = Date().addingTimeInterval(timeout)
        let ready = Poll.until(deadline: deadline, every: 0.05) {
            FileManager.default.fileExists(atPath: readyFile.path) || !process.isRunning
        }
        guard ready, FileManager.default.fileExists(atPath: readyFile.path) else {
            throw SubprocessError.failed("viewfinder-studio", "never signalled \(readyFile.lastPathComponent)")
        }
        let signal = try JSONSerialization.jsonObject(with: Data(contentsOf: readyFile)) as? [String: Any] ?? [:]
        let value = try interact(signal)
        let result = try process.finish(timeout: max(1, deadline.timeIntervalSinceNow))
        return StudioRunWith(run: parse(result, eventsOnStderr: pick), interaction: value)
    }

    /// Sends X input with xdotool to the display a `signal` step reported.
    static func xdotool(_ signal: [String: Any], _ steps: [String]) throws {
        let display = signal["display"] as? String ?? ""
        let authority = signal["xauthority"] as? String ?? ""
        let sent = try Subprocess.run("env", ["DISPLAY=\(display)", "XAUTHORITY=\(authority)", "xdotool"] + steps)
        guard sent.status == 0 else { throw SubprocessError.failed("xdotool", sent.stderr) }
    }

    /// xdotool steps for a left-button drag from one screen point to another in `steps` moves,
    /// with pauses GTK needs to see a press, motion, and a release.
    static func drag(from start: (Int, Int), to end: (Int, Int), steps: Int) -> [String] {
        var sequence = ["mousemove", "\(start.0)", "\(start.1)", "sleep", "0.2", "mousedown", "1"]
        for i in 1...max(1, steps) {
            let f = Double(i) / Double(max(1, steps))
            let x = start.0 + Int((Double(end.0 - start.0) * f).rounded()), y = start.1 + Int((Double(end.1 - start.1) * f).rounded())
            sequence += ["mousemove", "\(x)", "\(y)", "sleep", "0.04"]
        }
        return sequence + ["sleep", "0.2", "mouseup", "1", "sleep", "0.2"]
    }

    /// Whether a render of the HUD overlay alone (`screenshot PATH hud`) shows the box: its
    /// middle is opaque. With the HUD hidden the overlay draws nothing at all.
    static func showsHUDBox(_ render: URL) throws -> Bool {
        let image = try pixels(of: render)
        guard image.channels == 4 else { return false }
        let middle = image[image.width / 2, image.height / 2]
        return middle[middle.startIndex + 3] == 255
    }

    /// Whether a render of the HUD overlay alone is fully transparent.
    static func isEmptyOverlay(_ render: URL) throws -> Bool {
        let image = try pixels(of: render)
        return image.channels == 4 && stride(from: 3, to: image.bytes.count, by: 4).allSatisfy { image.bytes[$0] == 0 }
    }

    /// A copy of a corpus file in `folder` (the app writes its results beside what it opened,
    /// and the shared corpus must stay untouched).
    static func copy(media path: String, to folder: URL, as name: String) throws -> URL {
        let copy = folder.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPaths.media.appendingPathComponent(path), to: copy)
        return copy
    }

    /// Whether `avatar` is byte for byte what the CLI writes when it replays `spec` (a crop
    /// spec's JSON) on `photo`: the spec file and the replay go into `folder`.
    static func matchesReplay(_ avatar: URL, photo: URL, spec: Data, in folder: URL) throws -> Bool {
        let specFile = folder.appendingPathComponent("replayed-spec.json")
        try spec.write(to: specFile)
        let replay = folder.appendingPathComponent("replay.png")
        let cli = try Subprocess.run(TestPaths.tool, ["avatar", photo.path, "--spec", specFile.path, "-o", replay.path])
        try #require(cli.status == 0, "the CLI's replay failed: \(cli.stderr)")
        return try Data(contentsOf: avatar) == Data(contentsOf: replay)
    }

    /// Reads a screenshot (or any PNG) at its own size.
    static func pixels(of url: URL) throws -> RasterImage {
        let photo = try Photo(url: url)
        return try photo.preview(fitting: photo.size)
    }
}

extension RasterImage {
    /// The RGB pixels of a rectangle (alpha dropped), rounded to whole pixels inward.
    func cropped(_ rect: Rect) -> PixelBuffer? {
        let x0 = Int(rect.minX.rounded(.up)), y0 = Int(rect.minY.rounded(.up))
        let x1 = min(width, Int(rect.maxX.rounded(.down))), y1 = min(height, Int(rect.maxY.rounded(.down)))
        guard x0 >= 0, y0 >= 0, x1 > x0, y1 > y0, channels >= 3 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((x1 - x0) * (y1 - y0) * 3)
        for y in y0..<y1 {
            for x in x0..<x1 {
                let pixel = self[x, y]
                bytes.append(contentsOf: pixel.prefix(3))
            }
        }
        return PixelBuffer(width: x1 - x0, height: y1 - y0, bytes: bytes)
    }

    /// The mean colour of a rectangle, as (r, g, b) in 0...255.
    func meanColour(_ rect: Rect) -> (r: Double, g: Double, b: Double) {
        guard let crop = cropped(rect) else { return (.nan, .nan, .nan) }
        var sum = (0.0, 0.0, 0.0)
        for y in 0..<crop.height {
            for x in 0..<crop.width {
                let p = crop[x, y]
                sum.0 += Double(p.r); sum.1 += Double(p.g); sum.2 += Double(p.b)
            }
        }
        let n = Double(crop.width * crop.height)
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }
}

/// Every test that opens a window. They run one after another: `xvfb-run -a` picks a free
/// display number by looking for lock files, and two starting at once can pick the same one.
@Suite("Studio windows (Xvfb)", .serialized)
struct StudioWindowTests {}
