import Foundation
import Imaging
import ViewfinderCore

/// The model behind the avatar crop editor (seeds.md §2), free of any UI toolkit.
///
/// A screen shows `preview` placed at `imageFrame` in a viewport of `viewportSize`, with the
/// crop frame (`cropFrame`) in the middle and everything outside it dimmed. Drags call
/// `pan(by:)`, pinches and the scroll wheel `zoom(by:at:)`, a double-click `reset()`. The
/// limits come from `CropGeometry`: the crop is always covered by the photo. Done calls
/// `complete(side:)`, which cuts the avatar from the original at full quality.
///
/// The editor opens on the most prominent face, framed as `FaceFraming` frames it (the crop the
/// `avatar` command makes by default); a photo without a face opens whole, at the initial zoom.
@MainActor
public final class CropSession {
    /// The viewport the editor draws into, in points (`resize(to:keepingCrop:)` changes it).
    public private(set) var viewportSize: Size
    /// The outline of the crop.
    public let shape: CropShape
    /// The opened photo, once loaded.
    public private(set) var photo: Photo?
    /// The whole photo at about screen size, for drawing.
    public private(set) var preview: RasterImage?
    /// The maths of this photo in this viewport.
    public private(set) var geometry: CropGeometry?
    /// Zoom and position now.
    public private(set) var state = CropState(zoom: 1, center: Point(x: 0, y: 0))
    /// Where the editor opened, and where `reset()` returns: on the face, or the initial state.
    public private(set) var startingState = CropState(zoom: 1, center: Point(x: 0, y: 0))
    /// How the opening crop was placed (around a face, or in the middle and why).
    public private(set) var startingFraming: CropFraming?

    /// A session for a viewport; the crop frame is the largest `shape` that fits, `inset` points
    /// from the edges.
    public init(viewportSize: Size, shape: CropShape = .circle, inset: Double = 16) {
        self.viewportSize = viewportSize
        self.shape = shape
        self.inset = inset
    }

    private let inset: Double

    /// The crop frame in viewport coordinates.
    public var cropFrame: Rect {
        let size = CropGeometry.cropSize(for: shape, in: viewportSize, inset: inset)
        return Rect(x: (viewportSize.width - size.width) / 2, y: (viewportSize.height - size.height) / 2,
                    width: size.width, height: size.height)
    }

    /// Where the whole photo is drawn in the viewport now.
    public var imageFrame: Rect? { geometry?.viewRect(state) }

    /// What a screen reader hears of the crop: how far the photo is zoomed, as a percentage of
    /// the least zoom that covers the crop at its turn (100 at the least, up to the most the
    /// editor allows), and in words which part of the photo the crop shows and how far it is
    /// turned ("Zoom 150 %: the crop shows 42 % of the photo's width, centred 48 % across and
    /// 52 % down"). Nil until a photo is open.
    public var readout: CropReadout? {
        guard let geometry else { return nil }
        let least = geometry.minimumZoom(at: state.rotation)
        guard least > 0 else { return nil }
        let percent = (state.zoom / least * 100).rounded()
        let most = max(100, (geometry.maximumZoom / least * 100).rounded())
        let crop = geometry.cropRect(state), image = geometry.imageSize
        func share(_ part: Double, of whole: Double) -> Int { Int((part / max(whole, 1) * 100).rounded()) }
        let turn = (state.rotation * 10).rounded() / 10
        let values: KeyValuePairs<String, any CustomStringConvertible> = [
            "zoom": Int(percent), "width": share(crop.width, of: image.width),
            "across": share(crop.midX, of: image.width), "down": share(crop.midY, of: image.height),
            "degrees": String(format: "%g", abs(turn)),
        ]
        // TRANSLATORS: what a screen reader says of the avatar crop; the numbers are percentages
        // ({zoom} of the least zoom that covers the crop) and {degrees} how far the photo is turned.
        let text = turn == 0
            ? tr("Zoom {zoom} %: the crop shows {width} % of the photo's width, centred {across} % across and {down} % down", values)
            : turn > 0
            ? tr("Zoom {zoom} %: the crop shows {width} % of the photo's width, centred {across} % across and {down} % down, turned {degrees}° clockwise", values)
            : tr("Zoom {zoom} %: the crop shows {width} % of the photo's width, centred {across} % across and {down} % down, turned {degrees}° anticlockwise", values)
        return CropReadout(zoomPercent: min(percent, most), zoomRange: 100...most, text: text)
    }

    /// Opens `url` (header checked against `maxPixels` before any decoding), decodes a preview
    /// of about twice the viewport and looks for faces, off the main actor; starts around the
    /// most prominent face by `centre`'s rule (`.auto`: the face if there is one), else at the
    /// initial zoom. A face detector that cannot run leaves the middle, as with no face.
    public func load(_ url: URL, maxPixels: Int64 = Photo.defaultMaxPixels, centre: AvatarCentre = .auto) async throws(ImagingError) {
        let box = PixelSize(width: Int(viewportSize.width * 2), height: Int(viewportSize.height * 2))
        let (opened, picture, framed) = try await Self.open(url, maxPixels: maxPixels, previewBox: box, shape: shape,
                                                            centre: centre == .face ? .auto : centre)
        photo = opened
        preview = picture
        let made = CropGeometry(imageSize: Size(width: Double(opened.size.width), height: Double(opened.size.height)),
                                viewportSize: viewportSize, cropSize: cropFrame.size, round: shape == .circle)
        geometry = made
        startingFraming = framed.framing
        startingState = framed.framing?.kind == .face ? made.state(cropRect: framed.rect) : made.initialState
        state = startingState
    }

    nonisolated private static func open(_ url: URL, maxPixels: Int64, previewBox: PixelSize, shape: CropShape,
                                         centre: AvatarCentre) async throws(ImagingError) -> (Photo, RasterImage, CropSpec) {
        let photo = try Photo(url: url, maxPixels: maxPixels)
        let preview = try photo.preview(fitting: previewBox)
        let start: CropSpec
        do {
            start = try FaceFraming.startingCrop(for: photo, shape: shape, outputSide: 512, centre: centre)
        } catch let error as ImagingError {
            throw error
        } catch {
            // Only `.face` throws anything else, and it is never asked for here.
            start = CropSpec.centred(imageSize: photo.size, shape: shape, outputSide: 512)
        }
        return (photo, preview, start)
    }

    /// The editor's view is now `viewport` (a window resized, a layout that adapts): the crop
    /// frame is laid out again in it. With `keepingCrop` a moved crop keeps the same part of the
    /// photo under the frame (as near as the new frame's limits allow); an untouched one, or any
    /// without `keepingCrop`, opens afresh where the editor opens (on the face, or at the
    /// initial zoom). Before a photo is loaded only the size is kept, for the load to use.
    public func resize(to viewport: Size, keepingCrop: Bool = true) {
        guard viewport.width > 0, viewport.height > 0, viewport.width.isFinite, viewport.height.isFinite else { return }
        let crop = geometry.map { $0.cropRect(state) }
        viewportSize = viewport
        guard let old = geometry else { return }
        let made = CropGeometry(imageSize: old.imageSize, viewportSize: viewport, cropSize: cropFrame.size, round: shape == .circle)
        geometry = made
        let wasStart = state == startingState
        if startingFraming?.kind == .face, let face = startingFraming?.face, let photo {
            startingState = made.state(cropRect: FaceFraming.crop(around: face, imageSize: photo.size, shape: shape, outputSide: 512).rect)
        } else {
            startingState = made.initialState
        }
        // An untouched crop stays untouched (its spec keeps the opening framing).
        state = keepingCrop && !wasStart ? crop.map { made.state(cropRect: $0, rotation: state.rotation) } ?? startingState : startingState
    }

    /// Drags the photo by `delta` points (it follows the finger), within the limits.
    public func pan(by delta: Point) {
        guard let geometry else { return }
        state = geometry.panned(state, by: delta)
    }

    /// Zooms by `factor` about `focal` (viewport coordinates), which stays put, within the limits.
    public func zoom(by factor: Double, at focal: Point) {
        guard let geometry else { return }
        state = geometry.zoomed(state, by: factor, at: focal)
    }

    /// Turns the photo `degrees` further clockwise about the crop's centre (to straighten it),
    /// zooming in only as far as keeps the crop covered.
    public func rotate(by degrees: Double) {
        guard let geometry else { return }
        state = geometry.rotated(state, by: degrees)
    }

    /// Turns the photo to `degrees` in all (clockwise), as a slider sets it.
    public func setRotation(_ degrees: Double) {
        guard degrees.isFinite else { return }
        rotate(by: degrees - state.rotation)
    }

    /// Back to where the editor opened: around the face, or the initial zoom, centred.
    public func reset() {
        guard geometry != nil else { return }
        state = startingState
    }

    /// What is under the crop now, as a spec that reproduces the avatar from the original; its
    /// framing is the opening one until the crop is moved, `.editor` after.
    public func spec(side: Int = 512) -> CropSpec? {
        guard let geometry, let photo else { return nil }
        return CropSpec(imageSize: photo.size, rect: geometry.cropRect(state), shape: shape,
                        outputSize: CropSpec.outputSize(for: shape, side: side),
                        framing: state == startingState ? startingFraming : CropFraming(.editor),
                        rotation: state.rotation)
    }

    /// The avatar as it would come out, at a small size, for a live preview.
    public func previewAvatar(side: Int = 128) async throws(ImagingError) -> RasterImage? {
        guard let spec = spec(side: side), let photo else { return nil }
        return try await Self.render(photo, spec)
    }

    /// Done: the avatar at `side` pixels, at full quality from the original photo.
    public func complete(side: Int = 512) async throws(ImagingError) -> RasterImage {
        guard let spec = spec(side: side), let photo else { throw .decodeFailed(path: "", detail: tr("no photo is loaded")) }
        return try await Self.render(photo, spec)
    }

    nonisolated static func render(_ photo: Photo, _ spec: CropSpec) async throws(ImagingError) -> RasterImage {
        try AvatarMaker.render(photo, spec)
    }
}

/// Cuts the avatar a spec describes out of a photo.
public enum AvatarMaker {
    /// The avatar for `spec`, from `photo` (which must be the photo the spec was made for).
    public static func render(_ photo: Photo, _ spec: CropSpec) throws(ImagingError) -> RasterImage {
        guard spec.imageSize == photo.size else {
            throw .decodeFailed(path: photo.url.path,
                                detail: tr("the crop was made for a {width}×{height} photo, this one is {photoWidth}×{photoHeight}",
                                           ["width": spec.imageSize.width, "height": spec.imageSize.height,
                                            "photoWidth": photo.size.width, "photoHeight": photo.size.height]))
        }
        let outline: AvatarRenderer.Outline = spec.shape == .circle ? .circle : .square
        return try AvatarRenderer.render(photo, x: spec.rect.minX, y: spec.rect.minY, width: spec.rect.width,
                                         height: spec.rect.height, size: spec.outputSize, outline: outline,
                                         rotation: spec.rotation)
    }
}

/// The crop as a screen reader hears it (`CropSession.readout`).
public struct CropReadout: Sendable, Equatable {
    /// The zoom, as a percentage of the least that covers the crop.
    public let zoomPercent: Double
    /// From 100 to the most the editor allows.
    public let zoomRange: ClosedRange<Double>
    /// Which part of the photo the crop shows, and how far the photo is turned.
    public let text: String
}
