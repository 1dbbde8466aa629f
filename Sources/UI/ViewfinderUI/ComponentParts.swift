import StudioKit
import ViewfinderCore

/// A picture shown whole (aspect fit) on a dark panel: the cover and trim previews.
@MainActor
final class PicturePanel {
    let area: DrawingArea
    /// The picture shown; setting it redraws.
    var image: CairoImage? {
        didSet { area.queueDraw() }
    }

    init(name: String, minimumHeight: Int) {
        area = DrawingArea { _, _, _ in }
        area.name = name
        area.expand()
        area.setMinimumSize(width: 320, height: minimumHeight)
        area.setDraw { [unowned self] context, width, height in
            let panel = Rect(x: 0, y: 0, width: width, height: height)
            context.rectangle(panel)
            context.setColor(RGBA(red: 0.08, green: 0.08, blue: 0.08, alpha: 1))
            context.fill()
            if let image = self.image, let rect = self.imageRect(in: panel) { context.draw(image, in: rect) }
        }
    }

    /// Where the picture is drawn now, in the panel's coordinates.
    var imageRect: Rect? {
        imageRect(in: Rect(x: 0, y: 0, width: Double(area.width), height: Double(area.height)))
    }

    private func imageRect(in panel: Rect) -> Rect? {
        image.map { panel.aspectFit(Size(width: Double($0.width), height: Double($0.height))) }
    }
}

/// A strip of frames the pointer scrubs: `began` gets the x of the press, `moved` the distance
/// dragged since.
@MainActor
func scrubStrip(name: String, height: Int, draw: @escaping DrawingArea.Draw,
                began: @escaping @MainActor (Double) -> Void, moved: @escaping @MainActor (Double) -> Void) -> DrawingArea {
    let strip = DrawingArea(draw: draw)
    strip.name = name
    strip.setMinimumSize(height: height)
    strip.add(DragGesture(began: { x, _ in began(x) }, moved: { dx, _ in moved(dx) }))
    return strip
}

/// A row of buttons: `leading` at the start, `trailing` at the end.
@MainActor
func buttonRow(_ leading: [Widget], _ trailing: [Widget]) -> Box {
    let row = Box(.horizontal, spacing: 8)
    let spacer = Label("")
    spacer.expand(horizontally: true, vertically: false)
    for widget in leading + [spacer] + trailing { row.append(widget) }
    return row
}

/// Linked toggle buttons of which exactly one is in: `select` hears the one pressed.
@MainActor
public final class ChoiceGroup<Key: Hashable> {
    /// The buttons, side by side.
    public let box = Box(.horizontal)
    public private(set) var buttons: [Key: ToggleButton] = [:]

    /// A button for each of `choices` (key and title), `selected` in.
    public init(_ choices: [(Key, String)], selected: Key, select: @escaping @MainActor (Key) -> Void) {
        box.addStyleClass("linked")
        var leader: ToggleButton?
        for (key, title) in choices {
            let button = ToggleButton(title) { on in if on { select(key) } }
            if let leader { button.join(leader) }
            leader = leader ?? button
            button.isActive = key == selected
            buttons[key] = button
            box.append(button)
        }
    }
}
