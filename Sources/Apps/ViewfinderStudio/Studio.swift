import Foundation
import StudioAutomation
import HUD
import MediaIO
import MediaLibrary
import Motion
import StudioKit
import ViewfinderCore
import ViewfinderUI

/// The app: one window with a header bar, a stack of screens with the HUD laid over them, and
/// the flows that lead from the library to the cover chooser, the avatar editor, the trimmer
/// and the camera. Screens hold widgets; the models below them hold the logic.
@MainActor
final class Studio {
    static let version = ViewfinderVersion.current
    static let applicationID = "org.viewfinder.Studio"

    let options: StudioOptions
    let libraryFolder: URL
    let events = StudioEvents()
    /// One per desktop session (a second start hands its files over), except a pick, which
    /// answers the program that started it.
    let application: Application
    private(set) var window: Window?
    let hudOverlay = HUDOverlay()
    private let stack = Stack()
    private let overlay = Overlay()
    /// The one Back: the screens' own Back buttons are hidden while the app hosts them.
    private(set) lazy var backButton = Button.icon("go-previous-symbolic", tooltip: tr("Back (Escape)")) { [unowned self] in self.back() }
    /// The screen's Done while it shows, moved into the header bar.
    private var headerDone: Widget?
    /// The primary menu: the style, Keyboard Shortcuts and About (the HUD's widget custom view
    /// shows this button, live, in tests).
    private(set) lazy var menuButton = MenuButton(primaryMenu: [
        (tr("Dark or Light Style"), "theme"), (tr("Keyboard Shortcuts"), "shortcuts"), (tr("About Viewfinder Studio"), "about"),
    ])
    private(set) var screens: [any Component] = []
    private var pageCounter = 0
    private var pageNames: [ObjectIdentifier: String] = [:]
    /// The page transition runs on this Motion layer, evaluated on the stack's frame clock.
    let pageLayer = Layer(name: "page")
    private var transitionTick: UInt32?
    private(set) var library: LibraryBrowser?
    /// `pick media --folder DIR` (or a portal pick's Pictures or Videos): the folder picked
    /// from, instead of the library.
    var pickFolder: FolderBrowser?
    /// `--portal`: the file chooser backend, and the request its picker shows now.
    var portal: FileChooserPortal?
    var portalPick: FileChooserPortal.MediaPick?
    /// A portal pick's sources (library, Pictures, Videos), in the header bar while it shows.
    var sourceChoice: ChoiceGroup<PortalSource>?
    /// A pick for another program shows: `pick`'s, or a portal request's.
    var isPicking: Bool { options.pick != nil || portalPick != nil }
    /// What the grid shows: a pick's folder, else the library.
    var browser: (any AssetBrowser)? { pickFolder ?? library }
    /// 1 when a script step failed; the process exits with it.
    var exitStatus: Int32 = 0
    /// A pick's status once it ended (0 result, 3 cancelled, 1 failed); nil until then.
    var pickStatus: Int32?
    /// What screenshots show: the whole window (header bar, screen, HUD), else its content.
    var content: Widget { window ?? overlay }

    init(options: StudioOptions) throws {
        self.options = options
        application = Application(id: options.portal ? nil : Studio.applicationID, unique: options.pick == nil)
        libraryFolder = options.library
        if let folder = options.pick?.folder {
            // A pick from a plain folder opens no library at all; a folder that cannot be read
            // is an error before any window opens.
            let browser = try FolderBrowser(folder: folder)
            pickFolder = browser
            // Its files are probed after the window opens; this says when the last is in.
            browser.onProbed = { [unowned self, unowned browser] in
                self.events.emit("probed", ["count": browser.assets.count,
                                            "refused": browser.refusedFiles.map { ($0.path as NSString).lastPathComponent }])
            }
        } else if options.portal {
            // The file chooser offers the library when there is one; it never makes one.
            if FileManager.default.fileExists(atPath: libraryFolder.appendingPathComponent("catalogue.sqlite").path) {
                library = try LibraryBrowser(folder: libraryFolder)
                library?.startWatching()
            }
        } else if options.pick?.needsLibrary != false {
            library = try LibraryBrowser(folder: libraryFolder)
            // Imports, deletions and covers made by another program show up within a quarter second.
            library?.startWatching()
        }
        pageLayer.clock = FrameClock()
        events.isEnabled = options.script != nil || options.portal
        events.toStandardError = options.pick != nil || options.portal
    }

    /// Runs the app until its window closes; returns the exit status.
    func run() -> Int32 {
        if options.portal {
            application.serve { [unowned self] in self.startPortal() }
            return exitStatus
        }
        let status = application.run(files: options.files.map(\.path), service: options.service,
                                     activate: { [unowned self] in self.activate() },
                                     open: { [unowned self] paths in self.open(paths.map { URL(fileURLWithPath: $0) }) })
        // Another Studio runs on this desktop and was handed the files (or the activation); a
        // script plays only in a Studio of its own.
        if application.isRemote && options.script != nil {
            complain("viewfinder-studio: " + tr("another Viewfinder Studio runs on this desktop session and was shown the files; a --script needs one of its own (quit the other, or use 'dbus-run-session')"))
            return 1
        }
        // A pick that ended exits as it ended, whatever script steps came after; one whose
        // window closed before it ended was cancelled.
        if options.pick != nil, let pickStatus { return pickStatus }
        if options.pick != nil && exitStatus == 0 { return 3 }
        return max(status, exitStatus)
    }

    var current: (any Component)? { screens.last }

    /// The desktop (or a second start) asked for the window: make it the first time, else bring
    /// it to the front.
    private func activate() {
        if let window { return window.present() }
        makeWindow { if let pick = options.pick { openPick(pick) } else { openInitialScreen() } }
    }

    /// Files to show (the command line's, "Open with", or a second start's): the opened-files
    /// screen over the library, in the window (made when this is the first request).
    private func open(_ files: [URL]) {
        events.emit("opened", ["files": files.map(\.path)])
        if let window {
            openFiles(files)
            return window.present()
        }
        makeWindow {
            openInitialScreen()
            openFiles(files)
        }
    }

    /// Makes the window, its header, the HUD and the shortcuts, lets `firstScreens` push the
    /// screens it starts on, shows it, and starts the script.
    func makeWindow(_ firstScreens: () -> Void) {
        if let dark = options.darkTheme { Application.prefersDarkTheme = dark }
        Window.setDefaultIconName(Studio.applicationID)
        let window = Window(application: application, title: "Viewfinder Studio", width: 1000, height: 760)
        self.window = window
        window.addToHeaderStart(backButton)
        window.addToHeaderEnd(menuButton)
        overlay.setChild(stack)
        hudOverlay.place(on: overlay)
        hudOverlay.backdropSource = stack
        stack.expand()
        window.setChild(overlay)
        hudOverlay.onPhaseChange = { [unowned self] phase in self.events.emit("hud", ["phase": "\(phase)"]) }
        if events.isEnabled {
            hudOverlay.onAnimationFrame = { [unowned self] motion, model in
                self.events.emit("hud-frame", ["opacity": motion.opacity, "scale": motion.scale,
                                               "modelOpacity": model.opacity, "modelScale": model.scale])
            }
        }
        addShortcuts()
        if options.portal {
            // Closing the window cancels the request it shows; the window waits for the next.
            window.onReturning("close-request") { [unowned self] in
                self.endPick(.cancelled)
                return true
            }
        }
        firstScreens()
        window.present()
        events.emit("started", ["library": libraryFolder.path, "dark": Application.prefersDarkTheme])
        if let script = options.script {
            Automation(app: self, script: script).start()
        }
    }

    private func addShortcuts() {
        application.addAction("quit", accelerators: ["<Control>q"]) { [unowned self] in self.application.quit() }
        application.addAction("back", accelerators: ["Escape"]) { [unowned self] in self.back() }
        application.addAction("done", accelerators: ["<Control>Return"]) { [unowned self] in self.current?.done() }
        application.addAction("theme", accelerators: ["<Control><Shift>d"]) { [unowned self] in self.toggleTheme() }
        application.addAction("import", accelerators: ["<Control>i"]) { [unowned self] in self.chooseFilesToImport() }
        application.addAction("shortcuts", accelerators: ["<Control>question"]) { [unowned self] in
            let shown = self.window?.presentShortcuts(StudioShortcuts.windowGroups) ?? 0
            self.events.emit("shortcuts", ["shown": shown])
        }
        application.addAction("about") { [unowned self] in
            self.window?.presentAbout(AboutInfo(
                name: "Viewfinder Studio", iconName: Studio.applicationID, version: Studio.version,
                developer: tr("The Viewfinder authors"),
                comments: tr("Choose video covers, crop avatars, trim videos and keep a photo library."),
                licence: tr("The authors have not yet published Viewfinder under a licence.")))
            self.events.emit("about", [:])
        }
    }

    func toggleTheme() {
        Application.prefersDarkTheme.toggle()
        events.emit("theme", ["dark": Application.prefersDarkTheme])
        toast(Application.prefersDarkTheme ? tr("Dark style") : tr("Light style"))
    }

    /// A short confirmation at the bottom of the window (a libadwaita toast), as an event too.
    func toast(_ title: String) {
        window?.toast(title)
        events.emit("toast", ["title": title])
    }

    // MARK: - Navigation

    /// Shows `screen` on top of the current one, fading it in on the Motion engine.
    func push(_ screen: any Component) {
        pageCounter += 1
        let name = "page\(pageCounter)"
        pageNames[ObjectIdentifier(screen)] = name
        stack.add(screen.page, name: name)
        screens.append(screen)
        show(screen)
    }

    /// Leaves the current screen for the one under it; the first screen stays.
    func back() {
        guard screens.count > 1 else {
            // Escape on a pick's first screen cancels it.
            if isPicking { endPick(.cancelled) }
            return
        }
        removeTop()
        if let below = current { show(below) }
    }

    /// Leaves `component` when it is the screen on top (a component finished or failed).
    func leave(_ component: any Component) {
        if current === component { back() }
    }

    /// Replaces every screen above the first with `screen`.
    func replaceTop(with screen: any Component) {
        while screens.count > 1 { removeTop() }
        push(screen)
    }

    /// Takes every screen away, with the Done it put in the header bar (a portal pick ended; the
    /// window waits hidden for the next).
    func removeAllScreens() {
        // The window lets go of its default before the Done goes (GTK 4.8 touches the old
        // default when it changes, and would find it freed).
        window?.setDefaultWidget(nil)
        while !screens.isEmpty { removeTop() }
        if let shown = headerDone { window?.removeFromHeader(shown) }
        headerDone = nil
    }

    private func removeTop() {
        guard let leaving = screens.popLast() else { return }
        leaving.leave()
        stack.remove(leaving.page)
        pageNames[ObjectIdentifier(leaving)] = nil
    }

    private func show(_ screen: any Component) {
        stack.visiblePage = pageNames[ObjectIdentifier(screen)] ?? ""
        window?.title = screen.title
        // The header's Back is the one Back (on a pick's first screen it cancels the pick).
        screen.button(named: "back")?.isVisible = false
        backButton.isVisible = screens.count > 1 || isPicking
        // The screen's Done goes to the header bar's end, as GNOME places a view's main action;
        // Enter, where the focused control does not take it, activates it.
        window?.setDefaultWidget(nil)
        if let shown = headerDone { window?.removeFromHeader(shown) }
        headerDone = screen.button(named: "done")
        if let done = headerDone { window?.moveToHeaderEnd(done) }
        window?.setDefaultWidget(headerDone)
        fadeIn()
        events.emit("screen", ["name": screen.title])
    }

    /// Fades the stack in over 0.25 s with an ease-out curve, frame by frame.
    private func fadeIn() {
        pageLayer.motion.clear()
        pageLayer.model.opacity = 1
        pageLayer.motion.fade.from(0).to(1).duration(0.25).timing(.easeOut).activate()
        stack.opacity = 0
        guard transitionTick == nil else { return }
        transitionTick = stack.addTickCallback { [unowned self] time in
            self.pageLayer.advance(to: time)
            self.stack.opacity = self.pageLayer.presentation(at: time).opacity
            guard self.pageLayer.hasRunningSprites else {
                self.stack.opacity = 1
                self.transitionTick = nil
                return false
            }
            return true
        }
    }
}
