import Foundation
import ViewfinderCore

/// The largest scene Viewfinder reads and renders: a scene within every limit renders in
/// bounded time and memory, and a number outside them is refused with one line naming its key
/// before it is converted or multiplied.
///
/// This is the one place the limits live: `Scene.parse(_:)` checks them, the renderer and
/// `viewfinder animate` budget with them, and the README's table is `markdownTable` (a test
/// keeps the two equal).
public enum SceneLimits {
    /// The longest side of the canvas, in points (the largest frame `animate` makes is 8192 pixels).
    public static let maxCanvasSide: Double = 8192
    /// The longest scene `duration` (and `--duration`, `--at`), in seconds: one hour.
    public static let maxDuration: Double = 3600
    /// The most frames one rendering makes (duration × fps): an hour at 30 fps.
    public static let maxFrameCount = 108_000
    /// The most layers in a scene, sublayers included.
    public static let maxLayerCount = 10_000
    /// The most sprites in a scene, each sprite of a `then` chain counted.
    public static let maxSpriteCount = 100_000
    /// How deeply sublayers may nest (a top-level layer is level 1).
    public static let maxLayerDepth = 32
    /// How deeply the JSON document's arrays and objects may nest.
    public static let maxJSONDepth = 100
    /// The largest `shadowRadius` (the blur's standard deviation), in points. The renderer also
    /// draws any blur wider than half the frame's longer side as that wide (see `shadowBlurLimit`).
    public static let maxShadowRadius: Double = 1000
    /// The largest magnitude of any other number: positions, sizes, angles, scales, offsets,
    /// opacities, sprite durations and delays, repeat counts, spring parameters.
    public static let maxMagnitude: Double = 1_000_000
    /// The largest scene file `viewfinder animate` reads, in bytes (32 MiB).
    public static let maxSceneBytes: Int64 = 32 << 20
    /// The largest image file a layer's `contents` may name, in bytes (64 MiB).
    public static let maxImageBytes: Int64 = 64 << 20
    /// The most pixels an image's header may declare (50 megapixels), checked before decoding.
    public static let maxImagePixels: Int64 = 50_000_000

    /// The number of frames `duration` seconds at `fps` make (at least one), or nil when that is
    /// more than `maxFrameCount` or the duration is not a finite number ≥ 0.
    public static func frameCount(duration: Double, fps: Int) -> Int? {
        guard duration.isFinite, duration >= 0, fps > 0 else { return nil }
        let frames = (duration * Double(fps)).rounded()
        guard frames <= Double(maxFrameCount) else { return nil }
        return max(1, Int(frames))
    }

    /// The widest shadow blur (standard deviation, in pixels) drawn on a `width` × `height`
    /// frame: half its longer side. A wider Gaussian only spreads the shadow into a fainter,
    /// flatter wash, which the renderer approximates by fading the shadow instead, so the
    /// memory a blur takes follows the frame, not the radius.
    public static func shadowBlurLimit(width: Int, height: Int) -> Double {
        max(1, Double(max(width, height)) / 2)
    }

    /// Every limit with its value as written in the README and what it bounds, in table order.
    public static let table: [(name: String, value: String, meaning: String)] = [
        ("canvas side", "\(number(maxCanvasSide)) points", "each side of `size`"),
        ("duration", "\(number(maxDuration)) s", "`duration`, and `animate --duration` and `--at`"),
        ("frames", grouped(maxFrameCount), "duration × fps of one rendering"),
        ("layers", grouped(maxLayerCount), "layers in a scene, sublayers included"),
        ("sprites", grouped(maxSpriteCount), "sprites in a scene, each of a `then` chain counted"),
        ("sublayer depth", "\(maxLayerDepth)", "levels of `sublayers`"),
        ("JSON depth", "\(maxJSONDepth)", "levels of nested arrays and objects"),
        ("shadow radius", "\(number(maxShadowRadius)) points",
         "`shadowRadius`; a blur wider than half the frame is drawn that wide, fainter"),
        ("other numbers", "±\(grouped(Int(maxMagnitude)))", "every other number (positions, sizes, times, scales…)"),
        ("scene file", "\(maxSceneBytes >> 20) MiB", "the JSON document `animate` reads"),
        ("image file", "\(maxImageBytes >> 20) MiB", "a regular file (not a FIFO, device or folder)"),
        ("image pixels", "\(maxImagePixels / 1_000_000) MP", "as the image's header declares them"),
    ]

    /// The README's table of scene limits, from `table`.
    public static var markdownTable: String {
        (["| Limit | Value | Applies to |", "| --- | --- | --- |"]
            + table.map { "| \($0.name) | \($0.value) | \($0.meaning) |" }).joined(separator: "\n")
    }

    /// `range` as an error message writes it: `(0…1000)`.
    static func describe(_ range: ClosedRange<Double>) -> String {
        "(\(number(range.lowerBound))…\(number(range.upperBound)))"
    }

    /// A number as a person writes it: `1000`, `0.5`, `1e308` (never `1e+308`).
    static func number(_ value: Double) -> String {
        JSONValue.text(of: value).replacingOccurrences(of: "e+", with: "e")
    }

    private static func grouped(_ value: Int) -> String {
        var digits = String(value)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(" ", at: index)
        }
        return digits
    }
}
