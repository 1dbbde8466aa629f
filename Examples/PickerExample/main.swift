// A program embedding Viewfinder's media picker and HUD: pick up to three photos or videos
// from a library; their ids and files are printed and the HUD on the picker's overlay says so.
// Run: swift run picker-example [LIBRARY]
import Capture
import Foundation
import HUD
import MediaLibrary
import StudioKit
import ViewfinderUI

let folder = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) } ?? MediaLibrary.defaultLocation()
let app = Application(id: "org.viewfinder.PickerExample")
// A component lives as long as its host keeps it (its widgets call back into it).
var shown: MediaPicker?
let status = app.run {
    let window = Window(application: app, title: "Pick up to three", width: 900, height: 640)
    do {
        let library = try LibraryBrowser(folder: folder)
        let rules = try PickerRules(MediaPickerConfiguration(source: .photoLibrary, mediaTypes: [.photo, .video],
                                                             selectionLimit: 3),
                                    sources: MediaSources(libraryFolder: folder))
        let picker = MediaPicker(library: library, rules: rules, cancellable: true, importing: false)
    shown = picker
        let host = Overlay()
        host.setChild(picker.page)
        picker.completion = { outcome in
            switch outcome {
            case .done(let items):
                HUDOverlay.show(on: host, label: "Picked \(items.count)")
                for item in items {
                FileHandle.standardOutput.write(Data("\(item.id) \(item.kind.rawValue) \(item.file.path)\n".utf8))
            }
                HUDOverlay.hud(on: host)?.flash(.success, label: "Picked \(items.count)")
            case .cancelled:
                app.quit()
            case .failed(let failure):
                FileHandle.standardError.write(Data("picker-example: \(failure)\n".utf8))
                app.quit()
            }
        }
        window.setChild(host)
    } catch {
        FileHandle.standardError.write(Data("picker-example: \(error)\n".utf8))
        window.setChild(Label("The library at \(folder.path) cannot be opened: \(error)"))
    }
    window.present()
}
exit(status)
