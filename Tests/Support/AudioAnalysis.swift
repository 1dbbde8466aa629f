import Foundation

/// Measures decoded sound against the sound it was cut from: where one stretch of samples
/// lies in another.
public enum AudioAnalysis {
    /// The shift `s` (within `span` samples either way) for which `length` samples of `output`
    /// from `at` are closest to `source` from `from + s` (least squared difference): 0 when the
    /// output holds the source's samples exactly in place, n when n samples were doubled before
    /// `at`, -n when n were lost. Nil when a window does not fit.
    public static func shift(of output: [Int16], at: Int, in source: [Int16], from: Int, length: Int, span: Int) -> Int? {
        guard at >= 0, at + length <= output.count, from - span >= 0, from + span + length <= source.count else { return nil }
        var best: (error: Double, shift: Int)?
        for s in -span...span {
            var error = 0.0
            for i in 0..<length {
                let d = Double(output[at + i]) - Double(source[from + s + i])
                error += d * d
            }
            if let found = best, found.error <= error { continue }
            best = (error, s)
        }
        return best?.shift
    }
}
