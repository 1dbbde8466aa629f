import Faces
import Foundation
import Imaging
import ViewfinderCore

/// Where an avatar crop starts: on the most prominent face, in the middle of the photo, or on the
/// face when there is one and in the middle otherwise.
public enum AvatarCentre: String, Sendable, CaseIterable {
    /// The most prominent face if a face is found, else the middle (the default).
    case auto
    /// The most prominent face; no face found is an error.
    case face
    /// The middle of the photo, as before faces were looked for.
    case middle
}

/// The policy that frames an avatar around a face (issue: avatars start on the face).
///
/// The detector's box spans the face from cheek to cheek and from the forehead to below the mouth
/// (`DetectedFace.bounds`); around it, measured on portraits, the hair reaches about half a box
/// above the box and the chin an eighth of a box below it, so the head is about 1.6 boxes tall
/// and its middle sits 0.15 box above the box's middle. The circle is `diameterPerFace` (2.6)
/// boxes wide, so the head fills about 60 % of it, as portrait and profile-photo guides ask, and
/// its centre is `downShift` (0.05) box below the box's middle: a third of a box of air stays
/// above the hair, and the neck and the top of the shoulders fill the bottom. A face too large
/// for that keeps the minimum-zoom rule: the largest crop the photo holds, as near the face as it
/// can be.
public enum FaceFraming {
    /// The crop's short side, in face boxes.
    public static let diameterPerFace = 2.6
    /// How far below the face box's middle the crop's centre sits, in face boxes.
    public static let downShift = 0.05
    /// The faces of a photo are searched for in a copy whose short side is this many pixels at
    /// most (enough for a face of `FaceDetector.smallestFace` of the short side; more pixels would
    /// cost time and find nothing new).
    public static var analysisShortSide: Int {
        Int((Double(FaceDetector.smallestFaceSide) / FaceDetector.smallestFace).rounded(.up))
    }

    /// The faces in `photo`, in its upright pixels, clearest first. Decodes a small copy (shrunk
    /// on load), so it costs a fraction of opening the photo in full; the detector's cascade
    /// loads on another thread meanwhile.
    public static func faces(in photo: Photo) throws -> [DetectedFace] {
        FaceDetector.preload()
        let size = photo.size
        let shortSide = min(size.width, size.height)
        let scale = min(1, Double(analysisShortSide) / Double(max(1, shortSide)))
        let box = PixelSize(width: max(1, Int((Double(size.width) * scale).rounded(.up))),
                            height: max(1, Int((Double(size.height) * scale).rounded(.up))))
        let copy = try photo.preview(fitting: box)
        let back = (x: Double(size.width) / Double(max(1, copy.width)), y: Double(size.height) / Double(max(1, copy.height)))
        return try FaceDetector.shared().faces(in: copy).map { face in
            DetectedFace(bounds: Rect(x: face.bounds.minX * back.x, y: face.bounds.minY * back.y,
                                      width: face.bounds.width * back.x, height: face.bounds.height * back.y),
                         votes: face.votes)
        }
    }

    /// The crop of `shape` framed around `face` (upright image pixels) in a photo of `imageSize`,
    /// `outputSide` pixels wide, recorded as a face framing; `zoom` (≥ 1) comes closer than the
    /// framing by that factor; `rotation` turns the photo about the crop's centre (zooming in
    /// further only if the turned photo would not cover the crop).
    public static func crop(around face: Rect, imageSize: PixelSize, shape: CropShape, outputSide: Int,
                            zoom: Double = 1, rotation: Double = 0) -> CropSpec {
        let photo = Size(imageSize)
        let largest = CropGeometry.cropSize(for: shape, in: photo)
        let closer = zoom.isFinite && zoom > 1 ? zoom : 1
        let wanted = diameterPerFace * max(face.width, face.height) / closer
        // The crop's short side is `wanted`; the largest crop's short side is what zoom 1 gives.
        let zoom = max(1, min(largest.width, largest.height) / max(wanted, 1e-9))
        let centre = Point(x: face.midX, y: face.midY + downShift * face.height)
        var spec = CropSpec.centred(imageSize: imageSize, shape: shape, outputSide: outputSide, zoom: zoom, center: centre,
                                    rotation: rotation)
        spec.framing = CropFraming(.face, face: face)
        return spec
    }

    /// The crop an avatar starts with when nobody moved it: by `centre`'s rule, `zoom` (≥ 1)
    /// times closer than the face framing or the largest middle crop. `.face` with no face found
    /// throws `AvatarFramingError.noFace`; `.auto` then takes the middle and says so in the
    /// framing's note. A detector that cannot run (no cascade installed) is an error for `.face`
    /// and a note for `.auto`.
    public static func startingCrop(for photo: Photo, shape: CropShape, outputSide: Int, centre: AvatarCentre,
                                    zoom: Double = 1, rotation: Double = 0) throws -> CropSpec {
        func middle(_ note: String?) -> CropSpec {
            var spec = CropSpec.centred(imageSize: photo.size, shape: shape, outputSide: outputSide, zoom: zoom,
                                        rotation: rotation)
            spec.framing = CropFraming(.middle, note: note)
            return spec
        }
        if centre == .middle { return middle(nil) }
        let found: [DetectedFace]
        do {
            found = try faces(in: photo)
        } catch let error as FaceDetectionError {
            if centre == .face { throw error }
            return middle("faces were not looked for: \(error)")
        }
        guard let face = found.mostProminent(in: photo.size) else {
            if centre == .face { throw AvatarFramingError.noFace(path: photo.url.path) }
            // Kept English: the note also goes into --json; marked, so that a program can show it as tr(note).
            return middle(N_("no face found"))
        }
        return crop(around: face.bounds, imageSize: photo.size, shape: shape, outputSide: outputSide, zoom: zoom,
                    rotation: rotation)
    }
}

/// Why an avatar could not be framed as asked.
public enum AvatarFramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--center face` on a photo in which no face was found.
    case noFace(path: String)

    /// In a person's words, with what to do.
    public var description: String {
        switch self {
        case .noFace(let path):
            tr("no face found in {file}; use --center auto (the middle when there is no face), middle, or X,Y",
               ["file": (path as NSString).lastPathComponent])
        }
    }
}

extension AvatarFramingError: ReadableError {}
