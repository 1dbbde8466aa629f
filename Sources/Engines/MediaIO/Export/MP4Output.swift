internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An MP4 (or, named `.mov`/`.qt`, QuickTime) file being written: owns the muxer, writes to a
/// hidden file beside the destination and renames it into place only in `finish()`. Dropped
/// unfinished, it deletes what it wrote.
package final class MP4Output {
    /// FFmpeg's muxer for a destination: QuickTime's for `.mov` and `.qt` (brand `qt  `), so a
    /// file is what its name says; MP4's otherwise.
    static func muxer(for url: URL) -> String {
        ["mov", "qt"].contains(url.pathExtension.lowercased()) ? "mov" : "mp4"
    }

    /// Whether a cover picture can be embedded in a file with this name: FFmpeg 5.1's QuickTime
    /// writer drops attached pictures, so only MP4 holds one.
    static func holdsCover(_ url: URL) -> Bool { muxer(for: url) == "mp4" }

    let destination: URL
    let temporary: URL
    let context: UnsafeMutablePointer<AVFormatContext>
    private let fastStart: Bool
    /// Whether `finish` edits the movie box the muxer wrote (and so moves it to the front
    /// itself: FFmpeg's `faststart` pass would move the box before the edit).
    private let editsMovie: Bool
    /// Cover art: its stream is added in `start()`, after every other stream, and its picture
    /// written in `finish()`, so it may still be in the making while packets are copied.
    private let cover: CoverAttachment?
    private var coverStream: UnsafeMutablePointer<AVStream>?
    private var started = false
    private var finished = false
    /// The parameter sets of each 'hvc1' stream fed by an encoder, which its packets must not repeat.
    private var configurationSets: [Int32: [[UInt8]]] = [:]

    init(url: URL, fastStart: Bool, cover: CoverAttachment? = nil, editsMovie: Bool = false) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        destination = url
        temporary = AtomicFile.temporaryURL(beside: url)
        self.fastStart = fastStart
        self.editsMovie = editsMovie
        self.cover = cover
        if cover != nil, !Self.holdsCover(url) {
            throw .encodeFailed(path: url.path, detail: tr("a cover can be embedded in an MP4 only (.mp4 or .m4v): QuickTime files written here cannot hold one"))
        }
        let muxer = Self.muxer(for: url)
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&ctx, nil, muxer, temporary.path) >= 0, let ctx else {
            throw .encodeFailed(path: url.path, detail: tr("no {muxer} muxer in this FFmpeg build", ["muxer": muxer]))
        }
        context = ctx
    }

    deinit {
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
        if !finished { try? FileManager.default.removeItem(at: temporary) }
    }

    /// Whether streams from encoders must carry their headers out of band.
    var needsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    /// A stream that receives `input`'s packets unchanged, with its side data (the display
    /// matrix among it) copied.
    func addCopy(of input: UnsafeMutablePointer<AVStream>) throws(MediaIOError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil),
              avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar) >= 0 else {
            throw .encodeFailed(path: destination.path, detail: tr("cannot add a stream"))
        }
        // Let the MP4 muxer pick the tag, except for HEVC, whose 'hvc1' players expect.
        let parameters = input.parameters
        stream.pointee.codecpar.pointee.codec_tag = parameters.codec_id == AV_CODEC_ID_HEVC
            ? MP4Output.fourCC("hvc1") : 0
        stream.pointee.time_base = input.pointee.time_base
        stream.pointee.avg_frame_rate = input.pointee.avg_frame_rate
        stream.pointee.disposition = input.pointee.disposition
        try copySideData(from: input, to: stream)
        return stream
    }

    /// A stream fed by `encoder`; `sideDataFrom` lends its side data (the rotation) when set.
    func addStream(for encoder: UnsafeMutablePointer<AVCodecContext>,
                   sideDataFrom input: UnsafeMutablePointer<AVStream>? = nil) throws(MediaIOError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil),
              avcodec_parameters_from_context(stream.pointee.codecpar, encoder) >= 0 else {
            throw .encodeFailed(path: destination.path, detail: tr("cannot add a stream"))
        }
        stream.pointee.time_base = encoder.pointee.time_base
        // HEVC with a global header is 'hvc1', the form Apple's players accept (FFmpeg's default
        // is 'hev1'): its parameter sets are in the configuration, and copies x265 still puts
        // in its first picture (with HDR10 metadata) are taken out in `write`.
        if encoder.pointee.codec_id == AV_CODEC_ID_HEVC, encoder.pointee.flags & AV_CODEC_FLAG_GLOBAL_HEADER != 0,
           let data = encoder.pointee.extradata, encoder.pointee.extradata_size > 0 {
            let header = UnsafeBufferPointer(start: data, count: Int(encoder.pointee.extradata_size))
            let sets = AVCConfiguration.annexBUnits(header).filter(HEVCConfiguration.isParameterSet)
            if !sets.isEmpty {
                stream.pointee.codecpar.pointee.codec_tag = MP4Output.fourCC("hvc1")
                configurationSets[stream.pointee.index] = sets
            }
        }
        if encoder.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            stream.pointee.avg_frame_rate = encoder.pointee.framerate
        }
        if let input {
            try copySideData(from: input, to: stream, only: AV_PKT_DATA_DISPLAYMATRIX)
        }
        return stream
    }

    /// Replaces a stream's decoder configuration (before `start`).
    func setExtradata(_ bytes: [UInt8], of stream: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
        let padded = bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let par = stream.pointee.codecpar, let memory = av_mallocz(padded) else {
            throw .encodeFailed(path: destination.path, detail: tr("out of memory"))
        }
        memory.copyMemory(from: bytes, byteCount: bytes.count)
        av_freep(&par.pointee.extradata)
        par.pointee.extradata = memory.assumingMemoryBound(to: UInt8.self)
        par.pointee.extradata_size = Int32(bytes.count)
    }

    private func copySideData(from input: UnsafeMutablePointer<AVStream>, to output: UnsafeMutablePointer<AVStream>,
                              only: AVPacketSideDataType? = nil) throws(MediaIOError) {
        guard let items = input.pointee.side_data else { return }
        for i in 0..<Int(input.pointee.nb_side_data) {
            let item = items[i]
            if let only, item.type != only { continue }
            guard let copy = av_malloc(item.size) else { throw .encodeFailed(path: destination.path, detail: tr("out of memory")) }
            copy.copyMemory(from: item.data, byteCount: item.size)
            if av_stream_add_side_data(output, item.type, copy.assumingMemoryBound(to: UInt8.self), item.size) < 0 {
                av_free(copy)
            }
        }
    }

    /// Declares a stream's HDR10 metadata (before `start`): the muxer writes it as the sample
    /// description's `mdcv` and `clli` boxes, where players read it without decoding.
    func describe(_ metadata: HDRMetadata, of stream: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
        if let peak = metadata.masteringPeak {
            guard let side = av_stream_new_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA,
                                                     MemoryLayout<AVMasteringDisplayMetadata>.size) else {
                throw .encodeFailed(path: destination.path, detail: tr("out of memory"))
            }
            var display = AVMasteringDisplayMetadata()
            // ST 2086's own units: chromaticities in 0.00002, light in 0.0001 nits.
            func chroma(_ v: Double) -> AVRational { AVRational(num: Int32((v * 50_000).rounded()), den: 50_000) }
            func light(_ v: Double) -> AVRational { AVRational(num: Int32(min(v * 10_000, Double(Int32.max)).rounded()), den: 10_000) }
            display.max_luminance = light(peak)
            display.min_luminance = light(metadata.masteringBlack ?? 0)
            display.has_luminance = 1
            if let p = metadata.displayPrimaries {
                display.display_primaries = ((chroma(p.red.x), chroma(p.red.y)), (chroma(p.green.x), chroma(p.green.y)),
                                             (chroma(p.blue.x), chroma(p.blue.y)))
                display.white_point = (chroma(p.white.x), chroma(p.white.y))
                display.has_primaries = 1
            }
            UnsafeMutableRawPointer(side).storeBytes(of: display, as: AVMasteringDisplayMetadata.self)
        }
        if metadata.maxContentLight != nil || metadata.maxFrameAverageLight != nil {
            guard let side = av_stream_new_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL,
                                                     MemoryLayout<AVContentLightMetadata>.size) else {
                throw .encodeFailed(path: destination.path, detail: tr("out of memory"))
            }
            let light = AVContentLightMetadata(MaxCLL: UInt32(clamping: metadata.maxContentLight ?? 0),
                                               MaxFALL: UInt32(clamping: metadata.maxFrameAverageLight ?? 0))
            UnsafeMutableRawPointer(side).storeBytes(of: light, as: AVContentLightMetadata.self)
        }
    }

    /// Opens the file and writes the header (declaring the cover art's stream, when there is one).
    package func start() throws(MediaIOError) {
        coverStream = try cover.map { attachment throws(MediaIOError) in try addCoverStream(attachment) }
        var status = avio_open(&context.pointee.pb, temporary.path, AVIO_FLAG_WRITE)
        if status >= 0 {
            var options: OpaquePointer?
            if fastStart && !editsMovie { av_dict_set(&options, "movflags", "+faststart", 0) }
            status = avformat_write_header(context, &options)
            av_dict_free(&options)
        }
        guard status >= 0 else { throw .writeFailed(path: destination.path, reason: ffmpegMessage(status)) }
        started = true
    }

    /// The stream of an attached picture. FFmpeg's mp4 muxer treats a stream whose disposition
    /// is exactly `AV_DISPOSITION_ATTACHED_PIC` as cover art: no track, its one packet kept and
    /// written into `moov/udta/meta/ilst/covr` with the trailer (so the packet may come last).
    private func addCoverStream(_ attachment: CoverAttachment) throws(MediaIOError) -> UnsafeMutablePointer<AVStream> {
        // The muxer's header wants a size for every video stream; `covr` stores none, so a
        // picture still being made declares 1×1 until `writeCover` sets its own.
        let size = attachment.knownSize ?? PixelSize(width: 1, height: 1)
        guard size.width > 0, size.height > 0 else {
            throw .encodeFailed(path: destination.path, detail: tr("the cover picture is empty"))
        }
        guard let stream = avformat_new_stream(context, nil), let par = stream.pointee.codecpar else {
            throw .encodeFailed(path: destination.path, detail: tr("cannot add the cover stream"))
        }
        par.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        par.pointee.codec_id = attachment.format == .png ? AV_CODEC_ID_PNG : AV_CODEC_ID_MJPEG
        par.pointee.width = Int32(clamping: size.width)
        par.pointee.height = Int32(clamping: size.height)
        stream.pointee.disposition = AV_DISPOSITION_ATTACHED_PIC
        stream.pointee.time_base = AVRational(num: 1, den: 90000)
        return stream
    }

    /// Waits for the cover's picture and hands the muxer its one packet, before the trailer.
    private func writeCover(_ attachment: CoverAttachment, to stream: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
        let art: CoverArt
        do {
            art = try attachment.art()
        } catch {
            throw .encodeFailed(path: destination.path, detail: tr("the cover could not be made: {reason}", ["reason": "\(error)"]))
        }
        guard art.size.width > 0, art.size.height > 0, !art.data.isEmpty, art.format == attachment.format else {
            throw .encodeFailed(path: destination.path, detail: tr("the cover picture is empty"))
        }
        stream.pointee.codecpar.pointee.width = Int32(clamping: art.size.width)
        stream.pointee.codecpar.pointee.height = Int32(clamping: art.size.height)
        guard let packet = OwnedPacket(), av_new_packet(packet.pointer, Int32(clamping: art.data.count)) >= 0 else {
            throw .encodeFailed(path: destination.path, detail: tr("out of memory"))
        }
        art.data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { packet.pointer.pointee.data.update(from: base.assumingMemoryBound(to: UInt8.self), count: raw.count) }
        }
        packet.pointer.pointee.stream_index = stream.pointee.index
        packet.pointer.pointee.pts = 0
        packet.pointer.pointee.dts = 0
        packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
        try write(packet)
    }

    /// Writes one packet, already in the output stream's time base.
    func write(_ packet: OwnedPacket) throws(MediaIOError) {
        var packet = packet
        if let sets = configurationSets[packet.streamIndex], let data = packet.pointer.pointee.data {
            let units = AVCConfiguration.annexBUnits(UnsafeBufferPointer(start: data, count: Int(packet.pointer.pointee.size)))
            let inBand = units.filter(HEVCConfiguration.isParameterSet)
            // Copies of the configuration's sets go ('hvc1' keeps them there only); others stay.
            if !inBand.isEmpty, inBand.allSatisfy(sets.contains) {
                let kept: [UInt8] = units.filter { !HEVCConfiguration.isParameterSet($0) }.flatMap { [0, 0, 0, 1] + $0 }
                guard let made = packet.replacingData(with: kept) else {
                    throw .writeFailed(path: destination.path, reason: tr("out of memory"))
                }
                made.pointer.pointee.stream_index = packet.pointer.pointee.stream_index
                packet = made
            }
        }
        let status = av_interleaved_write_frame(context, packet.pointer)
        guard status >= 0 else { throw .writeFailed(path: destination.path, reason: ffmpegMessage(status)) }
    }

    /// Writes the index, closes the file, lets `verify` read the complete file where it lies and
    /// moves it into place; true when it did. When `verify` refuses the file (false) it is
    /// deleted and `finish` returns false; a throw leaves nothing either. `describing` gives a
    /// track several sample descriptions (made with `editsMovie`).
    @discardableResult
    package func finish(describing descriptions: SampleDescriptions? = nil,
                verify: ((URL) throws(MediaIOError) -> Bool)? = nil) throws(MediaIOError) -> Bool {
        guard started, !finished else { return finished }
        if let cover, let coverStream { try writeCover(cover, to: coverStream) }
        let status = av_write_trailer(context)
        avio_closep(&context.pointee.pb)
        guard status >= 0 else { throw .writeFailed(path: destination.path, reason: ffmpegMessage(status)) }
        if editsMovie {
            do {
                try SampleDescriptionEditor.rewrite(temporary, descriptions, fastStart: fastStart, reportingAs: destination.path)
            } catch {
                abandon()
                throw error
            }
        }
        if let verify, try !verify(temporary) {
            abandon()
            return false
        }
        do {
            try AtomicFile.commit(temporary, to: destination)
        } catch {
            throw .writeFailed(path: destination.path, reason: error.reason)
        }
        finished = true
        return true
    }

    /// Closes the file unfinished and deletes it: nothing is left.
    func abandon() {
        guard !finished else { return }
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        try? FileManager.default.removeItem(at: temporary)
    }

    static func fourCC(_ text: String) -> UInt32 {
        text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
