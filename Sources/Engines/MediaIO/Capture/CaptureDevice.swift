internal import CFFmpeg
import Foundation
import ViewfinderCore

/// A camera: a V4L2 device, a PipeWire video source (reached directly or through the Camera
/// portal), or the virtual test camera (an FFmpeg test source behind the same code path, so
/// capture can be tested without hardware).
public struct CaptureDevice: Sendable, Equatable {
    /// The way pictures come from the camera.
    public enum Path: String, Sendable {
        /// A /dev/video* node, read through libavdevice.
        case v4l2
        /// A PipeWire node (libcamera's and V4L2's cameras, as today's desktops offer them).
        case pipewire
        /// The virtual test camera.
        case virtual
    }

    /// Which way a camera faces: what the firmware says in sysfs (`position(ofNode:)`), often
    /// nothing on a desktop, so it is usually `unspecified` or `external`.
    public enum Position: String, Sendable {
        case front, rear, external, unspecified
    }

    /// "/dev/video0", "pipewire:" and the node's name, or "virtual".
    public let id: String
    public let name: String
    public let position: Position
    /// Picture sizes it offers (the first is the default).
    public let sizes: [PixelSize]
    /// Frame rates it offers at the default size.
    public let frameRates: [Int]
    /// Whether it has a flash control.
    public let hasFlash: Bool
    /// Why it cannot be opened, in the user's words ("permission denied: add your user to the
    /// video group"); nil when it can.
    public let unavailableReason: String?
    /// How pictures come from it.
    public let through: Path
    /// For a PipeWire camera: whether it is reached through the Camera portal's connection
    /// (sandboxed, or when /dev/video* cannot be opened) instead of the user's daemon.
    public let viaPortal: Bool

    /// Whether it can be opened.
    public var isUsable: Bool { unavailableReason == nil }

    /// A camera as a device listing describes it.
    public init(id: String, name: String, position: Position, sizes: [PixelSize], frameRates: [Int], hasFlash: Bool,
                unavailableReason: String? = nil, through: Path? = nil, viaPortal: Bool = false) {
        self.id = id
        self.name = name
        self.position = position
        self.sizes = sizes
        self.frameRates = frameRates
        self.hasFlash = hasFlash
        self.unavailableReason = unavailableReason
        self.through = through ?? (id.hasPrefix("virtual") ? .virtual : .v4l2)
        self.viaPortal = viaPortal
    }

    /// True for a virtual test camera.
    public var isVirtual: Bool { CaptureDevice.virtualCameras.contains { $0.id == id } }

    /// The virtual test camera: moving test pictures at 30 frames a second.
    public static let virtual = CaptureDevice(
        id: "virtual", name: "Viewfinder virtual camera", position: .unspecified,
        sizes: [PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720), PixelSize(width: 1920, height: 1080)],
        frameRates: [30], hasFlash: false, unavailableReason: nil)

    /// A second virtual camera facing the other way: SMPTE colour bars instead of the moving
    /// test picture, so a switch between the two shows in every frame.
    public static let virtualFront = CaptureDevice(
        id: "virtual-front", name: "Viewfinder virtual front camera", position: .front,
        sizes: virtual.sizes, frameRates: [30], hasFlash: false, unavailableReason: nil)

    /// The virtual test cameras, by id.
    public static let virtualCameras = [virtual, virtualFront]

    /// Where device nodes are looked for: /dev, or `VIEWFINDER_DEVICES` (for tests and
    /// containers that keep their nodes elsewhere).
    public static var devicesFolder: String {
        ProcessInfo.processInfo.environment["VIEWFINDER_DEVICES"].flatMap { $0.isEmpty ? nil : $0 } ?? "/dev"
    }

    /// The V4L2 cameras on this machine (an empty list when there is none), in device order;
    /// a node that exists but may not be opened is listed with the reason (`unavailableReason`).
    public static func cameras(devicesFolder: String = CaptureDevice.devicesFolder) -> [CaptureDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devicesFolder)) ?? []
        let nodes = names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5)) ?? 0 < Int($1.dropFirst(5)) ?? 0 }
        return nodes.compactMap { node in
            let path = devicesFolder + "/" + node
            var info = vf_v4l2_info()
            let status = vf_v4l2_query(path, &info)
            if status > 0 {
                guard let reason = openFailure(status) else { return nil }
                return CaptureDevice(id: path, name: node, position: .unspecified, sizes: [], frameRates: [], hasFlash: false,
                                     unavailableReason: reason)
            }
            guard status == 0 else { return nil }
            let name = withUnsafeBytes(of: info.name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let widths = withUnsafeBytes(of: info.width) { Array($0.bindMemory(to: Int32.self)) }
            let heights = withUnsafeBytes(of: info.height) { Array($0.bindMemory(to: Int32.self)) }
            let rates = withUnsafeBytes(of: info.fps) { Array($0.bindMemory(to: Int32.self)) }
            let sizes = (0..<Int(info.size_count)).map { PixelSize(width: Int(widths[$0]), height: Int(heights[$0])) }
            return CaptureDevice(id: path, name: name.isEmpty ? node : name, position: position(ofNode: node),
                                 sizes: sizes, frameRates: (0..<Int(info.fps_count)).map { Int(rates[$0]) },
                                 hasFlash: info.has_flash != 0, unavailableReason: nil)
        }
    }

    /// What to tell the user when a camera's node cannot be opened (`code` is errno); nil when
    /// the node is no camera at all (no driver behind it).
    static func openFailure(_ code: Int32) -> String? {
        switch code {
        case EACCES, EPERM: return tr("permission denied: add your user to the video group")
        case EBUSY: return tr("busy: another program is using the camera")
        case ENODEV, ENXIO, ENOENT, ENOTTY: return nil
        default: return String(cString: strerror(code))
        }
    }

    /// A device by id ("virtual" or a /dev path), nil when there is none.
    public static func named(_ id: String) -> CaptureDevice? {
        if let camera = virtualCameras.first(where: { $0.id == id }) { return camera }
        let folder = (id as NSString).deletingLastPathComponent
        return cameras(devicesFolder: folder.isEmpty ? devicesFolder : folder).first { $0.id == id }
    }
}

/// Recording quality, as the platform's picker offers it.
public enum CaptureQuality: String, Sendable, CaseIterable {
    /// The camera's size, high quality.
    case high
    /// Fits 960×540.
    case medium
    /// Fits 640×360.
    case low

    /// The export preset a recording at this quality encodes as (its box and quality).
    public var preset: ExportPreset {
        switch self {
        case .high: return .highest
        case .medium: return .medium
        case .low: return .low
        }
    }

    /// "high, medium or low", for help and error texts.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        // TRANSLATORS: a list of an option's values ("off, on, auto" or "torch"); the values stay as they are.
        return tr("{values} or {last}", ["values": names.dropLast().joined(separator: ", "), "last": names.last ?? ""])
    }
}
