import Foundation

/// Where the crop editor stands: how far the photo is zoomed, which part of it sits under the
/// crop frame and how far it is turned. It is all the editor needs to remember; `CropGeometry`
/// turns it into rectangles.
public struct CropState: Sendable, Hashable {
    /// Screen points per image pixel: 1 shows the photo at its own size, 0.5 at half.
    public var zoom: Double
    /// The image pixel (upright image coordinates) under the centre of the crop frame.
    public var center: Point
    /// How far the photo is turned, in degrees, clockwise on screen, about the crop's centre
    /// (to straighten a tilted horizon); the crop frame itself stays upright.
    public var rotation: Double

    /// A state at `zoom` with `center` under the middle of the crop frame, turned by `rotation`.
    public init(zoom: Double, center: Point, rotation: Double = 0) {
        self.zoom = zoom
        self.center = center
        self.rotation = rotation
    }
}

/// The maths of the avatar crop editor: a photo shown zoomed and panned in a viewport, with a
/// crop frame fixed in the middle of the viewport.
///
/// The rule it enforces is the editor's promise: the crop frame is always covered by the photo,
/// at every zoom and after every pan, so the avatar never shows empty space. Every operation
/// returns a clamped state, whatever state or gesture it is given.
///
/// Viewport coordinates are screen points with the origin at the viewport's top-left corner;
/// image coordinates are pixels of the upright photo with the origin at its top-left corner.
public struct CropGeometry: Sendable, Hashable {
    /// The upright photo's size in pixels.
    public let imageSize: Size
    /// The view the photo is shown in, in screen points.
    public let viewportSize: Size
    /// The crop frame, in screen points, centred in the viewport.
    public let cropSize: Size
    /// Whether the crop is a circle (its outline does not change as the photo turns).
    public let isRound: Bool
    /// The caller's maximum zoom, if any; `maximumZoom` reconciles it with the minimum.
    private let requestedMaximumZoom: Double?

    /// A geometry for one photo in one viewport.
    ///
    /// Sizes that are zero, negative or not finite are taken as 1 so that the maths stays
    /// finite; such a photo or viewport is a caller's bug, and a crop of it is meaningless anyway.
    /// `maximumZoom` that is not a positive number is ignored. A `round` crop (a circle) needs
    /// no more zoom when the photo turns.
    public init(imageSize: Size, viewportSize: Size, cropSize: Size, maximumZoom: Double? = nil, round: Bool = false) {
        self.isRound = round
        self.imageSize = CropGeometry.usable(imageSize)
        self.viewportSize = CropGeometry.usable(viewportSize)
        self.cropSize = CropGeometry.usable(cropSize)
        if let maximumZoom, maximumZoom > 0, !maximumZoom.isNaN {
            self.requestedMaximumZoom = maximumZoom
        } else {
            self.requestedMaximumZoom = nil
        }
    }

    /// The largest frame of `shape` that fits in `viewport` with `inset` points of margin on each
    /// side, as the editor lays out its crop frame. A rectangle with an unusable aspect ratio
    /// (zero, negative, not finite) is laid out as a square; no space left gives a zero size.
    public static func cropSize(for shape: CropShape, in viewport: Size, inset: Double = 0) -> Size {
        let margin = inset.isFinite ? inset : 0
        let available = Size(
            width: max(0, viewport.width - 2 * margin),
            height: max(0, viewport.height - 2 * margin)
        )
        guard available.width.isFinite, available.height.isFinite else { return .zero }
        let aspect = shape.usableAspectRatio
        if available.width >= available.height * aspect {
            return Size(width: available.height * aspect, height: available.height)
        } else {
            return Size(width: available.width, height: available.width / aspect)
        }
    }

    // MARK: - Zoom limits

    /// The smallest zoom at which the photo still covers the crop frame (unturned).
    public var minimumZoom: Double { minimumZoom(at: 0) }

    /// The smallest zoom at which the photo, turned by `rotation` degrees, still covers the
    /// crop: the crop, turned the other way in the photo, must lie inside it. The photo is an
    /// upright rectangle, so that holds exactly when the turned crop's bounding box lies inside
    /// it: for a w × h rectangle or square turned by θ the box is (w|cos θ| + h|sin θ|) ×
    /// (w|sin θ| + h|cos θ|), so zoom ≥ max(that width / photo width, that height / photo
    /// height). A circle turned is the same circle: what the avatar shows is covered whenever
    /// its bounding square is, at every angle, so its minimum zoom does not change.
    public func minimumZoom(at rotation: Double) -> Double {
        let box = extent(at: rotation)
        return max(box.width / imageSize.width, box.height / imageSize.height)
    }

    /// The crop's bounding box, in screen points, in the photo's own (unturned) axes, when the
    /// photo is turned by `rotation` degrees (see `minimumZoom(at:)`).
    public func extent(at rotation: Double) -> Size {
        isRound ? cropSize : cropSize.boundingSize(turnedBy: rotation)
    }

    /// The zoom the editor opens at: the whole photo fits in the viewport, unless that would leave
    /// part of the crop frame empty, in which case the photo just covers the frame. A photo much
    /// smaller than the viewport is enlarged no further than `maximumZoom`, so the first gesture
    /// does not jump.
    public var initialZoom: Double {
        let fit = min(viewportSize.width / imageSize.width, viewportSize.height / imageSize.height)
        return min(max(minimumZoom, fit), maximumZoom)
    }

    /// The largest zoom allowed: the caller's limit if given (never below the minimum), else three
    /// times the minimum, but at least one image pixel per screen point so a small photo can still
    /// be seen at its own size.
    public var maximumZoom: Double {
        if let requestedMaximumZoom { return max(requestedMaximumZoom, minimumZoom) }
        return max(3 * minimumZoom, 1.0)
    }

    /// The state the editor opens in: `initialZoom`, centred on the middle of the photo.
    public var initialState: CropState { CropState(zoom: initialZoom, center: imageCenter) }

    /// The most zoomed-out state: `minimumZoom`, centred on the middle of the photo.
    public var minimumState: CropState { CropState(zoom: minimumZoom, center: imageCenter) }

    /// Where the crop frame sits in the viewport (for drawing the frame and the dimming mask).
    public var cropFrame: Rect {
        Rect(center: Point(x: viewportSize.width / 2, y: viewportSize.height / 2), size: cropSize)
    }

    // MARK: - Gestures

    /// `state` brought within the rules: a rotation that is not a number becomes 0; the zoom
    /// within `minimumZoom(at: rotation)...maximumZoom` (a zoom that is not a number or infinite
    /// becomes the minimum), then the centre moved the least distance that puts the whole
    /// (turned) crop inside the photo (a NaN coordinate becomes the photo's middle).
    public func clamped(_ state: CropState) -> CropState {
        let rotation = state.rotation.isFinite ? state.rotation : 0
        let lowest = minimumZoom(at: rotation)
        let zoom = state.zoom.isFinite ? min(max(state.zoom, lowest), max(maximumZoom, lowest)) : lowest
        let box = extent(at: rotation)
        let halfWidth = box.width / zoom / 2
        let halfHeight = box.height / zoom / 2
        return CropState(
            zoom: zoom,
            center: Point(
                x: CropGeometry.clamp(state.center.x, halfWidth, imageSize.width - halfWidth),
                y: CropGeometry.clamp(state.center.y, halfHeight, imageSize.height - halfHeight)
            ),
            rotation: rotation
        )
    }

    /// `state` after a drag of `delta` screen points. The photo follows the finger, so dragging
    /// right shows more of the photo's left side (of the photo as turned on screen). A delta
    /// that is not a number is ignored.
    public func panned(_ state: CropState, by delta: Point) -> CropState {
        let start = clamped(state)
        guard delta.isFinite else { return start }
        let moved = CropGeometry.turn(delta, by: -start.rotation)
        return clamped(CropState(
            zoom: start.zoom,
            center: Point(x: start.center.x - moved.x / start.zoom, y: start.center.y - moved.y / start.zoom),
            rotation: start.rotation
        ))
    }

    /// `state` with the photo turned `degrees` further (clockwise on screen) about the crop's
    /// centre; the zoom grows, and the centre moves, only as much as keeps the crop covered.
    public func rotated(_ state: CropState, by degrees: Double) -> CropState {
        let start = clamped(state)
        guard degrees.isFinite else { return start }
        var turned = start
        turned.rotation = start.rotation + degrees
        return clamped(turned)
    }

    /// `state` after a pinch that scales the zoom by `factor` about `focal`, a point in the
    /// viewport. The photo pixel under `focal` stays under it, as under the user's fingers; the
    /// zoom limits apply first, so a pinch past the limit still holds that pixel still, and only
    /// the final clamp that keeps the crop covered may move it. A factor that is not a positive
    /// number changes nothing.
    public func zoomed(_ state: CropState, by factor: Double, at focal: Point) -> CropState {
        let start = clamped(state)
        guard factor.isFinite, factor > 0, focal.isFinite else { return start }
        let anchor = imagePoint(atViewportPoint: focal, in: start)
        let zoom = clamped(CropState(zoom: start.zoom * factor, center: start.center, rotation: start.rotation)).zoom
        let fromMiddle = CropGeometry.turn(Point(x: focal.x - viewportSize.width / 2, y: focal.y - viewportSize.height / 2),
                                           by: -start.rotation)
        return clamped(CropState(
            zoom: zoom,
            center: Point(x: anchor.x - fromMiddle.x / zoom, y: anchor.y - fromMiddle.y / zoom),
            rotation: start.rotation
        ))
    }

    // MARK: - Rectangles

    /// The part of the photo under the crop frame, in upright image pixels: `cropSize / zoom`,
    /// centred on the state's centre, after clamping `state`. When the crop is as wide or as
    /// high as the photo, rounding can make it a hair larger than the photo (1e-14 pixel in some
    /// viewports); it is kept inside the photo, so a cut never reaches past its edge. When the
    /// photo is turned the rectangle is the crop in the turned photo's axes (turned back about
    /// its centre by `state.rotation` it lies inside the photo, as `CropSpec.rotation` says).
    public func cropRect(_ state: CropState) -> Rect {
        let state = clamped(state)
        if state.rotation.truncatingRemainder(dividingBy: 360) != 0 {
            return Rect(center: state.center, size: Size(width: cropSize.width / state.zoom, height: cropSize.height / state.zoom))
        }
        let size = Size(width: min(cropSize.width / state.zoom, imageSize.width),
                        height: min(cropSize.height / state.zoom, imageSize.height))
        return Rect(
            x: min(max(state.center.x - size.width / 2, 0), imageSize.width - size.width),
            y: min(max(state.center.y - size.height / 2, 0), imageSize.height - size.height),
            width: size.width, height: size.height
        )
    }

    /// The state whose crop is `cropRect` (with the photo turned by `rotation`), to reopen the
    /// editor on a saved crop. When the rectangle's aspect ratio differs from the frame's, the
    /// zoom is chosen so the frame covers the whole rectangle; the result is clamped like any
    /// other state.
    public func state(cropRect: Rect, rotation: Double = 0) -> CropState {
        let zoom = min(cropSize.width / cropRect.width, cropSize.height / cropRect.height)
        return clamped(CropState(zoom: zoom, center: cropRect.center, rotation: rotation))
    }

    /// Where the whole photo sits in the viewport at `state` (after clamping), for drawing it,
    /// before it is turned: draw it there, turned by `state.rotation` about the viewport's
    /// centre (which shows the crop's centre).
    public func viewRect(_ state: CropState) -> Rect {
        let state = clamped(state)
        return Rect(
            x: viewportSize.width / 2 - state.center.x * state.zoom,
            y: viewportSize.height / 2 - state.center.y * state.zoom,
            width: imageSize.width * state.zoom,
            height: imageSize.height * state.zoom
        )
    }

    /// The photo pixel shown at `point` in the viewport at `state` (after clamping); it may lie
    /// outside the photo.
    public func imagePoint(atViewportPoint point: Point, in state: CropState) -> Point {
        let state = clamped(state)
        let offset = CropGeometry.turn(Point(x: point.x - viewportSize.width / 2, y: point.y - viewportSize.height / 2),
                                       by: -state.rotation)
        return Point(x: state.center.x + offset.x / state.zoom, y: state.center.y + offset.y / state.zoom)
    }

    /// `vector` turned by `degrees`, clockwise on screen (y grows downwards).
    public static func turn(_ vector: Point, by degrees: Double) -> Point {
        guard degrees != 0 else { return vector }
        let radians = degrees * .pi / 180
        let (c, s) = (cos(radians), sin(radians))
        return Point(x: vector.x * c - vector.y * s, y: vector.x * s + vector.y * c)
    }

    // MARK: - Helpers

    private var imageCenter: Point { Point(x: imageSize.width / 2, y: imageSize.height / 2) }

    private static func usable(_ size: Size) -> Size {
        func side(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 1 }
        return Size(width: side(size.width), height: side(size.height))
    }

    /// `value` within `lower...upper`. When rounding leaves `lower` a hair above `upper` (the
    /// crop exactly as wide as the photo) the middle of the two is the only sensible answer.
    private static func clamp(_ value: Double, _ lower: Double, _ upper: Double) -> Double {
        if lower >= upper || value.isNaN { return (lower + upper) / 2 }
        return min(max(value, lower), upper)
    }
}
