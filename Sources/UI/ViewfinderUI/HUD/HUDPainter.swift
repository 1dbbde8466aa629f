import Foundation
import HUD
import StudioKit
import ViewfinderCore

/// Draws a `ProgressHUD` with Cairo: the dimmed or blurred view, the box, the indicator of each
/// of the six modes, the labels and the button, in the HUD's fonts and resolved colours. Sizes
/// follow the original component (37-point indicator, 20-point margin).
@MainActor
struct HUDPainter {
    static let indicatorSide = 37.0
    static let barSize = Size(width: 120, height: 10)
    static let spacing = 6.0
    static let buttonFont = "Sans Bold 9"

    /// What the painter needs from the overlay besides the model: pictures of what lies behind
    /// (blurred for a rectangle of the view, with a blur style's tint laid over), an image custom
    /// view made drawable (both kept from frame to frame), and the app widget a custom view shows.
    struct Surroundings {
        var backdrop: (Rect, HUDBlurStyle) -> CairoImage?
        var picture: (RasterImage) -> CairoImage?
        var customWidget: Widget?
    }

    /// Draws the HUD at `opacity` and `scale` about the box centre; returns the button's frame.
    func draw(_ hud: ProgressHUD, in context: inout CairoContext, size: Size, opacity: Double,
              scale: Double, time: Double, around: Surroundings) -> Rect? {
        let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
        if let view = hud.background.view {
            // One layer: painted at the fade's opacity straight away, no group to composite.
            fill(whole, with: view, radius: 0, opacity: opacity, context: &context, backdrop: around.backdrop)
        }
        let colors = hud.resolvedColors
        let textWidth = max(40, size.width - 4 * hud.layout.margin)
        let indicator = indicatorSize(hud.mode, widget: around.customWidget,
                                      room: Size(width: textWidth, height: max(37, size.height / 2)))
        let (labelFont, detailsFont) = (hud.labelFont.description, hud.detailsFont.description)
        let label = hud.label.isEmpty ? Size(width: 0, height: 0) : context.measure(hud.label, font: labelFont, width: textWidth)
        let details = hud.detailsLabel.isEmpty ? Size(width: 0, height: 0)
            : context.measure(hud.detailsLabel, font: detailsFont, width: textWidth)
        let buttonText = hud.button.map { context.measure($0.title, font: Self.buttonFont) }
        let buttonSize = buttonText.map { Size(width: $0.width + 24, height: $0.height + 10) }
        let parts = [indicator, label, details, buttonSize ?? Size(width: 0, height: 0)].filter { $0.height > 0 }
        let contentSize = Size(width: parts.map(\.width).max() ?? 0,
                               height: parts.map(\.height).reduce(0, +) + Self.spacing * Double(max(0, parts.count - 1)))
        let box = hud.box(in: Size(clampingWidth: size.width, height: size.height),
                          content: Size(clampingWidth: contentSize.width, height: contentSize.height))
        // On whole pixels, so the box's edges are crisp whatever the height of the area (an odd
        // one centres it on a half pixel).
        let frame = Rect(x: box.origin.x.rounded(.down), y: box.origin.y.rounded(.down), width: box.size.width, height: box.size.height)

        context.save()
        context.translate(frame.midX, frame.midY)
        context.scale(scale, scale)
        context.translate(-frame.midX, -frame.midY)
        context.beginGroup()
        fill(frame, with: hud.background.style, radius: 5, opacity: 1, context: &context, backdrop: around.backdrop)

        var y = frame.midY - contentSize.height / 2
        var buttonFrame: Rect?
        if indicator.height > 0 {
            // On whole pixels, so a picture of the app's shows pixel for pixel.
            let rect = Rect(x: (frame.midX - indicator.width / 2).rounded(), y: y.rounded(),
                            width: indicator.width, height: indicator.height)
            drawIndicator(hud.mode, progress: hud.progress, in: rect, colors: colors, widget: around.customWidget,
                          picture: around.picture, context: &context, time: time)
            y += indicator.height + Self.spacing
        }
        if label.height > 0 {
            context.text(hud.label, at: Point(x: frame.midX - textWidth / 2, y: y), font: labelFont, color: colors.label, width: textWidth)
            y += label.height + Self.spacing
        }
        if details.height > 0 {
            context.text(hud.detailsLabel, at: Point(x: frame.midX - textWidth / 2, y: y), font: detailsFont, color: colors.details, width: textWidth)
            y += details.height + Self.spacing
        }
        if let button = hud.button, let buttonSize, let buttonText {
            let rect = Rect(x: frame.midX - buttonSize.width / 2, y: y, width: buttonSize.width, height: buttonSize.height)
            context.roundedRectangle(rect, radius: 3)
            context.setColor(colors.content)
            context.stroke(width: 1)
            context.text(button.title, at: Point(x: rect.midX - buttonText.width / 2, y: rect.minY + 5), font: Self.buttonFont,
                         color: colors.content)
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

    /// Fills `rect` (rounded by `radius`) at `opacity` as `style` says: a flat colour, or the
    /// view behind blurred with the blur style's tint over it (the tint alone until a picture of
    /// the view is there).
    private func fill(_ rect: Rect, with style: HUDBackground.Style, radius: Double, opacity: Double,
                      context: inout CairoContext, backdrop: (Rect, HUDBlurStyle) -> CairoImage?) {
        context.save()
        context.roundedRectangle(rect, radius: radius)
        context.clip()
        switch style {
        case .solidColor(let color):
            context.paint(color.fading(by: opacity))
        case .blur(let blur):
            if let image = backdrop(rect, blur) {
                context.draw(image, in: rect, opacity: opacity, clipped: false)
            } else {
                context.paint(blur.tint.fading(by: opacity))
            }
        }
        context.restore()
    }

    /// The indicator's size: the original's 37 points, the bar's 120 × 10, an image's or a
    /// widget's own size shrunk (keeping its shape) to `room`.
    private func indicatorSize(_ mode: HUDMode, widget: Widget?, room: Size) -> Size {
        func fitted(_ width: Double, _ height: Double) -> Size {
            guard width > 0, height > 0 else { return Size(width: 0, height: 0) }
            let scale = min(1, room.width / width, room.height / height)
            return Size(width: (width * scale).rounded(), height: (height * scale).rounded())
        }
        switch mode {
        case .text: return Size(width: 0, height: 0)
        case .determinateHorizontalBar: return Self.barSize
        case .customView where widget != nil:
            return fitted(Double(widget?.width ?? 0), Double(widget?.height ?? 0))
        case .customView(.image(let image)):
            return fitted(Double(image.width), Double(image.height))
        case .indeterminate, .determinate, .annularDeterminate, .customView:
            return Size(width: Self.indicatorSide, height: Self.indicatorSide)
        }
    }

    private func drawIndicator(_ mode: HUDMode, progress: Double, in rect: Rect, colors: HUDResolvedColors,
                               widget: Widget?, picture: (RasterImage) -> CairoImage?, context: inout CairoContext,
                               time: Double) {
        let fraction = progress.isFinite ? min(max(progress, 0), 1) : 0
        let centre = Point(x: rect.midX, y: rect.midY)
        let radius = rect.width / 2
        let top = -Double.pi / 2
        let content = colors.content
        switch mode {
        case .indeterminate:
            // Twelve spokes, the brightest turning once a second.
            let lead = Int((time.truncatingRemainder(dividingBy: 1)) * 12)
            for spoke in 0..<12 {
                let angle = Double(spoke) * .pi / 6 + top
                let age = (lead - spoke + 12) % 12
                context.setColor(content.fading(by: 1 - Double(age) * 0.075))
                context.move(to: Point(x: centre.x + cos(angle) * radius * 0.45, y: centre.y + sin(angle) * radius * 0.45))
                context.line(to: Point(x: centre.x + cos(angle) * radius * 0.95, y: centre.y + sin(angle) * radius * 0.95))
                context.stroke(width: 3)
            }
        case .determinate:
            // As the original's round progress view: the disc in the background tint, its
            // outline and the slice done in the progress tint.
            context.ellipse(in: rect.insetBy(1))
            context.setColor(colors.backgroundTint)
            context.fill()
            context.ellipse(in: rect.insetBy(1))
            context.setColor(colors.progressTint)
            context.stroke(width: 2)
            context.move(to: centre)
            context.arc(center: centre, radius: radius - 4, from: top, to: top + 2 * .pi * fraction)
            context.closePath()
            context.fill()
        case .annularDeterminate:
            context.arc(center: centre, radius: radius - 2, from: 0, to: 2 * .pi)
            context.setColor(colors.backgroundTint)
            context.stroke(width: 4)
            context.newPath()
            context.arc(center: centre, radius: radius - 2, from: top, to: top + 2 * .pi * fraction)
            context.setColor(colors.progressTint)
            context.stroke(width: 4)
        case .determinateHorizontalBar:
            let inner = rect.insetBy(2)
            context.roundedRectangle(inner, radius: inner.height / 2)
            context.setColor(colors.backgroundTint)
            context.fill()
            context.roundedRectangle(rect, radius: rect.height / 2)
            context.setColor(colors.line)
            context.stroke(width: 2)
            context.roundedRectangle(Rect(x: inner.minX, y: inner.minY, width: inner.width * fraction, height: inner.height), radius: inner.height / 2)
            context.setColor(colors.progressTint)
            context.fill()
        case .customView(let symbol):
            if let widget, context.draw(widget, fitting: rect) { return }
            drawSymbol(symbol, in: rect, content: content, picture: picture, context: &context)
        case .text:
            break
        }
    }

    private func drawSymbol(_ symbol: HUDSymbol, in rect: Rect, content: RGBA, picture: (RasterImage) -> CairoImage?,
                            context: inout CairoContext) {
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
        case .image(let raster):
            if let image = picture(raster) { context.draw(image, in: rect) }
        case .named(let name) where context.drawIcon(named: name, in: rect, color: content):
            break
        case .info, .warning, .named:
            // A name the icon theme lacks keeps the glyph, so the box is never empty.
            let glyph = context.measure(symbol.glyph, font: "Sans Bold 20")
            context.text(symbol.glyph, at: Point(x: rect.midX - glyph.width / 2, y: rect.midY - glyph.height / 2),
                         font: "Sans Bold 20", color: content)
        }
    }
}
