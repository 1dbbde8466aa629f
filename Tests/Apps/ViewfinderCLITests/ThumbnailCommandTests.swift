import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// `viewfinder thumbnail`, as the desktop's thumbnailer entry calls it.
@Suite("thumbnail command")
struct ThumbnailCommandTests {
    static let folder = TestPaths.scratchFolder("thumbnail")

    /// The PNG's size from its IHDR, or nil when the file is not a PNG.
    static func pngSize(_ url: URL) throws -> PixelSize? {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func int(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return PixelSize(width: int(16), height: int(20))
    }

    @Test("the entry's Exec line is what the command takes, for the video types we read")
    func entry() throws {
        let text = try String(contentsOf: TestPaths.repository.appendingPathComponent("data/viewfinder.thumbnailer"), encoding: .utf8)
        #expect(text.hasPrefix("[Thumbnailer Entry]\n"))
        #expect(text.contains("\nExec=viewfinder thumbnail -s %s %i %o\n"))
        for type in ["video/mp4", "video/quicktime", "video/x-matroska", "video/webm"] {
            #expect(text.contains(type), "\(type)")
        }
    }

    @Test("an HDR video's thumbnail is a PNG fitted in the size, tone-mapped (ΔE00 mean ≤ 3 on the chart), whatever OUT is called")
    func hdrChart() throws {
        let video = try ColourChart.video(.hlg, in: Self.folder)
        let output = Self.folder.appendingPathComponent("hlg-thumb")  // no extension: still PNG
        let result = try viewfinder("thumbnail", "-s", "128", video.path, output.path)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(try Self.pngSize(output) == PixelSize(width: 128, height: 128))
        let e = ColourChart.error(of: try #require(try decodeImage(output)))
        #expect(e.mean <= 3 && e.max <= 8, "mean \(e.mean), max \(e.max)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).allSatisfy { !$0.hasSuffix(".partial") })
    }

    @Test("a video with an embedded cover gets that cover; one without gets its best keyframe, not a black first frame", arguments: [30, 250])
    func coverChoice(gop: Int) throws {
        // 6 s at 30 fps, fading in from black over the first second; keyframes every `gop`
        // frames (250: the only keyframe is the black first frame).
        let plain = Self.folder.appendingPathComponent("fade-\(gop).mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=6",
                                                 "-vf", "fade=in:0:30", "-c:v", "libx264", "-g", "\(gop)", "-pix_fmt", "yuv420p", plain.path])
        #expect(made.status == 0, "\(made.stderr)")
        let best = Self.folder.appendingPathComponent("best-\(gop).png")
        #expect(try viewfinder("thumbnail", plain.path, best.path).status == 0)
        let picture = try #require(try decodeImage(best))
        #expect(picture.sampledLuma > 40, "the thumbnail is dark: \(picture.sampledLuma)")
        #expect(try Self.pngSize(best) == PixelSize(width: 256, height: 144))
        // With a cover embedded at 4.5 s, that frame is the thumbnail, byte for byte the cover's pixels.
        let embedded = Self.folder.appendingPathComponent("embedded-\(gop).mp4")
        let embed = try viewfinder("cover", plain.path, "--at", "4.5", "--embed", "-o", embedded.path, "-q")
        #expect(embed.status == 0, "\(embed.stderr)")
        let thumb = Self.folder.appendingPathComponent("embedded-\(gop).png")
        #expect(try viewfinder("thumbnail", "-s", "320", embedded.path, thumb.path).status == 0)
        let cover = Self.folder.appendingPathComponent("cover-at-4.5-\(gop).png")
        #expect(try viewfinder("cover", plain.path, "--at", "4.5", "-o", cover.path).status == 0)
        let a = try #require(try decodeImage(thumb)), b = try #require(try decodeImage(cover))
        #expect(a.size == b.size)
        let mean = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, a.bytes.count)
        #expect(mean <= 3, "the thumbnail is not the embedded cover (mean difference \(mean))")
    }

    @Test("an empty OUT the caller made (as tumbler does) is filled in place, keeping its inode; a file with content is replaced whole")
    func placeholder() throws {
        let video = try ColourChart.video(.sdr, in: Self.folder)
        func inode(_ url: URL) throws -> UInt64 {
            ((try FileManager.default.attributesOfItem(atPath: url.path))[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
        }
        let empty = Self.folder.appendingPathComponent("placeholder.png")
        try Data().write(to: empty)
        let before = try inode(empty)
        #expect(try viewfinder("thumbnail", "-s", "64", video.path, empty.path).status == 0)
        #expect(try inode(empty) == before)
        #expect(try Self.pngSize(empty) != nil)
        let full = Self.folder.appendingPathComponent("full.png")
        try Data("old".utf8).write(to: full)
        let old = try inode(full)
        #expect(try viewfinder("thumbnail", "-s", "64", video.path, full.path).status == 0)
        #expect(try inode(full) != old)
        #expect(try Self.pngSize(full) != nil)
    }

    @Test("through a real thumbnailing service: tumblerd, asked over D-Bus, runs the installed entry and caches our picture (the best keyframe, not its own GStreamer one)")
    func tumbler() throws {
        let tumblerd = "/usr/lib/x86_64-linux-gnu/tumbler-1/tumblerd"
        try #require(FileManager.default.isExecutableFile(atPath: tumblerd), "tumblerd is missing (apt-get install tumbler; scripts/install-deps does)")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"), "dbus-daemon is missing (apt-get install dbus-daemon)")
        let folder = TestPaths.scratchFolder("tumbler")
        // Fading in from black, one keyframe a second: the first frame is black, ours is not.
        let video = folder.appendingPathComponent("fade.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4",
                                                 "-vf", "fade=in:0:30", "-c:v", "libx264", "-g", "30", "-pix_fmt", "yuv420p", video.path])
        try #require(made.status == 0, "\(made.stderr)")
        let share = folder.appendingPathComponent("share/thumbnailers")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        let entry = try String(contentsOf: TestPaths.repository.appendingPathComponent("data/viewfinder.thumbnailer"), encoding: .utf8)
            .replacingOccurrences(of: "TryExec=viewfinder", with: "TryExec=\(TestPaths.tool.path)")
            .replacingOccurrences(of: "Exec=viewfinder ", with: "Exec=\(TestPaths.tool.path) ")
        try entry.write(to: share.appendingPathComponent("viewfinder.thumbnailer"), atomically: true, encoding: .utf8)
        let uri = video.absoluteString
        let shell = """
        set -u
        export XDG_DATA_HOME=\(folder.path)/share XDG_DATA_DIRS=/usr/share XDG_CACHE_HOME=\(folder.path)/cache XDG_CONFIG_HOME=\(folder.path)/config
        \(PrivateBus.start(socket: folder.path + "/bus"))
        # GStreamer's plugin registry (under this fresh XDG_CACHE_HOME) is made first: left to
        # tumblerd, which scans before it takes its names, it took 43 s beside four busy loops
        # (0.3 s idle); made by gst-inspect first, tumblerd took 3 s there.
        gst-inspect-1.0 >/dev/null 2>&1
        \(tumblerd) </dev/null > \(folder.path)/tumblerd.log 2>&1 &
        daemon=$!
        trap 'kill -KILL $daemon $BUS_PID 2>/dev/null' EXIT
        # First its name, waited for without a call to it: a call to a name nobody owns yet makes
        # the bus start a second tumblerd from Debian's activation file, and of the two, ours
        # (with the entry under test) lost the names and exited (seen beside a loaded test run).
        gdbus wait --session --timeout 30 org.freedesktop.thumbnails.Thumbnailer1 \\
            || { echo "tumblerd took no name: $(cat \(folder.path)/tumblerd.log)" >&2; exit 1; }
        # Ready when its object answers with the Queue method (it owns its name a moment before:
        # a call then, under load, went out untyped and was refused as "(asasssi)").
        for _ in $(seq 300); do
            gdbus introspect --session --dest org.freedesktop.thumbnails.Thumbnailer1 --object-path /org/freedesktop/thumbnails/Thumbnailer1 \\
                2>/dev/null | grep -q ' Queue(' && break
            kill -0 $daemon 2>/dev/null || { echo "tumblerd exited" >&2; exit 1; }
            sleep 0.1
        done
        # Every argument typed, so the call never depends on gdbus's own look at the object.
        # tumblerd answers its first request only after GStreamer has scanned its plugins, which
        # on a loaded machine outlasts gdbus's 25 s default wait for a reply.
        gdbus call --session --timeout 100 --dest org.freedesktop.thumbnails.Thumbnailer1 --object-path /org/freedesktop/thumbnails/Thumbnailer1 \\
            --method org.freedesktop.thumbnails.Thumbnailer1.Queue "['\(uri)']" "['video/mp4']" "'normal'" "'default'" "uint32 0" >/dev/null || exit 1
        thumb=$XDG_CACHE_HOME/thumbnails/normal/$(printf '%s' '\(uri)' | md5sum | cut -d' ' -f1).png
        for _ in $(seq 600); do [ -s "$thumb" ] && break; sleep 0.1; done
        echo "$thumb"
        """
        let result = try Subprocess.run("bash", ["-c", shell], timeout: 240)
        let cached = URL(fileURLWithPath: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        try #require(result.status == 0 && FileManager.default.fileExists(atPath: cached.path),
                     "tumblerd wrote no thumbnail: \(result.stderr) \((try? String(contentsOf: folder.appendingPathComponent("tumblerd.log"), encoding: .utf8)) ?? "")")
        // The same picture our command makes at the normal size (128), pixel for pixel.
        let ours = folder.appendingPathComponent("ours.png")
        #expect(try viewfinder("thumbnail", "-s", "128", video.path, ours.path).status == 0)
        let a = try #require(try decodeImage(cached)), b = try #require(try decodeImage(ours))
        #expect(a.size == b.size, "\(a.size) vs \(b.size)")
        #expect(a.sampledLuma > 40, "the cached thumbnail is dark: \(a.sampledLuma)")
        if a.size == b.size, a.bytes.count == b.bytes.count {
            let differing = zip(a.bytes, b.bytes).filter { abs(Int($0) - Int($1)) > 1 }.count
            #expect(differing == 0, "\(differing) bytes differ from our thumbnail")
        }
    }

    @Test("bad input is one line and exit 1, and nothing is written", arguments: ["broken/truncated_no_moov_streamio.mp4", "images/png_truncated.png"])
    func badInput(_ name: String) throws {
        let output = Self.folder.appendingPathComponent("bad-\(UUID().uuidString.prefix(6)).png")
        let result = try viewfinder("thumbnail", TestPaths.media.appendingPathComponent(name).path, output.path)
        #expect(result.status == 1, "\(result.status)")
        #expect(result.stderr.hasPrefix("viewfinder: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
