import Foundation
@testable import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

/// HDR frames become the SDR pictures a person saw: a chart of known colours carried into HLG
/// and PQ by ffmpeg's zscale comes back out of every still path within CIEDE2000 bounds.
@Suite("Tone mapping")
struct ToneMappingTests {
    static let folder = TestPaths.scratchFolder("tone-mapping")

    @Test("an HDR chart's cover is within ΔE00 mean 3, max 8 of the chart", arguments: [ColourChart.VideoKind.hlg, .pq])
    func chartCover(_ kind: ColourChart.VideoKind) throws {
        let video = try ColourChart.video(kind, in: Self.folder)
        let reader = try FrameReader(url: video)
        #expect(reader.video.colour.dynamicRange == (kind == .hlg ? .hlg : .pq))
        let exact = try reader.frame(at: .time(.zero), mode: .exact)
        let e = ColourChart.error(of: exact.image)
        #expect(e.mean <= 3 && e.max <= 8, "\(kind) exact: mean \(e.mean), max \(e.max)")
        // The strip's path: fast frames, decoded on other workers, scaled down.
        let fast = try reader.frame(at: .time(.zero), mode: .fast, size: .height(96))
        let f = ColourChart.error(of: fast.image)
        #expect(f.mean <= 3 && f.max <= 8, "\(kind) fast: mean \(f.mean), max \(f.max)")
    }

    @Test("the coded values taken as SDR are far off: the measure sees the difference", arguments: [ColourChart.VideoKind.hlg, .pq])
    func untouchedIsWashedOut(_ kind: ColourChart.VideoKind) throws {
        let reader = try FrameReader(url: ColourChart.video(kind, in: Self.folder))
        reader.hdr = .none
        let e = ColourChart.error(of: try reader.frame(at: .time(.zero)).image)
        #expect(e.mean > 8, "\(kind) untouched: mean \(e.mean)")
    }

    @Test("an SDR chart stays as it was (the HDR path leaves it alone)")
    func sdrChart() throws {
        let reader = try FrameReader(url: ColourChart.video(.sdr, in: Self.folder))
        #expect(reader.video.colour.dynamicRange == nil)
        let e = ColourChart.error(of: try reader.frame(at: .time(.zero)).image)
        #expect(e.mean <= 1.5, "sdr: mean \(e.mean), max \(e.max)")
    }

    @Test("clip keeps reference white and below as they are, and cuts the highlights")
    func clipMode() throws {
        let reader = try FrameReader(url: ColourChart.video(.pq, in: Self.folder))
        reader.hdr = .clip
        let e = ColourChart.error(of: try reader.frame(at: .time(.zero)).image)
        #expect(e.mean <= 1.5, "pq clip: mean \(e.mean), max \(e.max)")
    }

    @Test("HDR10 metadata is read, and a peak at reference white leaves the chart exact")
    func masteringMetadata() throws {
        // MaxCLL 203: nothing in the content is brighter than reference white, so no compression.
        let video = try ColourChart.video(.pq, in: Self.folder, name: "chart-pq-cll203",
                                          x265: ":hdr10=1:max-cll=203,100:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)")
        let reader = try FrameReader(url: video)
        let m = try #require(reader.video.colour.mastering)
        #expect(m.maxContentLight == 203 && m.maxFrameAverageLight == 100)
        #expect(m.masteringPeak == 1000 && m.masteringBlack == 0.005)
        let e = ColourChart.error(of: try reader.frame(at: .time(.zero)).image)
        #expect(e.mean <= 1, "pq with MaxCLL 203: mean \(e.mean), max \(e.max)")
    }

    // MARK: - The maths

    @Test("BT.2390's EETF: unchanged below the knee, monotonic, the peak lands on reference white")
    func eetf() {
        let peak = 1000.0
        #expect(ToneMapper.eetf(50, sourcePeak: peak) == 50)
        #expect(abs(ToneMapper.eetf(peak, sourcePeak: peak) - ToneMapper.referenceWhite) < 0.01)
        var last = 0.0
        for nits in stride(from: 1.0, through: peak, by: 1) {
            let out = ToneMapper.eetf(nits, sourcePeak: peak)
            #expect(out >= last && out <= ToneMapper.referenceWhite + 0.01, "at \(nits) nits: \(out)")
            last = out
        }
        // Content no brighter than the target is left alone.
        #expect(ToneMapper.eetf(150, sourcePeak: 180) == 150)
    }

    @Test("PQ: 100 nits and back, and its published anchor (signal 0.5081 is 100 nits)")
    func pqCurve() {
        #expect(abs(PQ.decode(PQ.encode(100)) - 100) < 1e-6)
        #expect(abs(PQ.encode(100) - 0.5081) < 0.0001)
        #expect(abs(PQ.decode(1) - 10_000) < 1e-6)
    }

    @Test("HLG's 75 % signal on a 1000-nit display is BT.2408's 203-nit reference white")
    func hlgReferenceWhite() {
        let scene = HLG.decode(0.75)
        let display = ToneMapper.hlgDisplayPeak * pow(scene, 1.2)
        #expect(abs(display - 203) < 1)
    }

    @Test("BT.2020 to BT.709 matches BT.2087's matrix, and white stays white")
    func primaries() {
        let m = ColourPrimaries.bt709.fromXYZ * ColourPrimaries.bt2020.toXYZ
        let published: [Float] = [1.6605, -0.5876, -0.0728, -0.1246, 1.1329, -0.0083, -0.0182, -0.1006, 1.1187]
        for (got, want) in zip([m.a, m.b, m.c, m.d, m.e, m.f, m.g, m.h, m.i], published) {
            #expect(abs(got - want) < 0.0005, "\(got) against \(want)")
        }
        #expect(abs(m.a + m.b + m.c - 1) < 1e-5 && abs(m.d + m.e + m.f - 1) < 1e-5 && abs(m.g + m.h + m.i - 1) < 1e-5)
    }
}

@Suite("MediaIO errors read well")
struct MediaIOErrorTextTests {
    @Test("localizedDescription is the error's own sentence")
    func localized() throws {
        do {
            _ = try FrameReader(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
            Issue.record("a missing file opened")
        } catch {
            #expect((error as Error).localizedDescription == error.description)
            #expect(error.description.contains("clip.mp4"))
        }
    }
}
