import Foundation
import ViewfinderCore

/// Where the HUD box sits in its container and how big it is, as the original component lays it
/// out: centred, moved by `offset`, kept `margin` away from every edge, content padded by `margin`,
/// at least `minSize`, optionally square.
public struct HUDLayout: Sendable, Hashable {
    /// An offset this large on either axis pins the box to that edge (at `margin` from it): pass
    /// `Point(x: 0, y: HUDLayout.maxOffset)` for the bottom edge, `-maxOffset` for the top.
    public static let maxOffset: Double = 1_000_000

    /// Displacement of the box's centre from the container's centre, in points.
    public var offset: Point
    /// Padding between the box's edge and its content, and the least distance between the box and
    /// the container's edges.
    public var margin: Double
    /// The smallest box, whatever the content.
    public var minSize: Size
    /// When true the box is as wide as it is tall (the larger side wins).
    public var isSquare: Bool

    /// The original component's defaults: centred, 20-point margin, no minimum, not square.
    public init(offset: Point = .zero, margin: Double = 20, minSize: Size = .zero, isSquare: Bool = false) {
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
    public func box(in container: Size, content: Size) -> Rect {
        let container = Size(clampingWidth: container.width, height: container.height)
        let content = Size(clampingWidth: content.width, height: content.height)
        var width = max(content.width + 2 * margin, minSize.width)
        var height = max(content.height + 2 * margin, minSize.height)
        if isSquare {
            width = max(width, height)
            height = width
        }
        let room = Size(clampingWidth: container.width - 2 * margin, height: container.height - 2 * margin)
        width = min(width, room.width)
        height = min(height, room.height)
        if isSquare {
            // Shrinking one side must not break the promise of a square box.
            width = min(width, height)
            height = width
        }
        let x = placed(size: width, in: container.width, offset: offset.x)
        let y = placed(size: height, in: container.height, offset: offset.y)
        return Rect(x: x, y: y, width: width, height: height)
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
