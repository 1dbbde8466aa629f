import Foundation

/// A size in points (a renderer's unit); Double-based because a HUD box is placed, not sampled.
public struct HUDSize: Sendable, Hashable, CustomStringConvertible {
    /// Across, in points, never negative.
    public var width: Double
    /// Down, in points, never negative.
    public var height: Double

    /// A size; negative or non-finite sides count as 0.
    public init(width: Double, height: Double) {
        self.width = HUDSize.sanitised(width)
        self.height = HUDSize.sanitised(height)
    }

    /// No width, no height.
    public static let zero = HUDSize(width: 0, height: 0)

    /// "140.0×90.0".
    public var description: String { "\(width)×\(height)" }

    private static func sanitised(_ value: Double) -> Double {
        value.isFinite ? max(0, value) : 0
    }
}

/// A point or a displacement in points.
public struct HUDPoint: Sendable, Hashable, CustomStringConvertible {
    /// Across, in points, growing rightwards.
    public var x: Double
    /// Down, in points, growing downwards.
    public var y: Double

    /// A point; `y` grows downwards, as on screen.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, or no displacement.
    public static let zero = HUDPoint(x: 0, y: 0)

    /// "(130.0, 105.0)".
    public var description: String { "(\(x), \(y))" }
}

/// A rectangle in points: its top-left corner and its size.
public struct HUDRect: Sendable, Hashable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: HUDPoint
    /// The width and height.
    public var size: HUDSize

    /// A rectangle from its top-left corner and size.
    public init(origin: HUDPoint, size: HUDSize) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its four numbers.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: HUDPoint(x: x, y: y), size: HUDSize(width: width, height: height))
    }

    /// The middle of the rectangle.
    public var center: HUDPoint {
        HUDPoint(x: origin.x + size.width / 2, y: origin.y + size.height / 2)
    }

    /// "(130.0, 105.0) 140.0×90.0".
    public var description: String { "\(origin) \(size)" }
}

/// Where the HUD box sits in its container and how big it is, as the original component lays it
/// out: centred, moved by `offset`, kept `margin` away from every edge, content padded by `margin`,
/// at least `minSize`, optionally square.
public struct HUDLayout: Sendable, Hashable {
    /// An offset this large on either axis pins the box to that edge (at `margin` from it): pass
    /// `HUDPoint(x: 0, y: HUDLayout.maxOffset)` for the bottom edge, `-maxOffset` for the top.
    public static let maxOffset: Double = 1_000_000

    /// Displacement of the box's centre from the container's centre, in points.
    public var offset: HUDPoint
    /// Padding between the box's edge and its content, and the least distance between the box and
    /// the container's edges.
    public var margin: Double
    /// The smallest box, whatever the content.
    public var minSize: HUDSize
    /// When true the box is as wide as it is tall (the larger side wins).
    public var isSquare: Bool

    /// The original component's defaults: centred, 20-point margin, no minimum, not square.
    public init(offset: HUDPoint = .zero, margin: Double = 20, minSize: HUDSize = .zero, isSquare: Bool = false) {
        self.offset = offset
        self.margin = margin.isFinite ? max(0, margin) : 0
        self.minSize = minSize
        self.isSquare = isSquare
    }

    /// The HUD box for content of `content` size in a container of `container` size, in the
    /// container's coordinates.
    ///
    /// The box never leaves the container's margins: a box that would be larger is shrunk to
    /// fit (a renderer then wraps or clips its content), and an offset that would push it out
    /// stops it at the edge — which is what makes `maxOffset` pin it there.
    public func box(in container: HUDSize, content: HUDSize) -> HUDRect {
        var width = max(content.width + 2 * margin, minSize.width)
        var height = max(content.height + 2 * margin, minSize.height)
        if isSquare {
            width = max(width, height)
            height = width
        }
        let room = HUDSize(width: container.width - 2 * margin, height: container.height - 2 * margin)
        width = min(width, room.width)
        height = min(height, room.height)
        if isSquare {
            // Shrinking one side must not break the promise of a square box.
            width = min(width, height)
            height = width
        }
        let x = placed(size: width, in: container.width, offset: offset.x)
        let y = placed(size: height, in: container.height, offset: offset.y)
        return HUDRect(x: x, y: y, width: width, height: height)
    }

    /// The leading coordinate of a box of `size`, centred in `length` plus `offset`, clamped
    /// between the two margins.
    private func placed(size: Double, in length: Double, offset: Double) -> Double {
        let shift = offset.isFinite ? offset : 0
        let centred = (length - size) / 2 + shift
        let lowest = min(margin, (length - size) / 2)
        let highest = max(length - margin - size, lowest)
        return min(max(centred, lowest), highest)
    }
}
