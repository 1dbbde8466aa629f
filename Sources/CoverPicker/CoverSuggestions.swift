import Foundation
import MediaIO
import ViewfinderCore

/// A frame the cover chooser suggests, and what its picture measured.
public struct CoverSuggestion: Sendable, Equatable {
    /// The frame's exact time (from the first frame).
    public let time: MediaTime
    /// How good a cover it makes, 0 (useless) … 1.
    public let score: Double
    /// What the score is made of.
    public let quality: FrameQuality
}

/// What a frame's picture measures, on a small copy (luma and colour in 0…1).
public struct FrameQuality: Sendable, Equatable {
    /// Mean luma.
    public var brightness = 0.0
    /// Standard deviation of luma.
    public var contrast = 0.0
    /// Variance of the luma's Laplacian: high for sharp pictures, low for blurred or smeared ones.
    public var sharpness = 0.0
    /// Hasler and Süsstrunk's colourfulness (0 for grey).
    public var colourfulness = 0.0
    /// Mean absolute luma difference with the frame two frames later: motion, a cut.
    public var change = 0.0
    /// Luma mean difference with the frame two frames later: a fade or a flash.
    public var brightnessChange = 0.0
    /// Why the frame makes a bad cover, if it does: "near-black", "near-white", "flat",
    /// "blurred", "fade or flash", "cut".
    public var rejection: String?

    /// Measures `picture`, with `companion` (the frame two frames later) for what changes.
    public init(_ picture: PixelBuffer, companion: PixelBuffer?) {
        let luma = Self.luma(picture)
        let n = Double(max(1, luma.count))
        brightness = luma.reduce(0, +) / n
        contrast = (luma.reduce(0) { $0 + ($1 - brightness) * ($1 - brightness) } / n).squareRoot()
        sharpness = Self.laplacianVariance(luma, width: picture.width, height: picture.height)
        colourfulness = Self.colourfulness(picture)
        if let companion, companion.size == picture.size {
            let other = Self.luma(companion)
            change = zip(luma, other).reduce(0) { $0 + abs($1.0 - $1.1) } / n
            brightnessChange = abs(other.reduce(0, +) / n - brightness)
        }
        if brightness < 0.1 {
            rejection = "near-black"
        } else if brightness > 0.92 {
            rejection = "near-white"
        } else if contrast < 0.04 {
            rejection = "flat"
        } else if brightnessChange > 0.012 {
            rejection = "fade or flash"
        } else if change > 0.2 {
            rejection = "cut"
        }
    }

    /// Rec. 709 luma of each pixel, 0…1.
    static func luma(_ picture: PixelBuffer) -> [Double] {
        let bytes = picture.bytes
        var result = [Double](repeating: 0, count: picture.width * picture.height)
        for i in result.indices {
            let p = i * 3
            result[i] = (0.2126 * Double(bytes[p]) + 0.7152 * Double(bytes[p + 1]) + 0.0722 * Double(bytes[p + 2])) / 255
        }
        return result
    }

    /// The variance of the 4-neighbour Laplacian over the inner pixels.
    static func laplacianVariance(_ luma: [Double], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        var sum = 0.0, squares = 0.0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let l = luma[i - 1] + luma[i + 1] + luma[i - width] + luma[i + width] - 4 * luma[i]
                sum += l
                squares += l * l
            }
        }
        let n = Double((width - 2) * (height - 2))
        let mean = sum / n
        return squares / n - mean * mean
    }

    /// Hasler and Süsstrunk (2003): spread and mean of the opponent channels R−G and (R+G)/2−B.
    static func colourfulness(_ picture: PixelBuffer) -> Double {
        let bytes = picture.bytes
        let n = Double(max(1, picture.width * picture.height))
        var rg = 0.0, yb = 0.0, rg2 = 0.0, yb2 = 0.0
        for p in stride(from: 0, to: bytes.count, by: 3) {
            let (r, g, b) = (Double(bytes[p]) / 255, Double(bytes[p + 1]) / 255, Double(bytes[p + 2]) / 255)
            let a = r - g, c = 0.5 * (r + g) - b
            rg += a; yb += c; rg2 += a * a; yb2 += c * c
        }
        let (mrg, myb) = (rg / n, yb / n)
        let spread = (max(0, rg2 / n - mrg * mrg) + max(0, yb2 / n - myb * myb)).squareRoot()
        return spread + 0.3 * (mrg * mrg + myb * myb).squareRoot()
    }
}

extension CoverPicker {
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
    public static func suggestions(from reader: FrameReader, count: Int,
                                   progress: Progress? = nil) throws(CoverPickerError) -> [CoverSuggestion] {
        do throws(MediaIOError) {
            let timeline = try reader.timeline()
            let candidates = candidateFrames(timeline)
            progress?.totalUnitCount = Int64(candidates.count)
            var measured: [(time: MediaTime, quality: FrameQuality, thumbnail: [Double])] = []
            for index in candidates {
                if progress?.isCancelled == true { throw MediaIOError.cancelled }
                let time = timeline.frames[index]
                let frame = try reader.frame(at: .time(time), mode: .exact, size: analysisSize)
                let later = index + 2 < timeline.frames.count
                    ? try reader.frame(at: .time(timeline.frames[index + 2]), mode: .exact, size: analysisSize) : nil
                let quality = FrameQuality(frame.image, companion: later?.image)
                measured.append((frame.time, quality, thumbnail(frame.image)))
                progress?.completedUnitCount += 1
            }
            let sharpest = measured.filter { $0.quality.rejection == nil }.map(\.quality.sharpness).max()
                ?? measured.map(\.quality.sharpness).max() ?? 0
            var scored = measured.map { candidate -> (CoverSuggestion, [Double]) in
                var quality = candidate.quality
                let relative = sharpest > 0 ? quality.sharpness / sharpest : 1
                if quality.rejection == nil, relative < 0.2 { quality.rejection = "blurred" }
                let exposure = 1 - pow(abs(quality.brightness - 0.5) / 0.5, 2)
                let colour = 0.6 + 0.4 * min(1, quality.colourfulness / 0.3)
                let stillness = 1 / (1 + 10 * quality.change)
                var score = max(0, exposure) * relative.squareRoot() * colour * stillness
                if quality.rejection != nil { score *= 0.01 }
                return (CoverSuggestion(time: candidate.time, score: score, quality: quality), candidate.thumbnail)
            }
            scored.sort { $0.0.score > $1.0.score || ($0.0.score == $1.0.score && $0.0.time < $1.0.time) }
            return pickApart(scored, count: max(1, count), duration: reader.duration)
        } catch {
            throw .media(error)
        }
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
