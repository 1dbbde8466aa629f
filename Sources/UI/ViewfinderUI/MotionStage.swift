import Foundation
import Imaging
import Motion
import MotionRenderer
import StudioKit
import ViewfinderCore

/// Motion driving GTK widgets: each widget attached to a layer of a Motion tree is drawn where
/// that layer is, frame by frame, at its bounds size, under its opacity, moved, scaled and
/// turned by its transform — in perspective through GTK's own 3D transforms, so a card turned
/// about y shows its near edge larger, as on iOS.
///
/// The mapping of each layer is the renderer's (`LayerRenderer.mapping(for:under:)`), chained
/// from the root, so the app and a rendered PNG put every corner at the same point. GTK's Cairo
/// renderer cannot draw 3D transforms (it paints a pink box); in a window drawn by it the stage
/// flattens perspective to the orthographic view instead (`drawsPerspective` says which).
///
/// Widgets are children of `view` (a `Fixed` the app puts in its window, sized to the root's
/// bounds). Opacity multiplies down the tree per widget (GTK has no group opacity here), and
/// sublayers are not clipped to their superlayer.
@MainActor
public final class MotionStage {
    /// The tree that drives the widgets; its root's bounds are the stage's coordinates.
    public private(set) var root: Layer
    /// The widget to show: every attached widget is a child of it.
    public let view = Fixed()
    /// What `time` counts from: the frame clock itself, or the first frame shown.
    public let timeline: Timeline
    /// The stage's time of the frame shown last, in seconds on its timeline.
    public private(set) var time: Double = 0
    /// Whether the last frame was drawn in perspective (false in a window drawn by Cairo).
    public private(set) var drawsPerspective = false

    /// What a stage's time is.
    public enum Timeline: Sendable {
        /// GTK's frame time (`FrameClock`): sprites activated now on the tree start now.
        case frameClock
        /// Seconds since the stage first played: a scene's tree, its sprites activated at 0.
        case fromStart
    }

    private var bindings: [ObjectIdentifier: Binding] = [:]
    private var drawOrder: [ObjectIdentifier] = []
    private var tick: UInt32?
    private var startedAt: Double?
    private var held: Double?
    private let renderer: LayerRenderer
    private let facesEveryLayer: Bool

    /// A stage for `root`'s tree. With `facesEveryLayer`, each layer without an attached widget
    /// shows its own look (background, contents, border, shadow) drawn by `LayerRenderer`, with
    /// relative picture paths found in `imageDirectory`: a whole scene plays in the app.
    public init(root: Layer, timeline: Timeline = .frameClock, facesEveryLayer: Bool = false, imageDirectory: URL? = nil) {
        self.root = root
        self.timeline = timeline
        self.facesEveryLayer = facesEveryLayer
        renderer = LayerRenderer(imageDirectory: imageDirectory)
        if timeline == .frameClock { root.clock = FrameClock() }
        let bounds = root.model.bounds
        view.setMinimumSize(width: Int(bounds.width.rounded(.up)), height: Int(bounds.height.rounded(.up)))
    }

    /// A stage playing `scene`: every layer shows its look, sprites from the first frame.
    public convenience init(playing scene: Scene, imageDirectory: URL? = nil) {
        self.init(root: scene.makeLayerTree(), timeline: .fromStart, facesEveryLayer: true, imageDirectory: imageDirectory)
    }

    /// Makes `widget` the face of `layer` (a layer of this stage's tree): from the next frame
    /// it is drawn where the layer is, at its bounds size. A widget replaces the layer's face.
    public func attach(_ widget: Widget, to layer: Layer) {
        detach(layer)
        view.put(widget)
        bindings[ObjectIdentifier(layer)] = Binding(widget: widget, drawn: nil)
        drawOrder = []
        if held != nil || tick == nil { update(at: time) }
    }

    /// Takes the widget off `layer` and out of the stage.
    public func detach(_ layer: Layer) {
        guard let binding = bindings.removeValue(forKey: ObjectIdentifier(layer)) else { return }
        view.remove(binding.widget)
        drawOrder = []
    }

    /// The widget drawn for `layer`, if any (attached or its face).
    public func widget(for layer: Layer) -> Widget? { bindings[ObjectIdentifier(layer)]?.widget }

    /// Runs the tree on the frame clock until `stop()`; on the `.fromStart` timeline it goes
    /// on from the instant shown.
    public func play() {
        held = nil
        guard tick == nil else { return }
        startedAt = nil
        let resumeAt = time
        tick = view.addTickCallback { [weak self] frameTime in
            guard let self else { return false }
            let start = self.startedAt ?? frameTime - resumeAt
            self.startedAt = start
            self.update(at: self.timeline == .frameClock ? frameTime : frameTime - start)
            return true
        }
    }

    /// Puts `tree` on the stage in place of the old one, at time 0 (a scene played again from
    /// its file's values); the widgets attached to the old tree's layers are taken off.
    public func restart(with tree: Layer) {
        stop()
        for binding in bindings.values { view.remove(binding.widget) }
        bindings = [:]
        drawOrder = []
        root = tree
        if timeline == .frameClock { root.clock = FrameClock() }
        time = 0
        update(at: 0)
    }

    /// Stops following the frame clock; the last frame stays.
    public func stop() {
        if let tick { view.removeTickCallback(tick) }
        tick = nil
    }

    /// Shows the instant `t` on the stage's timeline and stays there (tests, a scrubber).
    /// Stop events up to `t` are delivered first, so show instants in increasing time.
    public func hold(at t: Double) {
        stop()
        held = t
        update(at: t)
    }

    // MARK: - Frames

    /// A widget on the stage and the look it shows, when it is a face the stage drew.
    private struct Binding {
        let widget: Widget
        /// The face drawn last and the look it was drawn from; nil for an attached widget.
        var drawn: (face: LayerRenderer.Face, look: LayerState)?
        var isFace: Bool { drawn != nil }
    }

    private func update(at t: Double) {
        time = t
        root.advance(to: t)
        drawsPerspective = view.rendersProjectiveMappings
        var order: [ObjectIdentifier] = []
        place(root, under: nil, mapping: .identity, opacity: 1, at: t, order: &order)
        if order != drawOrder {
            var previous: Widget?
            for id in order {
                guard let widget = bindings[id]?.widget else { continue }
                view.order(widget, after: previous)
                previous = widget
            }
            drawOrder = order
        }
    }

    private func place(_ layer: Layer, under parent: LayerState?, mapping outer: Homography, opacity outerOpacity: Double,
                       at t: Double, order: inout [ObjectIdentifier]) {
        let state = layer.presentation(at: t)
        let mapping = outer.concatenating(LayerRenderer.mapping(for: state, under: parent, projective: drawsPerspective))
        let opacity = outerOpacity * max(0, min(1, state.opacity))
        let id = ObjectIdentifier(layer)
        if facesEveryLayer, bindings[id].map({ $0.isFace }) ?? true { refreshFace(of: layer, state: state, mapping: mapping) }
        if let binding = bindings[id] {
            order.append(id)
            show(binding, state: state, mapping: mapping, opacity: opacity)
        }
        guard opacity > 0 else { return }
        let sublayers = layer.sublayers
        let states = sublayers.map { $0.presentation(at: t) }
        // By zPosition, then in insertion order, as the renderer draws them.
        for index in sublayers.indices.sorted(by: { (states[$0].zPosition, $0) < (states[$1].zPosition, $1) }) {
            place(sublayers[index], under: state, mapping: mapping, opacity: opacity, at: t, order: &order)
        }
    }

    private func show(_ binding: Binding, state: LayerState, mapping: Homography, opacity: Double) {
        let widget = binding.widget
        // The widget's own coordinates: a face's pixels at its scale from its origin; an
        // attached widget's points from the bounds' corner, at the bounds' size.
        let local: Homography
        if let (face, _) = binding.drawn {
            local = Homography([1 / face.scale, 0, face.origin.x, 0, 1 / face.scale, face.origin.y, 0, 0, 1])
        } else {
            widget.setMinimumSize(width: Int(max(0, state.bounds.width).rounded()), height: Int(max(0, state.bounds.height).rounded()))
            local = Homography([1, 0, state.bounds.minX, 0, 1, state.bounds.minY, 0, 0, 1])
        }
        let placed = mapping.concatenating(local)
        // A widget partly behind the viewer has no picture on screen (as the renderer's).
        let size = binding.drawn.map { Size(width: Double($0.face.image.width), height: Double($0.face.image.height)) }
            ?? Size(width: state.bounds.width, height: state.bounds.height)
        let corners = [Point(x: 0, y: 0), Point(x: size.width, y: 0), Point(x: size.width, y: size.height), Point(x: 0, y: size.height)]
        let inFront = corners.allSatisfy { placed.apply(to: $0).w > 0 } && placed.inverted != nil
        widget.isVisible = inFront && opacity > 0
        guard inFront else { return }
        widget.opacity = opacity
        view.place(widget, mapping: placed)
    }

    /// Draws the layer's look again when it changed (colour, contents, size, border, shadow),
    /// at the pixels per point its mapping needs, in steps of two.
    private func refreshFace(of layer: Layer, state: LayerState, mapping: Homography) {
        let id = ObjectIdentifier(layer)
        var look = state
        look.position = .zero
        look.transform = .identity
        look.sublayerTransform = .identity
        look.opacity = 1
        look.zPosition = 0
        let m = mapping.m
        let stretch = max(1, abs(m[0] * m[4] - m[1] * m[3]).squareRoot() / max(1e-6, abs(m[8])))
        let scale = min(4, pow(2, (log2(stretch)).rounded(.up)))
        if let drawn = bindings[id]?.drawn, drawn.look == look, drawn.face.scale >= scale || drawn.face.scale == 4 { return }
        guard let face = try? renderer.renderFace(of: look, named: layer.name, scale: scale),
              let texture = Texture(face.image) else {
            if let binding = bindings.removeValue(forKey: id) { view.remove(binding.widget); drawOrder = [] }
            return
        }
        let picture: Picture
        if let existing = bindings[id]?.widget as? Picture {
            picture = existing
        } else {
            picture = Picture()
            view.put(picture)
            drawOrder = []
        }
        picture.setTexture(texture)
        picture.setMinimumSize(width: face.image.width, height: face.image.height)
        bindings[id] = Binding(widget: picture, drawn: (face, look))
    }
}
