import Foundation

/// A set of RGB primaries with the D65 white point, and the matrices between its linear RGB
/// and CIE XYZ (derived from the chromaticities, as SMPTE RP 177 does).
struct ColourPrimaries: Sendable {
    /// Linear RGB to XYZ.
    let toXYZ: Matrix3
    /// XYZ to linear RGB.
    let fromXYZ: Matrix3

    static let bt709 = ColourPrimaries(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060))
    static let bt2020 = ColourPrimaries(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))
    /// Display P3 (SMPTE EG 432-1: DCI-P3's primaries with D65 white).
    static let displayP3 = ColourPrimaries(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))

    /// The primaries FFmpeg names so, nil for names we have no matrix for.
    init?(ffmpegName name: String?) {
        switch name {
        case "bt709": self = .bt709
        case "bt2020": self = .bt2020
        case "smpte432": self = .displayP3
        default: return nil
        }
    }

    private init(red: (Double, Double), green: (Double, Double), blue: (Double, Double)) {
        let white = (x: 0.3127, y: 0.3290)
        func xyz(_ p: (Double, Double)) -> [Double] { [p.0 / p.1, 1, (1 - p.0 - p.1) / p.1] }
        let (r, g, b) = (xyz(red), xyz(green), xyz(blue))
        let primaries = Matrix3(r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2])
        let w = [white.x / white.y, 1, (1 - white.x - white.y) / white.y]
        // Scale each primary so that R = G = B = 1 is the white point.
        let s = primaries.inverse.apply(w)
        toXYZ = Matrix3(r[0] * s[0], g[0] * s[1], b[0] * s[2],
                        r[1] * s[0], g[1] * s[1], b[1] * s[2],
                        r[2] * s[0], g[2] * s[1], b[2] * s[2])
        fromXYZ = toXYZ.inverse
    }
}

/// A 3×3 matrix, row by row (`a b c` / `d e f` / `g h i`), in single precision for the pixel
/// loops; built and inverted in double precision.
struct Matrix3: Sendable, Equatable {
    let a, b, c, d, e, f, g, h, i: Float
    private let exact: [Double]

    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
         _ g: Double, _ h: Double, _ i: Double) {
        exact = [a, b, c, d, e, f, g, h, i]
        (self.a, self.b, self.c) = (Float(a), Float(b), Float(c))
        (self.d, self.e, self.f) = (Float(d), Float(e), Float(f))
        (self.g, self.h, self.i) = (Float(g), Float(h), Float(i))
    }

    /// Row `n` (0, 1 or 2).
    func row(_ n: Int) -> (Float, Float, Float) {
        (Float(exact[n * 3]), Float(exact[n * 3 + 1]), Float(exact[n * 3 + 2]))
    }

    /// The matrix times a column vector.
    func apply(_ v: [Double]) -> [Double] {
        (0..<3).map { exact[$0 * 3] * v[0] + exact[$0 * 3 + 1] * v[1] + exact[$0 * 3 + 2] * v[2] }
    }

    static func * (l: Matrix3, r: Matrix3) -> Matrix3 {
        let p = (0..<9).map { n in
            let (row, column) = (n / 3, n % 3)
            return (0..<3).reduce(0.0) { $0 + l.exact[row * 3 + $1] * r.exact[$1 * 3 + column] }
        }
        return Matrix3(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8])
    }

    /// The inverse (the matrices here are colour conversions, never singular).
    var inverse: Matrix3 {
        let m = exact
        let c0 = m[4] * m[8] - m[5] * m[7], c1 = m[5] * m[6] - m[3] * m[8], c2 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c0 + m[1] * c1 + m[2] * c2
        let k = det == 0 ? 0 : 1 / det
        return Matrix3(c0 * k, (m[2] * m[7] - m[1] * m[8]) * k, (m[1] * m[5] - m[2] * m[4]) * k,
                       c1 * k, (m[0] * m[8] - m[2] * m[6]) * k, (m[2] * m[3] - m[0] * m[5]) * k,
                       c2 * k, (m[1] * m[6] - m[0] * m[7]) * k, (m[0] * m[4] - m[1] * m[3]) * k)
    }
}
