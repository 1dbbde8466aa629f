// A program embedding Viewfinder's media picker and HUD: pick up to three photos or videos from a
// library; each pick's id, kind and file are printed, the HUD says how many, and the program ends.
// Run: swift run picker-example [LIBRARY]
import Capture
import Foundation
import MediaLibrary
import StudioKit
import ViewfinderUI

let folder = CommandLine.arguments.dropFirst().first.map { URL(fileURLWithPath: $0) } ?? MediaLibrary.defaultLocation()
let app = Application(id: "org.viewfinder.PickerExample")
var picker: MediaPicker?   // a component lives as long as something keeps it: its widgets call back into it
let status = app.run {
    let window = Window(application: app, title: "Pick up to three", width: 900, height: 640)
    do {
        let library = try LibraryBrowser(folder: folder)
        let rules = try PickerRules(MediaPickerConfiguration(source: .photoLibrary, mediaTypes: [.photo, .video],
                                                             selectionLimit: 3),
                                    sources: MediaSources(libraryFolder: folder))
        let shown = MediaPicker(library: library, rules: rules, cancellable: true, importing: false)
        picker = shown
        let host = Overlay()
        host.setChild(shown.page)
        shown.completion = { outcome in
            switch outcome {
            case .done(let items):
                for item in items { print(item.id, item.kind.rawValue, item.file.path) }
                let hud = HUDOverlay.show(on: host)
                hud.hud.completion = { app.quit() }   // once the HUD has gone
                hud.flash(.success, label: "Picked \(items.count)")
            case .cancelled:
                app.quit()
            case .failed(let failure):
                print("picker-example: \(failure)")
                app.quit()
            }
        }
        window.setChild(host)
    } catch {
        print("picker-example: \(error.localizedDescription)")
        window.setChild(Label("The library at \(folder.path) cannot be opened: \(error.localizedDescription)"))
    }
    window.present()
}
exit(status)
