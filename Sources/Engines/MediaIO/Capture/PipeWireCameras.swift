internal import CPipeWireShim
import Foundation
import ViewfinderCore

/// Which PipeWire connection a camera is reached through.
public enum PipeWireRemote: Sendable, Equatable {
    /// The user's own daemon (its socket in the runtime folder).
    case session
    /// The connection the Camera portal hands over (`CameraPortal`), which shows only cameras.
    case cameraPortal
}

/// The cameras a PipeWire daemon offers: its nodes of media class Video/Source.
public enum PipeWireCameras {
    /// How long a daemon has to answer a listing or agree a format.
    public static let answerTimeout: TimeInterval = 5

    /// Whether a PipeWire daemon's socket is there to connect to: `PIPEWIRE_REMOTE` names one,
    /// or pipewire-0 exists in `PIPEWIRE_RUNTIME_DIR` or `XDG_RUNTIME_DIR` (a daemon is never
    /// started for us).
    public static func daemonRuns(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        let name = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty ? nil : $0 } ?? "pipewire-0"
        if name.hasPrefix("/") { return FileManager.default.fileExists(atPath: name) }
        let folders = [environment["PIPEWIRE_RUNTIME_DIR"], environment["XDG_RUNTIME_DIR"]].compactMap { $0 }.filter { !$0.isEmpty }
        return folders.contains { FileManager.default.fileExists(atPath: $0 + "/" + name) }
    }

    /// The cameras the daemon behind `remote` offers, in the daemon's order, each with its name,
    /// the side it faces where the node says so (libcamera's location), and the sizes and
    /// rates its raw formats offer. Throws when the daemon cannot be reached or does not answer
    /// (or, through the portal, when access is refused).
    public static func list(through remote: PipeWireRemote) throws(MediaIOError) -> [CaptureDevice] {
        let fd = try descriptor(for: remote)
        var found = [vf_pw_camera](repeating: vf_pw_camera(), count: 32)
        // Through the portal, cameras may show a moment after the connection (see the shim).
        let settle: Int32 = remote == .cameraPortal ? 1000 : 0
        let count = Int(vf_pw_list_cameras(fd, &found, Int32(found.count), Int32(answerTimeout * 1000), settle))
        guard count >= 0 else { throw failure(-Int32(count), remote: remote) }
        return found.prefix(count).map { camera(from: $0, remote: remote) }
    }

    /// The connection to hand libpipewire: -1 for the user's daemon, else the portal's
    /// descriptor (the call that takes it closes it).
    static func descriptor(for remote: PipeWireRemote) throws(MediaIOError) -> Int32 {
        switch remote {
        case .session: return -1
        case .cameraPortal: return try CameraPortal.openRemote()
        }
    }

    static func failure(_ code: Int32, remote: PipeWireRemote) -> MediaIOError {
        let device = remote == .session ? "pipewire" : "camera portal"
        switch code {
        // libpipewire says EHOSTDOWN when it finds no socket to connect to.
        case ENOENT, ECONNREFUSED, EHOSTDOWN: return .deviceUnavailable(device: device, reason: tr("no PipeWire daemon is running"))
        case ETIMEDOUT: return .deviceUnavailable(device: device, reason: tr("the PipeWire daemon did not answer"))
        default: return .deviceUnavailable(device: device, reason: String(cString: strerror(code)))
        }
    }

    private static func camera(from node: vf_pw_camera, remote: PipeWireRemote) -> CaptureDevice {
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let widths = withUnsafeBytes(of: node.width) { Array($0.bindMemory(to: Int32.self)) }
        let heights = withUnsafeBytes(of: node.height) { Array($0.bindMemory(to: Int32.self)) }
        let rates = withUnsafeBytes(of: node.fps) { Array($0.bindMemory(to: Int32.self)) }
        let sizes = (0..<Int(node.size_count)).map { PixelSize(width: Int(widths[$0]), height: Int(heights[$0])) }
        let position: CaptureDevice.Position
        switch text(node.location) {
        case "front": position = .front
        case "back": position = .rear
        case "external": position = .external
        default: position = .unspecified
        }
        let name = text(node.name)
        let readable = node.format_count > 0
        return CaptureDevice(id: "pipewire:" + name, name: text(node.description), position: position, sizes: sizes,
                             frameRates: (0..<Int(node.rate_count)).map { Int(rates[$0]) }, hasFlash: false,
                             unavailableReason: readable ? nil : tr("it offers no picture format Viewfinder reads (raw YUV or RGB, or MJPEG)"),
                             through: .pipewire, viaPortal: remote == .cameraPortal)
    }
}

/// The Camera portal (org.freedesktop.portal.Camera on the session bus): how a sandboxed app,
/// or one that may not open /dev/video*, gets a PipeWire connection that shows the cameras.
public enum CameraPortal {
    /// How long the user has to answer the portal's question.
    public static let answerTimeout: TimeInterval = 60

    /// Whether this process runs in a sandbox that reaches cameras through the portal alone
    /// (Flatpak: /.flatpak-info exists). `VIEWFINDER_CAMERA_PORTAL=1` says yes and `=0` no
    /// whatever the sandbox (for tests, and for hosts that want the portal's prompt).
    public static func isRequired(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                  sandboxMarker: String = "/.flatpak-info") -> Bool {
        switch environment["VIEWFINDER_CAMERA_PORTAL"] {
        case "1": return true
        case "0": return false
        default: return FileManager.default.fileExists(atPath: sandboxMarker)
        }
    }

    /// Whether the portal may be asked at all (`VIEWFINDER_CAMERA_PORTAL=0` says never).
    public static func isAllowed(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["VIEWFINDER_CAMERA_PORTAL"] != "0"
    }

    /// Asks for the camera (the portal may ask the user, or answer from its permission store),
    /// then for a PipeWire connection; returns its descriptor, which the caller owns. A refusal
    /// is the "permission denied" error, with what to do.
    static func openRemote() throws(MediaIOError) -> Int32 {
        var fd: Int32 = -1
        var message = [CChar](repeating: 0, count: 512)
        let result = vf_portal_open_camera(Int32(answerTimeout * 1000), &fd, &message, message.count)
        let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch result {
        case VF_PORTAL_GRANTED where fd >= 0:
            return fd
        case VF_PORTAL_DENIED:
            throw .deviceUnavailable(device: "camera portal", reason: tr("permission denied: allow Viewfinder to use the camera in your desktop's privacy settings (Settings › Privacy › Camera), then try again"))
        case VF_PORTAL_UNAVAILABLE:
            throw .deviceUnavailable(device: "camera portal", reason: tr("no camera portal answers on the session bus ({reason})", ["reason": detail]))
        default:
            throw .deviceUnavailable(device: "camera portal", reason: tr("the camera portal failed: {reason}", ["reason": detail]))
        }
    }
}
