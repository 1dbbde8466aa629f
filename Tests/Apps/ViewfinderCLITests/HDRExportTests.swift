import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// HDR video through `convert`: re-encodes stay HDR (10-bit HEVC, tags, HDR10 metadata in the
/// container and the bitstream), `--sdr` makes an SDR copy a player shows right, and the
/// corpus's Dolby Vision clip converts with every preset. Checked with ffprobe and FFmpeg's
/// `trace_headers`, and colours with the ffmpeg CLI's decode.
@Suite("HDR exports")
struct HDRExportTests {
    static let folder = TestPaths.scratchFolder("hdr-export")
    static let mastering = ":hdr10=1:max-cll=1000,400:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(40000000,50)"

    /// ffprobe's description of the first video stream, and its side data by type.
    static func stream(_ url: URL) throws -> (fields: [String: Any], sideData: [String: [String: Any]]) {
        let streams = try FFprobe.description(of: url)["streams"] as? [[String: Any]] ?? []
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        let side = (video["side_data_list"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["side_data_type"] as? String ?? "?"] = $1
        }
        return (video, side)
    }

    @Test("an HDR re-encode is 10-bit HEVC with the source's tags, and PQ keeps its HDR10 metadata in the container and the bitstream",
          arguments: [ColourChart.VideoKind.hlg, .pq])
    func staysHDR(_ kind: ColourChart.VideoKind) throws {
        let input = kind == .pq ? try ColourChart.video(.pq, in: Self.folder, name: "chart-pq-mastered", x265: Self.mastering)
                                : try ColourChart.video(.hlg, in: Self.folder)
        let output = Self.folder.appendingPathComponent("hdr-\(kind).mp4")
        let result = try viewfinder("convert", input.path, "--preset", "highest", "-o", output.path, "--quiet", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(jsonObject(result)?["method"] as? String == "libx265")
        let (out, side) = try Self.stream(output)
        #expect(out["codec_name"] as? String == "hevc" && out["profile"] as? String == "Main 10"
                && out["pix_fmt"] as? String == "yuv420p10le", "\(out)")
        // 'hvc1' (Apple's players refuse 'hev1'): every parameter set in the sample description.
        #expect(out["codec_tag_string"] as? String == "hvc1", "\(out["codec_tag_string"] ?? "-")")
        let sampleUnits = try FFmpegOracle.videoSamples(of: output).compactMap(NALUnits.hevcTypes)
        #expect(!sampleUnits.isEmpty && sampleUnits.allSatisfy { $0.allSatisfy { !(32...34).contains($0) } })
        let (source, _) = try Self.stream(input)
        for key in ["color_transfer", "color_primaries", "color_space", "color_range"] {
            #expect("\(out[key] ?? "-")" == "\(source[key] ?? "-")", "\(kind): \(key)")
        }
        let bitstream = try FFmpegOracle.bitstreamHeaders(of: output)
        #expect(Set(bitstream.sequenceColours) == [kind == .pq ? "9/16/9" : "9/18/9"], "\(bitstream.sequenceColours)")
        if kind == .pq {
            let display = try #require(side["Mastering display metadata"], "\(side.keys)")
            #expect(display["max_luminance"] as? String == "40000000/10000" && display["min_luminance"] as? String == "50/10000")
            #expect(display["red_x"] as? String == "34000/50000" && display["white_point_y"] as? String == "16450/50000")
            #expect(side["Content light level metadata"]?["max_content"] as? Int == 1000)
            #expect(bitstream.seiMessages == ["Mastering Display Colour Volume", "Content Light Level Information"])
        } else {
            #expect(side["Mastering display metadata"] == nil && bitstream.seiMessages.isEmpty)
        }
        // The HDR survives: the output's cover, tone-mapped as any HDR cover, shows the chart.
        let cover = Self.folder.appendingPathComponent("hdr-\(kind)-cover.png")
        #expect(try viewfinder("cover", output.path, "--at", "0", "-o", cover.path).status == 0)
        let e = ColourChart.error(of: try #require(try decodeImage(cover)))
        #expect(e.mean <= 3 && e.max <= 8, "\(kind) re-encoded: mean \(e.mean), max \(e.max)")
    }

    @Test("--sdr makes 8-bit BT.709 H.264 that a player shows within ΔE00 mean 3, max 8 of the chart", arguments: [ColourChart.VideoKind.hlg, .pq])
    func sdrCopy(_ kind: ColourChart.VideoKind) throws {
        let input = try ColourChart.video(kind, in: Self.folder)
        let output = Self.folder.appendingPathComponent("sdr-\(kind).mp4")
        let result = try viewfinder("convert", input.path, "--sdr", "-o", output.path, "--quiet", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(jsonObject(result)?["method"] as? String == "libx264")
        let (out, _) = try Self.stream(output)
        #expect(out["codec_name"] as? String == "h264" && out["pix_fmt"] as? String == "yuv420p", "\(out)")
        #expect(out["color_transfer"] as? String == "bt709" && out["color_primaries"] as? String == "bt709"
                && out["color_space"] as? String == "bt709" && out["color_range"] as? String == "tv", "\(out)")
        #expect(Set(try FFmpegOracle.bitstreamHeaders(of: output).sequenceColours) == ["1/1/1"])
        let e = ColourChart.error(of: try ColourCommandTests.firstFrame(output, size: ColourChart.size))
        #expect(e.mean <= 3 && e.max <= 8, "\(kind) made SDR: mean \(e.mean), max \(e.max)")
        // Without --sdr the same file stays HDR: the measure tells the two apart.
        let kept = Self.folder.appendingPathComponent("kept-\(kind).mp4")
        let keep = try viewfinder("convert", input.path, "--preset", "highest", "-o", kept.path, "--quiet")
        #expect(keep.status == 0, "\(keep.stderr)")
        let untouched = ColourChart.error(of: try ColourCommandTests.firstFrame(kept, size: ColourChart.size))
        #expect(untouched.mean > 6, "\(kind) HDR read as SDR: mean \(untouched.mean)")
    }

    @Test("--sdr leaves SDR video alone, and refuses to pass HDR through")
    func sdrChoices() throws {
        let sdr = try ColourChart.video(.sdr, in: Self.folder)
        let copy = Self.folder.appendingPathComponent("sdr-passthrough.mp4")
        let result = try viewfinder("convert", sdr.path, "--sdr", "-o", copy.path, "--quiet", "--json")
        #expect(result.status == 0 && jsonObject(result)?["method"] as? String == "passthrough", "\(result.stderr)")
        let hdr = try ColourChart.video(.hlg, in: Self.folder)
        let refused = Self.folder.appendingPathComponent("refused.mp4")
        let failed = try viewfinder("convert", hdr.path, "--sdr", "--preset", "passthrough", "-o", refused.path)
        #expect(failed.status == 1 && failed.stderr.contains("making its HDR video SDR re-encodes it"), "\(failed.stderr)")
        #expect(failed.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: refused.path))
    }

    @Test("the Dolby Vision iPhone clip converts with every preset: all its frames, decodable, a note on what was kept",
          arguments: ["auto", "passthrough", "highest", "medium", "low"])
    func dolbyVisionClip(_ preset: String) throws {
        let input = TestPaths.media.appendingPathComponent("phone_video/iphone14pro_hevc_main10_dolbyvision_rot90.MOV")
        let output = Self.folder.appendingPathComponent("dv-\(preset).mp4")
        let result = try viewfinder("convert", input.path, "--preset", preset, "-o", output.path, "--quiet", "--json")
        #expect(result.status == 0, "\(preset): \(result.stderr)")
        let json = try #require(jsonObject(result))
        let expected = try FFmpegOracle.packetHashes(of: input).count
        #expect(try FFmpegOracle.decodeErrors(of: output) == "", "\(preset)")
        let frames = try FFmpegOracle.frameEntries(of: output, select: "v:0", entries: "frame=pts").count
        // The source holds one picture past its edit list's end: the four shown frames remain.
        #expect(frames == expected - 1 && json["frames"] as? Int == frames, "\(preset): \(frames) of \(expected)")
        let (out, side) = try Self.stream(output)
        #expect(out["color_transfer"] as? String == "arib-std-b67", "\(preset)")
        if ["auto", "passthrough"].contains(preset) {
            // A copy keeps the Dolby Vision configuration beside the stretches it copies.
            #expect(json["note"] as? String != nil, "\(preset): a note says why frames were re-encoded")
        } else {
            #expect(side["DOVI configuration record"] == nil, "\(preset): no Dolby Vision claim over re-encoded pictures")
            #expect((json["note"] as? String)?.contains("Dolby Vision 8.4 is not re-encoded") == true, "\(json)")
            #expect(out["pix_fmt"] as? String == "yuv420p10le")
        }
    }

    @Test("the corpus's HDR phone clips go through convert (HDR and --sdr), trim and thumbnail: each output decodes cleanly",
          arguments: ColourCommandTests.phoneHDR)
    func phoneClipsThroughEveryCommand(_ name: String) throws {
        let input = TestPaths.media.appendingPathComponent("phone_video/\(name)")
        let runs: [(String, [String])] = [
            ("medium.mp4", ["convert", input.path, "--preset", "medium", "--quiet"]),
            ("sdr.mp4", ["convert", input.path, "--sdr", "--quiet"]),
            ("trim.mp4", ["trim", input.path, "--from", "0.05", "--quiet"]),
            ("thumb.png", ["thumbnail", "-s", "128", input.path]),
        ]
        for (suffix, arguments) in runs {
            let output = Self.folder.appendingPathComponent("\(name)-\(suffix)")
            let result = try viewfinder(suffix == "thumb.png" ? arguments + [output.path] : arguments + ["-o", output.path])
            #expect(result.status == 0, "\(name) \(arguments[0]): \(result.stderr)")
            #expect(try FFmpegOracle.decodeErrors(of: output) == "", "\(name) \(suffix)")
        }
        let (sdr, _) = try Self.stream(Self.folder.appendingPathComponent("\(name)-sdr.mp4"))
        #expect(sdr["color_transfer"] as? String == "bt709")
        let (medium, _) = try Self.stream(Self.folder.appendingPathComponent("\(name)-medium.mp4"))
        #expect(medium["color_transfer"] as? String == "arib-std-b67" && medium["pix_fmt"] as? String == "yuv420p10le")
    }
}
