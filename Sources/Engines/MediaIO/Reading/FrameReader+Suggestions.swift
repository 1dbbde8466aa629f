import Foundation
import ViewfinderCore

/// A frame suggested as a cover, and what its picture measured.
public struct CoverSuggestion: Sendable, Equatable {
    /// The frame's exact time (from the first frame).
    public let time: MediaTime
    /// How good a cover it makes, 0 (useless) … 1.
    public let score: Double
    /// What the score is made of.
    public let quality: FrameQuality

    public init(time: MediaTime, score: Double, quality: FrameQuality) {
        self.time = time
        self.score = score
        self.quality = quality
    }

    /// How good a cover a frame of `quality` makes among candidates whose sharpest (not
    /// rejected) measured `sharpest`: exposure × √(relative sharpness) × colour × stillness;
    /// a frame far blurrier than the sharpest is rejected as blurred, and a rejected frame
    /// scores a hundredth. Returns the quality with that rejection added.
    public static func score(_ quality: FrameQuality, sharpest: Double) -> (score: Double, quality: FrameQuality) {
        var quality = quality
        let relative = sharpest > 0 ? quality.sharpness / sharpest : 1
        if quality.rejection == nil, relative < 0.2 { quality.rejection = "blurred" }
        let exposure = 1 - pow(abs(quality.brightness - 0.5) / 0.5, 2)
        let colour = 0.6 + 0.4 * min(1, quality.colourfulness / 0.3)
        let stillness = 1 / (1 + 10 * quality.change)
        var score = max(0, exposure) * relative.squareRoot() * colour * stillness
        if quality.rejection != nil { score *= 0.01 }
        return (score, quality)
    }

    /// The sharpest of `qualities` that no check rejected (of all, when every one was).
    public static func sharpest(of qualities: [FrameQuality]) -> Double {
        qualities.filter { $0.rejection == nil }.map(\.sharpness).max() ?? qualities.map(\.sharpness).max() ?? 0
    }
}

extension FrameReader {
    /// At most this many candidate frames are measured.
    static let maxCandidates = 36
    /// The size candidates are measured at.
    static let analysisSize = FrameSize.fit(PixelSize(width: 160, height: 160))

    /// The best `count` covers of the video, best first, far apart from each other.
    ///
    /// Sampled sparsely: every keyframe (evenly thinned past `maxCandidates`) and, in long
    /// GOPs, frames every half second after it, each measured on a small copy together with
    /// the frame two frames later. A frame scores by exposure, sharpness relative to the
    /// sharpest candidate, colour and stillness; near-black, near-white, flat and blurred
    /// frames and frames inside fades, flashes and cuts score almost nothing, so they come last
    /// (a video of nothing else still gets a suggestion). Two suggestions are never near
    /// duplicates: each is at least d/(4·count) from the others and looks different.
    /// `progress` counts candidates; cancelling stops (`MediaIOError.cancelled`).
    public func suggestedCovers(count: Int, progress: Progress? = nil) throws(MediaIOError) -> [CoverSuggestion] {
        let timeline = try timeline()
        let candidates = Self.candidateFrames(timeline)
        progress?.totalUnitCount = Int64(candidates.count)
        var measured: [(time: MediaTime, quality: FrameQuality, thumbnail: [Double])] = []
        for index in candidates {
            if progress?.isCancelled == true { throw .cancelled }
            let time = timeline.frames[index]
            let picture = try frame(at: .time(time), mode: .exact, size: Self.analysisSize)
            let later = index + 2 < timeline.frames.count
                ? try frame(at: .time(timeline.frames[index + 2]), mode: .exact, size: Self.analysisSize) : nil
            let quality = FrameQuality(picture.image, companion: later?.image)
            measured.append((picture.time, quality, Self.thumbnail(picture.image)))
            progress?.completedUnitCount += 1
        }
        let sharpest = CoverSuggestion.sharpest(of: measured.map(\.quality))
        var scored = measured.map { candidate -> (CoverSuggestion, [Double]) in
            let (score, quality) = CoverSuggestion.score(candidate.quality, sharpest: sharpest)
            return (CoverSuggestion(time: candidate.time, score: score, quality: quality), candidate.thumbnail)
        }
        scored.sort { $0.0.score > $1.0.score || ($0.0.score == $1.0.score && $0.0.time < $1.0.time) }
        return Self.pickApart(scored, count: max(1, count), duration: duration)
    }

    /// The frames to measure: keyframes, thinned evenly to `maxCandidates`, and in GOPs longer
    /// than half a second, frames every 0.5 s after the keyframe with what the budget leaves.
    static func candidateFrames(_ timeline: FrameTimeline) -> [Int] {
        let frames = timeline.frames
        guard !frames.isEmpty else { return [] }
        var keys = timeline.keyframes.isEmpty ? [0] : timeline.keyframes
        if keys.count > maxCandidates {
            keys = (0..<maxCandidates).map { keys[$0 * keys.count / maxCandidates] }
        }
        let perGOP = min(3, (maxCandidates - keys.count) / keys.count)
        var chosen: [Int] = []
        for (k, key) in keys.enumerated() {
            chosen.append(key)
            let next = k + 1 < keys.count ? keys[k + 1] : frames.count
            var index = key
            for step in 1...max(1, perGOP) where perGOP > 0 {
                guard let target = frames[key].adding(MediaTime(value: Int64(step), timescale: 2)) else { break }
                while index < next, frames[index] < target { index += 1 }
                guard index < next else { break }
                chosen.append(index)
            }
        }
        return Array(Set(chosen)).sorted()
    }

    /// A 16×9 luma copy, to tell near-duplicates apart.
    static func thumbnail(_ picture: PixelBuffer) -> [Double] {
        let luma = FrameQuality.luma(picture)
        var cells = [Double](repeating: 0, count: 16 * 9)
        var counts = [Double](repeating: 0, count: 16 * 9)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let cell = (y * 9 / max(1, picture.height)) * 16 + x * 16 / max(1, picture.width)
                cells[cell] += luma[y * picture.width + x]
                counts[cell] += 1
            }
        }
        return zip(cells, counts).map { $1 > 0 ? $0 / $1 : 0 }
    }

    /// The best-scored candidates that are neither close in time nor alike in picture to a
    /// better one; if that leaves fewer than `count`, look-alikes, and then rejected frames, by
    /// time alone. Best first.
    static func pickApart(_ scored: [(CoverSuggestion, [Double])], count: Int, duration: MediaTime) -> [CoverSuggestion] {
        let gap = duration.seconds / Double(4 * count)
        var picked: [(CoverSuggestion, [Double])] = []
        func fits(_ candidate: (CoverSuggestion, [Double]), lookAlike: Bool) -> Bool {
            picked.allSatisfy { other in
                let apart = abs(other.0.time.seconds - candidate.0.time.seconds) >= gap
                let different = zip(other.1, candidate.1).reduce(0) { $0 + abs($1.0 - $1.1) } / Double(max(1, other.1.count)) > 0.06
                return other.0.time != candidate.0.time && apart && (!lookAlike || different)
            }
        }
        for (lookAlike, rejected) in [(true, false), (false, false), (false, true)] {
            for candidate in scored where picked.count < count && (candidate.0.quality.rejection != nil) == rejected {
                if fits(candidate, lookAlike: lookAlike) { picked.append(candidate) }
            }
        }
        return picked.map(\.0).sorted { $0.score > $1.score || ($0.score == $1.score && $0.time < $1.time) }
    }
}
