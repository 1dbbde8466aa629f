import Capture
import MediaIO
import CoverPicker
import Foundation
import Imaging
import MediaLibrary
import ViewfinderCore
import ViewfinderUI

/// `viewfinder-studio pick …`: one component in the app's window, its result printed as JSON on
/// stdout. The flows are the components' and the app's own (`openCover`, `openAvatar`, the
/// library picker, the camera); only where the result goes differs.
extension Studio {
    /// How a pick ended, for the exit status: the JSON printed (0), cancelled (3), failed (1).
    enum PickEnd {
        case result(PickResult)
        case cancelled
        case failed(String)
    }

    /// Opens the picker `request` asks for as the first screen.
    func openPick(_ request: PickRequest) {
        switch request.kind {
        case .media:
            pickFromLibrary(request, kinds: request.type == .photo ? [.photo] : request.type == .video ? [.video] : MediaType.allCases,
                            limit: request.multiple) { [unowned self] items in
                self.endPick(.result(.media(items.map(Self.picked))))
            }
        case .cover:
            if let input = request.input { return pickCover(input, request) }
            pickFromLibrary(request, kinds: [.video], limit: 1) { [unowned self] items in
                if let item = items.first { self.pickCover(item.file, request) }
            }
        case .avatar:
            if let input = request.input { return pickAvatar(input, request) }
            if request.camera {
                return pickCapture(request) { [unowned self] capture in self.pickAvatar(capture.file, request) }
            }
            pickFromLibrary(request, kinds: [.photo], limit: 1) { [unowned self] items in
                if let item = items.first { self.pickAvatar(item.file, request) }
            }
        case .photo, .video:
            pickCapture(request) { [unowned self] capture in self.endPick(.result(.capture(Self.picked(capture)))) }
        }
    }

    /// Prints the result (or nothing) and quits with the pick's exit status; only the first
    /// end counts.
    func endPick(_ end: PickEnd) {
        if portalPick != nil { return endPortalPick(end) }
        guard pickStatus == nil else { return }
        switch end {
        case .result(let result):
            let text: String
            if options.pick?.print == .paths {
                let paths = result.paths
                guard !paths.contains(where: { $0.contains("\n") }) else {
                    return endPick(.failed(tr("a path holds a line break, which one path per line cannot show: use --print json")))
                }
                text = paths.map { $0 + "\n" }.joined()
            } else {
                guard let data = try? result.json() else {
                    return endPick(.failed(tr("the result cannot be written as JSON")))
                }
                text = String(decoding: data, as: UTF8.self) + "\n"
            }
            FileHandle.standardOutput.write(Data(text.utf8))
            pickStatus = 0
        case .cancelled:
            pickStatus = 3
        case .failed(let message):
            complain("viewfinder-studio: \(message)")
            pickStatus = 1
        }
        events.emit("pick-ended", ["status": Int(pickStatus ?? 1)])
        // A script still running (waiting on this event) ends the app itself.
        if options.script == nil { application.quit() }
    }

    private func ended<Value>(_ outcome: PickerOutcome<Value>, then done: (Value) -> Void) {
        switch outcome {
        case .done(let value): done(value)
        case .cancelled: endPick(.cancelled)
        case .failed(let failure): endPick(.failed(failure.description))
        }
    }

    // MARK: - The pickers

    private func pickFromLibrary(_ request: PickRequest, kinds: [MediaType], limit: Int,
                                 then done: @escaping ([MediaPicker.Item]) -> Void) {
        let configuration = MediaPickerConfiguration(source: .photoLibrary, mediaTypes: kinds,
                                                     maxDuration: request.maxDuration,
                                                     selectionLimit: limit, fileExtensions: request.fileExtensions)
        let rules: PickerRules
        let browser: any AssetBrowser
        do {
            if let pickFolder {
                browser = pickFolder
                rules = try PickerRules(configuration, sources: MediaSources(library: LibraryContents(pickFolder)))
            } else {
                guard let library else { return endPick(.failed(tr("the library could not be opened"))) }
                browser = library
                rules = try PickerRules(configuration, sources: MediaSources(libraryFolder: libraryFolder))
            }
        } catch {
            return endPick(.failed("\(error)"))
        }
        let picker = libraryPicker(browser, rules: rules) { [unowned self] outcome in self.ended(outcome, then: done) }
        if request.camera && cameraAvailable, let library {
            picker.cameraButton.isVisible = true
            picker.onCamera = { [unowned self] in
                self.pickCapture(request) { capture in
                    Task {
                        do {
                            let asset = try await library.saveCapture(capture.file)
                            done([MediaPicker.Item(asset, file: try library.originalURL(of: asset))])
                        } catch {
                            self.endPick(.failed(tr("cannot keep the capture: {error}", ["error": "\(error)"])))
                        }
                    }
                }
            }
        }
        push(picker)
    }

    private func pickCover(_ video: URL, _ request: PickRequest) {
        let limit = request.maxDuration.map { DurationLimit(maximum: $0) } ?? .standard
        openCover(.file(video), limit: limit, conversion: request.convert) {
            [unowned self] outcome in
            self.ended(outcome) { choice in
                guard let target = self.writeResult(.cover, of: video, ext: "jpg", request, { try CoverFlow.write(choice.image, to: $0) }) else {
                    return
                }
                self.endPick(.result(.cover(PickedCover(video: choice.video.path, cover: target.path, time: choice.time.seconds,
                                                        frame: choice.frame))))
            }
        }
    }

    private func pickAvatar(_ photo: URL, _ request: PickRequest) {
        openAvatar(.file(photo), shape: request.shape, side: request.size) { [unowned self] outcome in
            self.ended(outcome) { avatar in
                guard let target = self.writeResult(.avatar, of: photo, ext: "png", request, { try ImageEncoder.write(avatar.image, to: $0) }) else {
                    return
                }
                self.endPick(.result(.avatar(PickedAvatar(original: avatar.original.path, avatar: target.path, spec: avatar.spec))))
            }
        }
    }

    /// The camera at the request's quality and (for a video) its maximum duration in whole
    /// seconds, rounded up.
    private func pickCapture(_ request: PickRequest, then done: @escaping (CameraView.Capture) -> Void) {
        guard cameraAvailable else {
            return endPick(.failed("\(CaptureUnavailable())"))
        }
        let limit = request.maxDuration.map { Int($0.seconds.rounded(.up)) } ?? 30
        let editing: CameraView.CropRatio? = request.edit ? request.ratio.map { .fixed($0) } ?? .free : nil
        openCamera(quality: request.quality, limit: limit, editing: editing) { [unowned self] outcome in
            self.ended(outcome, then: done)
        }
    }

    /// Writes a pick's `kind` result made from `input` to `-o`, else to "STEM KIND.EXT" beside
    /// the file given (or here); nil (and the pick failed) when it cannot.
    private func writeResult(_ kind: ResultKind, of input: URL, ext: String, _ request: PickRequest,
                             _ write: (URL) throws -> Void) -> URL? {
        let stem = (input.lastPathComponent as NSString).deletingPathExtension + " " + kind.rawValue
        let target = request.output ?? CoverPicker.freeURL(in: Self.resultFolder(beside: request.input), stem: stem, extension: ext)
        do {
            try write(target)
            return target
        } catch {
            endPick(.failed(kind.cannotWrite(error)))
            return nil
        }
    }

    // MARK: - Results

    /// Results go beside the file given, else into the current folder.
    private static func resultFolder(beside input: URL?) -> URL {
        input?.deletingLastPathComponent() ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    static func picked(_ item: MediaPicker.Item) -> PickedItem {
        let kind: PickedItem.Kind = switch item.kind {
        case .photo: .photo
        case .video: .video
        case .live: .live
        }
        return PickedItem(id: item.id, file: item.file.path, kind: kind,
                   width: item.size.width, height: item.size.height, duration: item.duration?.seconds, date: item.date)
    }

    static func picked(_ capture: CameraView.Capture) -> PickedCapture {
        let metadata = PickedCapture.Metadata(date: capture.date, device: capture.device, orientation: capture.orientation,
                                              width: capture.size?.width, height: capture.size?.height)
        let crop = capture.cropRect.map { PickedCapture.CropRect(x: $0.minX, y: $0.minY, width: $0.width, height: $0.height) }
        return PickedCapture(mediaType: capture.kind == .video ? .video : .photo, original: capture.file.path,
                             file: capture.kind == .video ? capture.file.path : nil, metadata: metadata,
                             edited: capture.edited?.path, cropRect: crop)
    }
}
