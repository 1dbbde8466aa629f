import Foundation
import MediaIO
import Testing
import ViewfinderTestSupport

@Suite("PipeWire and the Camera portal: when each is used")
struct PipeWireCamerasTests {
    @Test("the portal is required in a Flatpak sandbox (/.flatpak-info) or when VIEWFINDER_CAMERA_PORTAL=1; =0 overrides both")
    func portalRequired() throws {
        let folder = TestPaths.scratchFolder("portal-marker")
        let marker = folder.appendingPathComponent("flatpak-info")
        let absent = folder.appendingPathComponent("none")
        try Data("[Application]\n".utf8).write(to: marker)
        #expect(CameraPortal.isRequired([:], sandboxMarker: marker.path))
        #expect(!CameraPortal.isRequired([:], sandboxMarker: absent.path))
        #expect(CameraPortal.isRequired(["VIEWFINDER_CAMERA_PORTAL": "1"], sandboxMarker: absent.path))
        #expect(!CameraPortal.isRequired(["VIEWFINDER_CAMERA_PORTAL": "0"], sandboxMarker: marker.path))
        #expect(!CameraPortal.isAllowed(["VIEWFINDER_CAMERA_PORTAL": "0"]))
        #expect(CameraPortal.isAllowed([:]))
    }

    @Test("a daemon runs when its socket is in PIPEWIRE_RUNTIME_DIR or XDG_RUNTIME_DIR, or PIPEWIRE_REMOTE names one that exists")
    func daemonRuns() throws {
        let folder = TestPaths.scratchFolder("pipewire-runtime")
        let empty = TestPaths.scratchFolder("pipewire-empty")
        try Data().write(to: folder.appendingPathComponent("pipewire-0"))
        try Data().write(to: folder.appendingPathComponent("other"))
        #expect(PipeWireCameras.daemonRuns(["XDG_RUNTIME_DIR": folder.path]))
        #expect(PipeWireCameras.daemonRuns(["XDG_RUNTIME_DIR": empty.path, "PIPEWIRE_RUNTIME_DIR": folder.path]))
        #expect(!PipeWireCameras.daemonRuns(["XDG_RUNTIME_DIR": empty.path]))
        #expect(!PipeWireCameras.daemonRuns([:]))
        #expect(PipeWireCameras.daemonRuns(["XDG_RUNTIME_DIR": folder.path, "PIPEWIRE_REMOTE": "other"]))
        #expect(!PipeWireCameras.daemonRuns(["XDG_RUNTIME_DIR": folder.path, "PIPEWIRE_REMOTE": "missing"]))
        #expect(PipeWireCameras.daemonRuns(["PIPEWIRE_REMOTE": folder.appendingPathComponent("other").path]))
    }
}
