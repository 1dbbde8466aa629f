import Foundation

/// Box blurs of one 8-bit plane — the shadow of a layer, one channel of a frosted backdrop.
/// Three passes of a box `2r + 1` wide are close to a Gaussian of σ ≈ r. Each pass is a running
/// sum, so its cost does not grow with the radius, and the division is a multiply and a shift.
public struct BoxBlur {
    /// What lies beyond the plane's edges.
    public enum Edges: Sendable {
        /// Zero: a shape's shadow fades out at its border.
        case transparent
        /// The edge sample repeated: a backdrop cropped from a picture stays bright at its sides.
        case extended
    }

    private var work: [UInt8] = []
    private var sums: [UInt32] = []

    /// A blur with no scratch memory yet; it grows to the largest plane blurred and is reused.
    public init() {}

    /// One horizontal and one vertical pass over `width` × `height` bytes at `data`, rows
    /// `rowBytes` apart, in place.
    public mutating func pass(_ data: UnsafeMutablePointer<UInt8>, width w: Int, height h: Int, rowBytes: Int,
                              radius: Int, edges: Edges) {
        guard w > 0, h > 0, radius > 0 else { return }
        let n = UInt32(2 * radius + 1)
        let reciprocal = (65536 + n / 2) / n
        @inline(__always) func average(_ sum: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (sum &* reciprocal &+ 32768) >> 16) }
        if work.count < w * h { work = [UInt8](repeating: 0, count: w * h) }
        if sums.count < w { sums = [UInt32](repeating: 0, count: w) }
        let extend = edges == .extended
        work.withUnsafeMutableBufferPointer { work in
            sums.withUnsafeMutableBufferPointer { sums in
                guard let work = work.baseAddress, let sums = sums.baseAddress else { return }
                // Horizontal: rows → work. The window [x − r, x + r] slides right: one sample
                // enters, one leaves; beyond an edge a sample is 0 or the edge's own.
                for y in 0..<h {
                    let row = data + y * rowBytes
                    let out = work + y * w
                    let (first, last) = (UInt32(row[0]), UInt32(row[w - 1]))
                    var sum: UInt32 = extend ? first &* UInt32(radius) : 0
                    for x in 0..<radius { sum &+= x < w ? UInt32(row[x]) : (extend ? last : 0) }
                    @inline(__always) func step(_ x: Int) {
                        sum &+= x &+ radius < w ? UInt32(row[x &+ radius]) : (extend ? last : 0)
                        out[x] = average(sum)
                        sum &-= x >= radius ? UInt32(row[x &- radius]) : (extend ? first : 0)
                    }
                    // Where the whole window lies in the row, without the edge tests.
                    let inner = (start: min(radius, w), end: max(min(radius, w), w - radius))
                    for x in 0..<inner.start { step(x) }
                    for x in inner.start..<inner.end {
                        sum &+= UInt32(row[x &+ radius])
                        out[x] = average(sum)
                        sum &-= UInt32(row[x &- radius])
                    }
                    for x in inner.end..<w { step(x) }
                }
                // Vertical: work → rows, with running sums per column.
                for x in 0..<w { sums[x] = extend ? UInt32(work[x]) &* UInt32(radius) : 0 }
                for y in 0..<radius {
                    let line = work + min(y, h - 1) * w
                    if y < h || extend { for x in 0..<w { sums[x] &+= UInt32(line[x]) } }
                }
                for y in 0..<h {
                    if y + radius < h || extend {
                        let entering = work + min(y + radius, h - 1) * w
                        for x in 0..<w { sums[x] &+= UInt32(entering[x]) }
                    }
                    let row = data + y * rowBytes
                    for x in 0..<w { row[x] = average(sums[x]) }
                    if y >= radius || extend {
                        let leaving = work + max(y - radius, 0) * w
                        for x in 0..<w { sums[x] &-= UInt32(leaving[x]) }
                    }
                }
            }
        }
    }
}
