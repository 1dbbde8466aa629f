import Foundation
import Testing
import ViewfinderTestSupport

@testable import ViewfinderCore

/// One editor layout and the zoom limits it must produce.
struct ZoomCase: Sendable, CustomTestStringConvertible {
    let image: Size
    let viewport: Size
    let crop: Size
    let minimum: Double
    let initial: Double
    let maximum: Double

    var testDescription: String { "image \(image), viewport \(viewport), crop \(crop)" }
}

@Suite("Crop geometry")
struct CropGeometryTests {
    // Values chosen so every expected zoom is exact in binary floating point (or is the very
    // same expression the rule names, like 300/3000), so the comparisons can be exact.
    static let zoomCases: [ZoomCase] = [
        // Landscape photo bigger than a tall viewport: the photo's height limits the crop.
        ZoomCase(image: Size(width: 4000, height: 3000), viewport: Size(width: 400, height: 800),
                 crop: Size(width: 300, height: 300), minimum: 0.1, initial: 0.1, maximum: 1),
        // Photo smaller than the crop: it must be enlarged to cover, and may go 3× further.
        ZoomCase(image: Size(width: 200, height: 100), viewport: Size(width: 400, height: 400),
                 crop: Size(width: 300, height: 300), minimum: 3, initial: 3, maximum: 9),
        // Portrait photo in a wide viewport: fitting the height is below the minimum.
        ZoomCase(image: Size(width: 3000, height: 4000), viewport: Size(width: 800, height: 400),
                 crop: Size(width: 300, height: 300), minimum: 0.1, initial: 0.1, maximum: 1),
        // Portrait photo, square viewport: the width limits the crop, the height the fit.
        ZoomCase(image: Size(width: 1000, height: 2000), viewport: Size(width: 1000, height: 1000),
                 crop: Size(width: 500, height: 500), minimum: 0.5, initial: 0.5, maximum: 1.5),
        // Square photo: fitting the viewport shows more than the minimum.
        ZoomCase(image: Size(width: 1024, height: 1024), viewport: Size(width: 512, height: 512),
                 crop: Size(width: 256, height: 256), minimum: 0.25, initial: 0.5, maximum: 1),
        // Small square photo in a larger viewport: enlarged to fit, within 3× the minimum.
        ZoomCase(image: Size(width: 100, height: 100), viewport: Size(width: 400, height: 300),
                 crop: Size(width: 200, height: 200), minimum: 2, initial: 3, maximum: 6),
        // A 2:1 rectangle crop on a wide panorama.
        ZoomCase(image: Size(width: 1600, height: 400), viewport: Size(width: 800, height: 800),
                 crop: Size(width: 800, height: 400), minimum: 1, initial: 1, maximum: 3),
        // A 1:2 rectangle crop on a photo far smaller than the viewport.
        ZoomCase(image: Size(width: 100, height: 50), viewport: Size(width: 1000, height: 1000),
                 crop: Size(width: 400, height: 800), minimum: 16, initial: 16, maximum: 48),
        // A tiny photo in a big viewport: fitting would enlarge it 4×, past the maximum of 1.5.
        ZoomCase(image: Size(width: 200, height: 200), viewport: Size(width: 1000, height: 800),
                 crop: Size(width: 100, height: 100), minimum: 0.5, initial: 1.5, maximum: 1.5),
    ]

    @Test("zoom limits", arguments: zoomCases)
    func zoomLimits(_ c: ZoomCase) {
        let g = CropGeometry(imageSize: c.image, viewportSize: c.viewport, cropSize: c.crop)
        #expect(g.minimumZoom == c.minimum)
        #expect(g.initialZoom == c.initial)
        #expect(g.maximumZoom == c.maximum)
        let middle = Point(x: c.image.width / 2, y: c.image.height / 2)
        #expect(g.initialState == CropState(zoom: c.initial, center: middle))
        #expect(g.minimumState == CropState(zoom: c.minimum, center: middle))
        #expect(g.clamped(g.initialState) == g.initialState, "the editor opens in a state it allows")
    }

    @Test("a crop as high as the photo stays inside it in a viewport where rounding makes it a hair larger")
    func cropNeverPastTheEdge() {
        // A 425×250 photo in a 958×601 editor: 569 / (569 / 250) is 250.00000000000003, and
        // centring that crop put its top at -1.4e-14, which the renderer refuses.
        let viewport = Size(width: 958, height: 601)
        let g = CropGeometry(imageSize: Size(width: 425, height: 250), viewportSize: viewport,
                             cropSize: CropGeometry.cropSize(for: .square, in: viewport, inset: 16))
        for state in [g.initialState, g.minimumState, g.panned(g.initialState, by: Point(x: 0, y: 50))] {
            let rect = g.cropRect(state)
            #expect(rect.minY >= 0 && rect.maxY <= 250 && rect.minX >= 0 && rect.maxX <= 425, "\(rect)")
            #expect(abs(rect.height - 250) < 1e-9 && abs(rect.width - rect.height) < 1e-9)
        }
    }

    @Test("a given maximum zoom is kept, but never below the minimum")
    func givenMaximumZoom() {
        let image = Size(width: 200, height: 100), viewport = Size(width: 400, height: 400)
        let crop = Size(width: 300, height: 300)
        #expect(CropGeometry(imageSize: image, viewportSize: viewport, cropSize: crop, maximumZoom: 5).maximumZoom == 5)
        #expect(CropGeometry(imageSize: image, viewportSize: viewport, cropSize: crop, maximumZoom: 2).maximumZoom == 3)
        #expect(CropGeometry(imageSize: image, viewportSize: viewport, cropSize: crop, maximumZoom: .nan).maximumZoom == 9)
        #expect(CropGeometry(imageSize: image, viewportSize: viewport, cropSize: crop, maximumZoom: -1).maximumZoom == 9)
    }

    @Test("the crop frame is the largest of its shape inside the inset viewport")
    func cropFrameSizes() {
        let tall = Size(width: 400, height: 800)
        #expect(CropGeometry.cropSize(for: .circle, in: tall) == Size(width: 400, height: 400))
        #expect(CropGeometry.cropSize(for: .square, in: tall, inset: 20) == Size(width: 360, height: 360))
        #expect(CropGeometry.cropSize(for: .rectangle(aspectRatio: 2), in: tall) == Size(width: 400, height: 200))
        #expect(CropGeometry.cropSize(for: .rectangle(aspectRatio: 0.25), in: tall) == Size(width: 200, height: 800))
        #expect(CropGeometry.cropSize(for: .rectangle(aspectRatio: 0.5), in: tall, inset: 50) == Size(width: 300, height: 600))
        #expect(CropGeometry.cropSize(for: .circle, in: tall, inset: 300) == Size.zero, "no room left")
        #expect(CropGeometry.cropSize(for: .rectangle(aspectRatio: 0), in: tall) == Size(width: 400, height: 400))
        #expect(CropGeometry.cropSize(for: .rectangle(aspectRatio: .nan), in: tall) == Size(width: 400, height: 400))
        let g = CropGeometry(imageSize: Size(width: 10, height: 10), viewportSize: tall, cropSize: Size(width: 300, height: 300))
        #expect(g.cropFrame == Rect(x: 50, y: 250, width: 300, height: 300))
    }

    /// A square photo where every number below is exact: zoom 0.25 shows the whole 1024-pixel
    /// width in the 256-point crop.
    static let square = CropGeometry(
        imageSize: Size(width: 1024, height: 1024), viewportSize: Size(width: 512, height: 512),
        cropSize: Size(width: 256, height: 256)
    )

    @Test("panning past every edge stops at that edge")
    func panStopsAtEdges() {
        let g = Self.square
        let start = CropState(zoom: 1, center: Point(x: 512, y: 512))
        // Dragging right shows the left of the photo, so a long drag lands on its left edge.
        #expect(g.cropRect(g.panned(start, by: Point(x: 10_000, y: 0))) == Rect(x: 0, y: 384, width: 256, height: 256))
        #expect(g.cropRect(g.panned(start, by: Point(x: -10_000, y: 0))) == Rect(x: 768, y: 384, width: 256, height: 256))
        #expect(g.cropRect(g.panned(start, by: Point(x: 0, y: 10_000))) == Rect(x: 384, y: 0, width: 256, height: 256))
        #expect(g.cropRect(g.panned(start, by: Point(x: 0, y: -10_000))) == Rect(x: 384, y: 768, width: 256, height: 256))
        #expect(g.cropRect(g.panned(start, by: Point(x: .infinity, y: -.infinity))) == Rect(x: 384, y: 384, width: 256, height: 256),
                "a broken gesture is ignored")
        // A short drag moves the photo with the finger, one image pixel per point at zoom 1.
        #expect(g.panned(start, by: Point(x: 30, y: -40)) == CropState(zoom: 1, center: Point(x: 482, y: 552)))
        // At half zoom a point of drag is two image pixels.
        #expect(g.panned(CropState(zoom: 0.5, center: Point(x: 512, y: 512)), by: Point(x: 30, y: 0)).center == Point(x: 452, y: 512))
        // At the minimum zoom the crop spans the photo and cannot move at all.
        #expect(g.panned(g.minimumState, by: Point(x: 100, y: 100)) == g.minimumState)
    }

    @Test("zooming out below the minimum stops there and re-centres to keep the crop covered")
    func zoomOutStopsAtMinimum() {
        let g = Self.square
        let nearCorner = CropState(zoom: 1, center: Point(x: 200, y: 200))
        let out = g.zoomed(nearCorner, by: 0.1, at: Point(x: 256, y: 256))
        #expect(out == CropState(zoom: 0.25, center: Point(x: 512, y: 512)))
        #expect(g.cropRect(out) == Rect(x: 0, y: 0, width: 1024, height: 1024))
        #expect(g.clamped(CropState(zoom: 0.01, center: Point(x: 0, y: 0))) == g.minimumState)
    }

    @Test("zooming about a point keeps the photo still under that point")
    func zoomAboutFocalPoint() {
        let g = Self.square
        let start = CropState(zoom: 0.5, center: Point(x: 512, y: 512))
        let focal = Point(x: 384, y: 256)
        #expect(g.imagePoint(atViewportPoint: focal, in: start) == Point(x: 768, y: 512))
        let zoomedIn = g.zoomed(start, by: 2, at: focal)
        #expect(zoomedIn == CropState(zoom: 1, center: Point(x: 640, y: 512)))
        #expect(g.imagePoint(atViewportPoint: focal, in: zoomedIn) == Point(x: 768, y: 512))

        // Asked for 10× the limit allows only 2×, and the point under the fingers still holds.
        let pastMaximum = g.zoomed(start, by: 10, at: focal)
        #expect(pastMaximum == zoomedIn)

        // Zooming in about the top-left corner of the viewport would pull the crop off the photo
        // (centre at 0, 0); the clamp stops it at the corner.
        let corner = g.zoomed(g.minimumState, by: 2, at: Point(x: 0, y: 0))
        #expect(corner == CropState(zoom: 0.5, center: Point(x: 256, y: 256)))
        #expect(g.cropRect(corner) == Rect(x: 0, y: 0, width: 512, height: 512))

        #expect(g.zoomed(start, by: 0, at: focal) == start, "a factor of zero changes nothing")
        #expect(g.zoomed(start, by: .nan, at: focal) == start)
        #expect(g.zoomed(start, by: 2, at: Point(x: .nan, y: 0)) == start)
    }

    @Test("states that are not numbers fall back to the minimum zoom and the photo's middle")
    func brokenStates() {
        let g = Self.square
        #expect(g.clamped(CropState(zoom: .nan, center: Point(x: 512, y: 512))).zoom == 0.25)
        #expect(g.clamped(CropState(zoom: .infinity, center: Point(x: 512, y: 512))).zoom == 0.25)
        #expect(g.clamped(CropState(zoom: 1, center: Point(x: .nan, y: .nan))).center == Point(x: 512, y: 512))
        #expect(g.clamped(CropState(zoom: 1, center: Point(x: .infinity, y: -.infinity))).center == Point(x: 896, y: 128))
        #expect(g.clamped(CropState(zoom: 100, center: Point(x: 512, y: 512))).zoom == 1)
    }

    @Test("degenerate sizes still give finite maths")
    func degenerateSizes() {
        let g = CropGeometry(imageSize: .zero, viewportSize: Size(width: -5, height: .nan), cropSize: Size(width: 0, height: 0))
        #expect(g.imageSize == Size(width: 1, height: 1))
        #expect(g.minimumZoom == 1)
        #expect(g.cropRect(g.initialState) == Rect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test("the photo is drawn so the crop's centre pixel sits mid-viewport")
    func viewRect() {
        let g = Self.square
        #expect(g.viewRect(CropState(zoom: 0.5, center: Point(x: 640, y: 512))) == Rect(x: -64, y: 0, width: 512, height: 512))
        #expect(g.viewRect(g.minimumState) == Rect(x: 128, y: 128, width: 256, height: 256))
    }

    @Test("a saved crop reopens in the state that made it")
    func stateFromCropRect() {
        let g = Self.square
        let state = CropState(zoom: 0.5, center: Point(x: 300, y: 700))
        let rect = g.cropRect(state)
        #expect(rect == Rect(x: 44, y: 444, width: 512, height: 512))
        #expect(g.state(cropRect: rect) == state)
        // A rectangle wider than the frame's shape is covered whole: the zoom fits its width.
        #expect(g.state(cropRect: Rect(x: 0, y: 0, width: 512, height: 256)) == CropState(zoom: 0.5, center: Point(x: 256, y: 256)))
        // A rectangle reaching off the photo is pulled back on.
        #expect(g.state(cropRect: Rect(x: 900, y: -50, width: 256, height: 256)) == CropState(zoom: 1, center: Point(x: 896, y: 128)))
        #expect(g.state(cropRect: Rect(x: 0, y: 0, width: 0, height: 0)) == g.minimumState)
    }
}

@Suite("Crop geometry properties")
struct CropGeometryPropertyTests {
    @Test("the generator matches the published SplitMix64 sequence")
    func generator() {
        var r = SplitMix64(seed: 0)
        #expect(r.next() == 0xE220_A839_7B1D_CDAF)
        #expect(r.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test("random gestures keep the crop covered, in range and in shape", arguments: [1, 2, 3, 4] as [UInt64])
    func randomGestures(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var steps = 0
        for layout in 0..<500 {
            let g = Self.randomGeometry(using: &random)
            var state = g.initialState
            if let problem = Self.problem(with: state, in: g) {
                Issue.record("seed \(seed) layout \(layout) initial state: \(problem)")
                return
            }
            for step in 0..<40 {
                let (next, gesture, extra) = Self.randomGesture(from: state, in: g, using: &random)
                steps += 1
                if let problem = Self.problem(with: next, in: g) ?? extra {
                    Issue.record("seed \(seed) layout \(layout) step \(step) \(gesture), \(g): \(problem)")
                    return
                }
                state = next
            }
        }
        #expect(steps == 500 * 40)
    }

    static func randomGeometry(using random: inout SplitMix64) -> CropGeometry {
        let image = Size(width: Double(Int.random(in: 1...20_000, using: &random)),
                         height: Double(Int.random(in: 1...20_000, using: &random)))
        let viewport = Size(width: Double.random(in: 100...3000, using: &random),
                            height: Double.random(in: 100...3000, using: &random))
        let shape: CropShape = switch Int.random(in: 0..<3, using: &random) {
        case 0: .circle
        case 1: .square
        default: .rectangle(aspectRatio: Double.random(in: 0.2...5, using: &random))
        }
        let inset = Double.random(in: 0...(min(viewport.width, viewport.height) / 3), using: &random)
        let crop = CropGeometry.cropSize(for: shape, in: viewport, inset: inset)
        let maximum: Double? = Bool.random(using: &random) ? nil : Double.random(in: 0.001...100, using: &random)
        return CropGeometry(imageSize: image, viewportSize: viewport, cropSize: crop, maximumZoom: maximum)
    }

    /// One random gesture, its name for failure messages, and any problem specific to it.
    static func randomGesture(
        from state: CropState, in g: CropGeometry, using random: inout SplitMix64
    ) -> (CropState, String, String?) {
        let vp = g.viewportSize
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            let reach = Int.random(in: 0..<10, using: &random) == 0 ? 1e7 : 500
            let delta = Point(x: Double.random(in: -reach...reach, using: &random),
                              y: Double.random(in: -reach...reach, using: &random))
            return (g.panned(state, by: delta), "pan \(delta)", nil)
        case 1:
            let factor = exp(Double.random(in: -2...2, using: &random))
            let focal = Point(x: Double.random(in: -vp.width...(2 * vp.width), using: &random),
                              y: Double.random(in: -vp.height...(2 * vp.height), using: &random))
            let next = g.zoomed(state, by: factor, at: focal)
            return (next, "zoom ×\(factor) at \(focal)", focalProblem(g, from: state, to: next, factor: factor, focal: focal))
        case 2:
            let replayed = g.state(cropRect: g.cropRect(state))
            let scale = max(g.imageSize.width, g.imageSize.height)
            let same = abs(replayed.zoom / state.zoom - 1) <= 1e-9
                && abs(replayed.center.x - state.center.x) <= 1e-9 * scale
                && abs(replayed.center.y - state.center.y) <= 1e-9 * scale
            return (replayed, "replay of \(state)", same ? nil : "replayed as \(replayed)")
        default:
            let wild = CropState(zoom: exp(Double.random(in: -10...10, using: &random)),
                                 center: Point(x: Double.random(in: -1e5...1e5, using: &random),
                                               y: Double.random(in: -1e5...1e5, using: &random)))
            return (g.clamped(wild), "clamp of \(wild)", nil)
        }
    }

    /// When the final clamp did not have to move the centre, the pixel under the fingers must
    /// still be under them.
    static func focalProblem(_ g: CropGeometry, from state: CropState, to next: CropState, factor: Double, focal: Point) -> String? {
        let anchor = g.imagePoint(atViewportPoint: focal, in: state)
        let zoom = g.clamped(CropState(zoom: state.zoom * factor, center: state.center)).zoom
        let free = CropState(zoom: zoom, center: Point(x: anchor.x - (focal.x - g.viewportSize.width / 2) / zoom,
                                                       y: anchor.y - (focal.y - g.viewportSize.height / 2) / zoom))
        guard g.clamped(free) == free else { return nil }
        let after = g.imagePoint(atViewportPoint: focal, in: next)
        let tolerance = 1e-9 * max(g.imageSize.width, g.imageSize.height, abs(anchor.x), abs(anchor.y))
        guard abs(after.x - anchor.x) <= tolerance, abs(after.y - anchor.y) <= tolerance else {
            return "pixel \(anchor) under the fingers moved to \(after)"
        }
        return nil
    }

    /// What, if anything, breaks the editor's promises in `state`.
    static func problem(with state: CropState, in g: CropGeometry) -> String? {
        guard state.zoom >= g.minimumZoom, state.zoom <= g.maximumZoom else {
            return "zoom \(state.zoom) outside \(g.minimumZoom)...\(g.maximumZoom)"
        }
        guard g.clamped(state) == state else { return "\(state) is not a clamped state" }
        let rect = g.cropRect(state)
        let photo = Rect(origin: .zero, size: g.imageSize)
        guard photo.contains(rect, tolerance: 1e-6 * max(g.imageSize.width, g.imageSize.height)) else {
            return "crop \(rect) leaves the photo \(g.imageSize)"
        }
        guard abs(rect.size.aspectRatio / g.cropSize.aspectRatio - 1) <= 1e-9 else {
            return "crop \(rect) lost the frame's aspect ratio \(g.cropSize.aspectRatio)"
        }
        return nil
    }
}
