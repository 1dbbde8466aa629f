import Capture
import Foundation
import MediaLibrary
import StudioKit
import ViewfinderCore
import ViewfinderUI

/// Where a portal pick's items come from: the library (when there is one), or the user's
/// Pictures or Videos folder.
@MainActor
enum PortalSource: String, CaseIterable {
    case library, pictures, videos

    var title: String {
        switch self {
        case .library: tr("Library")
        // TRANSLATORS: the user's Pictures folder, as a source in the file chooser.
        case .pictures: tr("Pictures")
        // TRANSLATORS: the user's Videos folder, as a source in the file chooser.
        case .videos: tr("Videos")
        }
    }

    /// The folder it lists; nil for the library.
    var folder: URL? {
        switch self {
        case .library: nil
        case .pictures: Application.picturesFolder
        case .videos: Application.videosFolder
        }
    }
}

/// `--portal`: the desktop's file chooser for photos and videos (`FileChooserPortal`), shown in
/// the app's window, one request at a time; the window hides between requests.
extension Studio {
    /// How many items a request that allows several may hold.
    static let portalMultipleLimit = 100

    /// Serves the portal on the session bus until the bus goes away; an error ends the program.
    func startPortal() {
        do {
            let connection = try DBusConnection.session()
            let portal = FileChooserPortal(connection: connection, desktopChooser: FileChooserPortal.desktopChooser())
            portal.present = { [unowned self] pick in self.openPortalPick(pick) }
            portal.dismiss = { [unowned self] in
                self.portalPick = nil
                self.events.emit("portal-closed", [:])
                self.hidePortalWindow()
            }
            portal.onRequest = { [unowned self] kind, method in self.events.emit("portal-request", ["kind": kind, "method": method]) }
            try portal.start { [unowned self] busClosed in
                // The session ended (its bus went away): nothing is wrong.
                if !busClosed {
                    complain("viewfinder-studio: " + tr("another file chooser portal backend owns {name}", ["name": FileChooserPortal.busName]))
                    self.exitStatus = 1
                }
                self.application.quit()
            }
            self.portal = portal
            events.emit("portal-ready", ["forward": portal.desktopChooser ?? ""])
        } catch {
            complain("viewfinder-studio: " + tr("cannot serve the file chooser portal: {reason}", ["reason": error.message]))
            exitStatus = 1
            application.quit()
        }
    }

    /// Shows the picker for `pick` on the source that suits it: the library when it holds
    /// anything, else the Pictures (or, for videos alone, the Videos) folder.
    func openPortalPick(_ pick: FileChooserPortal.MediaPick) {
        portalPick = pick
        let kinds = pick.request.mediaKinds ?? MediaType.allCases
        let sources = PortalSource.allCases.filter { source in
            source.folder.map { FileManager.default.fileExists(atPath: $0.path) } ?? (library != nil)
        }
        guard !sources.isEmpty else {
            return endPick(.failed(tr("no library, Pictures or Videos folder to pick from")))
        }
        let libraryHolds = (library?.groups.first?.count ?? 0) > 0
        let preferred: PortalSource = libraryHolds ? .library : kinds == [.video] ? .videos : .pictures
        let first = sources.contains(preferred) ? preferred : sources[0]
        events.emit("portal-pick", ["title": pick.title, "kinds": kinds.map(\.rawValue), "multiple": pick.request.multiple,
                                    "sources": sources.map(\.rawValue), "source": first.rawValue,
                                    "extensions": pick.request.acceptedExtensions.map { $0.sorted() } ?? []])
        if window == nil {
            do {
                try application.start()
            } catch {
                return endPick(.failed(tr("cannot start the app: {reason}", ["reason": error.message])))
            }
            makeWindow {}
        }
        // Made with `first` pressed in, which shows it.
        let choice = ChoiceGroup(sources.map { ($0, $0.title) }, selected: first) { [unowned self] source in
            self.showPortalSource(source)
        }
        sourceChoice = choice
        if sources.count > 1 { window?.addToHeaderStart(choice.box) }
        window?.present()
    }

    /// The request's picker over `source`, in place of what shows.
    private func showPortalSource(_ source: PortalSource) {
        guard let pick = portalPick else { return }
        removeAllScreens()
        pickFolder = nil
        if let folder = source.folder {
            do {
                let browser = try FolderBrowser(folder: folder)
                browser.onProbed = { [unowned self, unowned browser] in
                    self.events.emit("probed", ["count": browser.assets.count])
                }
                pickFolder = browser
            } catch {
                return endPick(.failed("\(error)"))
            }
        }
        let kinds = pick.request.mediaKinds ?? MediaType.allCases
        var request = PickRequest(kind: .media)
        request.type = kinds == [.photo] ? .photo : kinds == [.video] ? .video : .any
        request.multiple = pick.request.multiple ? Self.portalMultipleLimit : 1
        request.fileExtensions = pick.request.acceptedExtensions
        events.emit("portal-source", ["source": source.rawValue])
        openPick(request)
    }

    /// Answers the request shown (the files chosen, or cancelled, or failed) and hides the
    /// window until the next.
    func endPortalPick(_ end: PickEnd) {
        guard portalPick != nil, let portal else { return }
        portalPick = nil
        let response: FileChooserPortal.Response
        var files: [URL] = []
        switch end {
        case .result(let result):
            response = .chosen
            files = result.paths.map { URL(fileURLWithPath: $0) }
        case .cancelled:
            response = .cancelled
        case .failed(let message):
            complain("viewfinder-studio: \(message)")
            response = .other
        }
        events.emit("portal-ended", ["response": Int(response.rawValue), "uris": files.map(\.absoluteString)])
        hidePortalWindow()
        portal.finish(response, files: files)
    }

    /// Clears the window and hides it (it is made once and shown again for the next request).
    func hidePortalWindow() {
        removeAllScreens()
        if let box = sourceChoice?.box { window?.removeFromHeader(box) }
        sourceChoice = nil
        pickFolder = nil
        window?.isVisible = false
    }
}
