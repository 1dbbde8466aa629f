import Foundation
import HUD
import StudioKit
import ViewfinderCore

/// Draws a `ProgressHUD` with Cairo: the dimmed view, the box, the indicator of each of the six
/// modes, the labels and the button. Sizes follow the original component (37-point indicator,
/// 20-point margin, bold 16-point label, 12-point details).
@MainActor
struct HUDPainter {
    static let indicatorSide = 37.0
    static let barSize = Size(width: 120, height: 10)
    static let spacing = 6.0
    static let labelFont = "Sans Bold 12"
    static let detailsFont = "Sans 9"
    static let buttonFont = "Sans Bold 9"
    /// The tint over the blurred view behind a "blur" box (the original's light material).
    static let frosted = RGBA(red: 0.9, green: 0.9, blue: 0.9, alpha: 0.75)
    static let darkContent = RGBA(red: 0, green: 0, blue: 0, alpha: 0.72)
    static let lightContent = RGBA(red: 1, green: 1, blue: 1, alpha: 0.9)

    /// Dark text on a light box, light text on a dark one.
    static func contentColour(for background: HUDBackground) -> RGBA {
        guard case .solidColor(let c) = background.style else { return darkContent }
        let luma = (0.299 * c.red + 0.587 * c.green + 0.114 * c.blue) * c.alpha + (1 - c.alpha)
        return luma < 0.5 ? lightContent : darkContent
    }

    /// Draws the HUD at `opacity` and `scale` about the box centre; returns the button's frame.
    func draw(_ hud: ProgressHUD, in context: inout CairoContext, size: Size, opacity: Double,
              scale: Double, time: Double, backdrop: (Rect) -> CairoImage?) -> Rect? {
        if let dimming = hud.background.dimming {
            context.paint(RGBA(red: dimming.red, green: dimming.green, blue: dimming.blue, alpha: dimming.alpha * opacity))
        }
        let content = Self.contentColour(for: hud.background)
        let textWidth = max(40, size.width - 4 * hud.layout.margin)
        let indicator = indicatorSize(hud.mode)
        let label = hud.label.isEmpty ? Size(width: 0, height: 0) : context.measure(hud.label, font: Self.labelFont, width: textWidth)
        let details = hud.detailsLabel.isEmpty ? Size(width: 0, height: 0)
            : context.measure(hud.detailsLabel, font: Self.detailsFont, width: textWidth)
        let buttonText = hud.button.map { context.measure($0.title, font: Self.buttonFont) }
        let buttonSize = buttonText.map { Size(width: $0.width + 24, height: $0.height + 10) }
        let parts = [indicator, label, details, buttonSize ?? Size(width: 0, height: 0)].filter { $0.height > 0 }
        let contentSize = Size(width: parts.map(\.width).max() ?? 0,
                               height: parts.map(\.height).reduce(0, +) + Self.spacing * Double(max(0, parts.count - 1)))
        let box = hud.box(in: Size(clampingWidth: size.width, height: size.height),
                          content: Size(clampingWidth: contentSize.width, height: contentSize.height))
        let frame = Rect(x: box.origin.x, y: box.origin.y, width: box.size.width, height: box.size.height)

        context.save()
        context.translate(frame.midX, frame.midY)
        context.scale(scale, scale)
        context.translate(-frame.midX, -frame.midY)
        context.beginGroup()
        switch hud.background.style {
        case .blur:
            // The view behind, blurred, with a light tint over it.
            context.save()
            context.roundedRectangle(frame, radius: 5)
            context.clip()
            if let image = backdrop(frame) { context.draw(image, in: frame) }
            context.paint(Self.frosted)
            context.restore()
        case .solidColor(let color):
            context.roundedRectangle(frame, radius: 5)
            context.setColor(RGBA(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha))
            context.fill()
        }

        var y = frame.midY - contentSize.height / 2
        var buttonFrame: Rect?
        if indicator.height > 0 {
            let rect = Rect(x: frame.midX - indicator.width / 2, y: y, width: indicator.width, height: indicator.height)
            drawIndicator(hud.mode, progress: hud.progress, in: rect, content: content, context: &context, time: time)
            y += indicator.height + Self.spacing
        }
        if label.height > 0 {
            context.text(hud.label, at: Point(x: frame.midX - textWidth / 2, y: y), font: Self.labelFont, color: content, width: textWidth)
            y += label.height + Self.spacing
        }
        if details.height > 0 {
            context.text(hud.detailsLabel, at: Point(x: frame.midX - textWidth / 2, y: y), font: Self.detailsFont, color: content, width: textWidth)
            y += details.height + Self.spacing
        }
        if let button = hud.button, let buttonSize, let buttonText {
            let rect = Rect(x: frame.midX - buttonSize.width / 2, y: y, width: buttonSize.width, height: buttonSize.height)
            context.roundedRectangle(rect, radius: 3)
            context.setColor(content)
            context.stroke(width: 1)
            context.text(button.title, at: Point(x: rect.midX - buttonText.width / 2, y: rect.minY + 5), font: Self.buttonFont, color: content)
            buttonFrame = rect
        }
        context.endGroup(opacity: opacity)
        context.restore()
        return buttonFrame.map { rect in
            // The click arrives in unscaled coordinates.
            Rect(x: frame.midX + (rect.minX - frame.midX) * scale, y: frame.midY + (rect.minY - frame.midY) * scale,
                 width: rect.width * scale, height: rect.height * scale)
        }
    }

    private func indicatorSize(_ mode: HUDMode) -> Size {
        switch mode {
        case .text: Size(width: 0, height: 0)
        case .determinateHorizontalBar: Self.barSize
        case .indeterminate, .determinate, .annularDeterminate, .customView: Size(width: Self.indicatorSide, height: Self.indicatorSide)
        }
    }

    private func drawIndicator(_ mode: HUDMode, progress: Double, in rect: Rect, content: RGBA,
                               context: inout CairoContext, time: Double) {
        let fraction = progress.isFinite ? min(max(progress, 0), 1) : 0
        let centre = Point(x: rect.midX, y: rect.midY)
        let radius = rect.width / 2
        let top = -Double.pi / 2
        switch mode {
        case .indeterminate:
            // Twelve spokes, the brightest turning once a second.
            let lead = Int((time.truncatingRemainder(dividingBy: 1)) * 12)
            for spoke in 0..<12 {
                let angle = Double(spoke) * .pi / 6 + top
                let age = (lead - spoke + 12) % 12
                context.setColor(RGBA(red: content.red, green: content.green, blue: content.blue,
                                      alpha: content.alpha * (1 - Double(age) * 0.075)))
                context.move(to: Point(x: centre.x + cos(angle) * radius * 0.45, y: centre.y + sin(angle) * radius * 0.45))
                context.line(to: Point(x: centre.x + cos(angle) * radius * 0.95, y: centre.y + sin(angle) * radius * 0.95))
                context.stroke(width: 3)
            }
        case .determinate:
            context.ellipse(in: rect.insetBy(1))
            context.setColor(content)
            context.stroke(width: 2)
            context.move(to: centre)
            context.arc(center: centre, radius: radius - 4, from: top, to: top + 2 * .pi * fraction)
            context.closePath()
            context.fill()
        case .annularDeterminate:
            context.arc(center: centre, radius: radius - 2, from: 0, to: 2 * .pi)
            context.setColor(RGBA(red: content.red, green: content.green, blue: content.blue, alpha: 0.15))
            context.stroke(width: 4)
            context.newPath()
            context.arc(center: centre, radius: radius - 2, from: top, to: top + 2 * .pi * fraction)
            context.setColor(content)
            context.stroke(width: 4)
        case .determinateHorizontalBar:
            context.roundedRectangle(rect, radius: rect.height / 2)
            context.setColor(content)
            context.stroke(width: 2)
            let inner = rect.insetBy(2)
            context.roundedRectangle(Rect(x: inner.minX, y: inner.minY, width: inner.width * fraction, height: inner.height), radius: inner.height / 2)
            context.fill()
        case .customView(let symbol):
            drawSymbol(symbol, in: rect, content: content, context: &context)
        case .text:
            break
        }
    }

    private func drawSymbol(_ symbol: HUDSymbol, in rect: Rect, content: RGBA, context: inout CairoContext) {
        context.setColor(content)
        switch symbol {
        case .checkmark:
            context.move(to: Point(x: rect.minX + rect.width * 0.15, y: rect.minY + rect.height * 0.55))
            context.line(to: Point(x: rect.minX + rect.width * 0.4, y: rect.minY + rect.height * 0.8))
            context.line(to: Point(x: rect.minX + rect.width * 0.88, y: rect.minY + rect.height * 0.22))
            context.stroke(width: 4)
        case .cross:
            context.move(to: Point(x: rect.minX + rect.width * 0.2, y: rect.minY + rect.height * 0.2))
            context.line(to: Point(x: rect.maxX - rect.width * 0.2, y: rect.maxY - rect.height * 0.2))
            context.move(to: Point(x: rect.maxX - rect.width * 0.2, y: rect.minY + rect.height * 0.2))
            context.line(to: Point(x: rect.minX + rect.width * 0.2, y: rect.maxY - rect.height * 0.2))
            context.stroke(width: 4)
        case .info, .warning, .named:
            let glyph = context.measure(symbol.glyph, font: "Sans Bold 20")
            context.text(symbol.glyph, at: Point(x: rect.midX - glyph.width / 2, y: rect.midY - glyph.height / 2),
                         font: "Sans Bold 20", color: content)
        }
    }
}
