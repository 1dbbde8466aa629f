import Foundation
import MediaLibrary
import StudioKit
import ViewfinderCore

/// The media picker: the library's smart groups and albums in a sidebar, a kind filter, an
/// order (newest or oldest first) and a grid of thumbnails made off the main thread as cells
/// scroll in. Its `PickerRules` say which kinds it offers, how many items one pick holds (a
/// single pick finishes on the first click; a multiple one numbers the items in the order they
/// were chosen and finishes with Done) and the longest video it takes: a longer one says why on
/// its cell and cannot be chosen. The completion gets the picked assets in order, or
/// `.cancelled`.
@MainActor
public final class MediaPicker: Component {
    /// One picked item, as the completion hands it back.
    public struct Item: Sendable, Equatable {
        /// The library's id.
        public let id: Int64
        /// The stored original.
        public let file: URL
        /// Photo or video.
        public let kind: AssetKind
        /// Pixel size as shown.
        public let size: PixelSize
        /// A video's length.
        public let duration: MediaTime?
        /// When it was taken.
        public let date: Date

        /// The item for `asset`, whose original is `file`.
        public init(_ asset: Asset, file: URL) {
            id = asset.id
            self.file = file
            kind = asset.kind
            size = asset.size
            duration = asset.duration
            date = asset.creationDate
        }
    }

    /// The side of a grid thumbnail, in points.
    public static let thumbnailSide = 160
    /// "Library", or the folder's name for a folder's photos and videos.
    public var title: String { (library as? FolderBrowser)?.folder?.lastPathComponent ?? tr("Library") }
    /// The sidebar and the grid, folding into the grid alone in a narrow window.
    private lazy var root = FoldingPanes(side: sidebarScroller, main: mainColumn)
    public var page: Widget { root }
    private let mainColumn = Box(.vertical, spacing: 8)
    private lazy var sidebarScroller: ScrolledWindow = {
        let scroller = ScrolledWindow(sidebar)
        scroller.scrollVerticallyOnly()
        scroller.addStyleClass("sidebar")
        return scroller
    }()
    /// The library (or plain folder) the grid shows.
    public let library: any AssetBrowser
    /// What can be chosen.
    public let rules: PickerRules
    /// The items chosen so far (a multiple pick), in order.
    public private(set) var selection: MediaSelection
    private let sidebar = Box(.vertical, spacing: 4)
    private var groupButtons: [ToggleButton] = []
    private let status = Label("")
    /// Shown instead of the grid when there is nothing to show.
    private let emptyPage = StatusPage(icon: "image-x-generic-symbolic", title: tr("No Photos or Videos Yet"), description: "")
    private var grid: GridView<ThumbnailCell>?
    private var scroller: ScrolledWindow?
    private var filterButtons: [LibraryBrowser.KindFilter: ToggleButton] = [:]
    private var orderButtons: [LibraryBrowser.Order: ToggleButton] = [:]
    public let importButton = Button(tr("Import…"))
    public let cameraButton = Button.icon("camera-photo-symbolic", tooltip: tr("Camera")) {}
    public let infoButton = Button.icon("dialog-information-symbolic", tooltip: tr("Info (I): the focused item's details")) {}
    public let doneButton = Button(tr("Done"))
    /// Shown while the window is too narrow for the sidebar: opens it (its groups and albums).
    public lazy var sidebarButton = Button.icon("sidebar-show-symbolic", tooltip: tr("Groups and albums")) { [unowned self] in
        self.root.showSide()
    }
    public let cancelButton = Button(tr("Cancel"))
    /// Told with the outcome: the picked items in order, or `.cancelled`. A picker left on
    /// screen (Studio's library) may finish many times.
    public var completion: ((PickerOutcome<[Item]>) -> Void)?
    /// Import… was pressed (the host shows its file chooser).
    public var onImport: (() -> Void)?
    /// The camera button was pressed (the host opens a `CameraView`).
    public var onCamera: (() -> Void)?
    /// Info was asked for an item (the Info button or I on the focused item; the host opens an
    /// `AssetInfoPanel`). Without a handler the button is hidden.
    public var onInfo: ((Asset) -> Void)? {
        didSet { infoButton.isVisible = onInfo != nil }
    }
    /// Files were dropped on the grid.
    public var onDrop: (([URL]) -> Void)?
    /// The grid was rebuilt from the library.
    public var onRefresh: (() -> Void)?
    /// A cell's thumbnail arrived.
    public var onThumbnail: ((Asset) -> Void)?
    /// The selection changed (a multiple pick), or an item was refused with its reason.
    public var onSelection: ((MediaSelection, String?) -> Void)?

    /// A picker over `library` (a `LibraryBrowser`, or a `FolderBrowser` for a plain folder)
    /// under `rules`; `cancellable` shows Cancel, `camera` the camera button, `importing` Import….
    public init(library: any AssetBrowser, rules: PickerRules, cancellable: Bool = false,
                camera: Bool = false, importing: Bool = true) {
        self.library = library
        self.rules = rules
        selection = MediaSelection(rules: rules)
        library.filter = LibraryBrowser.KindFilter(showing: rules.kinds)
        importButton.on("clicked") { [unowned self] in self.onImport?() }
        cameraButton.on("clicked") { [unowned self] in self.onCamera?() }
        cameraButton.isVisible = camera
        infoButton.on("clicked") { [unowned self] in self.showInfo(at: self.grid?.focusedPosition ?? 0) }
        infoButton.isVisible = false
        infoButton.takesFocusOnClick = false
        importButton.isVisible = importing
        doneButton.addStyleClass("suggested-action")
        doneButton.on("clicked") { [unowned self] in self.done() }
        doneButton.isVisible = !rules.isSingle
        doneButton.isSensitive = false
        cancelButton.on("clicked") { [unowned self] in self.completion?(.cancelled) }
        cancelButton.isVisible = cancellable

        sidebar.setMargins(12)
        sidebar.setMinimumSize(width: 180)
        let main = mainColumn
        main.setMargins(12)
        main.expand()
        let filters = ChoiceGroup([(LibraryBrowser.KindFilter.all, tr("All")), (.photos, tr("Photos")), (.videos, tr("Videos"))],
                                  selected: library.filter) { [unowned library] filter in library.filter = filter }
        filterButtons = filters.buttons
        // A picker limited to one kind offers no filter.
        filters.box.isVisible = rules.kinds.count > 1
        let orders = ChoiceGroup([(LibraryBrowser.Order.newestFirst, tr("Newest")), (.oldestFirst, tr("Oldest")), (.byName, tr("Name"))],
                                 selected: library.order) { [unowned library] order in library.order = order }
        orderButtons = orders.buttons
        // The filter, the order and the actions wrap onto more lines in a narrow window.
        let toolbar = WrappingRow()
        sidebarButton.isVisible = false
        toolbar.append(sidebarButton)
        let actions = Box(.horizontal, spacing: 8)
        for button in [infoButton, cameraButton, importButton, cancelButton, doneButton] { actions.append(button) }
        for group in [filters.box, orders.box, actions] { toolbar.append(group) }
        status.setTextAlignment(0)
        status.setWraps(true)
        status.addStyleClass("dim-label")

        let grid = GridView<ThumbnailCell>(
            makeCell: { ThumbnailCell(side: MediaPicker.thumbnailSide) },
            bind: { [unowned self] cell, position in self.bind(cell, position) },
            unbind: { cell in cell.clear() },
            activated: { [unowned self] position in self.activate(position) }
        )
        grid.name = "library-grid"
        grid.setAccessibleName(rules.isSingle ? tr("Photos and videos: Enter chooses one") :
                                tr("Photos and videos: Space marks up to {limit}, Enter finishes", ["limit": rules.limit]))
        // Space marks (a multiple pick) and Enter finishes before the grid's own bindings.
        grid.add(KeyController(early: true) { [unowned self] key in self.pressed(key) })
        self.grid = grid
        let scroller = ScrolledWindow(grid)
        self.scroller = scroller
        scroller.expand()
        scroller.add(dropTarget())
        main.append(toolbar)
        main.append(status)
        main.append(scroller)
        emptyPage.expand()
        emptyPage.isVisible = false
        // The grid's own background, so the page looks like the empty grid it stands for (and a
        // blurred HUD over it has an opaque backdrop).
        emptyPage.addStyleClass("view")
        emptyPage.add(dropTarget())
        main.append(emptyPage)

        library.onChange = { [unowned self] in self.refresh() }
        refresh()
        // Each time the picker comes on screen the keyboard starts on the grid.
        _ = root.on("map") { [unowned self] in self.focusGrid() }
        // A narrow window folds the sidebar away; this button brings it back, and choosing a
        // group there returns to the grid.
        root.onFold { [unowned self] folded in self.sidebarButton.isVisible = folded }
    }

    /// Files dropped on the grid, or on the page that stands for an empty one, go to `onDrop`.
    private func dropTarget() -> FileDropTarget {
        FileDropTarget { [unowned self] paths in self.onDrop?(paths.map { URL(fileURLWithPath: $0) }) }
    }

    /// Rebuilds the sidebar and the grid from the model.
    public func refresh() {
        for button in groupButtons { sidebar.remove(button) }
        groupButtons = []
        for entry in library.groups {
            let button = ToggleButton("\(entry.title)  \(entry.count)") { [unowned library, unowned self] active in
                if active { library.selectedGroup = entry.group }
                if active && self.root.showsSide { self.root.showMain() }
            }
            button.addStyleClass("flat")
            if let first = groupButtons.first { button.join(first) }
            button.isActive = entry.group == library.selectedGroup
            groupButtons.append(button)
            sidebar.append(button)
        }
        grid?.itemCount = library.assets.count
        // Focus on the grid itself (it came on screen before its items, as a folder's do) goes
        // to the first item, so that the first key a person presses acts on one.
        if let grid, grid.hasFocus, !library.assets.isEmpty { grid.focusItem(at: 0) }
        let pending = library.pendingCount, refused = library.refusedFiles.count
        // Nothing to show at all: a status page says what to do instead of an empty grid.
        let empty = library.lastError == nil && library.assets.isEmpty && pending == 0 && refused == 0
        emptyPage.isVisible = empty
        scroller?.isVisible = !empty
        status.isVisible = !empty
        if empty {
            let everything = library.selectedGroup == .all && library.filter == .all
            emptyPage.title = everything ? tr("No Photos or Videos Yet") : tr("Nothing Here")
            emptyPage.details = library is FolderBrowser
                ? tr("This folder holds no photos or videos Viewfinder can read.")
                : everything ? tr("Import photos and videos with Import… (Ctrl+I), or drop files here.")
                             : tr("No photos or videos here: choose All in the sidebar, or import some with Import… (Ctrl+I).")
        }
        if let error = library.lastError {
            status.text = tr("The library could not be read: {error}", ["error": "\(error)"])
        } else if empty {
            status.text = tr("Nothing here yet. Import photos and videos with Import… (Ctrl+I) or drop files on this window.")
        } else {
            let count = library.assets.count
            // The status line: how many, in which order, then what else there is to know, " · " between.
            // TRANSLATORS: {order} is how the grid is sorted ("newest first", "by name").
            var parts = [trn("{count} item, {order}", "{count} items, {order}", count, ["order": library.order.phrase])]
            if !rules.isSingle { parts.append(tr("choose up to {limit}, then Done", ["limit": rules.limit])) }
            if pending > 0 { parts.append(trn("reading {count} more file…", "reading {count} more files…", pending)) }
            if refused > 0 {
                parts.append(trn("{count} file not a readable photo or video", "{count} files not a readable photo or video", refused))
            }
            status.text = parts.joined(separator: " · ")
        }
        onRefresh?()
    }

    /// Cells on screen with a thumbnail shown (for the events and tests).
    public var loadedCells: Int { grid?.visibleCells.filter(\.hasPicture).count ?? 0 }

    /// Cells the grid has made (it makes only about a screenful and reuses them).
    public var cellCount: Int { grid?.visibleCells.count ?? 0 }

    /// The badge the visible cell of asset `id` shows (a video's length, or "Live"); nil when
    /// no visible cell shows it or it has no badge.
    public func badge(of id: Int64) -> String? {
        grid?.visibleCells.first { $0.assetID == id }?.badgeText
    }

    /// Scrolls the grid to `position` (0 top, 1 bottom).
    public func scroll(to position: Double) {
        scroller?.verticalPosition = position
    }

    /// Scrolls the grid from top to bottom over `seconds`, one step per frame, and reports
    /// the gaps between frames (milliseconds), to show scrolling stays smooth.
    public func scrollThrough(seconds: Double, done: @escaping ([Double]) -> Void) {
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

    public func button(named name: String) -> Widget? {
        if let order = LibraryBrowser.Order(rawValue: name) { return orderButtons[order] }
        if name.hasPrefix("group-"), let index = Int(name.dropFirst(6)), groupButtons.indices.contains(index) { return groupButtons[index] }
        return ["import": importButton, "camera": cameraButton, "info": infoButton, "done": doneButton, "cancel": cancelButton,
                "sidebar": sidebarButton][name]
    }

    public func part(named name: String) -> Widget? {
        ["grid": scroller, "empty": emptyPage, "groups": sidebarScroller][name] ?? nil
    }

    /// The grid's keys (arrows move between items, GTK's own): Space marks the focused item in a
    /// multiple pick, Enter chooses it (single) or finishes (multiple), I shows its details,
    /// Escape cancels.
    public func pressed(_ key: KeyPress) -> Bool {
        switch key.name {
        case "space":
            guard !rules.isSingle, let position = grid?.focusedPosition else { return false }
            activate(position)
        case "Return", "KP_Enter":
            if rules.isSingle {
                guard let position = grid?.focusedPosition else { return false }
                activate(position)
            } else {
                done()
            }
        case "Escape":
            guard cancelButton.isVisible else { return false }
            completion?(.cancelled)
        case "i", "I":
            guard onInfo != nil, let position = grid?.focusedPosition else { return false }
            showInfo(at: position)
        default:
            return false
        }
        return true
    }

    /// Asks the host to show the details of the item at grid `position`.
    public func showInfo(at position: Int) {
        guard position >= 0, position < library.assets.count else { return }
        onInfo?(library.assets[position])
    }

    /// Moves the keyboard focus to the grid's first item, where a keyboard user starts.
    public func focusGrid() {
        guard let grid else { return }
        if library.assets.isEmpty { grid.grabFocus(visibly: true) } else { grid.focusItem(at: 0) }
    }

    /// Finishes a multiple pick with the items chosen, in order (nothing chosen: nothing done).
    public func done() {
        guard !rules.isSingle, !selection.picked.isEmpty else { return }
        finish(selection.picked)
    }

    /// The item at grid `position` was activated (clicked, Enter, or a script): a single pick
    /// finishes with it, a multiple one toggles it; an item the rules refuse says why.
    public func activate(_ position: Int) {
        guard position >= 0, position < library.assets.count else { return }
        let asset = library.assets[position]
        if rules.isSingle {
            if let reason = rules.refusal(for: asset) { return refuse(reason) }
            return finish([asset])
        }
        switch selection.toggle(asset) {
        case .refused(let reason): return refuse(reason)
        case .full: return refuse(trn("Up to {count} item", "Up to {count} items", rules.limit))
        case .added, .removed: break
        }
        doneButton.isSensitive = !selection.picked.isEmpty
        doneButton.title = selection.picked.isEmpty ? tr("Done") : tr("Done ({count})", ["count": selection.picked.count])
        for cell in grid?.visibleCells ?? [] {
            let number = cell.assetID.flatMap(selection.number(of:))
            cell.showNumber(number)
            if let shown = cell.asset { describe(cell, shown, number: number) }
        }
        onSelection?(selection, nil)
    }

    private func refuse(_ reason: String) {
        status.text = reason
        onSelection?(selection, reason)
    }

    private func finish(_ assets: [Asset]) {
        do {
            let items = try assets.map { asset throws(LibraryError) in
                Item(asset, file: try library.originalURL(of: asset))
            }
            completion?(.done(items))
        } catch {
            completion?(.failed(PickerError(tr("Cannot open the item"), error)))
        }
    }

    /// Names the grid item showing `asset` for a screen reader, chosen or not.
    private func describe(_ cell: ThumbnailCell, _ asset: Asset, number: Int?) {
        grid?.describeItem(holding: cell, as: PickerRules.spokenName(of: asset, number: number, refusal: rules.refusal(for: asset)),
                           selected: number != nil)
    }

    private func bind(_ cell: ThumbnailCell, _ position: Int) {
        guard position < library.assets.count else { return }
        let asset = library.assets[position]
        cell.show(asset, refusal: rules.refusal(for: asset), number: selection.number(of: asset.id))
        describe(cell, asset, number: selection.number(of: asset.id))
        cell.loading = Task { [weak cell, weak self, library] in
            guard let image = try? await library.thumbnail(for: asset, side: MediaPicker.thumbnailSide),
                  let cell, cell.assetID == asset.id else { return }
            cell.setPicture(image)
            self?.onThumbnail?(asset)
        }
    }
}

/// One grid cell: the thumbnail, a badge with a video's length (or "Live"), the item's number in a
/// multiple pick, and why it cannot be chosen when the rules refuse it.
@MainActor
final class ThumbnailCell: GridCell {
    let view: Widget
    private let picture = Picture()
    private let badge = Label("")
    private let number = Label("")
    private let refusal = Label("")
    /// The item shown, nil while the cell is unbound.
    private(set) var asset: Asset?
    var assetID: Int64? { asset?.id }
    private(set) var hasPicture = false
    var loading: Task<Void, Never>?

    init(side: Int) {
        let overlay = Overlay()
        overlay.setMinimumSize(width: side, height: side)
        picture.setCovers(true)
        picture.setMinimumSize(width: side, height: side)
        overlay.setChild(picture)
        for (label, horizontal, vertical) in [(badge, Alignment.end, Alignment.end), (number, .start, .start), (refusal, .fill, .center)] {
            label.align(horizontal: horizontal, vertical: vertical)
            label.setMargins(6)
            label.addStyleClass("osd")
            label.isVisible = false
            overlay.addOverlay(label)
        }
        refusal.setWraps(true)
        overlay.setMargins(4)
        view = overlay
    }

    func show(_ asset: Asset, refusal reason: String?, number position: Int?) {
        self.asset = asset
        picture.setTexture(nil)
        hasPicture = false
        // A Live Photo says so (its motion's length is not what a person looks for). "Live" is
        // Apple's badge for one, kept in English as Apple's own translations keep it.
        badge.text = asset.kind == .live ? "Live" : asset.duration.map { PickerRules.clock($0.seconds) } ?? ""
        badge.isVisible = asset.kind == .live || asset.duration != nil
        refusal.text = reason ?? ""
        refusal.isVisible = reason != nil
        picture.opacity = reason == nil ? 1 : 0.4
        showNumber(position)
    }

    var badgeText: String? { badge.isVisible ? badge.text : nil }

    func showNumber(_ position: Int?) {
        number.text = position.map(String.init) ?? ""
        number.isVisible = position != nil
    }

    func setPicture(_ image: RasterImage) {
        picture.setTexture(Texture(image))
        hasPicture = true
    }

    func clear() {
        loading?.cancel()
        loading = nil
        asset = nil
    }
}
