import Foundation

/// An 8-bit Y′CbCr 4:2:0 picture (three planes, chroma at half width and height), BT.709 in
/// video range (Y′ 16…235, Cb and Cr 16…240): what H.264 encoders take, made from RGB without
/// a scaler so that a renderer's thread can convert the frames it draws.
public struct PlanarPicture: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width × height` luma bytes.
    public private(set) var luma: [UInt8]
    /// `⌈width/2⌉ × ⌈height/2⌉` bytes each.
    public private(set) var cb: [UInt8]
    public private(set) var cr: [UInt8]

    /// The chroma planes' width and height.
    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// `rgb` converted (see `init(width:height:rows:)`).
    public init(_ rgb: PixelBuffer) {
        let width = rgb.width
        self.init(width: rgb.width, height: rgb.height) { y, row in
            rgb.bytes.withUnsafeBufferPointer { bytes in
                var s = y * width * 3
                for x in 0..<width {
                    row[x] = UInt32(bytes[s]) << 16 | UInt32(bytes[s + 1]) << 8 | UInt32(bytes[s + 2])
                    s += 3
                }
            }
        }
    }

    /// The picture whose row y `rows` writes into the buffer it is given, as `width` words
    /// 0x··RRGGBB (the top byte ignored: Cairo's opaque ARGB32), converted with BT.709's matrix:
    /// Y′ from each pixel, Cb and Cr from the mean of each 2×2 block (centre-sited; an odd last
    /// column or row pairs with itself), in 1/65536ths, rounded to the nearest level.
    public init(width: Int, height: Int, rows: (Int, UnsafeMutablePointer<UInt32>) -> Void) {
        self.width = max(0, width)
        self.height = max(0, height)
        let (width, height) = (self.width, self.height)
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        var luma = [UInt8](repeating: 16, count: width * height)
        var cb = [UInt8](repeating: 128, count: cw * ch)
        var cr = [UInt8](repeating: 128, count: cw * ch)
        // BT.709: Y′ = 0.2126 R + 0.7152 G + 0.0722 B, scaled by 219/255 (+16); Cb = (B − Y′) /
        // 1.8556 and Cr = (R − Y′) / 1.5748, scaled by 224/255 (+128).
        let (yr, yg, yb) = (Self.fixed(0.2126 * 219 / 255), Self.fixed(0.7152 * 219 / 255), Self.fixed(0.0722 * 219 / 255))
        let (ur, ug, ub) = (Self.fixed(-0.2126 / 1.8556 * 224 / 255), Self.fixed(-0.7152 / 1.8556 * 224 / 255), Self.fixed(0.5 * 224 / 255))
        let (vr, vg, vb) = (Self.fixed(0.5 * 224 / 255), Self.fixed(-0.7152 / 1.5748 * 224 / 255), Self.fixed(-0.0722 / 1.5748 * 224 / 255))
        guard width > 0, height > 0 else {
            (self.luma, self.cb, self.cr) = (luma, cb, cr)
            return
        }
        let pair = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * width)
        defer { pair.deallocate() }
        luma.withUnsafeMutableBufferPointer { luma in
            guard let lumaBase = luma.baseAddress else { return }
            // Runs of one colour (a frame's background, flat shapes) are converted once: the
            // last pixel's value is kept, the same bytes as converting each.
            func lumaRow(_ line: Int, _ source: UnsafeMutablePointer<UInt32>) {
                let out = lumaBase + line * width
                var last = source[0] ^ 1, lastY: UInt8 = 0
                for x in 0..<width {
                    let p = source[x]
                    if p != last {
                        let r = Int32(p >> 16 & 0xFF), g = Int32(p >> 8 & 0xFF), b = Int32(p & 0xFF)
                        lastY = UInt8(truncatingIfNeeded: (yr &* r &+ yg &* g &+ yb &* b &+ (16 << 16 | 1 << 15)) >> 16)
                        last = p
                    }
                    out[x] = lastY
                }
            }
            cb.withUnsafeMutableBufferPointer { cb in
                cr.withUnsafeMutableBufferPointer { cr in
                    guard let cbBase = cb.baseAddress, let crBase = cr.baseAddress else { return }
                    for cy in 0..<ch {
                        let top = pair, bottom = pair + width
                        rows(2 * cy, top)
                        let hasBottom = 2 * cy + 1 < height
                        if hasBottom { rows(2 * cy + 1, bottom) } else { bottom.update(from: top, count: width) }
                        lumaRow(2 * cy, top)
                        if hasBottom { lumaRow(2 * cy + 1, bottom) }
                        let outU = cbBase + cy * cw, outV = crBase + cy * cw
                        // The last block of one colour throughout, and its Cb and Cr.
                        var flat: UInt32?, flatU: UInt8 = 0, flatV: UInt8 = 0
                        for cx in 0..<cw {
                            let x0 = 2 * cx, x1 = min(2 * cx + 1, width - 1)
                            let a = top[x0], b1 = top[x1], c = bottom[x0], d = bottom[x1]
                            let uniform = a == b1 && a == c && a == d
                            if uniform && a == flat {
                                outU[cx] = flatU
                                outV[cx] = flatV
                                continue
                            }
                            // Sums of four pixels: the shift by 18 divides by 4 as well.
                            let r = Int32(a >> 16 & 0xFF) + Int32(b1 >> 16 & 0xFF) + Int32(c >> 16 & 0xFF) + Int32(d >> 16 & 0xFF)
                            let g = Int32(a >> 8 & 0xFF) + Int32(b1 >> 8 & 0xFF) + Int32(c >> 8 & 0xFF) + Int32(d >> 8 & 0xFF)
                            let b = Int32(a & 0xFF) + Int32(b1 & 0xFF) + Int32(c & 0xFF) + Int32(d & 0xFF)
                            outU[cx] = UInt8(truncatingIfNeeded: (ur &* r &+ ug &* g &+ ub &* b &+ (128 << 18 | 1 << 17)) >> 18)
                            outV[cx] = UInt8(truncatingIfNeeded: (vr &* r &+ vg &* g &+ vb &* b &+ (128 << 18 | 1 << 17)) >> 18)
                            if uniform { (flat, flatU, flatV) = (a, outU[cx], outV[cx]) }
                        }
                    }
                }
            }
        }
        (self.luma, self.cb, self.cr) = (luma, cb, cr)
    }

    private static func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
}
