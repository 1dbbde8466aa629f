import CoverPicker
import Foundation
import HUD
import Imaging
import MediaIO
import MediaLibrary
import StudioKit
import VideoEditing
import ViewfinderCore

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

extension Studio {
    /// The folder conversions go to: `$XDG_CACHE_HOME/viewfinder`, else `~/.cache/viewfinder`.
    var cacheFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("viewfinder", isDirectory: true)
    }

    func openInitialScreen() {
        push(LibraryScreen(studio: self))
        switch options.initial {
        case .cover(let url): openCover(.file(url))
        case .avatar(let url): openAvatar(.file(url))
        case .trim(let url): openTrim(.file(url))
        case .camera: openCamera()
        case nil: break
        }
    }

    /// Shows an error as the HUD's cross for a few seconds, and as an event.
    func report(_ error: any Error, doing what: String) {
        let message = "\(error)"
        hudOverlay.flash(.error, label: what, details: message)
        events.emit("error", ["what": what, "message": message])
    }

    // MARK: - Cover

    /// The cover flow: refuse long videos from the header, convert MOV to MP4 under the HUD,
    /// then open the cover screen.
    func openCover(_ origin: Origin) {
        let plan: CoverFlow.Plan
        do {
            plan = try CoverFlow.plan(for: origin.url, limit: .standard, cache: cacheFolder)
        } catch {
            return report(error, doing: "Cannot choose a cover")
        }
        guard case .convert(_, let output) = plan else { return showCoverScreen(video: origin.url, origin: origin) }
        Task {
            let progress = Progress(totalUnitCount: 1)
            hudOverlay.follow(progress, label: "Converting to MP4", details: origin.displayName)
            events.emit("converting", ["input": origin.url.path, "output": output.path])
            do throws(CoverPickerError) {
                let converted = try await CoverFlow.run(plan, progress: progress)
                hudOverlay.hide()
                events.emit("converted", ["output": converted.path])
                showCoverScreen(video: converted, origin: origin)
            } catch .cancelled {
                hudOverlay.flash(.text, label: "Conversion cancelled")
                events.emit("cancelled", ["what": "conversion"])
            } catch {
                report(error, doing: "Conversion failed")
            }
        }
    }

    private func showCoverScreen(video: URL, origin: Origin) {
        let screen = CoverScreen(video: video)
        screen.onBack = { [unowned self] in self.back() }
        screen.onPreview = { [unowned self] shown in
            self.events.emit("cover-preview", ["slider": shown.sliderValue, "exact": shown.isExact,
                                               "time": shown.frame.time.seconds, "requested": shown.requestedTime.seconds])
        }
        screen.onStripCell = { [unowned self] cell in
            self.events.emit("strip-cell", ["index": cell.index, "time": cell.frame?.time.seconds ?? -1, "exact": cell.isExact])
        }
        screen.onSuggestions = { [unowned self, unowned screen] suggestions in
            self.events.emit("cover-suggestions", ["times": suggestions.map(\.time.seconds),
                                                   "marks": suggestions.map { screen.markX(of: $0) }])
        }
        screen.onDone = { [unowned self] cover in self.saveCover(cover, origin: origin) }
        screen.onTrim = { [unowned self] in self.openTrim(origin) }
        push(screen)
        Task {
            do {
                try await screen.open()
                events.emit("cover-ready", ["duration": screen.session.info?.duration.seconds ?? 0,
                                            "strip": Self.stripTimes(screen.session.strip)])
                await screen.session.stripRefined()
                guard screen.session.phase == .ready else { return }
                events.emit("cover-strip-exact", ["strip": Self.stripTimes(screen.session.strip)])
            } catch {
                back()
                report(error, doing: "Cannot open the video")
            }
        }
    }

    /// The times the strip's cells show (-1 for an empty cell), for the events.
    private static func stripTimes(_ cells: [StripCell]) -> [Double] {
        cells.map { $0.frame?.time.seconds ?? -1 }
    }

    private func saveCover(_ cover: CoverPickerSession.Cover, origin: Origin) {
        // A library video also remembers the frame as its poster in the grid.
        if case .library(let asset, _) = origin, asset.kind == .video, let library {
            Task {
                do {
                    let updated = try await library.setPoster(of: asset, at: cover.time)
                    events.emit("poster-set", ["id": updated.id, "time": cover.time.seconds])
                } catch {
                    report(error, doing: "Cannot set the video's cover")
                }
            }
        }
        let stem = (origin.displayName as NSString).deletingPathExtension + " cover"
        save(kind: "cover", stem: stem, ext: "jpg", origin: origin, album: "Covers",
             fields: ["time": cover.time.seconds]) { url in
            try CoverFlow.write(cover.image, to: url)
        }
    }

    // MARK: - Avatar

    func openAvatar(_ origin: Origin) {
        let screen = AvatarScreen(photo: origin.url)
        screen.onBack = { [unowned self] in self.back() }
        screen.onReload = { [unowned self, unowned screen] error in
            if let error { return self.report(error, doing: "Cannot open the photo") }
            self.events.emit("avatar-ready", ["spec": screen.session.spec(side: AvatarScreen.outputSide)?.json() ?? ""])
        }
        screen.onDone = { [unowned self] avatar, spec in
            let stem = (origin.displayName as NSString).deletingPathExtension + " avatar"
            self.save(kind: "avatar", stem: stem, ext: "png", origin: origin, album: "Avatars",
                      fields: ["spec": spec.json()]) { url in
                try ImageEncoder.write(avatar, to: url)
            }
        }
        push(screen)
        Task {
            do {
                try await screen.open()
                events.emit("avatar-ready", ["spec": screen.session.spec(side: AvatarScreen.outputSide)?.json() ?? ""])
            } catch {
                back()
                report(error, doing: "Cannot open the photo")
            }
        }
    }

    // MARK: - Saving results

    /// Writes a result (cover, avatar) beside a file from the command line, or into the
    /// library's `album` for a library item; then shows the success HUD and goes back.
    func save(kind: String, stem: String, ext: String, origin: Origin, album: String,
              fields: [String: Any], write: (URL) throws -> Void) {
        switch origin {
        case .file(let url):
            let target = CoverPicker.freeURL(in: url.deletingLastPathComponent(), stem: stem, extension: ext)
            do {
                try write(target)
            } catch {
                return report(error, doing: "Cannot save the \(kind)")
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
                return report(error, doing: "Cannot save the \(kind)")
            }
            Task {
                defer { try? FileManager.default.removeItem(at: staging) }
                do {
                    let asset = try await library.saveOutput(target, album: album)
                    finishSaving(kind: kind, path: try library.originalURL(of: asset).path, fields: fields)
                } catch {
                    report(error, doing: "Cannot add the \(kind) to the library")
                }
            }
        }
    }

    private func finishSaving(kind: String, path: String, fields: [String: Any]) {
        var all = fields
        all["path"] = path
        events.emit("\(kind)-saved", all)
        hudOverlay.flash(.success, label: "\(kind.capitalized) saved", details: (path as NSString).lastPathComponent)
        back()
    }
}
