import Foundation
import CoverPicker
import HUD
import MediaIO
import MediaLibrary
import StudioKit
import VideoEditing
import ViewfinderCore
import ViewfinderUI

extension Studio {
    /// The library screen: a single-pick media picker that stays as the first screen; each
    /// pick opens the item. `library` is the app's library, or a pick's plain folder.
    /// With `finish` (pick), the outcome goes there instead, under `rules`.
    func libraryPicker(_ library: any AssetBrowser, rules: PickerRules = .any,
                       finish: ((PickerOutcome<[MediaPicker.Item]>) -> Void)? = nil) -> MediaPicker {
        let picker = MediaPicker(library: library, rules: rules, cancellable: finish != nil,
                                 camera: finish == nil && cameraAvailable, importing: finish == nil)
        picker.onImport = { [unowned self] in self.chooseFilesToImport() }
        picker.onCamera = { [unowned self] in self.openCamera() }
        picker.onDrop = { [unowned self] urls in self.importFiles(urls) }
        picker.onRefresh = { [unowned self, unowned library] in
            self.events.emit("library", ["count": library.assets.count, "group": "\(library.selectedGroup)",
                                         "filter": library.filter.rawValue, "order": library.order.rawValue,
                                         "pending": library.pendingCount])
        }
        picker.onThumbnail = { [unowned self, unowned picker] asset in
            self.events.emit("thumbnail", ["id": asset.id, "poster": asset.posterTime?.seconds ?? -1,
                                           "badge": picker.badge(of: asset.id) ?? ""])
        }
        if finish == nil {
            picker.onInfo = { [unowned self] asset in self.openInfo(asset) }
        }
        picker.onSelection = { [unowned self] selection, refusal in
            self.events.emit("selection", ["ids": selection.picked.map(\.id), "refused": refusal ?? ""])
        }
        picker.completion = { [unowned self, unowned library] outcome in
            if let finish { return finish(outcome) }
            guard case .done(let items) = outcome, let item = items.first,
                  let asset = library.assets.first(where: { $0.id == item.id }) else { return }
            self.open(asset)
        }
        // Once more, now that the events are wired (the picker drew itself when made).
        picker.refresh()
        return picker
    }

    /// Opens a library item: a photo in the avatar editor, a video in the cover chooser, a Live
    /// Photo in the cover chooser over its motion (its key photo).
    func open(_ asset: Asset) {
        guard let library else { return }
        let origin: Origin
        do {
            origin = .library(asset, try library.originalURL(of: asset))
        } catch {
            return report(error, doing: tr("Cannot open the item"))
        }
        events.emit("open", ["id": asset.id, "kind": asset.kind.rawValue])
        switch asset.kind {
        case .photo: openAvatar(origin)
        case .live: openKeyPhoto(asset)
        case .video: openCover(origin)
        }
    }

    /// The info panel of a library item: its details as the catalogue keeps them, and Export
    /// without location.
    func openInfo(_ asset: Asset) {
        let panel = AssetInfoPanel(asset: asset)
        events.emit("asset-info", ["id": asset.id, "rows": Dictionary(panel.info.rows.map { ($0.label, $0.value) }) { first, _ in first }])
        panel.onExport = { [unowned self] asset in self.exportWithoutLocation(asset) }
        panel.completion = { [unowned self, unowned panel] _ in self.leave(panel) }
        push(panel)
    }

    /// Writes a copy of a library item without its location into the Pictures folder (the
    /// CLI's `library export --strip-location`: beside the target, renamed when complete),
    /// under a free name, then says where in a toast.
    func exportWithoutLocation(_ asset: Asset) {
        guard let library else { return }
        let folder = Application.picturesFolder
        let name = asset.originalFilename as NSString
        let target = CoverPicker.freeURL(in: folder, stem: name.deletingPathExtension + " (no location)",
                                         extension: name.pathExtension.isEmpty ? (asset.kind == .photo ? "jpg" : "mp4") : name.pathExtension)
        events.emit("exporting-without-location", ["id": asset.id, "path": target.path])
        Task {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try await library.exportWithoutLocation(asset, to: target)
            } catch {
                return report(error, doing: tr("Cannot export without location"))
            }
            events.emit("exported-without-location", ["id": asset.id, "path": target.path])
            toast(tr("Exported without location as {file}", ["file": target.lastPathComponent]))
        }
    }

    /// Asks for files with the system's chooser, then imports them.
    func chooseFilesToImport() {
        guard let window else { return }
        FileChooser.openFiles(parent: window, title: tr("Import into the library")) { [unowned self] paths in
            if !paths.isEmpty { self.importFiles(paths.map { URL(fileURLWithPath: $0) }) }
        }
    }

    /// Imports files under the HUD (bytes done, Cancel), then reports what happened.
    func importFiles(_ urls: [URL]) {
        guard let library, !urls.isEmpty else { return }
        let progress = Progress(totalUnitCount: 1)
        hudOverlay.follow(progress, label: tr("Importing"),
                          details: urls.count == 1 ? urls[0].lastPathComponent : trn("{count} file", "{count} files", urls.count))
        events.emit("importing", ["count": urls.count])
        Task {
            let report = await library.importFiles(urls, progress: progress)
            events.emit("imported", ["imported": report.imported.count, "duplicates": report.duplicates,
                                     "failed": report.failures.count, "cancelled": report.cancelled,
                                     "failures": report.failures.map(\.description)])
            if report.cancelled {
                hudOverlay.flash(.text, label: tr("Import cancelled"),
                                 // TRANSLATORS: how many files the library kept before the import was cancelled.
                                 details: trn("{count} stored before the cancel", "{count} stored before the cancel", report.stored))
            } else if report.failures.isEmpty {
                // TRANSLATORS: the HUD's label once files are imported; {count} is how many.
                hudOverlay.flash(.success, label: trn("Imported {count}", "Imported {count}", report.imported.count),
                                 details: report.duplicates > 0
                                     // TRANSLATORS: how many of the files given the library already held.
                                     ? trn("{count} already in the library", "{count} already in the library", report.duplicates) : "")
            } else {
                let first = report.failures[0]
                hudOverlay.flash(report.stored > 0 ? .text : .error,
                                 // TRANSLATORS: {count} files of the {total} given were imported.
                                 label: tr("Imported {count} of {total}", ["count": report.stored, "total": urls.count]),
                                 // TRANSLATORS: the first file that could not be imported, and why.
                                 details: tr("{file}: {message}", ["file": (first.path as NSString).lastPathComponent,
                                                                    "message": first.message]))
            }
        }
    }

    // MARK: - Trim

    /// The trimmer: exports go beside the file, or into the library's Trimmed album.
    func openTrim(_ origin: Origin) {
        let folder: URL
        switch origin {
        case .file(let url): folder = url.deletingLastPathComponent()
        case .library: folder = FileManager.default.temporaryDirectory
        }
        let editor = TrimEditor(video: origin.url, exportFolder: folder,
                                stem: (origin.displayName as NSString).deletingPathExtension, hud: hudOverlay)
        editor.onMarked = { [unowned self] marked, count in
            self.events.emit("range-marked", ["marked": marked, "count": count])
        }
        editor.onPlayed = { [unowned self] frames, first, last in
            self.events.emit("played", ["frames": frames, "first": first, "last": last])
        }
        editor.onReady = { [unowned self, unowned editor] in
            self.events.emit("trim-ready", ["duration": editor.session.duration.seconds])
        }
        editor.onExport = { [unowned self, unowned editor] output in
            self.events.emit("exporting", ["output": output.path, "start": editor.session.startTime.seconds,
                                           "end": editor.session.endTime.seconds, "ranges": editor.session.exportSettings.ranges.count])
        }
        editor.onExported = { [unowned self, unowned editor] outcome in
            self.exported(outcome, output: editor.lastExport, origin: origin)
        }
        editor.completion = { [unowned self, unowned editor] outcome in
            self.settle(outcome, of: editor) { _ in self.leave(editor) }
        }
        push(editor)
        editor.start()
    }

    /// After an export: a library item's copy moves into the library; the events say where.
    private func exported(_ outcome: VideoEditor.Outcome, output: URL?, origin: Origin) {
        switch outcome {
        case .saved(let url, let result):
            Task {
                var path = url.path
                if case .library = origin, let library {
                    do {
                        path = try library.originalURL(of: try await library.saveOutput(url, album: "Trimmed", move: true)).path
                    } catch {
                        return report(error, doing: tr("Cannot add the video to the library"))
                    }
                }
                events.emit("export-saved", ["path": path, "duration": result.duration.seconds, "frames": result.frameCount,
                                             "method": result.method, "copied": result.copiedFrames ?? 0])
            }
        case .failed(let error):
            events.emit("error", ["what": "Export failed", "message": "\(error)"])
        case .cancelled:
            let path = output?.path ?? ""
            events.emit("export-cancelled", ["output": path, "exists": FileManager.default.fileExists(atPath: path)])
        }
    }
}
