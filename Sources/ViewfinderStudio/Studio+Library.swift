import Foundation
import CoverPicker
import HUD
import MediaIO
import MediaLibrary
import StudioKit
import VideoEditing
import ViewfinderCore

extension Studio {
    /// Opens a library item: a photo in the avatar editor, a video in the cover chooser.
    func open(_ asset: Asset) {
        guard let library else { return }
        let origin: Origin
        do {
            origin = .library(asset, try library.originalURL(of: asset))
        } catch {
            return report(error, doing: "Cannot open the item")
        }
        events.emit("open", ["id": asset.id, "kind": asset.kind.rawValue])
        switch asset.kind {
        case .photo: openAvatar(origin)
        case .video: openCover(origin)
        }
    }

    /// Asks for files with the system's chooser, then imports them.
    func chooseFilesToImport() {
        guard let window else { return }
        FileChooser.openFiles(parent: window, title: "Import into the library") { [unowned self] paths in
            if !paths.isEmpty { self.importFiles(paths.map { URL(fileURLWithPath: $0) }) }
        }
    }

    /// Imports files under the HUD (bytes done, Cancel), then reports what happened.
    func importFiles(_ urls: [URL]) {
        guard let library, !urls.isEmpty else { return }
        let progress = Progress(totalUnitCount: 1)
        hudOverlay.follow(progress, label: "Importing", details: urls.count == 1 ? urls[0].lastPathComponent : "\(urls.count) files")
        events.emit("importing", ["count": urls.count])
        Task {
            let report = await library.importFiles(urls, progress: progress)
            events.emit("imported", ["imported": report.imported.count, "duplicates": report.duplicates,
                                     "failed": report.failures.count, "cancelled": report.cancelled,
                                     "failures": report.failures.map(\.description)])
            if report.cancelled {
                hudOverlay.flash(.text, label: "Import cancelled", details: "\(report.stored) stored before the cancel")
            } else if report.failures.isEmpty {
                hudOverlay.flash(.success, label: "Imported \(report.imported.count)",
                                 details: report.duplicates > 0 ? "\(report.duplicates) already in the library" : "")
            } else {
                let first = report.failures[0]
                hudOverlay.flash(report.stored > 0 ? .text : .error,
                                 label: "Imported \(report.stored) of \(urls.count)",
                                 details: "\((first.path as NSString).lastPathComponent): \(first.message)")
            }
        }
    }

    // MARK: - Trim

    func openTrim(_ origin: Origin) {
        let screen = TrimScreen(video: origin.url)
        screen.onBack = { [unowned self] in self.back() }
        screen.onExport = { [unowned self, unowned screen] in self.export(screen, origin: origin) }
        screen.onMarked = { [unowned self] marked, count in
            self.events.emit("range-marked", ["marked": marked, "count": count])
        }
        screen.onPlayed = { [unowned self] frames, first, last in
            self.events.emit("played", ["frames": frames, "first": first, "last": last])
        }
        push(screen)
        Task {
            do {
                try await screen.open()
                events.emit("trim-ready", ["duration": screen.session.duration.seconds])
            } catch {
                back()
                report(error, doing: "Cannot trim this video")
            }
        }
    }

    /// Exports the trimmed range under the HUD (Cancel stops it and leaves nothing), beside the
    /// file or into the library.
    private func export(_ screen: TrimScreen, origin: Origin) {
        let stem = (origin.displayName as NSString).deletingPathExtension + " trimmed"
        let folder: URL
        switch origin {
        case .file(let url): folder = url.deletingLastPathComponent()
        case .library: folder = FileManager.default.temporaryDirectory
        }
        let output = CoverPicker.freeURL(in: folder, stem: stem, extension: "mp4")
        let progress = Progress(totalUnitCount: 1)
        hudOverlay.follow(progress, label: "Exporting", details: output.lastPathComponent)
        events.emit("exporting", ["output": output.path, "start": screen.session.startTime.seconds,
                                  "end": screen.session.endTime.seconds, "ranges": screen.session.exportSettings.ranges.count])
        Task {
            let outcome = await screen.session.export(to: output, progress: progress)
            switch outcome {
            case .saved(let url, let result):
                var path = url.path
                if case .library = origin, let library {
                    do {
                        path = try library.originalURL(of: try await library.saveOutput(url, album: "Trimmed", move: true)).path
                    } catch {
                        return report(error, doing: "Cannot add the video to the library")
                    }
                }
                events.emit("export-saved", ["path": path, "duration": result.duration.seconds, "frames": result.frameCount,
                                             "method": result.method, "copied": result.copiedFrames ?? 0])
                hudOverlay.flash(.success, label: "Saved", details: (path as NSString).lastPathComponent)
            case .failed(let error):
                report(error, doing: "Export failed")
            case .cancelled:
                events.emit("export-cancelled", ["output": output.path, "exists": FileManager.default.fileExists(atPath: output.path)])
                hudOverlay.flash(.text, label: "Export cancelled", details: "Nothing was written")
            }
        }
    }
}
