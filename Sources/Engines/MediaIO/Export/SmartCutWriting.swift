internal import CFFmpeg
import Foundation
import ViewfinderCore

/// The encoders of a smart cut. Copying, each re-encoded stretch gets an encoder of its own,
/// matched to the source: for H.264 naming its parameter sets with an id the source does not
/// use, the one sample description (`track`) listing both; for HEVC carrying them in band.
/// Not copying, one ordinary H.264 encoder takes every range in turn.
package final class EncoderLanes {
    package private(set) var track: SmartTrack?
    /// The first encoder (handed to the first stretch when copying; the only one otherwise).
    package let shared: VideoEncoder
    /// Why the source cannot be matched, when it cannot.
    package private(set) var unavailable: String?
    private let make: () throws(MediaIOError) -> VideoEncoder
    private var sharedTaken = false

    /// `reorderDepth`: how far the copied stretches decode ahead of showing (see
    /// `DecodeTimeline`), which the re-encoded H.264 stretches match.
    package init(session: ExportSession, track source: SmartTrack?, output: MP4Output, reorderDepth: Int = 0) throws(MediaIOError) {
        let video = session.video
        let par = video.parameters
        let coded = PixelSize(width: Int(par.width), height: Int(par.height))
        let rate = video.encodingFrameRate
        let path = session.output.path
        let colour = VideoEncoder.Colour.exactly(range: par.color_range, space: par.color_space,
                                                  primaries: par.color_primaries, transfer: par.color_trc)
        guard let source else {
            let size = ExportPreset.encodedSize(for: coded, box: session.plan.box)
            let quality = session.plan.quality
            let global = output.needsGlobalHeader
            make = { () throws(MediaIOError) in
                try VideoEncoder(size: size, timeBase: video.pointee.time_base, frameRate: rate,
                                 quality: quality, globalHeader: global, path: path, colour: colour)
            }
            shared = try make()
            return
        }
        var unavailable: String?
        let format = AVPixelFormat(rawValue: par.format)
        let formatName = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
        let sar = par.sample_aspect_ratio.num > 0 ? par.sample_aspect_ratio : AVRational(num: 0, den: 1)
        var match: VideoEncoder.Match
        switch source {
        case .avc(let config):
            if format != AV_PIX_FMT_YUV420P && format != AV_PIX_FMT_YUVJ420P {
                unavailable = tr("its {format} pictures are not 8-bit 4:2:0", ["format": formatName])
            }
            let profiles: [Int32: String] = [66: "baseline", 66 | 512: "baseline", 77: "main", 100: "high"]
            let profile = profiles[par.profile]
            if profile == nil { unavailable = unavailable ?? tr("its H.264 profile ({profile}) is not Baseline, Main or High", ["profile": par.profile]) }
            let id = (0..<32).first { !config.usedIDs.contains($0) }
            if id == nil { unavailable = unavailable ?? tr("its parameter sets use every id") }
            match = VideoEncoder.Match(
                pixelFormat: format == AV_PIX_FMT_YUVJ420P ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P,
                sampleAspectRatio: sar, profile: profile ?? "high", level: par.level, parameterSetID: id ?? 31)
        case .hevc:
            // Main is 8-bit 4:2:0, Main 10 10-bit 4:2:0: the two profiles phones record.
            let profiles: [Int32: (name: String, format: AVPixelFormat)] = [
                1: ("main", AV_PIX_FMT_YUV420P), 2: ("main10", AV_PIX_FMT_YUV420P10LE)]
            let profile = profiles[par.profile]
            if profile == nil {
                unavailable = tr("its HEVC profile ({profile}) is not Main or Main 10", ["profile": par.profile])
            } else if profile?.format != format {
                unavailable = tr("its {format} pictures do not fit its HEVC profile", ["format": formatName])
            }
            match = VideoEncoder.Match(codec: .hevc, pixelFormat: profile?.format ?? AV_PIX_FMT_YUV420P, sampleAspectRatio: sar,
                                       profile: profile?.name ?? "main", level: par.level, parameterSetID: 0)
        }
        // H.264: B-frames shaped like the source's (x264's pyramid reorders by two, one B-frame
        // by one, none by none), so the re-encoded pictures reorder no deeper than the copied
        // ones and one decode timeline serves both. openh264 needs the shape: where a stream
        // whose B-frames are references (a pyramid) meets an IDR of one without, it drops or
        // misorders the pictures still waiting to be shown, even with every SPS value matched.
        // HEVC: no B-frames (decode order is presentation order).
        var quality = session.plan.quality
        if case .avc = source {
            quality.bFrames = reorderDepth >= 2 ? 3 : Int32(max(0, reorderDepth))
        } else {
            quality.bFrames = 0
        }
        // The re-encoded SPS is to claim the source's picture buffer and reference frames (see
        // `AVCConfiguration.matchingBuffer`): x264 is given the source's number of references.
        if case .avc(let config) = source, let model = config.bufferModel {
            match.referenceFrames = max(1, model.maxNumReferenceFrames)
        }
        let global = match.codec == .h264
        let matched = match
        make = { () throws(MediaIOError) in
            try VideoEncoder(size: coded, timeBase: video.pointee.time_base, frameRate: rate, quality: quality,
                             globalHeader: global, path: path, colour: colour, match: matched)
        }
        if unavailable != nil {
            // Say why without opening an encoder that cannot be matched.
            shared = try VideoEncoder(size: coded, timeBase: video.pointee.time_base, frameRate: rate,
                                      quality: quality, globalHeader: true, path: path, colour: colour)
            self.unavailable = unavailable
            return
        }
        shared = try make()
        if case .avc(var config) = source {
            let units = config.matchingBuffer(shared.headerUnits)
            if !config.add(sequence: units.filter { $0[0] & 0x1F == 7 }, picture: units.filter { $0[0] & 0x1F == 8 }) {
                unavailable = tr("the re-encoded parameter sets do not fit beside the source's")
            }
            track = .avc(config)
        } else {
            track = source
        }
        self.unavailable = unavailable
    }

    /// The encoder for the next re-encoded stretch.
    package func lane() throws(MediaIOError) -> VideoEncoder {
        guard let track else { return shared }
        if !sharedTaken {
            sharedTaken = true
            return shared
        }
        let encoder = try make()
        if case .avc = track, encoder.headerUnits != shared.headerUnits {
            throw .encodeFailed(path: encoder.name, detail: tr("a second encoder wrote other parameter sets"))
        }
        return encoder
    }

    /// Whether each stretch owns (and flushes) its encoder.
    package var perStretch: Bool { track != nil }

    /// An encoder's packet as the track stores it, and the parameter sets it carried (HEVC's,
    /// for the stretch's sample description).
    func sample(_ packet: OwnedPacket) -> (packet: OwnedPacket, parameterSets: [[UInt8]])? {
        guard let track else { return (packet, []) }
        let p = packet.pointer.pointee
        guard let data = p.data, let made = track.sample(fromAnnexB: UnsafeBufferPointer(start: data, count: Int(p.size))),
              !made.sample.isEmpty, let stored = packet.replacingData(with: made.sample) else { return nil }
        return (stored, made.parameterSets)
    }

    /// A copied packet as the track stores it (HEVC's parameter sets the sample description
    /// holds go; a CRA that `startsStretch` becomes a BLA; an H.264 open GOP's I that does
    /// becomes an IDR, and the pictures after it are renumbered up to the next IDR), and
    /// whether it keeps parameter sets of its own; nil when out of memory, or when a picture
    /// after an open GOP's I cannot be renumbered (`renumberingFailed`).
    package func copied(_ packet: OwnedPacket, startsStretch: Bool) -> (packet: OwnedPacket, ownParameterSets: Bool)? {
        let p = packet.pointer.pointee
        guard let track, let data = p.data else { return (packet, false) }
        let bytes = UnsafeBufferPointer(start: data, count: Int(p.size))
        if case .avc(let config) = track {
            if startsStretch {
                openGOP = AVCConfiguration.startsAtIDR(bytes, lengthSize: config.lengthSize) ? nil : config.openGOPRewriter
            }
            guard openGOP != nil else { return (packet, false) }
            guard let made = openGOP?.rewrite(Array(bytes)) else {
                renumberingFailed = true
                return nil
            }
            return packet.replacingData(with: made).map { ($0, false) }
        }
        let own = track.carriesOwnParameterSets(bytes)
        guard let changed = track.copiedSample(bytes, startsStretch: startsStretch) else { return (packet, own) }
        return packet.replacingData(with: changed).map { ($0, own) }
    }

    /// The renumbering of the copied stretch under way, when it started at an open GOP's I.
    private var openGOP: H264OpenGOPRewriter?
    /// A copied picture after an open GOP's I could not be renumbered: the cut is to be redone.
    package private(set) var renumberingFailed = false
}

/// One re-encoded stretch: a decoder of its own, fed from a keyframe before the stretch, whose
/// frames shown in `[first, end)` go to the encoder `offset` ticks later.
package final class ReencodedStretch {
    package let first: Int64
    package let end: Int64
    package let expected: Int
    package private(set) var encoded = 0
    package private(set) var finished = false
    private let decoder: VideoDecoder
    /// The encoder, left unflushed for the next range when `flushes` is false.
    package let encoder: VideoEncoder
    private let offset: Int64
    private let flushes: Bool
    private let path: String
    private var errors = 0

    package init(session: ExportSession, lane encoder: VideoEncoder, first: Int64, end: Int64, offset: Int64, expected: Int,
         flushes: Bool) throws(MediaIOError) {
        decoder = try VideoDecoder(stream: session.video, path: session.path, threads: 0)
        self.encoder = encoder
        self.first = first
        self.end = end
        self.offset = offset
        self.expected = expected
        self.flushes = flushes
        path = session.path
        if expected == 0 { finished = true }
    }

    /// Decodes a packet (nil = no more) and returns the encoder's packets that became ready.
    package func feed(_ packet: OwnedPacket?) throws(MediaIOError) -> [OwnedPacket] {
        guard !finished else { return [] }
        let frames = try decoder.decode(packet, errors: &errors)
        if errors > 16 { throw .corrupt(path: path, detail: tr("the video cannot be decoded")) }
        var out: [OwnedPacket] = []
        for frame in frames {
            guard let pts = frame.pts, pts >= first, pts < end, encoded < expected else { continue }
            out += try encoder.encode(frame, pts: pts + offset)
            encoded += 1
        }
        if packet == nil && !finished {
            for frame in try decoder.decode(nil, errors: &errors) {
                guard let pts = frame.pts, pts >= first, pts < end, encoded < expected else { continue }
                out += try encoder.encode(frame, pts: pts + offset)
                encoded += 1
            }
        }
        if encoded == expected || packet == nil {
            finished = true
            if flushes { out += try encoder.flush() }
        }
        return out
    }
}

/// Writes a smart cut's video in order, keeping decode times rising across joins (its audio is
/// `SmartAudio`'s). A
/// packet that cannot be placed records the `problem` (the cut is then redone by re-encoding).
package final class SmartWriter {
    private let session: ExportSession
    private let out: MP4Output
    private let video: UnsafeMutablePointer<AVStream>
    /// Where each video sample is decoded when copying (nil: the encoder's own decode times).
    private let timeline: DecodeTimeline?
    private var lastVideoDTS = Int64.min
    package private(set) var videoPackets = 0
    /// The parameter sets of each re-encoding encoder family, in the order they came, and
    /// the family of each video sample (0 for a copied one, n for the n-th family).
    package private(set) var families: [[[UInt8]]] = []
    package private(set) var familyOfSample: [UInt32] = []
    private var encodingFamily: Int?
    /// Whether a copied sample kept parameter sets of its own.
    package private(set) var copiesCarryParameterSets = false
    /// Whether a re-encoded sample came before any parameter sets of its encoder.
    package private(set) var encodedWithoutParameterSets = false
    package private(set) var problem: String?

    package init(session: ExportSession, out: MP4Output, video: SmartOutputTrack, timeline: DecodeTimeline?) {
        self.session = session
        self.out = out
        self.video = video.stream
        self.timeline = timeline
    }

    /// A copied packet, `shift` ticks later; `ownParameterSets`: it keeps parameter sets of its own.
    package func writeCopy(_ packet: OwnedPacket, shift: Int64, ownParameterSets: Bool = false) throws(MediaIOError) {
        guard problem == nil, let pts = packet.pts else { return }
        packet.pointer.pointee.pts = pts + shift
        guard stampDecodeTime(packet) else { return }
        copiesCarryParameterSets = copiesCarryParameterSets || ownParameterSets
        familyOfSample.append(0)
        try writeVideo(packet)
    }

    /// Records why the cut cannot be written as planned (it is then redone by re-encoding).
    package func fail(_ reason: String) {
        if problem == nil { problem = reason }
    }

    /// Encoder packets (already at output time).
    package func writeEncoded(_ packets: [OwnedPacket], lanes: EncoderLanes) throws(MediaIOError) {
        for packet in packets where problem == nil {
            guard let (sample, sets) = lanes.sample(packet) else {
                problem = tr("an encoded picture could not be stored")
                return
            }
            guard stampDecodeTime(sample) else { return }
            if !sets.isEmpty {
                encodingFamily = families.firstIndex(of: sets) ?? families.count
                if encodingFamily == families.count { families.append(sets) }
            }
            if encodingFamily == nil { encodedWithoutParameterSets = true }
            familyOfSample.append(UInt32((encodingFamily ?? -1) + 1))
            try writeVideo(sample)
        }
    }

    /// Gives the next video sample its place on the decode timeline (when copying); false,
    /// with the `problem` recorded, when it would be decoded after it is shown or not after
    /// the sample before it.
    private func stampDecodeTime(_ packet: OwnedPacket) -> Bool {
        guard let timeline else { return true }
        let dts = timeline.decodeTime(ofSample: videoPackets)
        guard let pts = packet.pts, dts <= pts, dts > lastVideoDTS else {
            problem = tr("a picture's decode time would follow its presentation")
            return false
        }
        packet.pointer.pointee.dts = dts
        return true
    }

    private func writeVideo(_ packet: OwnedPacket) throws(MediaIOError) {
        let p = packet.pointer
        lastVideoDTS = p.pointee.dts
        session.report(written: session.mapping.time(ofTimestamp: session.mapping.origin + p.pointee.pts))
        av_packet_rescale_ts(p, session.video.pointee.time_base, video.pointee.time_base)
        p.pointee.stream_index = video.pointee.index
        p.pointee.pos = -1
        try out.write(packet)
        videoPackets += 1
    }
}
