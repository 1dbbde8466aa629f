internal import CFFmpeg
import Foundation
import ViewfinderCore

/// A microphone: the sound server's default input (PulseAudio, or PipeWire's Pulse server), an
/// ALSA capture device, or the virtual microphone paired with the virtual camera.
public struct MicrophoneDevice: Sendable, Equatable {
    /// How it is reached through libavdevice.
    public enum Kind: String, Sendable {
        case pulse, alsa, virtual
    }

    /// "pulse:default", "alsa:hw:0,0" or "virtual".
    public let id: String
    public let name: String
    public let kind: Kind

    /// The virtual microphone: silence with a click at each whole second of the system's clock,
    /// when the virtual camera flashes (so a recording's sync can be checked).
    public static let virtual = MicrophoneDevice(id: "virtual", name: "Viewfinder virtual microphone", kind: .virtual)

    /// The sound server's default input.
    public static let soundServerDefault = MicrophoneDevice(id: "pulse:default", name: "Default input of the sound server", kind: .pulse)

    /// A source the sound server offers (a microphone, or the monitor of an output), as it
    /// names and describes it.
    public struct SoundSource: Sendable, Equatable {
        public let name: String
        public let description: String
        public let isDefault: Bool

        public init(name: String, description: String, isDefault: Bool) {
            self.name = name
            self.description = description
            self.isDefault = isDefault
        }
    }

    /// The microphones on this machine: when a PulseAudio (or PipeWire-Pulse) server runs, each
    /// source it lists (its default first), or its default input when it lists none; then every
    /// ALSA capture device in /proc/asound/pcm. `sources` asks the server (tests pass their own).
    public static func microphones(environment: [String: String] = ProcessInfo.processInfo.environment,
                                   alsaList: String = "/proc/asound/pcm",
                                   sources: () -> [SoundSource]? = soundServerSources) -> [MicrophoneDevice] {
        var found: [MicrophoneDevice] = []
        if soundServerRuns(environment) {
            let listed = sources() ?? []
            found = (listed.filter(\.isDefault) + listed.filter { !$0.isDefault }).map {
                MicrophoneDevice(id: "pulse:" + $0.name, name: $0.description, kind: .pulse)
            }
            if found.isEmpty { found = [soundServerDefault] }
        }
        let listing = (try? String(contentsOfFile: alsaList, encoding: .utf8)) ?? ""
        for line in listing.split(separator: "\n") where line.contains("capture") {
            // "00-00: ALC257 Analog : ALC257 Analog : playback 1 : capture 1"
            let fields = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = fields.first?.split(separator: "-").compactMap { Int($0) } ?? []
            guard numbers.count == 2 else { continue }
            found.append(MicrophoneDevice(id: "alsa:hw:\(numbers[0]),\(numbers[1])", name: fields.count > 1 ? fields[1] : "ALSA device", kind: .alsa))
        }
        return found
    }

    /// Every source the running Pulse server lists, through libavdevice; nil when it cannot
    /// be asked (no libavdevice, no server, a server that does not answer).
    public static func soundServerSources() -> [SoundSource]? {
        _ = FFmpegRuntime.configure
        var buffer = [vf_input_source](repeating: vf_input_source(), count: 64)
        let count = Int(vf_list_input_sources("pulse", &buffer, Int32(buffer.count)))
        guard count >= 0 else { return nil }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return buffer.prefix(count).map {
            SoundSource(name: text($0.name), description: text($0.description), isDefault: $0.is_default != 0)
        }
    }

    /// The system's default microphone (the first of `microphones()`), nil when there is none.
    public static func systemDefault() -> MicrophoneDevice? { microphones().first }

    /// A microphone by id ("virtual", "pulse:default", a source the sound server lists after
    /// "pulse:", "alsa:hw:0,0", or an ALSA name after "alsa:").
    public static func named(_ id: String) -> MicrophoneDevice? {
        if id == virtual.id { return virtual }
        if let listed = microphones().first(where: { $0.id == id }) { return listed }
        if id == soundServerDefault.id { return soundServerDefault }
        if id.hasPrefix("alsa:"), id.count > 5 { return MicrophoneDevice(id: id, name: String(id.dropFirst(5)), kind: .alsa) }
        return nil
    }

    /// Whether a Pulse server runs here: one is named (`PULSE_SERVER`) or its socket exists
    /// (a server is never started for us).
    public static func soundServerRuns(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
        let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
        return FileManager.default.fileExists(atPath: runtime + "/pulse/native")
    }
}

/// Sound read from a microphone, and when it was heard (seconds on the system's monotonic clock,
/// the clock camera frames are stamped with).
public struct HeardSound: @unchecked Sendable {
    // One owner at a time: the microphone's reader hands it over and never touches it again.
    let frame: OwnedFrame
    /// When its first sample was heard.
    public let heardAt: TimeInterval

    init(frame: OwnedFrame, heardAt: TimeInterval) {
        self.frame = frame
        self.heardAt = heardAt
    }

    /// Samples per second.
    public var sampleRate: Int { Int(max(1, frame.pointer.pointee.sample_rate)) }
    /// The samples it holds (per channel).
    public var sampleCount: Int { Int(frame.pointer.pointee.nb_samples) }

    /// Keeps only its first `count` samples (an encoder reads no further).
    public func keepFirst(_ count: Int) {
        frame.pointer.pointee.nb_samples = Int32(max(0, min(sampleCount, count)))
    }
}

/// An open microphone, read one block at a time (each read waits for the sound to be there).
public final class Microphone {
    public let device: MicrophoneDevice
    private let input: Input

    private enum Input {
        case device(context: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>, decoder: VideoDecoder)
        case virtual(VirtualSound)
    }

    /// Opens `device`; fails at once, with the reason, when it cannot be used.
    public init(device: MicrophoneDevice) throws(MediaIOError) {
        _ = FFmpegRuntime.configure
        self.device = device
        switch device.kind {
        case .virtual:
            input = .virtual(VirtualSound())
            return
        case .pulse:
            guard MicrophoneDevice.soundServerRuns(ProcessInfo.processInfo.environment) else {
                throw .deviceUnavailable(device: device.id, reason: tr("no sound server (PulseAudio or PipeWire) is running; use --microphone none to record without sound"))
            }
        case .alsa:
            break
        }
        guard vf_load_capture_devices() == 0 else {
            throw .deviceUnavailable(device: device.id, reason: tr("libavdevice is not installed (Debian: libavdevice59)"))
        }
        guard let format = av_find_input_format(device.kind.rawValue) else {
            throw .deviceUnavailable(device: device.id, reason: tr("this FFmpeg has no {kind} input", ["kind": device.kind.rawValue]))
        }
        let address = String(device.id.dropFirst(device.kind == .pulse ? "pulse:".count : "alsa:".count))
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "sample_rate", "48000", 0)
        av_dict_set(&options, "channels", "2", 0)
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&ctx, address, format, &options)
        guard status >= 0, let ctx else {
            let noCard = device.kind == .alsa && !FileManager.default.fileExists(atPath: "/proc/asound/cards")
            let why = noCard ? tr("this machine has no sound card")
                : device.kind == .pulse ? tr("the sound server does not answer ({reason})", ["reason": ffmpegMessage(status)]) : ffmpegMessage(status)
            throw .deviceUnavailable(device: device.id, reason: tr("{reason}; use --microphone none to record without sound", ["reason": why]))
        }
        func close() {
            var owned: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&owned)
        }
        guard let audio = (0..<Int(ctx.pointee.nb_streams)).compactMap({ ctx.pointee.streams[$0] })
            .first(where: { $0.mediaType == AVMEDIA_TYPE_AUDIO }) else {
            close()
            throw .deviceUnavailable(device: device.id, reason: tr("it gives no sound"))
        }
        do {
            input = .device(context: ctx, stream: audio, decoder: try VideoDecoder(stream: audio, path: device.id, threads: 1))
        } catch {
            close()
            throw error
        }
    }

    deinit {
        if case .device(let context, _, _) = input {
            var ctx: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&ctx)
        }
    }

    /// The next block of sound, waiting for it.
    func read() throws(MediaIOError) -> HeardSound {
        switch input {
        case .virtual(let sound):
            return try sound.next()
        case .device(let context, let stream, let decoder):
            let id = device.id
            let frame = try nextCapturedFrame(from: context, stream: stream, decoder: decoder, device: id) { why in
                .deviceUnavailable(device: id, reason: tr("the microphone stopped: {reason}", ["reason": why]))
            }
            return HeardSound(frame: frame, heardAt: CaptureClock.uptime(ofStamp: frame.pts, timeBase: stream.pointee.time_base))
        }
    }
}

/// The clock capture stamps sound and pictures with: seconds of the system's monotonic clock.
enum CaptureClock {
    static var now: TimeInterval { ProcessInfo.processInfo.systemUptime }

    /// A wall-clock time (seconds since 1970, as libavdevice stamps V4L2, ALSA and Pulse input)
    /// on the monotonic clock.
    static func uptime(fromWallClock wall: TimeInterval) -> TimeInterval {
        wall - (Date().timeIntervalSince1970 - now)
    }

    /// A frame's wall-clock stamp in `timeBase` (as libavdevice stamps V4L2, ALSA and Pulse
    /// input) on the monotonic clock.
    static func uptime(ofStamp pts: Int64?, timeBase tb: AVRational) -> TimeInterval {
        uptime(fromWallClock: Double(pts ?? 0) * Double(tb.num) / Double(max(1, tb.den)))
    }

    /// How often the virtual camera flashes and the virtual microphone clicks: at every whole
    /// second of `now`.
    static let virtualBeat: TimeInterval = 1
}

/// The virtual microphone's sound: mono 48 kHz silence with a 20 ms 1 kHz click starting at each
/// whole second of the capture clock, delivered in real time in blocks of 1024 samples.
final class VirtualSound {
    static let rate = 48000
    static let block = 1024
    static let clickSamples = rate / 50
    /// The sample (on the capture clock, `rate` per second) the next block starts with.
    private var nextSample: Int64

    init() {
        nextSample = Int64((CaptureClock.now * Double(Self.rate)).rounded(.up))
    }

    func next() throws(MediaIOError) -> HeardSound {
        let first = nextSample
        nextSample += Int64(Self.block)
        // A block is heard once its last sample has sounded.
        let wait = Double(nextSample) / Double(Self.rate) - CaptureClock.now
        if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        guard let frame = OwnedFrame() else { throw .unreadable(path: "virtual", reason: tr("out of memory")) }
        let f = frame.pointer
        f.pointee.nb_samples = Int32(Self.block)
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.sample_rate = Int32(Self.rate)
        av_channel_layout_default(&f.pointee.ch_layout, 1)
        guard av_frame_get_buffer(f, 0) >= 0, let data = f.pointee.data.0 else {
            throw .unreadable(path: "virtual", reason: tr("out of memory"))
        }
        let samples = UnsafeMutableRawPointer(data).bindMemory(to: Float.self, capacity: Self.block)
        let beat = Int64(CaptureClock.virtualBeat * Double(Self.rate))
        for i in 0..<Self.block {
            let index = first + Int64(i)
            let intoBeat = ((index % beat) + beat) % beat
            samples[i] = intoBeat < Int64(Self.clickSamples)
                ? 0.8 * Float(sin(2 * Double.pi * 1000 * Double(intoBeat) / Double(Self.rate))) : 0
        }
        return HeardSound(frame: frame, heardAt: Double(first) / Double(Self.rate))
    }
}
