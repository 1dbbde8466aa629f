import Foundation
import Imaging
import MediaLibrary
import StudioKit
import ViewfinderCore

/// Files the desktop opened with the app ("Open with", `viewfinder-studio FILE…`), one row each
/// in the order given: its thumbnail, name and what it is, and the actions it allows — a video's
/// cover and trim, a photo's avatar, and import into the library for both. A file that is not a
/// readable photo or video says why and offers nothing. The files are probed by a
/// `FolderBrowser(files:)`, off the main thread; rows fill in as they are read.
@MainActor
public final class OpenedFiles: Component {
    /// What can be done with one file.
    public enum Action: String, Sendable, CaseIterable {
        case cover, trim, avatar, `import`

        /// The button's title.
        var title: String {
            switch self {
            case .cover: tr("Choose Cover")
            case .trim: tr("Trim")
            case .avatar: tr("Crop Avatar")
            case .import: tr("Import")
            }
        }

        /// The actions an asset of `kind` allows, in the order their buttons show.
        public static func offered(for kind: AssetKind) -> [Action] {
            switch kind {
            case .video: [.cover, .trim, .import]
            case .photo, .live: [.avatar, .import]
            }
        }
    }

    /// The files, each once, in the order given.
    public var files: [URL] { browser.namedFiles }
    public let browser: FolderBrowser
    public var title: String { files.count == 1 ? files[0].lastPathComponent : trn("{count} File", "{count} Files", files.count) }
    public var page: Widget { root }
    /// An action was chosen for a readable file.
    public var onAction: ((Action, URL, Asset) -> Void)?
    /// Import All was pressed: every readable file, in the order given.
    public var onImportAll: (([URL]) -> Void)?
    /// Every file has been read (the rows are final).
    public var onReady: (() -> Void)?

    private let root = Box(.vertical, spacing: 12)
    private let list = Box(.vertical, spacing: 8)
    private let importAllButton = Button(tr("Import All"))
    private var rows: [URL: Row] = [:]
    private var buttons: [String: Button] = [:]
    private static let thumbnailSide = 96

    public init(files: [URL]) {
        browser = FolderBrowser(files: files)
        root.setMargins(16)
        for (index, file) in browser.namedFiles.enumerated() {
            let row = Row(file: file, number: index + 1)
            rows[file] = row
            list.append(row.view)
        }
        let scroller = ScrolledWindow(list)
        scroller.scrollVerticallyOnly()
        scroller.expand()
        root.append(scroller)
        importAllButton.isSensitive = false
        importAllButton.setTooltip(tr("Import every photo and video listed into the library"))
        importAllButton.on("clicked") { [unowned self] in self.onImportAll?(self.readable.map(\.url)) }
        root.append(buttonRow([], [importAllButton]))
        buttons["import-all"] = importAllButton
        browser.onChange = { [unowned self] in self.refresh() }
        browser.onProbed = { [unowned self] in
            self.refresh()
            self.onReady?()
        }
    }

    /// The readable files with their assets, in the order given.
    public var readable: [(url: URL, asset: Asset)] {
        let byPath = Dictionary(browser.assets.compactMap { asset in
            (try? browser.originalURL(of: asset)).map { ($0.path, asset) }
        }, uniquingKeysWith: { first, _ in first })
        return files.compactMap { url in byPath[url.path].map { (url, $0) } }
    }

    /// The files that cannot be shown, with why, in the order given.
    public var refused: [ImportFailure] {
        let byPath = Dictionary(browser.refusedFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        return files.compactMap { byPath[$0.path] }
    }

    public func button(named name: String) -> Widget? { buttons[name] }

    public func part(named name: String) -> Widget? { name == "list" ? list : nil }

    /// Shows what has been read so far: each readable file's details and buttons, each refused
    /// file's reason.
    private func refresh() {
        for (url, asset) in readable {
            guard let row = rows[url], !row.isFilled else { continue }
            let actions = Action.offered(for: asset.kind)
            row.fill(asset, actions: actions) { [unowned self] action in self.onAction?(action, url, asset) }
            for (action, button) in zip(actions, row.actionButtons) { buttons["\(action.rawValue)-\(row.number)"] = button }
            Task { [weak row, browser] in
                guard let image = try? await browser.thumbnail(for: asset, side: OpenedFiles.thumbnailSide) else { return }
                row?.setPicture(image)
            }
        }
        for failure in refused {
            rows[URL(fileURLWithPath: failure.path)]?.refuse(failure.message)
        }
        importAllButton.isSensitive = !readable.isEmpty
    }

    /// One file's row.
    @MainActor
    private final class Row {
        let view = Box(.horizontal, spacing: 12)
        let number: Int
        private let picture = Picture()
        private let details = Label(tr("Reading…"))
        private let actionsBox = Box(.horizontal, spacing: 6)
        private(set) var actionButtons: [Button] = []
        private(set) var isFilled = false

        init(file: URL, number: Int) {
            self.number = number
            picture.setCovers(true)
            picture.setMinimumSize(width: OpenedFiles.thumbnailSide, height: OpenedFiles.thumbnailSide)
            picture.align(horizontal: .start, vertical: .center)
            let text = Box(.vertical, spacing: 4)
            let name = Label(file.lastPathComponent)
            name.setTextAlignment(0)
            name.addStyleClass("heading")
            details.setTextAlignment(0)
            details.setWraps(true)
            details.addStyleClass("dim-label")
            text.append(name)
            text.append(details)
            text.expand(horizontally: true, vertically: false)
            text.align(vertical: .center)
            actionsBox.align(horizontal: .end, vertical: .center)
            view.append(picture)
            view.append(text)
            view.append(actionsBox)
            view.setAccessibleName(file.lastPathComponent)
        }

        func fill(_ asset: Asset, actions: [Action], chosen: @escaping @MainActor (Action) -> Void) {
            isFilled = true
            details.text = OpenedFiles.summary(of: asset)
            view.setAccessibleDescription(details.text)
            for action in actions {
                let button = Button(action.title) { chosen(action) }
                if action == actions.first { button.addStyleClass("suggested-action") }
                actionsBox.append(button)
                actionButtons.append(button)
            }
        }

        func refuse(_ reason: String) {
            guard !isFilled else { return }
            isFilled = true
            details.text = tr("Cannot open: {reason}", ["reason": reason])
            details.removeStyleClass("dim-label")
            details.addStyleClass("error")
            view.setAccessibleDescription(details.text)
        }

        func setPicture(_ image: RasterImage) {
            picture.setTexture(Texture(image))
        }
    }

    /// One line about an asset: its kind, size and length ("Video · 1920 × 1080 · 0:12"), a
    /// list of facts with " · " between them.
    public static func summary(of asset: Asset) -> String {
        let kind = switch asset.kind {
        case .video: tr("Video")
        case .photo: tr("Photo")
        case .live: tr("Live Photo")
        }
        return ([kind, "\(asset.size.width) × \(asset.size.height)"] + (asset.duration.map { [PickerRules.clock($0.seconds)] } ?? []))
            .joined(separator: " · ")
    }
}
