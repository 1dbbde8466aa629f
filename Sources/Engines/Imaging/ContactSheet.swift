import Foundation
import ViewfinderCore

/// Lays frames side by side in one picture (a filmstrip).
public enum ContactSheet {
    /// The pictures in a row, top-aligned, separated by `gap` pixels of `background`.
    public static func row(_ pictures: [PixelBuffer], gap: Int = 0, background: RGB = RGB(0, 0, 0)) -> PixelBuffer {
        let width = pictures.reduce(0) { $0 + $1.width } + max(0, pictures.count - 1) * gap
        let height = pictures.map(\.height).max() ?? 0
        var sheet = PixelBuffer(width: width, height: height, fill: background)
        var x = 0
        for picture in pictures {
            sheet.draw(picture, atX: x, y: 0)
            x += picture.width + gap
        }
        return sheet
    }
}
