import Foundation

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The largest side a size written as text may have.
    public static let largestWrittenSide = 16384

    /// Parses "640x360" or "640×360": both sides whole numbers from 1 to `largestWrittenSide`
    /// (the one WxH reader: options, presets and specs add their own narrower rules).
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "×", omittingEmptySubsequences: false)
        }
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) && $0.count <= 6 }),
              let width = Int(parts[0]), let height = Int(parts[1]),
              (1...Self.largestWrittenSide).contains(width), (1...Self.largestWrittenSide).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    /// Width × height, widened so that absurd headers cannot overflow.
    public var area: Int64 { Int64(width) * Int64(height) }

    /// The same size with width and height exchanged (a quarter turn).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The largest size with this aspect ratio that fits in `box`, never larger than `self`
    /// (no upscaling); each side at least 1 pixel.
    public func fitting(in box: PixelSize) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return self }
        if width <= box.width && height <= box.height { return self }
        // Compare width/box.width with height/box.height without floating point.
        if Int64(width) * Int64(box.height) >= Int64(height) * Int64(box.width) {
            let h = (Int64(height) * Int64(box.width) + Int64(width) / 2) / Int64(width)
            return PixelSize(width: box.width, height: max(1, Int(h)))
        } else {
            let w = (Int64(width) * Int64(box.height) + Int64(height) / 2) / Int64(height)
            return PixelSize(width: max(1, Int(w)), height: box.height)
        }
    }

    /// This aspect ratio at the given height (width rounded to the nearest pixel, at least 1).
    public func scaled(toHeight newHeight: Int) -> PixelSize {
        guard width > 0, height > 0, newHeight > 0 else { return self }
        let w = (Int64(width) * Int64(newHeight) + Int64(height) / 2) / Int64(height)
        return PixelSize(width: max(1, Int(w)), height: newHeight)
    }

    public var description: String { "\(width)×\(height)" }
}

/// A clockwise quarter-turn rotation that a video's display matrix asks for.
public enum Rotation: Int, Sendable, Hashable, Codable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// The nearest quarter turn to an angle in degrees, clockwise; any angle is accepted.
    public init(clockwiseDegrees degrees: Double) {
        guard degrees.isFinite else { self = .none; return }
        var quarter = Int((degrees / 90).rounded()) % 4
        if quarter < 0 { quarter += 4 }
        self = Rotation(rawValue: quarter * 90) ?? .none
    }

    /// The clockwise angle in degrees.
    public var degrees: Int { rawValue }

    /// Whether width and height trade places.
    public var swapsDimensions: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size a coded picture has once rotated for display.
    public func apply(to size: PixelSize) -> PixelSize { swapsDimensions ? size.transposed : size }
}
