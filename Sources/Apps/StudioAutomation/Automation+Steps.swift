import Foundation
import HUD
import ViewfinderUI
import MediaLibrary
import StudioKit

extension Automation {
    /// The steps that open screens and work the library, the trimmer and the camera.
    func runMore(_ command: String, _ args: [String]) async throws {
        switch command {
        case "hud-flash":
            // The app's own look, as its flows flash results: it follows the theme.
            guard let kind = ["success": ProgressHUD.Flash.success, "error": .error, "text": .text][try word(args, 0)] else {
                throw ScriptError("hud-flash is success, error or text")
            }
            try hud().flash(kind, label: args.dropFirst().joined(separator: " "))
        case "open-cover":
            app.showCover(of: URL(fileURLWithPath: try word(args, 0)))
        case "open-avatar":
            app.showAvatarEditor(for: URL(fileURLWithPath: try word(args, 0)))
        case "open-trim":
            app.showTrimmer(for: URL(fileURLWithPath: try word(args, 0)))
        case "open-camera":
            app.showCamera()
        case "open-motion":
            app.showMotion(URL(fileURLWithPath: try word(args, 0)))
        case "motion-at":
            // Holds the scene at an instant, so a screenshot shows exactly that frame.
            let player: ScenePlayer = try top()
            let t = try number(args, 0)
            player.hold(at: t)
            app.emit("motion", ["time": t, "perspective": player.stage.drawsPerspective])
        case "motion-button":
            // Puts a real button on a layer of the scene (Motion driving any widget); its
            // clicks are events.
            let player: ScenePlayer = try top()
            let name = try word(args, 0)
            let button = Button(name) { [unowned self] in self.app.emit("motion-clicked", ["layer": name]) }
            guard player.attach(button, toLayerNamed: name) else { throw ScriptError("the scene has no layer '\(name)'") }
        case "open-asset":
            guard let library = app.library else { throw ScriptError("no library") }
            let index = try integer(args, 0, in: 0...Self.largestIndex)
            guard library.assets.indices.contains(index) else {
                throw ScriptError("the grid has \(library.assets.count) items, not \(index + 1)")
            }
            if args.count > 1, try word(args, 1) == "trim" {
                app.showTrimmer(for: library.assets[index], original: try library.originalURL(of: library.assets[index]))
            } else {
                app.show(library.assets[index])
            }
        case "info":
            // The info panel of the grid item INDEX, as the Info button opens it.
            let screen: MediaPicker = try top()
            let index = try integer(args, 0, in: 0...Self.largestIndex)
            guard screen.library.assets.indices.contains(index) else {
                throw ScriptError("the grid has \(screen.library.assets.count) items, not \(index + 1)")
            }
            screen.showInfo(at: index)
        case "import":
            guard !args.isEmpty else { throw ScriptError("import needs files") }
            app.importFiles(args.map { URL(fileURLWithPath: $0) })
        case "filter":
            guard let filter = LibraryBrowser.KindFilter(rawValue: try word(args, 0)) else {
                throw ScriptError("filter is all, photos or videos")
            }
            app.browser?.filter = filter
        case "group":
            let title = args.joined(separator: " ")
            guard let entry = app.browser?.groups.first(where: { $0.title == title }) else {
                throw ScriptError("no group called '\(title)'")
            }
            app.browser?.selectedGroup = entry.group
        case "trim-start", "trim-end":
            let screen: TrimEditor = try top()
            let value = try number(args, 0)
            if command == "trim-start" { screen.setStart(value) } else { screen.setEnd(value) }
        case "signal":
            // Tells a test driving real input where a part is: writes the display and the part's
            // frame in its window's surface to FILE.
            let path = try word(args, 0)
            let environment = ProcessInfo.processInfo.environment
            var fields: [String: Any] = ["display": environment["DISPLAY"] ?? "", "xauthority": environment["XAUTHORITY"] ?? "",
                                         "title": app.current?.title ?? ""]
            if args.count > 1 {
                guard let frame = control(named: args[1])?.frameInSurface else {
                    throw ScriptError("no part '\(args[1])' on screen")
                }
                fields["frame"] = [frame.minX, frame.minY, frame.width, frame.height]
            }
            if let cover = app.current as? CoverChooser {
                // Where the suggestions' marks are on the strip, from its left edge.
                fields["marks"] = cover.session.suggestions.map { cover.markX(of: $0) }
            }
            let data = try JSONSerialization.data(withJSONObject: fields)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        case "window-size":
            // A size asked for before the window has settled on screen is replaced by its own,
            // and asking for the same size again changes nothing; so ask for a point more, then
            // the size itself, until the window takes another size.
            guard let window = app.window else { throw ScriptError("no window") }
            let (width, height) = (try integer(args, 0, in: 1...16_384), try integer(args, 1, in: 1...16_384))
            try await until(10, "the window on screen") { window.isDrawn }
            let before = (window.width, window.height)
            for attempt in 0..<40 where (window.width, window.height) == before {
                window.setSize(width: width + (attempt % 2 == 0 ? 1 : 0), height: height)
                try await Task.sleep(for: .milliseconds(50))
            }
            window.setSize(width: width, height: height)
            try await Task.sleep(for: .milliseconds(100))
        case "controls":
            // Writes the window's size and where each named button or part of the screen shown
            // is in it (null for one not on screen) to FILE: a narrow layout must still show them.
            let path = try word(args, 0)
            var frames: [String: Any] = [:]
            for name in args.dropFirst() {
                let widget = control(named: name)
                frames[name] = widget.flatMap { $0.isVisible && $0.isDrawn ? $0.frameInSurface : nil }
                    .map { [$0.minX, $0.minY, $0.width, $0.height] as Any } ?? NSNull()
            }
            let window = app.window.map { [$0.width, $0.height] } ?? []
            let data = try JSONSerialization.data(withJSONObject: ["window": window, "frames": frames])
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        case "wait-file":
            let path = try word(args, 0)
            try await until(try args.count > 1 ? seconds(args, 1) : 60, "the file \(path)") {
                FileManager.default.fileExists(atPath: path)
            }
        case "scroll-grid":
            // Scrolls the library grid top to bottom over SECONDS and reports frame gaps.
            let screen: MediaPicker = try top()
            let seconds = try number(args, 0)
            let gaps = await withCheckedContinuation { continuation in
                screen.scrollThrough(seconds: seconds) { continuation.resume(returning: $0) }
            }
            let sorted = gaps.sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            app.emit("scrolled", ["frames": gaps.count + 1, "p50": percentile(0.5), "p95": percentile(0.95),
                                            "max": sorted.last ?? 0, "cells": screen.cellCount, "loaded": screen.loadedCells])
        case "scroll-to":
            let screen: MediaPicker = try top()
            screen.scroll(to: try number(args, 0))
        case "back":
            app.back()
        case "activate":
            // Activates grid item INDEX of the media picker shown, as a click does.
            let picker: MediaPicker = try top()
            let index = try integer(args, 0, in: 0...Self.largestIndex)
            // A folder still being read fills its grid: wait, as a person would, for the item.
            try await until(60, "grid item \(index)") {
                picker.library.assets.indices.contains(index) || picker.library.pendingCount == 0
            }
            guard picker.library.assets.indices.contains(index) else {
                throw ScriptError("the grid has \(picker.library.assets.count) items, not \(index + 1)")
            }
            picker.activate(index)
        case "order":
            guard let order = LibraryBrowser.Order(rawValue: try word(args, 0)) else {
                throw ScriptError("order is newest, oldest or name")
            }
            app.browser?.order = order
        default:
            throw ScriptError("unknown step '\(command)'")
        }
    }

    /// What a script names on screen: "back" is the header's Back (the one a user sees; the
    /// screen's own, hidden in the app, is "screen-back"), else the screen's part or button.
    func control(named name: String) -> Widget? {
        if name == "back" { return app.scriptedBackButton }
        if name == "screen-back" { return app.current?.button(named: "back") }
        return app.current?.part(named: name) ?? app.current?.button(named: name)
    }
}
