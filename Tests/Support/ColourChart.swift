import Foundation
import ViewfinderCore

/// A chart of 16 known sRGB patches (a ColorChecker's colours and a white), carried into other
/// formats by programs independent of ours (ffmpeg's zscale, libvips' LittleCMS), so that
/// what our pipelines make of it can be measured patch by patch in CIEDE2000.
public enum ColourChart {
    /// The patches, row by row (4 × 4), in sRGB.
    public static let patches: [RGB] = [
        RGB(115, 82, 68), RGB(194, 150, 130), RGB(98, 122, 157), RGB(87, 108, 67),
        RGB(133, 128, 177), RGB(103, 189, 170), RGB(214, 126, 44), RGB(80, 91, 166),
        RGB(193, 90, 99), RGB(94, 60, 108), RGB(157, 188, 64), RGB(224, 163, 46),
        RGB(56, 61, 150), RGB(70, 148, 73), RGB(175, 54, 60), RGB(243, 243, 242),
    ]
    /// The chart's size: 4 × 4 patches of 64 pixels.
    public static let size = PixelSize(width: 256, height: 256)

    /// The chart as RGB (8 bits a channel).
    public static var picture: PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let p = patches[(y / 64) * 4 + x / 64]
                let i = (y * size.width + x) * 3
                (bytes[i], bytes[i + 1], bytes[i + 2]) = (p.r, p.g, p.b)
            }
        }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes) ?? PixelBuffer(width: 0, height: 0)
    }

    /// The chart as raw RGB24 frames (one 256 × 256 frame) in `folder/chart.rgb`, written once:
    /// the input every conversion of the chart starts from.
    public static func rawFile(in folder: URL) throws -> URL {
        let raw = folder.appendingPathComponent("chart.rgb")
        if !FileManager.default.fileExists(atPath: raw.path) {
            // Atomic: parallel tests share the folder, and none may read half a chart.
            try Data(picture.bytes).write(to: raw, options: .atomic)
        }
        return raw
    }

    /// How the chart is carried into a video.
    public enum VideoKind: String, Sendable, CaseIterable, CustomStringConvertible {
        /// HEVC Main 10, BT.2020, HLG: what iPhones record.
        case hlg
        /// HEVC Main 10, BT.2020, PQ (HDR10 without metadata).
        case pq
        /// H.264, BT.709, 8 bits.
        case sdr

        public var description: String { rawValue }
        var transfer: String {
            switch self {
            case .hlg: "arib-std-b67"
            case .pq: "smpte2084"
            case .sdr: "bt709"
            }
        }
    }

    /// The chart as a 5-frame video in `folder`, converted by zscale with sRGB white at BT.2408's
    /// 203 nits (`npl=203`) and tagged in the bitstream and the container; `extra` adds x265
    /// parameters (mastering metadata, say). Made by the ffmpeg CLI, never by our code.
    public static func video(_ kind: VideoKind, in folder: URL, name: String? = nil, size: PixelSize? = nil,
                             x265: String = "") throws -> URL {
        let raw = try rawFile(in: folder)
        let output = folder.appendingPathComponent((name ?? "chart-\(kind)") + ".mp4")
        let scale = size.map { ",scale=\($0.width):\($0.height):flags=neighbor" } ?? ""
        let codec: [String]
        switch kind {
        case .sdr:
            // SDR pictures are shown as coded (a display's gamma is the inverse of sRGB's
            // encoding, near enough), so only the matrix and range change.
            codec = ["-vf", "zscale=tin=bt709:min=gbr:pin=bt709:rin=full:t=bt709:m=bt709:p=bt709:r=tv\(scale),format=yuv420p",
                     "-c:v", "libx264", "-crf", "4", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        case .hlg, .pq:
            let params = "log-level=error:colorprim=bt2020:transfer=\(kind.transfer):colormatrix=bt2020nc" + x265
            codec = ["-vf", "zscale=tin=iec61966-2-1:min=gbr:pin=bt709:rin=full:t=\(kind.transfer):m=bt2020nc:p=bt2020:r=tv:npl=203\(scale),format=yuv420p10le",
                     "-c:v", "libx265", "-crf", "4", "-x265-params", params, "-tag:v", "hvc1"]
        }
        // Made once per folder, under a name of its own and renamed into place: parallel tests
        // asking for the same chart never read one another's half-written file.
        if FileManager.default.fileExists(atPath: output.path) { return output }
        let partial = folder.appendingPathComponent(".\(UUID().uuidString).mp4")
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                                                   "-s", "\(Self.size.width)x\(Self.size.height)", "-r", "25", "-i", raw.path,
                                                   "-frames:v", "5"] + codec + [partial.path])
        guard result.status == 0 else { throw SubprocessError.failed("ffmpeg", result.stderr) }
        guard rename(partial.path, output.path) == 0 else { throw SubprocessError.failed("rename", String(cString: strerror(errno))) }
        return output
    }

    /// The mean colour of the middle half of each patch of `picture` (the chart at any size).
    public static func patchColours(of picture: PixelBuffer) -> [(Double, Double, Double)] {
        gridColours(of: picture, cells: 4, margin: 0.25)
    }

    /// The mean colours of a `cells` × `cells` grid over `picture`, row by row, each cell
    /// without `margin` (a fraction of its side) at each edge.
    public static func gridColours(of picture: PixelBuffer, cells: Int, margin: Double = 0) -> [(Double, Double, Double)] {
        let (w, h) = (picture.width, picture.height)
        return (0..<(cells * cells)).map { n in
            let (row, column) = (n / cells, n % cells)
            let inset = (x: Int(Double(w) / Double(cells) * margin), y: Int(Double(h) / Double(cells) * margin))
            let xs = (column * w / cells + inset.x)..<((column + 1) * w / cells - inset.x)
            let ys = (row * h / cells + inset.y)..<((row + 1) * h / cells - inset.y)
            var sum = (0.0, 0.0, 0.0), count = 0.0
            for y in ys {
                for x in xs {
                    let i = (y * w + x) * 3
                    sum.0 += Double(picture.bytes[i]); sum.1 += Double(picture.bytes[i + 1]); sum.2 += Double(picture.bytes[i + 2])
                    count += 1
                }
            }
            return count == 0 ? (0, 0, 0) : (sum.0 / count, sum.1 / count, sum.2 / count)
        }
    }

    /// CIEDE2000 of each patch of `picture` against the chart.
    public static func differences(of picture: PixelBuffer) -> [Double] {
        zip(patches, patchColours(of: picture)).map { known, got in
            CIEDE2000.difference((Double(known.r), Double(known.g), Double(known.b)), got)
        }
    }

    /// Mean and maximum CIEDE2000 of `picture` against the chart.
    public static func error(of picture: PixelBuffer) -> (mean: Double, max: Double) {
        let d = differences(of: picture)
        return (d.reduce(0, +) / Double(max(1, d.count)), d.max() ?? 0)
    }
}

/// CIE's colour difference formula of 2000 (ΔE00), between sRGB colours (0...255 a channel)
/// under D65, after Sharma, Wu and Dalal's published implementation notes.
public enum CIEDE2000 {
    /// CIELAB of an sRGB colour.
    public static func lab(_ c: (Double, Double, Double)) -> (Double, Double, Double) {
        func linear(_ v: Double) -> Double {
            let s = v / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(c.0), linear(c.1), linear(c.2))
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// ΔE00 between two sRGB colours.
    public static func difference(_ first: (Double, Double, Double), _ second: (Double, Double, Double)) -> Double {
        difference(lab: lab(first), lab(second))
    }

    /// ΔE00 between two CIELAB colours.
    public static func difference(lab l1: (Double, Double, Double), _ l2: (Double, Double, Double)) -> Double {
        let degrees = 180 / Double.pi
        let c1 = hypot(l1.1, l1.2), c2 = hypot(l2.1, l2.2)
        let cMean7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * l1.1, a2 = (1 + g) * l2.1
        let cp1 = hypot(a1, l1.2), cp2 = hypot(a2, l2.2)
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) * degrees
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(l1.2, a1), h2 = hue(l2.2, a2)
        let dL = l2.0 - l1.0, dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(dh / 2 / degrees)
        let lMean = (l1.0 + l2.0) / 2, cpMean = (cp1 + cp2) / 2
        var hMean = h1 + h2
        if cp1 * cp2 != 0 {
            hMean = abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2
        }
        let t = 1 - 0.17 * cos((hMean - 30) / degrees) + 0.24 * cos(2 * hMean / degrees)
            + 0.32 * cos((3 * hMean + 6) / degrees) - 0.20 * cos((4 * hMean - 63) / degrees)
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let cp7 = pow(cpMean, 7)
        let rc = 2 * (cp7 / (cp7 + pow(25, 7))).squareRoot()
        let sl = 1 + 0.015 * pow(lMean - 50, 2) / (20 + pow(lMean - 50, 2)).squareRoot()
        let sc = 1 + 0.045 * cpMean
        let sh = 1 + 0.015 * cpMean * t
        let rt = -sin(2 * dTheta / degrees) * rc
        return (pow(dL / sl, 2) + pow(dC / sc, 2) + pow(dH / sh, 2) + rt * (dC / sc) * (dH / sh)).squareRoot()
    }
}
