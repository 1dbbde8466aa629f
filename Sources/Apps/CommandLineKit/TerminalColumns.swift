extension String {
    /// How many columns the text takes on a terminal: two for each wide character (Chinese,
    /// Japanese and Korean script, full-width forms), none for combining marks, one otherwise.
    /// Aligns columns of text whose labels are translated.
    public var terminalColumns: Int {
        unicodeScalars.reduce(0) { sum, scalar in sum + Self.columns(of: scalar) }
    }

    /// The text followed by spaces up to `columns` terminal columns (as it is when it is wider).
    public func padded(toColumns columns: Int) -> String {
        self + String(repeating: " ", count: max(0, columns - terminalColumns))
    }

    private static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }
}
