import Foundation
import Motion
import ViewfinderCore

/// A filled rectangle as the tests expect to see it, computed without the renderer: centred on
/// `center`, `size` before scaling, scaled then turned clockwise by `rotation`.
struct ExpectedBox {
    var center: Point
    var size: Size
    var scaleX = 1.0
    var scaleY = 1.0
    var rotation = 0.0

    /// How far inside the box the centre of pixel (x, y) lies, in pixels (negative: outside).
    func depth(x: Int, y: Int) -> Double {
        let dx = Double(x) + 0.5 - center.x, dy = Double(y) + 0.5 - center.y
        // Undo the clockwise turn (y down).
        let u = cos(rotation) * dx + sin(rotation) * dy
        let v = -sin(rotation) * dx + cos(rotation) * dy
        return min((size.width / 2) * scaleX - abs(u), (size.height / 2) * scaleY - abs(v))
    }
}

/// Pixels of `frame` that differ by more than `tolerance` on some channel from `expected`
/// (nil: not checked, e.g. on an antialiased edge), described for a failure message; at most 8.
func mismatches(in frame: PixelBuffer, tolerance: Int = 2, expected: (Int, Int) -> RGB?) -> [String] {
    var found: [String] = []
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            guard let want = expected(x, y) else { continue }
            let got = frame[x, y]
            if abs(Int(got.r) - Int(want.r)) > tolerance || abs(Int(got.g) - Int(want.g)) > tolerance
                || abs(Int(got.b) - Int(want.b)) > tolerance {
                found.append("(\(x), \(y)): \(got) instead of \(want)")
                if found.count == 8 { return found }
            }
        }
    }
    return found
}

/// `box` in `inside` on `outside`, leaving pixels within 1.5 px of the edge unchecked.
func mismatches(in frame: PixelBuffer, box: ExpectedBox, inside: RGB, outside: RGB, tolerance: Int = 2) -> [String] {
    mismatches(in: frame, tolerance: tolerance) { x, y in
        let depth = box.depth(x: x, y: y)
        return depth > 1.5 ? inside : depth < -1.5 ? outside : nil
    }
}

/// The byte a fraction of full intensity becomes.
func byte(_ fraction: Double) -> UInt8 {
    UInt8((min(max(fraction, 0), 1) * 255).rounded())
}

/// A presented tree: the canvas root (transparent, 320×240) holding `layers`.
func tree(_ layers: PresentedLayer..., size: Size = Size(width: 320, height: 240)) -> PresentedLayer {
    PresentedLayer(name: "", state: LayerState(position: Point(x: size.width / 2, y: size.height / 2),
                                               bounds: Rect(x: 0, y: 0, width: size.width, height: size.height)),
                   sublayers: layers)
}

/// The red 100×100 box at (160, 120), with `change` applied.
func redBox(_ change: (inout LayerState) -> Void = { _ in }) -> PresentedLayer {
    var state = LayerState(position: Point(x: 160, y: 120), bounds: Rect(x: 0, y: 0, width: 100, height: 100))
    state.backgroundColor = .red
    change(&state)
    return PresentedLayer(name: "box", state: state)
}

let frameSize = PixelSize(width: 320, height: 240)
