import Foundation
import MediaIO
import ViewfinderCore

/// The cookbook's video editor: ask whether a file can be edited, then export or trim it and
/// learn whether it was saved, failed, or was cancelled.
public struct VideoEditor: Sendable {
    /// How an edit ended.
    public enum Outcome: Sendable, Equatable {
        /// Written to this path.
        case saved(URL, ExportResult)
        /// Failed; nothing was written.
        case failed(MediaIOError)
        /// Cancelled; nothing was written.
        case cancelled
    }

    /// The export this edit runs.
    public let exporter: VideoExporter
    public var input: URL { exporter.input }
    public var output: URL { exporter.output }
    public var settings: ExportSettings { exporter.settings }

    /// An edit of `input` into `output`. Its smart cuts and joins are this module's policy
    /// (`SmartCutPolicy`), carried out with MediaIO's mechanisms.
    public init(input: URL, output: URL, settings: ExportSettings = ExportSettings()) {
        exporter = VideoExporter(input: input, output: output, settings: settings, smartCutting: policy)
    }

    /// The smart cut's policy this editor cuts and joins with.
    private let policy = SmartCutPolicy()

    /// True only for files whose pictures can be decoded.
    public static func canEdit(_ url: URL) -> Bool {
        VideoExporter.canEdit(url)
    }

    /// Runs the edit on the calling thread, for a front end that shows its own progress
    /// (`viewfinder trim`): the same edit as `run`, its cancellation the thrown
    /// `MediaIOError.cancelled`. `reader`, when given, is a reader of `input` already open (one
    /// open for a caller that read a frame first, such as the cover it attaches).
    public func export(progress: Progress? = nil, reading given: FrameReader? = nil) throws(MediaIOError) -> ExportResult {
        let reader: FrameReader
        if let given {
            try exporter.refuseWritingOverInput()
            reader = given
        } else {
            reader = try exporter.openChecked()
        }
        // A trim is this module's to make (smart or re-encoded); the rest is the exporter's.
        if let trimmed = try SmartTrim(exporter: exporter, policy: policy).run(reader, progress: progress) { return trimmed }
        return try exporter.run(progress: progress, reading: reader)
    }

    /// Runs the edit on a thread of its own. `progress` follows the output written; cancelling
    /// it — or the calling task — stops the edit and removes what was written.
    public func run(progress: Progress = Progress(totalUnitCount: 1)) async -> Outcome {
        let editor = self
        let box = Lent(progress)
        return await BlockingWork.run(named: "viewfinder-export", cancelling: box) { () -> Outcome in
            do throws(MediaIOError) {
                return .saved(editor.output, try editor.export(progress: box.value))
            } catch MediaIOError.cancelled {
                return .cancelled
            } catch {
                return .failed(error)
            }
        }
    }
}
