import AvatarCrop
import CoverPicker
import Foundation
import HUD
import Imaging
import MediaIO
import MediaLibrary
import StudioKit
import VideoEditing
import ViewfinderCore
import ViewfinderUI

/// Where a screen opened from: a file given on the command line (results go beside it) or an
/// asset of the library (results go back into the library).
enum Origin {
    case file(URL)
    case library(Asset, URL)

    var url: URL {
        switch self {
        case .file(let url), .library(_, let url): url
        }
    }

    /// The name the user knows the item by.
    var displayName: String {
        switch self {
        case .file(let url): url.lastPathComponent
        case .library(let asset, _): asset.originalFilename
        }
    }
}

/// A result a screen makes and the app writes: a cover or an avatar. Its raw value names it in
/// events and in the file's name ("IMG_1 cover.jpg"); the messages are what the user reads.
enum ResultKind: String {
    case cover, avatar

    /// The HUD's label when the result cannot be written.
    var cannotSave: String {
        switch self {
        case .cover: tr("Cannot save the cover")
        case .avatar: tr("Cannot save the avatar")
        }
    }

    /// The HUD's label when the written result cannot join the library.
    var cannotAddToLibrary: String {
        switch self {
        case .cover: tr("Cannot add the cover to the library")
        case .avatar: tr("Cannot add the avatar to the library")
        }
    }

    /// A pick's error (on standard error) when the result cannot be written.
    func cannotWrite(_ error: any Error) -> String {
        switch self {
        case .cover: tr("cannot write the cover: {error}", ["error": "\(error)"])
        case .avatar: tr("cannot write the avatar: {error}", ["error": "\(error)"])
        }
    }

    /// The toast once the result is saved as `file`.
    func saved(as file: String) -> String {
        switch self {
        case .cover: tr("Cover saved as {file}", ["file": file])
        case .avatar: tr("Avatar saved as {file}", ["file": file])
        }
    }
}

extension Studio {
    /// The folder conversions go to: `$XDG_CACHE_HOME/viewfinder`, else `~/.cache/viewfinder`.
    var cacheFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("viewfinder", isDirectory: true)
    }

    func openInitialScreen() {
        if let library { push(libraryPicker(library)) }
        switch options.initial {
        case .cover(let url): openCover(.file(url))
        case .avatar(let url): openAvatar(.file(url))
        case .trim(let url): openTrim(.file(url))
        case .camera: openCamera()
        case .motion(let url): openMotion(url)
        case nil: break
        }
    }

    /// Shows `files` with what can be done with each (a video's cover and trim, a photo's
    /// avatar, import); a chosen action opens its screen over this one.
    func openFiles(_ files: [URL]) {
        let opened = OpenedFiles(files: files)
        opened.onReady = { [unowned self, unowned opened] in
            self.events.emit("opened-ready", ["readable": opened.readable.map(\.url.path),
                                              "refused": opened.refused.map { ["path": $0.path, "message": $0.message] }])
        }
        opened.onAction = { [unowned self] action, url, _ in
            self.events.emit("open-action", ["action": action.rawValue, "file": url.path])
            switch action {
            case .cover: self.openCover(.file(url))
            case .trim: self.openTrim(.file(url))
            case .avatar: self.openAvatar(.file(url))
            case .import: self.importFiles([url])
            }
        }
        opened.onImportAll = { [unowned self] urls in self.importFiles(urls) }
        push(opened)
    }

    // MARK: - Motion

    /// Plays the scene in `url` on a stage of GTK widgets; a scene that cannot be read is the
    /// HUD's cross and an error event.
    func openMotion(_ url: URL) {
        do {
            let player = try ScenePlayer(contentsOf: url)
            player.completion = { [unowned self, unowned player] _ in self.leave(player) }
            push(player)
        } catch {
            report(error, doing: tr("Cannot play the scene"))
        }
    }

    /// Shows a component's failure as the HUD's cross, and as an event.
    /// The one way the app takes a screen's outcome (a pick's `finish` takes it before): Done
    /// goes to `done`; Cancel leaves `screen`; a failure is shown on the HUD and leaves `screen`
    /// too, unless `staysOnFailure` (the camera: the next photo may work).
    func settle<Value>(_ outcome: PickerOutcome<Value>, of screen: any Component, staysOnFailure: Bool = false,
                       done: (Value) -> Void) {
        switch outcome {
        case .done(let value): done(value)
        case .cancelled: leave(screen)
        case .failed(let failure):
            if !staysOnFailure { leave(screen) }
            report(failure)
        }
    }

    func report(_ failure: PickerError) {
        hudOverlay.flash(.error, label: failure.what, details: failure.message)
        events.emit("error", ["what": failure.what, "message": failure.message])
    }

    /// Shows an error as the HUD's cross for a few seconds, and as an event.
    func report(_ error: any Error, doing what: String) {
        let message = "\(error)"
        hudOverlay.flash(.error, label: what, details: message)
        events.emit("error", ["what": what, "message": message])
    }

    // MARK: - Cover

    /// The cover chooser (limit, MOV conversion under the HUD, the cover screen), its events,
    /// and what Done does: save the cover beside the file or into the library.
    /// With `finish` (pick), the outcome goes there instead.
    /// With `live`, the chooser is a Live Photo's key-photo screen over its motion: Play shows
    /// the motion, Done makes the frame the asset's still (nothing is written beside it).
    func openCover(_ origin: Origin, limit: DurationLimit = .standard, conversion: CoverFlow.Conversion = .auto,
                   live: Bool = false, finish: ((PickerOutcome<CoverChooser.Choice>) -> Void)? = nil) {
        let chooser = CoverChooser(video: origin.url, limit: limit, conversion: conversion, cache: cacheFolder,
                                   hud: hudOverlay, displayName: origin.displayName)
        chooser.offersPlayback = live
        // Beside a file only: a library original's folder is the library's own.
        if case .file = origin { chooser.offersSaveIntoVideo = !live && finish == nil } else { chooser.offersSaveIntoVideo = false }
        chooser.onPlayback = { [unowned self, unowned chooser] playing in
            self.events.emit("playback", ["playing": playing, "time": chooser.session.preview?.frame.time.seconds ?? -1,
                                          "video": chooser.session.video.path])
        }
        chooser.onSavedIntoVideo = { [unowned self] outcome in
            switch outcome {
            case .success(let url): self.events.emit("saved-into-video", ["path": url.path])
            case .failure(let failure): self.events.emit("error", ["what": failure.what, "message": failure.message])
            }
        }
        chooser.onConversion = { [unowned self] step in
            switch step {
            case .started(let input, let output): self.events.emit("converting", ["input": input.path, "output": output.path])
            case .finished(let output): self.events.emit("converted", ["output": output.path])
            case .cancelled: self.events.emit("cancelled", ["what": "conversion"])
            }
        }
        chooser.onPreview = { [unowned self] shown in
            self.events.emit("cover-preview", ["slider": shown.sliderValue, "exact": shown.isExact,
                                               "time": shown.frame.time.seconds, "requested": shown.requestedTime.seconds])
        }
        chooser.onStripCell = { [unowned self] cell in
            self.events.emit("strip-cell", ["index": cell.index, "time": cell.frame?.time.seconds ?? -1, "exact": cell.isExact])
        }
        chooser.onSuggestions = { [unowned self, unowned chooser] suggestions in
            self.events.emit("cover-suggestions", ["times": suggestions.map(\.time.seconds),
                                                   "marks": suggestions.map { chooser.markX(of: $0) }])
        }
        chooser.onReady = { [unowned self, unowned chooser] exact in
            let strip = chooser.session.strip.map { $0.frame?.time.seconds ?? -1 }
            if exact {
                self.events.emit("cover-strip-exact", ["strip": strip])
            } else {
                self.events.emit("cover-ready", ["duration": chooser.session.info?.duration.seconds ?? 0, "strip": strip])
            }
        }
        if finish == nil && !live { chooser.onTrim = { [unowned self] in self.openTrim(origin) } }
        chooser.completion = { [unowned self, unowned chooser] outcome in
            if let finish { return finish(outcome) }
            self.settle(outcome, of: chooser) { cover in
                if live { self.saveKeyPhoto(cover, origin: origin, chooser: chooser) } else { self.saveCover(cover, origin: origin) }
            }
        }
        push(chooser)
        chooser.start()
    }

    /// A Live Photo's key photo: the cover chooser over its motion, never converted (the
    /// library keeps the motion as it was imported).
    func openKeyPhoto(_ asset: Asset) {
        guard let library else { return }
        let motion: URL
        do {
            motion = try library.movieURL(of: asset)
        } catch {
            return report(error, doing: tr("Cannot open the Live Photo"))
        }
        openCover(.library(asset, motion), conversion: .passthrough, live: true)
    }

    private func saveKeyPhoto(_ cover: CoverChooser.Choice, origin: Origin, chooser: CoverChooser) {
        guard case .library(let asset, _) = origin, let library else { return leave(chooser) }
        Task {
            do {
                let updated = try await library.setPoster(of: asset, at: cover.time)
                events.emit("key-photo-set", ["id": updated.id, "time": cover.time.seconds, "frame": cover.frame ?? -1])
                hudOverlay.flash(.success, label: tr("Key photo set"))
            } catch {
                report(error, doing: tr("Cannot set the key photo"))
            }
            leave(chooser)
        }
    }

    private func saveCover(_ cover: CoverChooser.Choice, origin: Origin) {
        // A library video also remembers the frame as its poster in the grid.
        if case .library(let asset, _) = origin, asset.kind == .video, let library {
            Task {
                do {
                    let updated = try await library.setPoster(of: asset, at: cover.time)
                    events.emit("poster-set", ["id": updated.id, "time": cover.time.seconds])
                } catch {
                    report(error, doing: tr("Cannot set the video's cover"))
                }
            }
        }
        let stem = (origin.displayName as NSString).deletingPathExtension + " cover"
        save(kind: .cover, stem: stem, ext: "jpg", origin: origin, album: "Covers",
             fields: ["time": cover.time.seconds]) { url in
            try CoverFlow.write(cover.image, to: url)
        }
    }

    // MARK: - Avatar

    /// With `finish` (pick), the outcome goes there instead of being saved.
    func openAvatar(_ origin: Origin, shape: CropShape = .circle, side: Int = AvatarPicker.outputSide,
                    finish: ((PickerOutcome<AvatarPicker.Avatar>) -> Void)? = nil) {
        let picker = AvatarPicker(photo: origin.url, shape: shape, side: side)
        picker.onReload = { [unowned self] error in
            if let error { self.report(error, doing: tr("Cannot open the photo")) }
        }
        picker.onReady = { [unowned self, unowned picker] spec in
            let viewport = picker.session.viewportSize
            self.events.emit("avatar-ready", ["spec": spec?.json() ?? "", "viewport": [viewport.width, viewport.height]])
        }
        picker.completion = { [unowned self, unowned picker] outcome in
            if let finish { return finish(outcome) }
            self.settle(outcome, of: picker) { avatar in
                let stem = (origin.displayName as NSString).deletingPathExtension + " avatar"
                self.save(kind: .avatar, stem: stem, ext: "png", origin: origin, album: "Avatars",
                          fields: ["spec": avatar.spec.json()]) { url in
                    try ImageEncoder.write(avatar.image, to: url)
                }
            }
        }
        push(picker)
        picker.start()
    }

    // MARK: - Saving results

    /// Writes a result (cover, avatar) beside a file from the command line, or into the
    /// library's `album` for a library item; then shows the success HUD and goes back.
    func save(kind: ResultKind, stem: String, ext: String, origin: Origin, album: String,
              fields: [String: Any], write: (URL) throws -> Void) {
        switch origin {
        case .file(let url):
            let target = CoverPicker.freeURL(in: url.deletingLastPathComponent(), stem: stem, extension: ext)
            do {
                try write(target)
            } catch {
                return report(error, doing: kind.cannotSave)
            }
            finishSaving(kind: kind, path: target.path, fields: fields)
        case .library:
            guard let library else { return }
            let staging = FileManager.default.temporaryDirectory.appendingPathComponent("viewfinder-\(UUID().uuidString)", isDirectory: true)
            let target = staging.appendingPathComponent("\(stem).\(ext)")
            do {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                try write(target)
            } catch {
                try? FileManager.default.removeItem(at: staging)
                return report(error, doing: kind.cannotSave)
            }
            Task {
                defer { try? FileManager.default.removeItem(at: staging) }
                do {
                    let asset = try await library.saveOutput(target, album: album)
                    finishSaving(kind: kind, path: try library.originalURL(of: asset).path, fields: fields)
                } catch {
                    report(error, doing: kind.cannotAddToLibrary)
                }
            }
        }
    }

    private func finishSaving(kind: ResultKind, path: String, fields: [String: Any]) {
        var all = fields
        all["path"] = path
        events.emit("\(kind.rawValue)-saved", all)
        toast(kind.saved(as: (path as NSString).lastPathComponent))
        back()
    }
}
