internal import CFFmpeg
import Foundation
import ViewfinderCore

/// How a photo uses a camera's flash, as the platform's camera offers it.
public enum FlashMode: String, Sendable, CaseIterable {
    /// Never.
    case off
    /// Fires with every photo.
    case on
    /// Fires when the scene is dark (the preview's mean brightness below `FlashMode.darkLuma`).
    case auto
    /// The light stays on while the camera is open.
    case torch

    /// Mean brightness (0–255) below which `auto` fires.
    public static let darkLuma = 60

    /// Whether a photo of a scene this bright (mean luma 0–255) fires the flash.
    public func fires(atBrightness luma: Int) -> Bool {
        switch self {
        case .off, .torch: return false
        case .on: return true
        case .auto: return luma < FlashMode.darkLuma
        }
    }

    /// "off, on, auto or torch", for help and error texts.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        // TRANSLATORS: a list of an option's values ("off, on, auto" or "torch"); the values stay as they are.
        return tr("{values} or {last}", ["values": names.dropLast().joined(separator: ", "), "last": names.last ?? ""])
    }
}

extension CaptureDevice {
    /// Which way the camera at /dev/`node` faces, from what the firmware says in sysfs: the
    /// ACPI panel (`physical_location/panel`: front or back) of the device or a parent, else
    /// external for a removable (USB) device, else unspecified. (PipeWire/libcamera's location
    /// is not read: the product talks to V4L2 alone.)
    public static func position(ofNode node: String, sysfs: String = "/sys") -> Position {
        let link = URL(fileURLWithPath: "\(sysfs)/class/video4linux/\(node)/device").resolvingSymlinksInPath()
        var folder = link
        var removable = false
        for _ in 0..<8 {
            if let panel = firstLine(folder.appendingPathComponent("physical_location/panel")) ??
                firstLine(folder.appendingPathComponent("firmware_node/physical_location/panel")) {
                switch panel {
                case "front": return .front
                case "back": return .rear
                default: break
                }
            }
            if firstLine(folder.appendingPathComponent("removable")) == "removable" { removable = true }
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path, parent.path.hasPrefix(sysfs) else { break }
            folder = parent
        }
        return removable ? .external : .unspecified
    }

    private static func firstLine(_ url: URL) -> String? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return line?.isEmpty == false ? line : nil
    }

    /// Puts the flash in `mode` through the V4L2 flash controls: torch lights it, off and auto
    /// put it out, on arms it for a strobe (`strobe()` fires it). Throws when the camera has no
    /// flash (for any mode but off) or the control cannot be set.
    public func setFlash(_ mode: FlashMode) throws(MediaIOError) {
        guard hasFlash, !isVirtual else {
            if mode == .off { return }
            throw .deviceUnavailable(device: id, reason: tr("this camera has no flash"))
        }
        let value: Int32
        switch mode {
        case .off, .auto: value = vf_v4l2_flash_led_mode_none()
        case .on: value = vf_v4l2_flash_led_mode_flash()
        case .torch: value = vf_v4l2_flash_led_mode_torch()
        }
        try setControl(vf_v4l2_cid_flash_led_mode(), value)
    }

    /// Fires the flash once (its mode must be `on`, or it is set to flash first).
    public func strobe() throws(MediaIOError) {
        guard hasFlash, !isVirtual else { throw .deviceUnavailable(device: id, reason: tr("this camera has no flash")) }
        try setControl(vf_v4l2_cid_flash_led_mode(), vf_v4l2_flash_led_mode_flash())
        try setControl(vf_v4l2_cid_flash_strobe(), 1)
    }

    private func setControl(_ control: UInt32, _ value: Int32) throws(MediaIOError) {
        let status = vf_v4l2_set_control(id, control, value)
        guard status == 0 else {
            let reason = status > 0 ? CaptureDevice.openFailure(status) ?? String(cString: strerror(status)) : tr("the flash control cannot be set")
            throw .deviceUnavailable(device: id, reason: reason)
        }
    }
}
