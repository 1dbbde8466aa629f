import Foundation
import ViewfinderCore

/// One file an import refused, and why.
public struct ImportFailure: Sendable, Equatable, CustomStringConvertible {
    /// The file as given (or the library folder, when a lane could not open the catalogue).
    public let path: String
    /// What went wrong, for a person.
    public let message: String

    /// A failure for the file at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// "path: message", as the command line lists it.
    public var description: String { tr("{path}: {message}", ["path": path, "message": message]) }
}

/// What an import of many files did.
public struct ImportReport: Sendable, Equatable {
    /// Assets new to the library, in the order their files were given (a Live Photo pair's two
    /// files once).
    public var imported: [Asset] = []
    /// Files whose content the library held already (it is stored once).
    public var duplicates = 0
    /// Files that were refused, in the order they were given; the import went on past them.
    public var failures: [ImportFailure] = []
    /// True when the import was cancelled before it looked at every file.
    public var cancelled = false
    /// Every file now in the library, in the order given, with the asset that holds it.
    public var storedFiles: [StoredFile] = []

    /// A report; an import builds it as it goes.
    public init(imported: [Asset] = [], duplicates: Int = 0, failures: [ImportFailure] = [], cancelled: Bool = false) {
        self.imported = imported
        self.duplicates = duplicates
        self.failures = failures
        self.cancelled = cancelled
    }

    /// Files now in the library: new ones and duplicates.
    public var stored: Int { imported.count + duplicates }
}

/// A file an import stored, or found stored already.
public struct StoredFile: Sendable, Equatable {
    /// The file as given.
    public let path: String
    /// The asset that holds its content.
    public let asset: Asset
    /// False when the library held the content already (it is stored once).
    public let isNew: Bool
}

/// Imports many files at once for the command line and the Library screen alike.
///
/// Files are decoded on one lane per core (at most four), each lane with a catalogue connection
/// of its own (`MediaLibrary` is one instance per thread; SQLite serialises the short write
/// transactions). Progress counts bytes, so a video weighs more than a photo in the rate and
/// the time left. Bad files are collected, never fatal; cancelling the progress stops each lane
/// before its next file.
public struct LibraryImporter: Sendable {
    /// The library folder.
    public var folder: URL
    /// An album every imported file is also added to.
    public var album: String?
    /// Remove each original once it is stored.
    public var move: Bool
    /// Where the files come from (the camera's are `.capture`).
    public var source: Asset.Source
    /// The grid's fill thumbnail, made by the same decode that validates each file; nil for none.
    public var thumbnail: PixelSize?

    /// An importer into the library at `folder`; by default it makes the grid's 256-pixel
    /// thumbnails and leaves the originals where they are.
    public init(folder: URL, album: String? = nil, move: Bool = false, source: Asset.Source = .imported,
                thumbnail: PixelSize? = PixelSize(width: 256, height: 256)) {
        self.folder = folder
        self.album = album
        self.move = move
        self.source = source
        self.thumbnail = thumbnail
    }

    /// Imports `files`, blocking the calling thread (which works as one of the lanes) until every
    /// lane is done. `progress.totalUnitCount` becomes the files' byte count; `onFile` is told,
    /// from any lane, how many files are done so far.
    public func run(_ files: [URL], progress: Progress,
                    onFile: (@Sendable (_ done: Int) -> Void)? = nil) -> ImportReport {
        let sizes = files.map { ((try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? NSNumber)?.int64Value ?? 0 }
        progress.totalUnitCount = max(1, sizes.reduce(0, +))
        let results = ImportResults(files)
        // Open (and on first use create) the library once before the lanes: lanes racing to
        // create a new catalogue can be refused (switching to WAL needs the file to itself),
        // which would lose every file of a lane.
        do throws(LibraryError) {
            _ = try MediaLibrary(folder: folder)
        } catch {
            results.laneFailed(ImportFailure(path: folder.path, message: error.description))
            return results.report
        }
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count, 4))
        let shared = Lent(progress)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            let connection: MediaLibrary
            do throws(LibraryError) {
                connection = try MediaLibrary(folder: folder)
            } catch {
                results.laneFailed(ImportFailure(path: folder.path, message: error.description))
                return
            }
            for index in Swift.stride(from: lane, to: files.count, by: lanes) {
                if shared.value.isCancelled { return }
                do throws(LibraryError) {
                    let (asset, isNew) = try connection.importFile(files[index], move: move, source: source,
                                                                   album: album, thumbnail: thumbnail)
                    results.set(index, isNew ? .new(asset) : .duplicate(asset))
                } catch {
                    results.set(index, .failed(ImportFailure(path: files[index].path, message: error.description)))
                }
                let done = results.add(bytes: sizes[index], to: shared.value)
                onFile?(done)
            }
        }
        var report = results.report
        report.cancelled = progress.isCancelled
        return report
    }
}

/// The lanes' outcomes, one slot per file, collected under one lock (`Locked`).
private final class ImportResults: Sendable {
    enum Outcome {
        case new(Asset)
        case duplicate(Asset)
        case failed(ImportFailure)
    }

    /// What the lanes write, all of it behind the one lock.
    private struct State {
        var outcomes: [Outcome?]
        var laneFailures: [ImportFailure] = []
        var done = 0
        var bytes: Int64 = 0
    }

    private let state: Locked<State>
    private let paths: [String]

    init(_ files: [URL]) {
        state = Locked(State(outcomes: Array(repeating: nil, count: files.count)))
        paths = files.map(\.path)
    }

    func set(_ index: Int, _ outcome: Outcome) {
        state.withLock { $0.outcomes[index] = outcome }
    }

    func laneFailed(_ failure: ImportFailure) {
        state.withLock { $0.laneFailures.append(failure) }
    }

    /// Counts a finished file; returns how many are done.
    func add(bytes size: Int64, to progress: Progress) -> Int {
        state.withLock { state in
            state.done += 1
            state.bytes += size
            // Under the lock, so that lanes finishing together never move the progress backwards.
            progress.completedUnitCount = state.bytes
            return state.done
        }
    }

    var report: ImportReport {
        let state = state.value
        var report = ImportReport(failures: state.laneFailures)
        for (path, outcome) in zip(paths, state.outcomes) {
            switch outcome {
            case .new(let asset)?:
                // Both files of a Live Photo pair are new, but they make one asset: it is listed
                // once, as it ended up (live).
                if let earlier = report.imported.firstIndex(where: { $0.id == asset.id }) {
                    if asset.kind == .live { report.imported[earlier] = asset }
                } else {
                    report.imported.append(asset)
                }
                report.storedFiles.append(StoredFile(path: path, asset: asset, isNew: true))
            case .duplicate(let asset)?:
                report.duplicates += 1
                report.storedFiles.append(StoredFile(path: path, asset: asset, isNew: false))
            case .failed(let failure)?: report.failures.append(failure)
            case nil: break
            }
        }
        return report
    }
}
