internal import CPipeWireShim
import Foundation
import MediaIO
import Testing
import ViewfinderTestSupport

@Suite("PipeWire and the Camera portal: when each is used")
struct PipeWireCamerasTests {
    /// A picture its producer did not stamp (GStreamer's pipewiresink sends none) was stamped on
    /// arrival: on a busy machine one 30 ms late rounded into the next one's slot.
    @Test("a picture without a stamp goes on the agreed rate's grid: lateness held, an earlier one moves the grid, a dropped one leaves two periods")
    func gridStamps() {
        let period: Int64 = 33_333_333, last: Int64 = 1_000_000_000
        #expect(vf_pw_grid_stamp(last, period, last + period) == last + period)
        // Late by up to three quarters of a period: the grid, plus a 32nd of the lateness.
        #expect(vf_pw_grid_stamp(last, period, last + period + 16_000_000) == last + period + 500_000)
        #expect(vf_pw_grid_stamp(last, period, last + period + 24_000_000) == last + period + 750_000)
        // Earlier than the grid: the grid moves to the arrival.
        #expect(vf_pw_grid_stamp(last, period, last + period - 5_000_000) == last + period - 5_000_000)
        // A dropped picture: two periods on.
        #expect(vf_pw_grid_stamp(last, period, last + 2 * period + 9_600_000) == last + 2 * period + 300_000)
        // No rate, no picture before, or an arrival not after the last: the arrival.
        #expect(vf_pw_grid_stamp(last, 0, last + 50_000_000) == last + 50_000_000)
        #expect(vf_pw_grid_stamp(0, period, 5) == 5)
        #expect(vf_pw_grid_stamp(last, period, last) == last)
    }

    @Test("30 fps pictures arriving 0–24 ms late keep their stamps within 10 ms of each other's grid, also from a camera 0.1 % slow")
    func gridStampsUnderJitter() {
        for slower: Int64 in [0, 33_333] {
            var seed: UInt64 = 12345
            var stamp: Int64 = 0
            var offsets: [Int64] = [], arrivals: [Int64] = []
            for index in 0..<2000 {
                seed = (seed &* 1_103_515_245 &+ 12345) % (1 << 31)
                let taken = 1_000_000_000 + Int64(index) * (33_333_333 + slower)
                let arrived = taken + 2_000_000 + Int64(seed % 24_000_000)
                stamp = vf_pw_grid_stamp(stamp, 33_333_333, arrived)
                offsets.append(stamp - taken)
                arrivals.append(arrived - taken)
            }
            let held = offsets.dropFirst(5)
            let spread = (held.max() ?? 0) - (held.min() ?? 0), arrivalSpread = (arrivals.max() ?? 0) - (arrivals.min() ?? 0)
            #expect(arrivalSpread > 20_000_000 && spread < 10_000_000, "stamps spread \(spread) ns (arrivals \(arrivalSpread) ns), camera \(slower) ns a frame slow")
            #expect((held.min() ?? -1) >= 0, "a stamp before its picture was taken: \(held.min() ?? -1) ns")
        }
    }

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
