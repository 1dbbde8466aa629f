import Faces
import Foundation
import MediaIO
import ViewfinderCore

/// Cover suggestions: which frames make good covers (a CoverPicker policy over MediaIO's frames).
extension CoverPicker {
    /// At most this many candidate frames are measured.
    static let maxCandidates = 36
    /// The size candidates are decoded at: large enough for faces of an eighth of the short side
    /// (`faceSmallest`) to be found.
    static let decodeSize = FrameSize.fit(PixelSize(width: 480, height: 480))
    /// The size exposure, sharpness, colour and stillness are measured at (about; an area
    /// average of the decoded copy by a whole factor).
    static let measureSide = 160
    /// The smallest face looked for in a candidate, as a fraction of its short side: an eighth
    /// (such a face earns 5/6 of the size bonus, `FaceTerm.fullSize`); smaller faces would cost
    /// more search than they could change the order.
    static let faceSmallest = 0.125

    /// The best `count` covers of the video, best first, far apart from each other.
    ///
    /// Sampled sparsely: every keyframe (evenly thinned past `maxCandidates`) and, in long
    /// GOPs, frames every half second after it, each measured on a small copy together with
    /// the frame two frames later. A frame scores by exposure, sharpness relative to the
    /// sharpest candidate, colour and stillness; near-black, near-white, flat and blurred
    /// frames and frames inside fades, flashes and cuts score almost nothing, so they come last
    /// (a video of nothing else still gets a suggestion). Frames that show people score up to
    /// 1.8 times more (`FaceTerm`: a large, whole face with sharp eyes); without a face detector
    /// (no cascade installed) faces are not weighed. Two suggestions are never near duplicates:
    /// each is at least d/(4·count) from the others and looks different. `progress` counts
    /// candidates; cancelling stops (`MediaIOError.cancelled`).
    static func suggestedCovers(from reader: FrameReader, count: Int, progress: Progress? = nil) throws(MediaIOError) -> [CoverSuggestion] {
        var measurements = Measurements(try reader.timeline(), progress: progress)
        for index in measurements.candidates {
            if progress?.isCancelled == true { throw .cancelled }
            let (time, later) = measurements.times(of: index)
            let picture = try reader.frame(at: .time(time), mode: .exact, size: Self.decodeSize)
            var next: VideoFrame?
            if let later { next = try reader.frame(at: .time(later), mode: .exact, size: Self.decodeSize) }
            measurements.add(picture, later: next, progress: progress)
        }
        return measurements.ranked(count: count, duration: reader.duration)
    }

    /// The same suggestions through `service`, the frame service a cover screen already reads
    /// (nothing opened again): each candidate is one request, so a slider move waits for one
    /// decode at most, and the measuring runs in the caller's task, off the service. Cancelling
    /// `progress` or the task stops before the next candidate.
    @concurrent
    static func suggestedCovers(through service: FrameService, count: Int,
                                progress: Progress? = nil) async throws(MediaIOError) -> [CoverSuggestion] {
        var measurements = Measurements(try await service.timeline(), progress: progress)
        for index in measurements.candidates {
            if progress?.isCancelled == true || Task.isCancelled { throw .cancelled }
            let (time, later) = measurements.times(of: index)
            let picture = try await service.frame(at: time, mode: .exact, size: Self.decodeSize)
            var next: VideoFrame?
            if let later { next = try await service.frame(at: later, mode: .exact, size: Self.decodeSize) }
            measurements.add(picture, later: next, progress: progress)
        }
        return measurements.ranked(count: count, duration: service.info.duration)
    }

    /// The candidates of one video measured one by one, then ranked: what reading through a
    /// reader and through a frame service share.
    struct Measurements {
        let timeline: FrameTimeline
        /// The positions in `timeline.frames` to measure, in order.
        let candidates: [Int]
        private let detector = try? FaceDetector.shared()
        private var measured: [(time: MediaTime, quality: FrameQuality, faces: FaceTerm?, thumbnail: [Double])] = []

        /// Counts the candidates into `progress`.
        init(_ timeline: FrameTimeline, progress: Progress?) {
            self.timeline = timeline
            candidates = CoverPicker.candidateFrames(timeline)
            progress?.totalUnitCount = Int64(candidates.count)
        }

        /// The time of candidate `index`, and of the frame two frames later (nil near the end),
        /// whose difference tells stillness.
        func times(of index: Int) -> (MediaTime, MediaTime?) {
            (timeline.frames[index], index + 2 < timeline.frames.count ? timeline.frames[index + 2] : nil)
        }

        /// Measures a candidate's picture, decoded at `decodeSize`, with the one two frames later.
        mutating func add(_ picture: VideoFrame, later: VideoFrame?, progress: Progress?) {
            let small = CoverPicker.measureCopy(picture.image)
            let quality = FrameQuality(small, companion: later.map { CoverPicker.measureCopy($0.image) })
            // A rejected frame (black, white, flat, in a fade or a cut) stays last, face or not.
            let faces = quality.rejection == nil ? detector.flatMap { CoverPicker.faceTerm(in: picture.image, with: $0) } : nil
            measured.append((picture.time, quality, faces, CoverPicker.thumbnail(small)))
            progress?.completedUnitCount += 1
        }

        /// The best `count` of those measured, best first, far apart.
        func ranked(count: Int, duration: MediaTime) -> [CoverSuggestion] {
            let sharpest = CoverSuggestion.sharpest(of: measured.map(\.quality))
            let sharpestEyes = measured.compactMap { $0.faces?.eyeSharpness }.max() ?? 0
            var scored = measured.map { candidate -> (CoverSuggestion, [Double]) in
                var (score, quality) = CoverSuggestion.score(candidate.quality, sharpest: sharpest)
                if let faces = candidate.faces { score *= faces.factor(sharpestEyes: sharpestEyes) }
                return (CoverSuggestion(time: candidate.time, score: score, quality: quality, faces: candidate.faces),
                        candidate.thumbnail)
            }
            scored.sort { $0.0.score > $1.0.score || ($0.0.score == $1.0.score && $0.0.time < $1.0.time) }
            return CoverPicker.pickApart(scored, count: max(1, count), duration: duration)
        }
    }

    /// The decoded candidate averaged down by the whole factor that brings its long side
    /// nearest `measureSide` (3 for a 480-pixel decode).
    static func measureCopy(_ picture: PixelBuffer) -> PixelBuffer {
        let factor = max(1, Int((Double(max(picture.width, picture.height)) / Double(measureSide)).rounded()))
        return picture.averaged(by: factor)
    }

    /// The faces in a candidate as a score term: the most prominent one's size, whether the edge
    /// cuts it, its eye band's sharpness; nil when there is none (or the search failed: a cover
    /// is still suggested, faces unweighed).
    static func faceTerm(in picture: PixelBuffer, with detector: FaceDetector) -> FaceTerm? {
        let image = RasterImage(picture)
        guard let faces = try? detector.faces(in: image, smallestFace: faceSmallest),
              let face = faces.mostProminent(in: picture.size) else { return nil }
        let box = face.bounds
        // The whole head reaches about half a box above the box and an eighth below it.
        let margin = 0.1 * box.width
        let cut = box.minX - margin < 0 || box.maxX + margin > Double(picture.width)
            || box.minY - 0.3 * box.height < 0 || box.maxY + 0.1 * box.height > Double(picture.height)
        let eyes = Rect(x: box.minX + 0.1 * box.width, y: box.minY + 0.2 * box.height,
                        width: 0.8 * box.width, height: 0.3 * box.height)
        return FaceTerm(count: faces.count, largest: box,
                        size: box.width / Double(max(1, min(picture.width, picture.height))),
                        cut: cut, eyeSharpness: eyeSharpness(picture, in: eyes), confidence: face.confidence)
    }

    /// The Laplacian variance of the luma inside `band` (clipped to the picture).
    static func eyeSharpness(_ picture: PixelBuffer, in band: Rect) -> Double {
        let x0 = max(0, Int(band.minX)), y0 = max(0, Int(band.minY))
        let x1 = min(picture.width, Int(band.maxX.rounded(.up))), y1 = min(picture.height, Int(band.maxY.rounded(.up)))
        guard x1 - x0 >= 3, y1 - y0 >= 3 else { return 0 }
        let luma = FrameQuality.luma(picture)
        var inside = [Double]()
        inside.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { inside += luma[(y * picture.width + x0)..<(y * picture.width + x1)] }
        return FrameQuality.laplacianVariance(inside, width: x1 - x0, height: y1 - y0)
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
