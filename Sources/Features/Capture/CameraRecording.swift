import Foundation
import MediaIO
import ViewfinderCore

/// A camera recording as it runs: where each picture goes on the file's constant frame rate,
/// when the recording is full, and which of the microphone's sound goes with the pictures. The
/// file itself is MediaIO's `RecordingWriter`; the camera's reader hands every frame it reads to
/// this (`CameraFrameSink`), so one reader feeds both a preview and the recording.
///
/// Frames are placed on the camera's constant rate by when each was taken (a frame the camera
/// thread missed leaves the one before on screen longer instead of pulling every later picture
/// earlier than its sound; one stamped so late that it rounds into the next one's slot goes back
/// into the free slot before it instead of pushing every later picture a slot late); sound is
/// placed by when it was heard against when the first frame was taken, and never outlasts the
/// pictures. A recording discarded or dropped unfinished leaves nothing.
public final class CameraRecording: CameraFrameSink {
    /// Where the finished file goes.
    public var url: URL { writer.url }
    /// It takes no frame shown this long after its first one.
    public let maxDuration: MediaTime?
    /// Frames written so far.
    public private(set) var frameCount = 0
    /// True once a frame arrived at or past `maxDuration`: the recording is complete.
    public private(set) var isFull = false
    /// The microphone recorded, nil without sound.
    public let microphone: MicrophoneDevice?

    private let writer: RecordingWriter
    private let listener: SoundListener?
    /// The slot (at the frame rate, from the first frame) the next frame may take.
    private var nextSlot: Int64 = 0
    /// The last frame read and its slot, written when the next one comes (or at the end).
    private var waiting: (frame: CapturedFrame, slot: Int64)?
    private var firstTime: MediaTime?
    /// When the first frame was taken, on the capture clock.
    private var firstTakenAt: TimeInterval?
    private var ended = false
    /// Sound heard after the last picture written, waiting for the pictures to catch up.
    private var waitingSound: [HeardSound] = []
    /// Why the sound is shorter than the pictures, when it is.
    private var soundNote: String?

    /// Whether this FFmpeg can encode recordings at all (it has a video encoder).
    public static var isAvailable: Bool { RecordingWriter.isAvailable }

    /// How a recording at `quality` and `frameRate` is encoded: a keyframe every two seconds
    /// (a player seeks in a long recording without decoding far), two B-frames.
    public static func encoding(quality: CaptureQuality, frameRate: Int) -> RecordingEncoding {
        RecordingEncoding(quality: quality, keyframeInterval: max(1, frameRate) * 2, bFrames: 2)
    }

    /// How long a microphone may take to send its first sound.
    static let firstSoundWithin: TimeInterval = 5

    /// Creates the file (beside `url` until `finish()`) for frames of a camera's `size` arriving
    /// at `frameRate`, encoded at `quality`, and opens `microphone` when given; fails at once
    /// when the file cannot be written or the microphone cannot be opened.
    public init(to url: URL, size: PixelSize, frameRate: Int, quality: CaptureQuality, maxDuration: MediaTime?,
                microphone: MicrophoneDevice? = nil) throws(MediaIOError) {
        self.maxDuration = maxDuration
        self.microphone = microphone
        writer = try RecordingWriter(to: url, size: size, frameRate: frameRate,
                                     encoding: Self.encoding(quality: quality, frameRate: frameRate))
        guard let microphone else {
            listener = nil
            try writer.start()
            return
        }
        // The first block says what the sound is; a microphone that sends none (a source the
        // server never feeds) is an error after `firstSoundWithin`, never a wait for ever.
        var opened: SoundListener?
        do {
            let listening = SoundListener(try Microphone(device: microphone))
            opened = listening
            try writer.addSound(describedBy: try listening.start(firstWithin: Self.firstSoundWithin))
            try writer.start()
        } catch {
            opened?.stop()
            writer.abandon()
            throw error
        }
        listener = opened
    }

    deinit {
        listener?.stop()
    }

    /// A test seam: waits until the microphone has heard `seconds` of sound (false without
    /// one, when it stopped first, or at `deadline`), so a test that lets the pictures fall
    /// behind the sound waits for the sound instead of sleeping.
    func waitUntilHeard(_ seconds: TimeInterval, before deadline: Date) -> Bool {
        listener?.waitUntilHeard(seconds, before: deadline) ?? false
    }

    /// The length recorded so far.
    public var duration: MediaTime { MediaTime(value: waiting.map { $0.slot + 1 } ?? nextSlot, timescale: Int64(writer.frameRate)) }

    /// The length of the pictures written so far (the waiting one not yet among them).
    private var written: MediaTime { MediaTime(value: nextSlot, timescale: Int64(writer.frameRate)) }

    /// Encodes a frame the camera read at `time` (taken at `takenAt` on the capture clock) with
    /// the sound heard until then; past `maxDuration` it only marks the recording full.
    public func append(_ frame: CapturedFrame, at time: MediaTime, takenAt: TimeInterval) throws(MediaIOError) {
        guard !isFull, !ended else { return }
        let first = firstTime ?? time
        firstTime = first
        if firstTakenAt == nil { firstTakenAt = takenAt }
        if let maxDuration, (time.subtracting(first) ?? .zero) >= maxDuration {
            isFull = true
            return
        }
        // Its slot by when it was taken, never one already used (a late stamp goes next). A frame
        // waits for the next before it is written: when the next rounds into its slot and the
        // slot before it is free, it was stamped late (a picture without a stamp of its own, on
        // a busy machine) and goes back there, instead of pushing every later picture a slot late.
        let rate = writer.frameRate
        let taken = Int64(((time.subtracting(first) ?? .zero).seconds * Double(rate)).rounded())
        try writeWaiting(movingBackFrom: taken)
        let slot = max(nextSlot, taken)
        if let maxDuration, MediaTime(value: slot, timescale: Int64(rate)) >= maxDuration {
            isFull = true
            return
        }
        waiting = (frame, slot)
    }

    /// Writes the waiting frame: one slot earlier when the next frame's slot is `taken` too and
    /// the one before is free.
    private func writeWaiting(movingBackFrom taken: Int64? = nil) throws(MediaIOError) {
        guard let (frame, planned) = waiting else { return }
        waiting = nil
        let slot = planned == taken && planned - 1 >= nextSlot ? planned - 1 : planned
        try writer.write(frame, slot: slot)
        nextSlot = slot + 1
        frameCount += 1
        try writeSound(final: false)
    }

    /// Encodes the sound heard while the pictures written so far were shown, and keeps what was
    /// heard after them for later; at the end, the block that straddles the last picture's end
    /// is cut there and what follows is dropped, so the sound never outlasts the pictures (a
    /// camera thread running late must not let `maxDuration` hear a click it did not show).
    private func writeSound(final: Bool) throws(MediaIOError) {
        guard let listener, let start = firstTakenAt else { return }
        // A microphone that failed while recording leaves the sound it gave; the pictures stay.
        if final, let failure = listener.stopAndWait(within: Self.firstSoundWithin) {
            soundNote = tr("the sound stops early: {reason}", ["reason": "\(failure)"])
        }
        let end = start + written.seconds
        waitingSound += listener.take()
        var used = 0
        for heard in waitingSound {
            let rate = Double(heard.sampleRate)
            let heardUntil = heard.heardAt + Double(heard.sampleCount) / rate
            if heardUntil > end {
                guard final, heard.heardAt < end else { break }
                // Only the samples heard before the end.
                heard.keepFirst(Int(((end - heard.heardAt) * rate).rounded()))
            }
            used += 1
            if !writer.isSoundPlaced {
                // Microseconds: the two clocks' stamps are no finer.
                let offset = Int64(((heard.heardAt - start) * 1_000_000).rounded())
                writer.placeSound(firstSampleAt: MediaTime(value: offset, timescale: 1_000_000))
            }
            try writer.write(heard)
        }
        waitingSound.removeFirst(used)
        if final { waitingSound = [] }
    }

    /// Flushes the encoders, writes the index and moves the file into place: it is playable.
    public func finish() throws(MediaIOError) -> ExportResult {
        guard !ended else { throw .writeFailed(path: url.path, reason: tr("the recording was discarded")) }
        ended = true
        do {
            try writeWaiting()
            try writeSound(final: true)
            return try writer.finish(frameCount: frameCount, duration: written, note: soundNote)
        } catch {
            listener?.stop()
            throw error
        }
    }

    /// Stops recording and throws away what was written: nothing is left.
    public func discard() {
        ended = true
        waiting = nil
        listener?.stop()
        writer.abandon()
    }
}
