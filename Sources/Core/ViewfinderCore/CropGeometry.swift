import Foundation

/// Where the crop editor stands: how far the photo is zoomed and which part of it sits under the
/// crop frame. It is all the editor needs to remember; `CropGeometry` turns it into rectangles.
public struct CropState: Sendable, Hashable {
    /// Screen points per image pixel: 1 shows the photo at its own size, 0.5 at half.
    public var zoom: Double
    /// The image pixel (upright image coordinates) under the centre of the crop frame.
    public var center: Point

    /// A state at `zoom` with `center` under the middle of the crop frame.
    public init(zoom: Double, center: Point) {
        self.zoom = zoom
        self.center = center
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
    /// The caller's maximum zoom, if any; `maximumZoom` reconciles it with the minimum.
    private let requestedMaximumZoom: Double?

    /// A geometry for one photo in one viewport.
    ///
    /// Sizes that are zero, negative or not finite are taken as 1 so that the maths stays
    /// finite; such a photo or viewport is a caller's bug, and a crop of it is meaningless anyway.
    /// `maximumZoom` that is not a positive number is ignored.
    public init(imageSize: Size, viewportSize: Size, cropSize: Size, maximumZoom: Double? = nil) {
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

    /// The smallest zoom at which the photo still covers the crop frame.
    public var minimumZoom: Double {
        max(cropSize.width / imageSize.width, cropSize.height / imageSize.height)
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

    /// `state` brought within the rules: the zoom within `minimumZoom...maximumZoom` (a zoom that
    /// is not a number or infinite becomes the minimum), then the centre moved the least distance
    /// that puts the whole crop inside the photo (a NaN coordinate becomes the photo's middle).
    public func clamped(_ state: CropState) -> CropState {
        let zoom = state.zoom.isFinite ? min(max(state.zoom, minimumZoom), maximumZoom) : minimumZoom
        let halfWidth = cropSize.width / zoom / 2
        let halfHeight = cropSize.height / zoom / 2
        return CropState(
            zoom: zoom,
            center: Point(
                x: CropGeometry.clamp(state.center.x, halfWidth, imageSize.width - halfWidth),
                y: CropGeometry.clamp(state.center.y, halfHeight, imageSize.height - halfHeight)
            )
        )
    }

    /// `state` after a drag of `delta` screen points. The photo follows the finger, so dragging
    /// right shows more of the photo's left side. A delta that is not a number is ignored.
    public func panned(_ state: CropState, by delta: Point) -> CropState {
        let start = clamped(state)
        guard delta.isFinite else { return start }
        return clamped(CropState(
            zoom: start.zoom,
            center: Point(x: start.center.x - delta.x / start.zoom, y: start.center.y - delta.y / start.zoom)
        ))
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
        let zoom = clamped(CropState(zoom: start.zoom * factor, center: start.center)).zoom
        let fromMiddle = Point(x: focal.x - viewportSize.width / 2, y: focal.y - viewportSize.height / 2)
        return clamped(CropState(
            zoom: zoom,
            center: Point(x: anchor.x - fromMiddle.x / zoom, y: anchor.y - fromMiddle.y / zoom)
        ))
    }

    // MARK: - Rectangles

    /// The part of the photo under the crop frame, in upright image pixels: `cropSize / zoom`,
    /// centred on the state's centre, after clamping `state`. When the crop is as wide or as
    /// high as the photo, rounding can make it a hair larger than the photo (1e-14 pixel in some
    /// viewports); it is kept inside the photo, so a cut never reaches past its edge.
    public func cropRect(_ state: CropState) -> Rect {
        let state = clamped(state)
        let size = Size(width: min(cropSize.width / state.zoom, imageSize.width),
                        height: min(cropSize.height / state.zoom, imageSize.height))
        return Rect(
            x: min(max(state.center.x - size.width / 2, 0), imageSize.width - size.width),
            y: min(max(state.center.y - size.height / 2, 0), imageSize.height - size.height),
            width: size.width, height: size.height
        )
    }

    /// The state whose crop is `cropRect`, to reopen the editor on a saved crop. When the
    /// rectangle's aspect ratio differs from the frame's, the zoom is chosen so the frame covers
    /// the whole rectangle; the result is clamped like any other state.
    public func state(cropRect: Rect) -> CropState {
        let zoom = min(cropSize.width / cropRect.width, cropSize.height / cropRect.height)
        return clamped(CropState(zoom: zoom, center: cropRect.center))
    }

    /// Where the whole photo sits in the viewport at `state` (after clamping), for drawing it.
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
        return Point(
            x: state.center.x + (point.x - viewportSize.width / 2) / state.zoom,
            y: state.center.y + (point.y - viewportSize.height / 2) / state.zoom
        )
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
