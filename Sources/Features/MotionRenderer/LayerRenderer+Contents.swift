import Foundation
import Imaging
import Motion
import ViewfinderCore

extension LayerRenderer {
    /// Draws the layer's picture over its bounds from `contentsRect`; during a contents
    /// cross-fade, `old · (1 − p) + new · p` (a true dissolve: an opaque pair stays opaque).
    func drawContents(of s: LayerState, layer: String, alpha: Double, on canvas: Canvas) throws(MotionRendererError) {
        let new = try s.contents.map { reference throws(MotionRendererError) in try image(reference, layer: layer) }
        guard let fade = s.contentsCrossFade else {
            if let new { drawPicture(new, of: s, alpha: alpha, on: canvas) }
            return
        }
        let progress = fade.progress.isFinite ? min(max(fade.progress, 0), 1) : 1
        let old = try fade.from.map { reference throws(MotionRendererError) in try image(reference, layer: layer) }
        switch (old, new) {
        case (nil, nil):
            return
        case (let old?, nil):
            drawPicture(old, of: s, alpha: alpha * (1 - progress), on: canvas)
        case (nil, let new?):
            drawPicture(new, of: s, alpha: alpha * progress, on: canvas)
        case (let old?, let new?):
            canvas.drawGroup(alpha: alpha) {
                drawPicture(old, of: s, alpha: 1 - progress, on: canvas)
                drawPicture(new, of: s, alpha: progress, blend: .plus, on: canvas)
            }
        }
    }

    /// Draws `image` over the layer's bounds from `contentsRect`: stretched whole, or as a
    /// nine-slice when `contentsCenter` is not the unit rectangle — the corners outside it keep
    /// their size (picture pixels / `contentsScale`, shrunk alike when the bounds are too small
    /// for them), the edges stretch along their length, the centre both ways.
    func drawPicture(_ image: Canvas.Image, of s: LayerState, alpha: Double, blend: Canvas.BlendMode = .normal,
                     on canvas: Canvas) {
        let filter = Canvas.ShrinkFilter(rawValue: s.minificationFilter.rawValue) ?? .linear
        let unit = Rect(x: 0, y: 0, width: 1, height: 1)
        let c = s.contentsCenter
        guard c != unit, c.isFinite else {
            canvas.draw(image, in: s.bounds, from: s.contentsRect, alpha: alpha, blend: blend, shrink: filter)
            return
        }
        let source = s.contentsRect, bounds = s.bounds
        let scale = s.contentsScale.isFinite ? max(s.contentsScale, 0.01) : 1
        // Cuts of the source in fractions of it, and the fixed sizes of the outer parts in points.
        let cutsX = [0, min(max(c.minX, 0), 1), min(max(c.maxX, 0), 1), 1].sorted()
        let cutsY = [0, min(max(c.minY, 0), 1), min(max(c.maxY, 0), 1), 1].sorted()
        let pixelsWide = source.width * Double(image.size.width), pixelsHigh = source.height * Double(image.size.height)
        func spans(_ cuts: [Double], pixels: Double, length: Double) -> [Double] {
            var first = cuts[1] * pixels / scale, last = (1 - cuts[2]) * pixels / scale
            if first + last > length, first + last > 0 {
                let fit = length / (first + last)
                first *= fit
                last *= fit
            }
            return [first, max(0, length - first - last), last]
        }
        let widths = spans(cutsX, pixels: pixelsWide, length: bounds.width)
        let heights = spans(cutsY, pixels: pixelsHigh, length: bounds.height)
        var y = bounds.minY
        for row in 0..<3 {
            var x = bounds.minX
            for column in 0..<3 {
                let part = Rect(x: source.minX + source.width * cutsX[column], y: source.minY + source.height * cutsY[row],
                                width: source.width * (cutsX[column + 1] - cutsX[column]),
                                height: source.height * (cutsY[row + 1] - cutsY[row]))
                canvas.draw(image, in: Rect(x: x, y: y, width: widths[column], height: heights[row]), from: part,
                            alpha: alpha, blend: blend, shrink: filter)
                x += widths[column]
            }
            y += heights[row]
        }
    }

    /// The picture `reference` names: one given to `setImage(_:for:)`, or the file at that path
    /// (relative to `imageDirectory`), decoded once and kept.
    func image(_ reference: ImageReference, layer: String) throws(MotionRendererError) -> Canvas.Image {
        if let cached = images[reference.name] { return cached }
        let url = url(of: reference)
        if let refusal = Self.refusal(ofImageAt: url.path) {
            throw .imageUnreadable(layer: layer, path: url.path, detail: refusal)
        }
        do {
            let picture = try Photo(url: url, maxPixels: SceneLimits.maxImagePixels).preview(fitting: maxImageSize)
            let image = try Canvas.Image(picture)
            images[reference.name] = image
            return image
        } catch let error as ImagingError {
            throw .imageUnreadable(layer: layer, path: url.path, detail: error.description)
        } catch {
            throw .imageUnreadable(layer: layer, path: url.path, detail: String(describing: error))
        }
    }

    /// Why the file at `path` is not opened at all, or nil: it must be a regular file (reading
    /// a FIFO blocks for ever, a device like /dev/zero never ends) within
    /// `SceneLimits.maxImageBytes`. Asked of the file system before anything opens it.
    static func refusal(ofImageAt path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR: return tr("it is a folder, not a regular file")
        case S_IFIFO: return tr("it is a FIFO (named pipe), not a regular file")
        case S_IFCHR, S_IFBLK: return tr("it is a device, not a regular file")
        default: return tr("it is not a regular file")
        }
        guard Int64(info.st_size) <= SceneLimits.maxImageBytes else {
            return tr("it is {size} MiB, more than the limit of {limit} MiB for a picture",
                      ["size": Int64(info.st_size) >> 20, "limit": SceneLimits.maxImageBytes >> 20])
        }
        return nil
    }

    /// Makes `picture` what layers whose `contents` is `reference` show, instead of a file
    /// (for generated pictures, or to load files ahead of rendering).
    public func setImage(_ picture: RasterImage, for reference: ImageReference) throws(MotionRendererError) {
        do {
            images[reference.name] = try Canvas.Image(picture)
        } catch {
            throw .imageUnreadable(layer: "", path: reference.name, detail: error.description)
        }
    }

    /// Forgets every picture (files are read again when next shown).
    public func removeAllImages() {
        images.removeAll()
    }

    private func url(of reference: ImageReference) -> URL {
        let path = (reference.name as NSString).expandingTildeInPath
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if let imageDirectory { return imageDirectory.appendingPathComponent(path) }
        return URL(fileURLWithPath: path)
    }
}
