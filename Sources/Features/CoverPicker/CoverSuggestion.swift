import Faces
import Foundation
import ViewfinderCore

/// A frame suggested as a cover, and what its picture measured.
public struct CoverSuggestion: Sendable, Equatable {
    /// The frame's exact time (from the first frame).
    public let time: MediaTime
    /// How good a cover it makes, 0 (useless) … 1.8 (a well-exposed, sharp, still frame with a
    /// clear face; 1 at most without a face).
    public let score: Double
    /// What the score is made of.
    public let quality: FrameQuality
    /// The people in the frame, if any were found.
    public let faces: FaceTerm?

    /// A suggestion at `time`.
    public init(time: MediaTime, score: Double, quality: FrameQuality, faces: FaceTerm? = nil) {
        self.time = time
        self.score = score
        self.quality = quality
        self.faces = faces
    }

    /// How good a cover a frame of `quality` makes among candidates whose sharpest (not
    /// rejected) measured `sharpest`: exposure × √(relative sharpness) × colour × stillness;
    /// a frame far blurrier than the sharpest is rejected as blurred, and a rejected frame
    /// scores a hundredth. Returns the quality with that rejection added.
    public static func score(_ quality: FrameQuality, sharpest: Double) -> (score: Double, quality: FrameQuality) {
        var quality = quality
        let relative = sharpest > 0 ? quality.sharpness / sharpest : 1
        if quality.rejection == nil, relative < 0.2 { quality.rejection = N_("blurred") }
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

/// What the faces in a candidate frame add to its score: covers that show people are preferred,
/// more so when the face is large, whole and in focus.
public struct FaceTerm: Sendable, Equatable {
    /// How many faces were found.
    public var count: Int
    /// The most prominent face's box, in the pixels of the analysed copy.
    public var largest: Rect
    /// Its width as a fraction of the frame's short side.
    public var size: Double
    /// Whether it touches the frame's edge (a face cut by the edge makes a poor cover).
    public var cut: Bool
    /// The Laplacian variance of its eye band (the second fifth to the half of the box, from
    /// the top): a face in focus has sharp eyes.
    public var eyeSharpness: Double
    /// The detector's confidence in it, 0…1.
    public var confidence: Double

    /// A face of `size` (or larger) earns the whole size bonus.
    public static let fullSize = 0.15
    /// The most a face adds: a frame with a large, whole, sharp face scores up to 1.8 times
    /// what it would without.
    public static let maximumBonus = 0.8

    /// A term from measurements.
    public init(count: Int, largest: Rect, size: Double, cut: Bool, eyeSharpness: Double, confidence: Double) {
        self.count = count
        self.largest = largest
        self.size = size
        self.cut = cut
        self.eyeSharpness = eyeSharpness
        self.confidence = confidence
    }

    /// The factor a frame's score is multiplied by, among candidates whose sharpest eyes measured
    /// `sharpestEyes`: 1 + 0.8 × confidence × size (full from 15 % of the short side) × whole
    /// (0.3 when cut by the edge) × √(eye sharpness relative to the sharpest).
    public func factor(sharpestEyes: Double) -> Double {
        let sizeFactor = min(1, size / Self.fullSize)
        let whole = cut ? 0.3 : 1
        let eyes = sharpestEyes > 0 ? min(1, eyeSharpness / sharpestEyes).squareRoot() : 1
        return 1 + Self.maximumBonus * confidence * sizeFactor * whole * eyes
    }
}
