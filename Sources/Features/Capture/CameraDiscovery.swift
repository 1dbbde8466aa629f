import Foundation
import MediaIO
import ViewfinderCore

/// The cameras this machine offers and the way they are reached, found the way a Linux desktop
/// reaches them today: the policy the command-line tool, the Studio and the pickers share.
///
/// Sandboxed (or told so with `VIEWFINDER_CAMERA_PORTAL=1`), cameras come through the Camera
/// portal's PipeWire connection alone. Otherwise a running PipeWire daemon that offers cameras
/// is preferred (it reaches libcamera's cameras too, and the desktop sees them in use); without
/// one, /dev/video* through V4L2 as before, and when none of those nodes may be opened the
/// portal is asked.
public struct CameraListing: Sendable {
    /// How the cameras were found.
    public enum Source: String, Sendable {
        /// The user's PipeWire daemon.
        case pipewire
        /// The Camera portal's PipeWire connection.
        case portal
        /// /dev/video* nodes.
        case v4l2
    }

    /// The cameras found (some may be listed with the reason they cannot be opened).
    public let cameras: [CaptureDevice]
    public let source: Source
    /// One line saying why the cameras do not come through PipeWire, when they do not.
    public let note: String?
    /// Why the portal, when it had to be asked, gave no camera (a refusal among them).
    public let failure: MediaIOError?

    public init(cameras: [CaptureDevice], source: Source, note: String? = nil, failure: MediaIOError? = nil) {
        self.cameras = cameras
        self.source = source
        self.note = note
        self.failure = failure
    }
}

/// Finds cameras (see `CameraListing`).
public enum CameraDiscovery {
    /// The cameras of this machine, the way they are reached here.
    public static func listing(environment: [String: String] = ProcessInfo.processInfo.environment) -> CameraListing {
        if CameraPortal.isRequired(environment) { return throughPortal(note: nil) }
        var note: String
        if PipeWireCameras.daemonRuns(environment) {
            do {
                let found = try PipeWireCameras.list(through: .session)
                if !found.isEmpty { return CameraListing(cameras: found, source: .pipewire) }
                note = tr("PipeWire offers no camera: cameras are looked for through V4L2 (/dev/video*)")
            } catch {
                note = tr("PipeWire cannot be asked ({reason}): cameras are looked for through V4L2 (/dev/video*)", ["reason": error.description])
            }
        } else {
            note = tr("no PipeWire daemon is running: cameras are looked for through V4L2 (/dev/video*)")
        }
        let nodes = CaptureDevice.cameras()
        // Nodes this user may not open: the portal can still hand the cameras over.
        if !nodes.isEmpty, !nodes.contains(where: \.isUsable), CameraPortal.isAllowed(environment) {
            let portal = throughPortal(note: note)
            if !portal.cameras.isEmpty { return portal }
        }
        return CameraListing(cameras: nodes, source: .v4l2, note: note)
    }

    private static func throughPortal(note: String?) -> CameraListing {
        do {
            return CameraListing(cameras: try PipeWireCameras.list(through: .cameraPortal), source: .portal, note: note)
        } catch {
            return CameraListing(cameras: [], source: .portal, note: note, failure: error)
        }
    }

    /// A camera by id: "virtual" or "virtual-front", a /dev path, or "pipewire:" and a node's
    /// name (through the portal when it is the way here). Nil when there is none; throws the
    /// portal's refusal when it had to be asked and said no.
    public static func named(_ id: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CaptureDevice? {
        guard id.hasPrefix("pipewire:") else { return CaptureDevice.named(id) }
        let found = listing(environment: environment)
        if let camera = found.cameras.first(where: { $0.id == id }) { return camera }
        if let failure = found.failure { throw failure }
        // The listing chose V4L2: ask PipeWire itself for the camera named (without a daemon,
        // that is the error to show).
        guard found.source == .v4l2 else { return nil }
        return try PipeWireCameras.list(through: .session).first { $0.id == id }
    }
}
