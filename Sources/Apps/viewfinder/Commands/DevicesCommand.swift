import CommandLineKit
import Capture
import Foundation
import MediaIO
import ViewfinderCore

/// `viewfinder devices`: the cameras and microphones on this machine.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = N_("List the cameras (PipeWire or V4L2) with their sizes, frame rates and flash, and the microphones.")
    static let synopsis = "[--json]"
    static let positionalCount = 0...0
    static let json = TypedOption.flag("json", help: N_("Print JSON: one object per device, cameras first, each with its kind."))
    static let options = json.specs
    static let discussion = N_("""
        Cameras come through PipeWire when its daemon runs and offers any, else through V4L2 (a line says why); each line \
        and JSON object says which (through: pipewire or v4l2). Sandboxed (/.flatpak-info), or with VIEWFINDER_CAMERA_PORTAL=1, \
        or when no /dev/video* node may be opened, the Camera portal is asked for PipeWire's cameras; a refusal is an error \
        (VIEWFINDER_CAMERA_PORTAL=0 never asks it). A camera that exists but cannot be opened is listed with the reason. \
        Nodes are looked for in /dev, or in VIEWFINDER_DEVICES when set. Microphones are every source of the PulseAudio or PipeWire server when one runs (its default first; \
        its default input alone when it lists none), then the ALSA capture devices; the first is the default. When no sound server runs, \
        the listing says so. The virtual test camera and microphone (--device virtual, \
        --microphone virtual in capture) are always there and not listed.
        """)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let listing = CameraDiscovery.listing()
        if let failure = listing.failure { throw failure }
        let cameras = listing.cameras
        let microphones = MicrophoneDevice.microphones()
        if try arguments[json] {
            let cameraItems: [JSONValue] = cameras.map { camera in
                .object([
                    ("kind", .string("camera")),
                    ("id", .string(camera.id)), ("name", .string(camera.name)), ("position", .string(camera.position.rawValue)),
                    ("through", .string(camera.through.rawValue)), ("portal", .bool(camera.viaPortal)),
                    ("sizes", .array(camera.sizes.map { .string("\($0.width)x\($0.height)") })),
                    ("frameRates", .array(camera.frameRates.map(JSONValue.int))), ("flash", .bool(camera.hasFlash)),
                    ("mediaTypes", .array(MediaSources.mediaTypes(of: camera).map { .string($0.rawValue) })),
                    ("unavailable", camera.unavailableReason.map(JSONValue.string) ?? .null),
                ])
            }
            let microphoneItems: [JSONValue] = microphones.enumerated().map { index, microphone in
                .object([
                    ("kind", .string("microphone")), ("id", .string(microphone.id)), ("name", .string(microphone.name)),
                    ("through", .string(microphone.kind.rawValue)), ("default", .bool(index == 0)),
                ])
            }
            print(JSONValue.array(cameraItems + microphoneItems).rendered())
            return 0
        }
        // The text: one line a device, its fields apart by tabs, in the user's language.
        if cameras.isEmpty {
            print(tr("no camera found (capture --device virtual uses the test camera)"))
        }
        for camera in cameras {
            if let reason = camera.unavailableReason {
                print("\(camera.id)\t" + tr("cannot be opened: {reason}", ["reason": reason]))
                continue
            }
            let sizes = camera.sizes.map { "\($0.width)x\($0.height)" }.joined(separator: ", ")
            let rates = tr("{rates} fps", ["rates": camera.frameRates.map(String.init).joined(separator: "/")])
            let flash = camera.hasFlash ? tr("flash") : tr("no flash")
            print([camera.id, camera.name, positionText(camera.position), sizes, rates, flash, throughText(camera)].joined(separator: "\t"))
        }
        if let note = listing.note { print(note) }
        if microphones.isEmpty {
            print(tr("no microphone found (capture --microphone virtual uses the test microphone)"))
        }
        for (index, microphone) in microphones.enumerated() {
            print("\(microphone.id)\t\(microphone.name)\t" + (index == 0 ? tr("microphone (default)") : tr("microphone")))
        }
        if !MicrophoneDevice.soundServerRuns() {
            print(tr("no sound server (PulseAudio or PipeWire) is running: only ALSA capture devices are listed"))
        }
        return 0
    }

    /// Which way pictures come from a camera, in the user's language.
    private static func throughText(_ camera: CaptureDevice) -> String {
        switch camera.through {
        // TRANSLATORS: how a camera is reached, in `viewfinder devices`; PipeWire, V4L2 and the portal's name stay as they are.
        case .pipewire: camera.viaPortal ? tr("through PipeWire (Camera portal)") : tr("through PipeWire")
        case .v4l2: tr("through V4L2")
        case .virtual: tr("virtual")
        }
    }

    /// Which way a camera faces, in the user's language.
    private static func positionText(_ position: CaptureDevice.Position) -> String {
        switch position {
        // TRANSLATORS: which way a camera faces, in `viewfinder devices`.
        case .front: tr("front")
        case .rear: tr("rear")
        case .external: tr("external")
        case .unspecified: tr("unspecified")
        }
    }
}
