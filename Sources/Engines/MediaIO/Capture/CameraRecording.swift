internal import CFFmpeg
import Foundation
import ViewfinderCore

/// An H.264 MP4 being recorded from a camera, one frame at a time as the camera reads them, so
/// that one reader can feed both a preview and the recording; with a microphone, its sound is
/// recorded beside the pictures as AAC.
///
/// The file is written beside its destination and moved into place by `finish()`; a recording
/// discarded or dropped unfinished leaves nothing. Frames are placed on the camera's constant
/// rate by when each was taken (a frame the camera thread missed leaves the one before on
/// screen longer instead of pulling every later picture earlier than its sound); sound is placed
/// by when it was heard against when the first frame was taken.
public final class CameraRecording {
    /// Where the finished file goes.
    public let url: URL
    /// It takes no frame shown this long after its first one.
    public let maxDuration: MediaTime?
    /// Frames written so far.
    public private(set) var frameCount = 0
    /// The slot (at the frame rate, from the first frame) the next frame may take.
    private var nextSlot: Int64 = 0
    /// True once a frame arrived at or past `maxDuration`: the recording is complete.
    public private(set) var isFull = false
    /// The microphone recorded, nil without sound.
    public let microphone: MicrophoneDevice?

    private let output: MP4Output
    private let encoder: VideoEncoder
    private let stream: UnsafeMutablePointer<AVStream>
    private let timeBase: AVRational
    private let frameRate: Int
    private let size: PixelSize
    private var firstTime: MediaTime?
    /// When the first frame was taken, on the capture clock.
    private var firstTakenAt: TimeInterval?
    private let sound: (listener: SoundListener, aac: AACEncoder, stream: UnsafeMutablePointer<AVStream>)?
    private var ended = false
    /// Sound heard after the last picture written, waiting for the pictures to catch up.
    private var waitingSound: [HeardSound] = []
    /// Why the sound is shorter than the pictures, when it is.
    private var soundNote: String?

    /// Whether this FFmpeg can encode recordings at all (it has a video encoder).
    public static var isAvailable: Bool { VideoEncoder.codec != nil }

    /// Creates the file (beside `url` until `finish()`) for frames of a camera's `size` arriving
    /// at `frameRate`, encoded at `quality`, and opens `microphone` when given; fails at once
    /// when the file cannot be written or the microphone cannot be opened.
    public init(to url: URL, size: PixelSize, frameRate: Int, quality: CaptureQuality, maxDuration: MediaTime?,
                microphone: MicrophoneDevice? = nil) throws(MediaIOError) {
        self.url = url
        self.maxDuration = maxDuration
        self.microphone = microphone
        self.frameRate = max(1, frameRate)
        output = try MP4Output(url: url, fastStart: true)
        self.size = ExportPreset.encodedSize(for: size, box: quality.preset.box)
        timeBase = AVRational(num: 1, den: Int32(self.frameRate))
        var settings = VideoEncoder.Quality(crf: quality.preset.encoding.crf, preset: ExportPreset.realTimeSpeed, keyframeInterval: Int32(self.frameRate * 2), bFrames: 2)
        settings.fixedKeyframes = true
        encoder = try VideoEncoder(size: self.size, timeBase: timeBase, frameRate: AVRational(num: Int32(self.frameRate), den: 1),
                                   quality: settings, globalHeader: output.needsGlobalHeader, path: url.path, colour: .bt709)
        stream = try output.addStream(for: encoder.context)
        if let microphone {
            // The first block says what the sound is; a microphone that sends none (a source
            // the server never feeds) is an error after `firstSoundWithin`, never a wait for ever.
            let listener = SoundListener(try Microphone(device: microphone))
            do {
                let first = try listener.start(firstWithin: Self.firstSoundWithin)
                let f = first.frame.pointer.pointee
                let aac = try AACEncoder(inputLayout: f.ch_layout, format: AVSampleFormat(rawValue: f.format), rate: f.sample_rate,
                                         globalHeader: output.needsGlobalHeader, path: url.path)
                let audio = try output.addStream(for: aac.context)
                sound = (listener, aac, audio)
                try output.start()
            } catch {
                listener.stop()
                output.abandon()
                throw error
            }
        } else {
            sound = nil
            try output.start()
        }
    }

    /// How long a microphone may take to send its first sound.
    static let firstSoundWithin: TimeInterval = 5

    deinit {
        sound?.listener.stop()
    }

    /// The length recorded so far.
    public var duration: MediaTime { MediaTime(value: nextSlot, timescale: Int64(frameRate)) }

    /// Encodes a frame the camera read at `time` (taken at `takenAt` on the capture clock) with
    /// the sound heard until then; past `maxDuration` it only marks the recording full.
    func append(_ frame: OwnedFrame, at time: MediaTime, takenAt: TimeInterval) throws(MediaIOError) {
        guard !isFull, !ended else { return }
        let first = firstTime ?? time
        firstTime = first
        if firstTakenAt == nil { firstTakenAt = takenAt }
        if let maxDuration, (time.subtracting(first) ?? .zero) >= maxDuration {
            isFull = true
            return
        }
        // Its slot by when it was taken, never one already used (a late stamp goes next).
        let taken = Int64(((time.subtracting(first) ?? .zero).seconds * Double(frameRate)).rounded())
        let slot = max(nextSlot, taken)
        if let maxDuration, MediaTime(value: slot, timescale: Int64(frameRate)) >= maxDuration {
            isFull = true
            return
        }
        try write(try encoder.encode(frame, pts: slot), from: timeBase, to: stream)
        nextSlot = slot + 1
        frameCount += 1
        try writeSound(final: false)
    }

    /// Encodes the sound heard while the pictures written so far were shown, and keeps what was
    /// heard after them for later; at the end, the block that straddles the last picture's end
    /// is cut there and what follows is dropped, so the sound never outlasts the pictures (a
    /// camera thread running late must not let `maxDuration` hear a click it did not show).
    private func writeSound(final: Bool) throws(MediaIOError) {
        guard let sound, let start = firstTakenAt else { return }
        // A microphone that failed while recording leaves the sound it gave; the pictures stay.
        if final, let failure = sound.listener.stopAndWait(within: Self.firstSoundWithin) {
            soundNote = tr("the sound stops early: {reason}", ["reason": "\(failure)"])
        }
        let end = start + duration.seconds
        waitingSound += sound.listener.take()
        var used = 0
        for heard in waitingSound {
            let f = heard.frame.pointer
            let rate = Double(max(1, f.pointee.sample_rate))
            let heardUntil = heard.heardAt + Double(f.pointee.nb_samples) / rate
            if heardUntil > end {
                guard final, heard.heardAt < end else { break }
                // Only the samples heard before the end; the converter reads no further.
                f.pointee.nb_samples = Int32(max(0, min(Double(f.pointee.nb_samples), ((end - heard.heardAt) * rate).rounded())))
            }
            used += 1
            if !sound.aac.isPlaced {
                // Microseconds: the two clocks' stamps are no finer.
                let offset = Int64(((heard.heardAt - start) * 1_000_000).rounded())
                sound.aac.place(firstSampleAt: MediaTime(value: offset, timescale: 1_000_000))
            }
            if f.pointee.nb_samples > 0 {
                try write(try sound.aac.encode(heard.frame), from: sound.aac.context.pointee.time_base, to: sound.stream)
            }
        }
        waitingSound.removeFirst(used)
        if final {
            waitingSound = []
            try write(try sound.aac.encode(nil), from: sound.aac.context.pointee.time_base, to: sound.stream)
        }
    }

    /// Flushes the encoders, writes the index and moves the file into place: it is playable.
    public func finish() throws(MediaIOError) -> ExportResult {
        guard !ended else { throw .writeFailed(path: url.path, reason: tr("the recording was discarded")) }
        ended = true
        do {
            try write(try encoder.flush(), from: timeBase, to: stream)
            try writeSound(final: true)
            try output.finish()
        } catch {
            sound?.listener.stop()
            throw error
        }
        let audio = sound.map { _ in "aac" }
        return ExportResult(method: encoder.name, note: soundNote, start: .zero, duration: duration, frameCount: frameCount,
                            size: size, audio: audio)
    }

    /// Stops recording and throws away what was written: nothing is left.
    public func discard() {
        ended = true
        sound?.listener.stop()
        output.abandon()
    }

    private func write(_ packets: [OwnedPacket], from base: AVRational, to target: UnsafeMutablePointer<AVStream>) throws(MediaIOError) {
        for packet in packets {
            av_packet_rescale_ts(packet.pointer, base, target.pointee.time_base)
            packet.pointer.pointee.stream_index = target.pointee.index
            try output.write(packet)
        }
    }
}

/// Reads a microphone on a thread of its own (a read waits for sound, which the camera's
/// thread must not) and keeps what it heard until the recording takes it.
final class SoundListener: @unchecked Sendable {
    private let microphone: Microphone
    // Guarded by `lock`.
    private let lock = NSLock()
    private var heard: [HeardSound]
    private var running = true
    private var failure: MediaIOError?
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    /// Signalled when the first block is heard or the microphone failed first.
    private let firstHeard = DispatchSemaphore(value: 0)

    init(_ microphone: Microphone) {
        self.microphone = microphone
        heard = []
    }

    /// Starts the thread and waits for its first block of sound, at most `seconds`: the block
    /// (kept for the recording too), or why there is none. A microphone that sends nothing
    /// leaves the thread waiting in its read (a sound server's read cannot be interrupted); it
    /// ends there once told to stop, and holds the microphone until then.
    func start(firstWithin seconds: TimeInterval) throws(MediaIOError) -> HeardSound {
        started = true
        let thread = Thread { [self] in listen() }
        thread.name = "viewfinder-microphone"
        thread.start()
        guard firstHeard.wait(timeout: .now() + seconds) == .success else {
            throw .deviceUnavailable(device: microphone.device.id,
                                     reason: tr("it sent no sound within {seconds} s; use --microphone none to record without sound",
                                                ["seconds": Int(seconds)]))
        }
        return try locked { () throws(MediaIOError) -> HeardSound in
            if let first = heard.first { return first }
            throw failure ?? .deviceUnavailable(device: microphone.device.id, reason: tr("it gives no sound"))
        }
    }

    private func listen() {
        defer { done.signal() }
        var first = true
        while locked({ running }) {
            do {
                let sound = try microphone.read()
                locked { heard.append(sound) }
            } catch {
                locked { failure = error }
                if first { firstHeard.signal() }
                return
            }
            if first {
                first = false
                firstHeard.signal()
            }
        }
    }

    /// What was heard since the last call, in order.
    func take() -> [HeardSound] {
        locked {
            let taken = heard
            heard = []
            return taken
        }
    }

    /// Asks the thread to end after the block being read.
    func stop() {
        locked { running = false }
    }

    /// Ends the thread and waits for it (one block of sound, at most `seconds`); returns why
    /// the microphone failed while recording, if it did. A microphone that stopped sending
    /// leaves its thread waiting in a read that cannot be interrupted: that is a failure (the
    /// sound heard so far is kept), never a wait for ever.
    func stopAndWait(within seconds: TimeInterval) -> MediaIOError? {
        stop()
        if started, done.wait(timeout: .now() + seconds) == .timedOut {
            started = false
            // Worded as a microphone that stops while read is (the catalogues have it).
            return locked { failure } ?? .deviceUnavailable(device: microphone.device.id,
                                                            reason: tr("the microphone stopped: {reason}", ["reason": tr("it gives nothing")]))
        }
        started = false
        return locked { failure }
    }

    private func locked<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
