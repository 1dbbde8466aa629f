import Foundation
import ViewfinderCore

/// An indexed-colour palette (for GIF): up to 256 colours. MediaIO makes one that covers a set
/// of pictures (`ColorPalette(quantizing:)`) and maps pictures onto it.
public struct ColorPalette: Sendable, Equatable {
    /// Up to 256 colours.
    public let colors: [RGB]

    /// A palette of exactly these colours (the first 256).
    public init(colors: [RGB]) {
        self.colors = Array(colors.prefix(256))
    }
}
