import Foundation
import Imaging
import MediaIO
import ViewfinderCore

/// The cover flow of the original system, once for every front end: the duration limit from
/// the header (nothing converted or decoded before it; a video not converted is checked from
/// the header its session reads, so it is opened once), a conversion to MP4 when the video is a
/// QuickTime movie, then the cover screen's session (`CoverPickerSession`), and the cover
/// written by one writer at one quality. The desktop app and the UI components drive it with their own HUD and events;
/// the command line uses its limit check (`CoverPicker.open`) and its writer.
public enum CoverFlow {
    /// The JPEG/WebP quality of a written cover, wherever it is chosen.
    public static let coverQuality = 90

    /// What the cover screen should open, decided before any work: the video itself, or a
    /// conversion of it to `output` first.
    public enum Plan: Sendable, Equatable {
        /// Open the video as it is.
        case open(URL)
        /// Convert `input` to `output` (MP4, highest quality, index first), then open `output`.
        case convert(input: URL, output: URL)
    }

    /// When the flow converts (the original's export presets: passthrough, or highest quality).
    public enum Conversion: String, Sendable, CaseIterable {
        /// A QuickTime movie is converted, anything else opens as it is.
        case auto
        /// Every video is converted to MP4 at the highest quality first.
        case highest
        /// Nothing is converted.
        case passthrough
    }

    /// Step one: says whether the video needs converting under `conversion`; one that does is
    /// refused over `limit` from its header alone first, and goes to a new, date-named file in
    /// `Converted` inside `cache`. A video opened as it is is not opened here: the session's
    /// `CoverPicker.open` refuses it from the header it reads frames through, before any
    /// decoding, so the file is opened once.
    public static func plan(for video: URL, limit: DurationLimit, cache: URL,
                            conversion: Conversion = .auto) throws(CoverPickerError) -> Plan {
        switch conversion {
        case .passthrough: return .open(video)
        case .auto: guard CoverPicker.needsConversion(video) else { return .open(video) }
        case .highest: break
        }
        try CoverPicker.checkLimit(video, limit: limit)
        return .convert(input: video, output: CoverPicker.outputURL(in: try CoverPicker.conversionFolder(in: cache)))
    }

    /// Step two, for `.convert`: converts off the caller's actor, following `progress`;
    /// cancelling it (or the task) stops the conversion, leaves nothing and throws `.cancelled`.
    /// Returns the video the cover screen opens.
    public static func run(_ plan: Plan, progress: Progress) async throws(CoverPickerError) -> URL {
        switch plan {
        case .open(let video):
            return video
        case .convert(let input, let output):
            let exporter = VideoExporter(input: input, output: output, settings: CoverPicker.conversionSettings)
            let lent = Lent(progress)
            let result = await BlockingWork.run(named: "viewfinder-cover-conversion", cancelling: lent) {
                () -> Result<URL, MediaIOError> in
                do throws(MediaIOError) {
                    _ = try exporter.run(progress: lent.value)
                    return .success(output)
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let url): return url
            case .failure(.cancelled): throw .cancelled
            case .failure(let error): throw .media(error)
            }
        }
    }

    /// Then a `CoverPickerSession` on the video `run` returned chooses the frame; the result,
    /// the cover image, is written here, format from the extension, at `quality`.
    public static func write(_ cover: PixelBuffer, to url: URL, quality: Int = coverQuality) throws(CoverPickerError) {
        do {
            try ImageEncoder.write(cover, to: url, quality: quality)
        } catch {
            throw .imaging(error)
        }
    }
}
