import Foundation
import StudioKit

/// What happened in the app, as one JSON object per line on standard output — printed only when
/// a script drives the app, so tests (and people) can follow it without reading pixels.
@MainActor
final class StudioEvents {
    var isEnabled = false
    /// A pick keeps stdout for its result; its events go to stderr.
    var toStandardError = false
    /// Counts of every event emitted so far, by name (the automation waits on them).
    private(set) var counts: [String: Int] = [:]

    /// Prints `{"event": name, …fields}` when enabled.
    func emit(_ name: String, _ fields: [String: Any] = [:]) {
        counts[name, default: 0] += 1
        guard isEnabled else { return }
        var object = fields
        object["event"] = name
        // Frame-clock seconds, so tests can check when things happened (e.g. the grace time).
        object["t"] = FrameClock().now
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            FileHandle.standardError.write(Data("viewfinder-studio: event \(name) has fields JSON cannot hold\n".utf8))
            return
        }
        (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(data + Data("\n".utf8))
    }
}
