import Foundation
import ViewfinderCore

/// Turns HDR pictures (RGB, 16-bit non-linear samples coded with PQ or HLG) into 8-bit sRGB:
///
/// 1. the samples become display light in units of BT.2408's reference white (203 nits): PQ by
///    its EOTF, HLG by its inverse OETF and BT.2100's OOTF for a 1000-nit display (γ 1.2, on
///    the luminance, as the recommendation writes it);
/// 2. BT.2390's EETF compresses the range from the content's peak down to reference white
///    (which becomes SDR white), applied to the largest of R, G and B so hues stay put;
/// 3. the primaries are converted to BT.709 in linear light, colours outside it are pulled
///    towards their own luminance (not clipped channel by channel, which turns hues);
/// 4. the light is encoded with the sRGB curve, the one a display shows SDR pictures with.
///
/// Steps 1 and 4 and the EETF are tables built once (the EETF per peak), so a picture costs a
/// few table look-ups and a 3×3 product per pixel; it runs at the output size, after scaling.
struct ToneMapper: Sendable {
    /// BT.2408's HDR reference white, in nits: the brightness of paper white and of SDR white.
    static let referenceWhite = 203.0
    /// The display BT.2100's HLG OOTF is written for (nominal peak 1000 nits, γ 1.2).
    static let hlgDisplayPeak = 1000.0
    /// The peak assumed for PQ content whose metadata does not give a plausible one.
    static let defaultPQPeak = 1000.0

    let transfer: HDRTransfer
    /// `.clip` converts without compressing the highlights; `.toneMap` compresses them.
    let conversion: HDRConversion
    /// The content's brightest light in nits (what the EETF maps to SDR white).
    let peak: Double
    private let toBT709: Matrix3
    /// Luminance weights of the source primaries (for HLG's OOTF).
    private let luma: (r: Float, g: Float, b: Float)
    /// The EETF's gain for the largest channel `m` (in reference whites), tabulated at
    /// m = top · u² for u evenly spaced in 0...1, so the dark end gets most entries.
    private let curve: [Float]
    /// The largest channel value the curve covers: the peak in reference whites.
    private let top: Float

    /// A mapper for one kind of content. `peak` is the content's peak (metadata), nil for the
    /// default (1000 nits: HLG's nominal display, and the usual HDR10 mastering level).
    init(transfer: HDRTransfer, conversion: HDRConversion, peak: Double?, primaries: String?) {
        self.transfer = transfer
        self.conversion = conversion
        let peak = transfer == .hlg ? Self.hlgDisplayPeak : (peak ?? Self.defaultPQPeak)
        self.peak = peak
        let source = ColourPrimaries(ffmpegName: primaries) ?? .bt2020
        toBT709 = ColourPrimaries.bt709.fromXYZ * source.toXYZ
        let y = source.toXYZ.row(1)
        luma = (y.0, y.1, y.2)
        let top = max(1, peak / Self.referenceWhite)
        self.top = Float(top)
        let count = 1024
        curve = (0..<count).map { i in
            let u = Double(i) / Double(count - 1)
            let m = top * u * u
            guard m > 0 else { return 1 }
            let nits = m * Self.referenceWhite
            return Float(Self.eetf(nits, sourcePeak: peak) / nits)
        }
    }

    /// BT.2390's EETF (its Hermite spline in the PQ domain), from content peaking at
    /// `sourcePeak` nits to a display peaking at `targetPeak`, black at 0; in and out in nits.
    /// Below the knee (about half the target peak in light) the light is unchanged.
    static func eetf(_ nits: Double, sourcePeak: Double, targetPeak: Double = referenceWhite) -> Double {
        guard sourcePeak > targetPeak, nits > 0 else { return max(0, nits) }
        let sourceSignal = PQ.encode(sourcePeak)
        let e = min(1, PQ.encode(nits) / sourceSignal)
        let maxLuminance = PQ.encode(targetPeak) / sourceSignal
        let kneeStart = 1.5 * maxLuminance - 0.5
        guard e > kneeStart else { return nits }
        let t = (e - kneeStart) / (1 - kneeStart)
        let t2 = t * t, t3 = t2 * t
        let p = (2 * t3 - 3 * t2 + 1) * kneeStart + (t3 - 2 * t2 + t) * (1 - kneeStart)
            + (-2 * t3 + 3 * t2) * maxLuminance
        return PQ.decode(p * sourceSignal)
    }

    /// The picture from three planes of 16-bit non-linear samples (native byte order, as
    /// swscale's GBRP16 writes them), `height` rows of `width` samples, rows `rowStride`
    /// samples apart.
    func picture(red: UnsafePointer<UInt16>, green: UnsafePointer<UInt16>, blue: UnsafePointer<UInt16>,
                 rowStride: Int, width: Int, height: Int) -> PixelBuffer {
        var picture = PixelBuffer(width: width, height: height)
        picture.withMutableBytes { out in
            guard let base = out.baseAddress else { return }
            let output = Lent(base)
            let planes = Lent((red, green, blue))
            // Large pictures (full-size covers) use both cores; thumbnails are not worth a thread.
            let bands = width * height >= 1 << 19 ? 4 : 1
            let rowsPerBand = (height + bands - 1) / bands
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand)
                let (r, g, b) = planes.value
                for y in rows {
                    let offset = y * rowStride
                    convertRow(r + offset, g + offset, b + offset, into: output.value + y * width * 3, width: width)
                }
            }
        }
        return picture
    }

    private func convertRow(_ red: UnsafePointer<UInt16>, _ green: UnsafePointer<UInt16>, _ blue: UnsafePointer<UInt16>,
                            into out: UnsafeMutablePointer<UInt8>, width: Int) {
        let tables = ColourTables.shared
        let m = toBT709
        let hlgGain = Float(Self.hlgDisplayPeak / Self.referenceWhite)
        let curveLast = curve.count - 1
        let compresses = conversion == .toneMap && top > 1
        let last = Float(ColourTables.size - 1)
        let encodeLast = Float(ColourTables.encodeSize - 1)
        tables.pqLight.withUnsafeBufferPointer { pq in
        tables.hlgScene.withUnsafeBufferPointer { hlg in
        tables.hlgSystemGain.withUnsafeBufferPointer { gain in
        tables.sRGBEncode.withUnsafeBufferPointer { encode in
        curve.withUnsafeBufferPointer { curve in
            for x in 0..<width {
                let i = x * 3
                // 12 bits of each sample index the tables (finer than the 10 the video has).
                let (cr, cg, cb) = (Int(UInt16(littleEndian: red[x]) >> 4), Int(UInt16(littleEndian: green[x]) >> 4),
                                    Int(UInt16(littleEndian: blue[x]) >> 4))
                var r: Float, g: Float, b: Float
                switch transfer {
                case .pq:
                    (r, g, b) = (pq[cr], pq[cg], pq[cb])
                case .hlg:
                    let (er, eg, eb) = (hlg[cr], hlg[cg], hlg[cb])
                    let ys = min(1, max(0, luma.r * er + luma.g * eg + luma.b * eb))
                    let k = hlgGain * gain[Int(ys.squareRoot() * last)]
                    (r, g, b) = (er * k, eg * k, eb * k)
                }
                if compresses {
                    let largest = max(r, g, b)
                    if largest > 0 {
                        let s: Float
                        if largest >= top {
                            s = curve[curveLast] * top / largest
                        } else {
                            let u = (largest / top).squareRoot() * Float(curveLast)
                            let j = min(Int(u), curveLast - 1)
                            let f = u - Float(j)
                            s = curve[j] + (curve[j + 1] - curve[j]) * f
                        }
                        r *= s; g *= s; b *= s
                    }
                }
                var or = m.a * r + m.b * g + m.c * b
                var og = m.d * r + m.e * g + m.f * b
                var ob = m.g * r + m.h * g + m.i * b
                let low = min(or, og, ob)
                if low < 0 {
                    // Outside BT.709: towards grey of the same luminance until it fits.
                    let y = max(0, 0.2126 * or + 0.7152 * og + 0.0722 * ob)
                    let t = y / (y - low)
                    or = y + t * (or - y); og = y + t * (og - y); ob = y + t * (ob - y)
                }
                if compresses {
                    let high = max(or, og, ob)
                    if high > 1 { or /= high; og /= high; ob /= high }
                }
                out[i] = encode[Int(min(1, max(0, or)) * encodeLast + 0.5)]
                out[i + 1] = encode[Int(min(1, max(0, og)) * encodeLast + 0.5)]
                out[i + 2] = encode[Int(min(1, max(0, ob)) * encodeLast + 0.5)]
            }
        }}}}}
    }
}


/// SMPTE ST 2084's perceptual quantizer: signal (0...1) and light (nits) both ways.
enum PQ {
    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    /// Light in nits of a PQ signal.
    static func decode(_ signal: Double) -> Double {
        let p = pow(min(1, max(0, signal)), 1 / m2)
        return 10_000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// The PQ signal of light in nits.
    static func encode(_ nits: Double) -> Double {
        let y = pow(min(1, max(0, nits / 10_000)), m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }
}

/// ARIB STD-B67 (BT.2100 HLG)'s OETF and its inverse; scene light in 0...1.
enum HLG {
    private static let a = 0.17883277, b = 1 - 4 * 0.17883277, c = 0.5 - 0.17883277 * log(4 * 0.17883277)

    /// Scene light of an HLG signal.
    static func decode(_ signal: Double) -> Double {
        let e = min(1, max(0, signal))
        return e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
    }
}

/// The per-sample tables every mapper shares, built on first use. 4096 entries each, so all
/// of them stay in the processor's nearest caches: the transfer functions are indexed by the
/// sample's top 12 bits (finer than 10-bit video), the OOTF's gain by the square root of the
/// luminance (which spends the entries on the dark end, where the curve is steep). The sRGB
/// encoder has 16,384 one-byte entries indexed by light itself: its steepest slope (12.92,
/// at black) makes one step at most 0.2 of an 8-bit code, and no square root is taken.
final class ColourTables: Sendable {
    static let shared = ColourTables()
    /// Entries per table.
    static let size = 4096
    /// Entries of the sRGB encoder.
    static let encodeSize = 16_384

    /// PQ display light in reference whites, for signal i / 4095.
    let pqLight: [Float]
    /// HLG scene light (0...1), for signal i / 4095.
    let hlgScene: [Float]
    /// BT.2100's OOTF gain Ys^(γ−1) with γ = 1.2, for Ys = (i / 4095)².
    let hlgSystemGain: [Float]
    /// The sRGB code (0...255) of linear light i / 16383.
    let sRGBEncode: [UInt8]

    private init() {
        // Sample s (16 bits) indexes entry s >> 4: entry i stands for the middle of its 16 codes.
        let signal = (0..<Self.size).map { (Double($0) * 16 + 7.5) / 65535 }
        pqLight = signal.map { Float(PQ.decode($0) / ToneMapper.referenceWhite) }
        hlgScene = signal.map { Float(HLG.decode($0)) }
        let root = (0..<Self.size).map { Double($0) / Double(Self.size - 1) }
        hlgSystemGain = root.map { Float(pow($0 * $0, 0.2)) }
        sRGBEncode = (0..<Self.encodeSize).map { i in
            let l = Double(i) / Double(Self.encodeSize - 1)
            let v = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
            return UInt8(min(255, max(0, (v * 255).rounded())))
        }
    }
}
