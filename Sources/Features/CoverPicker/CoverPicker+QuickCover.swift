import Foundation
import MediaIO
import ViewfinderCore

extension CoverPicker {
    /// Where a quick cover looks: keyframes near these fractions of the video (five cost a
    /// third more and chose no better on the bench and test clips).
    static let quickCoverFractions: [Double] = [0.2, 0.5, 0.8]

    /// A good picture of the video fast, for thumbnails: the cover embedded in the file, else
    /// the best-scored of the keyframes near 20, 50 and 80 % of it, each decoded alone
    /// at `size` (in parallel) and scored as suggestions are (exposure, relative sharpness,
    /// colour; black, white, flat and blurred ones last). Unlike `suggestions`, it decodes no
    /// frame between keyframes (unless every keyframe is rejected): three keyframe decodes,
    /// in parallel, about what one ffmpegthumbnailer run costs.
    public static func quickCover(from reader: FrameReader, size: FrameSize) throws(CoverPickerError) -> PixelBuffer {
        do throws(MediaIOError) {
            if let embedded = try reader.embeddedCover(size: size) { return embedded }
            let positions = quickCoverFractions.map { fraction in
                TimePosition.time(reader.duration.fraction(fraction))
            }
            let frames = try reader.frames(at: positions, mode: .fast, size: size)
            let qualities = frames.map { FrameQuality($0.image, companion: nil) }
            let sharpest = CoverSuggestion.sharpest(of: qualities)
            let scored = qualities.map { CoverSuggestion.score($0, sharpest: sharpest) }
            guard let best = scored.indices.max(by: { scored[$0].score < scored[$1].score
                || (scored[$0].score == scored[$1].score && $0 > $1) }) else {
                throw .noFrameDecoded(path: reader.info.path, detail: tr("no keyframe gave a picture"))
            }
            // Every keyframe black, white, flat or blurred (one keyframe at a fade-in, say): the
            // exact frame in the middle, decoded forward, unless it is no better.
            if scored[best].quality.rejection != nil {
                let middle = try reader.frame(at: positions[positions.count / 2], mode: .exact, size: size)
                if FrameQuality(middle.image, companion: nil).rejection == nil { return middle.image }
            }
            return frames[best].image
        } catch {
            throw .media(error)
        }
    }
}
