import Foundation
import ViewfinderCore

/// A layer's defaults for the sprites built on it (the original's "appearance"): every sprite
/// built after a change starts from these values, and its own chain calls override them.
public struct SpriteAppearance: Sendable, Hashable {
    /// Seconds of one pass; Core Animation's 0.25 by default.
    public var duration: Double = 0.25
    /// Seconds between activation and the first frame of motion.
    public var delay: Double = 0
    /// How many cycles.
    public var repetition: Repetition = .once
    /// Whether each cycle plays back.
    public var autoreverses = false
    /// Pacing; linear, as in Core Animation when no curve is given.
    public var curve: TimingCurve = .linear
    /// Whether sprites hold their end state after finishing.
    public var keepsAlive = false

    /// Core Animation's defaults.
    public init() {}
}
