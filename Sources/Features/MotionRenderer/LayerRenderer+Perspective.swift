import Foundation
import Imaging
import Motion
import ViewfinderCore

extension LayerRenderer {
    /// The projective mapping from a layer's bounds coordinates to its superlayer's when its
    /// `perspective` shows: nil when the perspective is 0 or the layer stays in the z = 0 plane
    /// (then `affineTransform(for:)` is exact).
    ///
    /// A point p of the bounds is taken relative to the anchor (anchorPoint, anchorPointZ),
    /// scaled, turned (Rz · Ry · Rx) and translated to q in 3D; the viewer at distance d sees it
    /// at `position + (q.x, q.y) / w` with w = 1 − q.z / d — Core Animation's `m34 = −1/d`, with
    /// z towards the viewer, so nearer parts look larger. A flat layer's points all lie in one
    /// plane, so the whole mapping is one 3×3 homography.
    ///
    /// A layer without a perspective of its own is seen by its superlayer's sublayer viewer, if
    /// any: from `viewer.distance` in front of `viewer.center` (the superlayer's anchor), its
    /// `zPosition` adding to its depth.
    public static func homography(for state: LayerState, viewer: Viewer? = nil) -> Homography? {
        let t = state.transform
        let own = t.perspective > 0 && t.perspective.isFinite
        guard own || viewer != nil else { return nil }
        let (sx, cx) = (sin(t.rotation.x), cos(t.rotation.x))
        let (sy, cy) = (sin(t.rotation.y), cos(t.rotation.y))
        let (sz, cz) = (sin(t.rotation.z), cos(t.rotation.z))
        // Rz · Ry · Rx, row by row, then the scale on the columns.
        let r = [[cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
                 [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
                 [-sy, cy * sx, cy * cx]]
        let scale = [t.scale.x, t.scale.y, t.scale.z]
        let anchor = [state.bounds.minX + state.anchorPoint.x * state.bounds.width,
                      state.bounds.minY + state.anchorPoint.y * state.bounds.height, state.anchorPointZ]
        let translation = [t.translation.x, t.translation.y, t.translation.z]
        // q = A · (x, y, 1): the x and y columns of R · S, and what the anchor and translation add.
        let rows = (0..<3).map { i -> [Double] in
            let column = (0..<3).map { r[i][$0] * scale[$0] }
            return [column[0], column[1], translation[i] - (column[0] * anchor[0] + column[1] * anchor[1] + column[2] * anchor[2])]
        }
        let (px, py) = (state.position.x, state.position.y)
        let d = own ? t.perspective : viewer?.distance ?? 0
        let center = own ? state.position : viewer?.center ?? state.position
        let depth = own ? 0 : state.zPosition
        guard rows[2][0] != 0 || rows[2][1] != 0 || rows[2][2] + depth != 0 else { return nil }
        // screen = center + (position − center + q.xy) / w, with w = 1 − (q.z + depth) / d.
        let w = [-rows[2][0] / d, -rows[2][1] / d, 1 - (rows[2][2] + depth) / d]
        let (ox, oy) = (center.x, center.y)
        return Homography([rows[0][0] + ox * w[0], rows[0][1] + ox * w[1], rows[0][2] + px - ox + ox * w[2],
                                  rows[1][0] + oy * w[0], rows[1][1] + oy * w[1], rows[1][2] + py - oy + oy * w[2],
                                  w[0], w[1], w[2]])
    }

    /// Where a superlayer's sublayer perspective looks from: `distance` in front of `center`
    /// (in the superlayer's bounds coordinates).
    public struct Viewer: Sendable, Hashable {
        /// The point the viewer faces.
        public var center: Point
        /// How far in front of it the viewer is.
        public var distance: Double
    }

    /// Draws a layer seen in perspective: its parts and sublayers flat on a picture of their own
    /// (at the resolution they will cover on screen, at most 4096 pixels a side), then that
    /// picture's pixels mapped projectively onto the canvas under the layer's opacity. Nothing
    /// is drawn when part of the layer is behind the viewer.
    func drawInPerspective<Node: RenderNode>(_ node: Node, state s: LayerState, mapping: Homography, at t: Double,
                                             depth: Int, on canvas: Canvas) throws(MotionRendererError) {
        let region = Self.extent(of: s)
        guard region.width > 0, region.height > 0, region.isFinite else { return }
        let corners = [Point(x: region.minX, y: region.minY), Point(x: region.maxX, y: region.minY),
                       Point(x: region.maxX, y: region.maxY), Point(x: region.minX, y: region.maxY)]
        let nearest = corners.map { mapping.apply(to: $0).w }.min() ?? 0
        guard nearest > 0 else { return }
        let m = canvas.currentTransform
        let parentScale = abs(m.a * m.d - m.b * m.c).squareRoot()
        var k = parentScale * max(1, abs(s.transform.scale.x), abs(s.transform.scale.y)) / min(1, nearest)
        k = try scale(k, sparingAreaFilterFor: s, node: node)
        k = min(k, 4096 / max(region.width, region.height))
        guard k > 0, k.isFinite else { return }
        let size = PixelSize(width: max(1, Int((region.width * k).rounded(.up))), height: max(1, Int((region.height * k).rounded(.up))))
        let picture = try projectionCanvas(size, depth: depth)
        picture.clear(to: .clear)
        var flat = s
        flat.transform = LayerTransform(scale: Vector3(x: k, y: k, z: 1))
        flat.opacity = 1
        let anchorX = s.bounds.minX + s.anchorPoint.x * s.bounds.width
        let anchorY = s.bounds.minY + s.anchorPoint.y * s.bounds.height
        flat.position = Point(x: k * (anchorX - region.minX), y: k * (anchorY - region.minY))
        // Drawn flat: the superlayer's viewer is what the mapping below applies.
        let viewer = viewers[depth]
        viewers[depth] = nil
        defer { viewers[depth] = viewer }
        try draw(node, state: flat, at: t, depth: depth, on: picture)
        let fromPixels = Homography([1 / k, 0, region.minX, 0, 1 / k, region.minY, 0, 0, 1])
        canvas.drawProjected(picture, mapping: Homography(m).concatenating(mapping).concatenating(fromPixels),
                             alpha: min(1, s.opacity))
    }

    /// `k`, or a little more when the layer's picture would otherwise be shrunk onto the flat
    /// picture by between 4/3 and 2 (after its mipmap level): there Cairo's good filter averages
    /// areas, about ten times the cost of the bilinear filter it uses below 4/3. Drawing the
    /// flat picture at a scale where the picture shrinks by just under 4/3 keeps at least the
    /// sharpness asked for, costs fewer pixels touched than the area filter, and the projection
    /// resamples it anyway.
    private func scale<Node: RenderNode>(_ k: Double, sparingAreaFilterFor s: LayerState,
                                         node: Node) throws(MotionRendererError) -> Double {
        guard let reference = s.contents, s.contentsCenter == Rect(x: 0, y: 0, width: 1, height: 1),
              s.bounds.width > 0, s.bounds.height > 0 else { return k }
        let picture = try image(reference, layer: node.name)
        // Picture pixels per point, on average over both axes, as `Canvas.draw(_:in:)` reckons.
        let density = (s.contentsRect.width * Double(picture.size.width) / s.bounds.width
                       * s.contentsRect.height * Double(picture.size.height) / s.bounds.height).squareRoot()
        let shrink = density / k
        guard shrink.isFinite, shrink > 4 / 3 else { return k }
        let level = shrink >= 2 ? Double(Int(log2(shrink))) : 0
        let levelShrink = shrink / pow(2, level)
        guard levelShrink > 4 / 3 else { return k }
        return k * levelShrink / (4 / 3 - 1e-6)
    }

    /// A transparent picture of `size` for a layer in perspective at `depth`, kept between frames.
    private func projectionCanvas(_ size: PixelSize, depth: Int) throws(MotionRendererError) -> Canvas {
        if let kept = projectionCanvases[depth], kept.size == size { return kept }
        projectionCanvases[depth] = nil
        let made = try Self.makeCanvas(size)
        projectionCanvases[depth] = made
        return made
    }
}
