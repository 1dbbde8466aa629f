import Foundation
import MediaLibrary
import StudioKit
import ViewfinderCore

/// The Library screen: the smart groups and albums in a sidebar, a filter, and a grid of
/// thumbnails, newest first, made off the main thread as cells scroll in. Import by the file
/// chooser or by dropping files on the grid; activating an item opens it (a photo in the avatar
/// editor, a video in the cover chooser).
@MainActor
final class LibraryScreen: Screen {
    static let thumbnailSide = 160
    let title = "Library"
    private let root = Box(.horizontal, spacing: 0)
    var page: Widget { root }
    private unowned let studio: Studio
    private let sidebar = Box(.vertical, spacing: 4)
    private var groupButtons: [ToggleButton] = []
    private let status = Label("")
    private var grid: GridView<ThumbnailCell>?
    private var scroller: ScrolledWindow?
    private var filterButtons: [LibraryBrowser.KindFilter: ToggleButton] = [:]
    let importButton: Button
    let cameraButton: Button

    init(studio: Studio) {
        self.studio = studio
        importButton = Button("Import…")
        cameraButton = Button.icon("camera-photo-symbolic", tooltip: "Camera") {}
        importButton.on("clicked") { [unowned studio] in studio.chooseFilesToImport() }
        cameraButton.on("clicked") { [unowned studio] in studio.openCamera() }
        cameraButton.isVisible = studio.cameraAvailable

        sidebar.setMargins(12)
        sidebar.setMinimumSize(width: 180)
        let main = Box(.vertical, spacing: 8)
        main.setMargins(12)
        main.expand()
        let filters = ChoiceGroup([(LibraryBrowser.KindFilter.all, "All"), (.photos, "Photos"), (.videos, "Videos")],
                                  selected: .all) { [unowned studio] filter in studio.library?.filter = filter }
        filterButtons = filters.buttons
        let toolbar = buttonRow([filters.box], [cameraButton, importButton])
        status.setTextAlignment(0)
        status.addStyleClass("dim-label")

        let grid = GridView<ThumbnailCell>(
            makeCell: { ThumbnailCell(side: LibraryScreen.thumbnailSide) },
            bind: { [unowned self] cell, position in self.bind(cell, position) },
            unbind: { cell in cell.clear() },
            activated: { [unowned self] position in self.activate(position) }
        )
        grid.name = "library-grid"
        self.grid = grid
        let scroller = ScrolledWindow(grid)
        self.scroller = scroller
        scroller.expand()
        scroller.add(FileDropTarget { [unowned studio] paths in
            studio.importFiles(paths.map { URL(fileURLWithPath: $0) })
        })
        main.append(toolbar)
        main.append(status)
        main.append(scroller)
        let sidebarScroller = ScrolledWindow(sidebar)
        sidebarScroller.scrollVerticallyOnly()
        sidebarScroller.addStyleClass("sidebar")
        root.append(sidebarScroller)
        root.append(main)

        studio.library?.onChange = { [unowned self] in self.refresh() }
        refresh()
    }

    /// Rebuilds the sidebar and the grid from the model.
    func refresh() {
        guard let library = studio.library else { return }
        for button in groupButtons { sidebar.remove(button) }
        groupButtons = []
        for entry in library.groups {
            let button = ToggleButton("\(entry.title)  \(entry.count)") { [unowned library] active in
                if active { library.selectedGroup = entry.group }
            }
            button.addStyleClass("flat")
            if let first = groupButtons.first { button.join(first) }
            button.isActive = entry.group == library.selectedGroup
            groupButtons.append(button)
            sidebar.append(button)
        }
        grid?.itemCount = library.assets.count
        if let error = library.lastError {
            status.text = "The library could not be read: \(error)"
        } else if library.assets.isEmpty {
            status.text = "Nothing here yet. Import photos and videos with Import… (Ctrl+I) or drop files on this window."
        } else {
            let count = library.assets.count
            status.text = "\(count) item\(count == 1 ? "" : "s"), newest first"
        }
        studio.events.emit("library", ["count": library.assets.count, "group": "\(library.selectedGroup)",
                                       "filter": library.filter.rawValue])
    }

    /// Cells on screen with a thumbnail shown (for the events and tests).
    var loadedCells: Int { grid?.visibleCells.filter(\.hasPicture).count ?? 0 }

    /// Cells the grid has made (it makes only about a screenful and reuses them).
    var cellCount: Int { grid?.visibleCells.count ?? 0 }

    /// Scrolls the grid to `position` (0 top, 1 bottom).
    func scroll(to position: Double) {
        scroller?.verticalPosition = position
    }

    /// Scrolls the grid from top to bottom over `seconds`, one step per frame, and reports
    /// the gaps between frames (milliseconds), to show scrolling stays smooth.
    func scrollThrough(seconds: Double, done: @escaping ([Double]) -> Void) {
        guard let scroller, let grid else { return done([]) }
        var start: Double?
        var last: Double?
        var gaps: [Double] = []
        grid.addTickCallback { time in
            let begin = start ?? time
            start = begin
            if let last { gaps.append((time - last) * 1000) }
            last = time
            scroller.verticalPosition = min(1, (time - begin) / seconds)
            if time - begin >= seconds {
                done(gaps)
                return false
            }
            return true
        }
    }

    func button(named name: String) -> Widget? {
        ["import": importButton, "camera": cameraButton][name]
    }

    func part(named name: String) -> Widget? {
        name == "grid" ? scroller : nil
    }

    private func bind(_ cell: ThumbnailCell, _ position: Int) {
        guard let library = studio.library, position < library.assets.count else { return }
        let asset = library.assets[position]
        cell.show(asset)
        cell.loading = Task { [weak cell, studio] in
            guard let image = try? await library.thumbnail(for: asset, side: LibraryScreen.thumbnailSide),
                  let cell, cell.assetID == asset.id else { return }
            cell.setPicture(image)
            studio.events.emit("thumbnail", ["id": asset.id, "poster": asset.posterTime?.seconds ?? -1])
        }
    }

    private func activate(_ position: Int) {
        guard let library = studio.library, position < library.assets.count else { return }
        studio.open(library.assets[position])
    }
}

/// One grid cell: the thumbnail, and a badge with a video's length.
@MainActor
final class ThumbnailCell: GridCell {
    let view: Widget
    private let picture = Picture()
    private let badge = Label("")
    private(set) var assetID: Int64?
    private(set) var hasPicture = false
    var loading: Task<Void, Never>?

    init(side: Int) {
        let overlay = Overlay()
        overlay.setMinimumSize(width: side, height: side)
        picture.setCovers(true)
        picture.setMinimumSize(width: side, height: side)
        overlay.setChild(picture)
        badge.align(horizontal: .end, vertical: .end)
        badge.setMargins(6)
        badge.addStyleClass("osd")
        overlay.addOverlay(badge)
        overlay.setMargins(4)
        view = overlay
    }

    func show(_ asset: Asset) {
        assetID = asset.id
        picture.setTexture(nil)
        hasPicture = false
        if let duration = asset.duration {
            let seconds = Int(duration.seconds.rounded())
            badge.text = String(format: "%d:%02d", seconds / 60, seconds % 60)
            badge.isVisible = true
        } else {
            badge.isVisible = false
        }
    }

    func setPicture(_ image: RasterImage) {
        picture.setTexture(Texture(image))
        hasPicture = true
    }

    func clear() {
        loading?.cancel()
        loading = nil
        assetID = nil
    }
}
