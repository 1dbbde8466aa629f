import Foundation
import MediaIO
import ViewfinderCore

// MARK: - Converting before the cover screen

extension CoverPicker {
    /// How a video is converted before its cover is chosen: H.264 at the highest quality, with
    /// the index at the front of the file so it streams (seeds.md §1).
    public static let conversionSettings = ExportSettings(preset: .highest, fastStart: true)

    /// True when the video must be converted to MP4 first: QuickTime movies (`.mov`, `.qt`).
    /// FFmpeg names MOV and MP4 alike ("mov,mp4,…"), so the file's own name decides.
    public static func needsConversion(_ url: URL) -> Bool {
        ["mov", "qt"].contains(url.pathExtension.lowercased())
    }

    /// Refuses a video over `limit` from its header alone, before anything is converted or
    /// decoded (the original checked only after the user had picked and waited).
    public static func checkLimit(_ url: URL, limit: DurationLimit) throws(CoverPickerError) {
        guard limit.maximum != nil else { return }
        let recorded: MediaTime?
        do {
            recorded = try headerDuration(of: url)
        } catch {
            throw .media(error)
        }
        // Without a duration in the header, `open` checks the full probe instead.
        if let recorded { try limit.check(duration: recorded, path: url.path) }
    }

    /// The folder converted videos go to, `Converted` inside `base`, made when missing.
    public static func conversionFolder(in base: URL) throws(CoverPickerError) -> URL {
        let folder = base.appendingPathComponent("Converted", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .media(.writeFailed(path: folder.path, reason: (error as NSError).localizedDescription))
        }
        return folder
    }

    /// A file name made from a date and time, e.g. `2026-11-30 15.04.05.mp4`, with ` 2`, ` 3`…
    /// added when `folder` already holds one of that name.
    public static func outputURL(in folder: URL, date: Date = Date(), extension ext: String = "mp4",
                                 timeZone: TimeZone = .current) -> URL {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let stem = "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)).\(two(c.minute)).\(two(c.second))"
        return freeURL(in: folder, stem: stem, extension: ext)
    }

    /// `folder/stem.ext`, or `folder/stem 2.ext`, `stem 3.ext`… whichever is free first, so an
    /// output never replaces a file that is already there.
    public static func freeURL(in folder: URL, stem: String, extension ext: String) -> URL {
        var candidate = folder.appendingPathComponent("\(stem).\(ext)")
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(stem) \(counter).\(ext)")
            counter += 1
        }
        return candidate
    }
}
