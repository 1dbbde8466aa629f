import Foundation
import ViewfinderCore

// The index a smart cut plans from, and the decode timeline its writer stamps: the mechanism
// under VideoEditing's plan (`SmartCutPlan.swift`), which decides what is copied and what
// re-encoded. Nothing here reads a file (`PacketIndex+Scan.swift` does), so it is tested on
// made-up indexes (`PacketIndexTests`).

/// The video packets of a file in decode order: what a smart cut plans from, by demuxing only.
package struct PacketIndex {
    /// What a packet's picture is to a smart cut.
    package enum PictureKind: Equatable, Sendable {
        /// An IDR: nothing after it refers to anything before it.
        case idr
        /// An HEVC CRA (or BLA): a copy may start there, made a BLA (which starts a new coded
        /// video sequence), its leading pictures re-encoded in the head instead of copied.
        case cleanRandomAccess
        /// An HEVC leading picture (RADL or RASL): shown before the random access point it
        /// follows in decode order.
        case leading
        case other
    }

    package struct Entry {
        package let pts: Int64
        package let dts: Int64
        package let isKeyframe: Bool
        package var kind: PictureKind
        package let isDiscarded: Bool

        /// An IDR picture: nothing after it refers to anything before it.
        package var isIDR: Bool { kind == .idr }
        /// A picture a copy can start at (an IDR, or an HEVC CRA once its leading pictures are
        /// left to the re-encoded head).
        package var startsCopy: Bool { kind == .idr || kind == .cleanRandomAccess }

        package init(pts: Int64, dts: Int64, isKeyframe: Bool, kind: PictureKind, isDiscarded: Bool) {
            self.pts = pts
            self.dts = dts
            self.isKeyframe = isKeyframe
            self.kind = kind
            self.isDiscarded = isDiscarded
        }
    }

    package let entries: [Entry]
    /// Presentation timestamps of the frames shown, ascending.
    package let shown: [Int64]
    /// The timestamp just after the last frame.
    package let end: Int64
    /// The smallest presentation timestamp at or after each decode position (and at `count`, `end`).
    package let laterMinimum: [Int64]
    /// Decode position of each packet, by its demuxed decode timestamp, or by its presentation
    /// timestamp when the container leaves some decode times out (Matroska).
    package let position: [Int64: Int]
    package let keyedByPresentation: Bool

    /// `entries` keyed by `keys`; entries whose container gave no decode time (Matroska) get
    /// one: the presentation times in order, held back by the largest reordering, so that each
    /// is at or before its own presentation and they rise.
    package init(entries raw: [Entry], keys: [Int64], end: Int64, hasDecodeTimes: Bool) {
        var entries = raw
        if !hasDecodeTimes {
            let sorted = raw.map(\.pts).sorted()
            let delay = zip(sorted, raw).map { $0 - $1.pts }.max() ?? 0
            entries = zip(raw, sorted).map { entry, pts in
                Entry(pts: entry.pts, dts: pts - max(0, delay), isKeyframe: entry.isKeyframe, kind: entry.kind,
                      isDiscarded: entry.isDiscarded)
            }
        }
        self.entries = entries
        shown = entries.filter { !$0.isDiscarded }.map(\.pts).sorted()
        self.end = end
        var minimum = [Int64](repeating: end, count: entries.count + 1)
        for i in stride(from: entries.count - 1, through: 0, by: -1) {
            minimum[i] = min(minimum[i + 1], entries[i].pts)
        }
        laterMinimum = minimum
        var position: [Int64: Int] = [:]
        keyedByPresentation = !hasDecodeTimes
        for (i, key) in (hasDecodeTimes ? keys : raw.map(\.pts)).enumerated() { position[key] = i }
        self.position = position
    }

    /// How many frames are shown in `[from, to)`.
    package func shownCount(from: Int64, to: Int64) -> Int {
        guard to > from else { return 0 }
        return lowerBound(to) - lowerBound(from)
    }

    /// The first position in `shown` whose timestamp is at or after `value`.
    package func lowerBound(_ value: Int64) -> Int {
        var (low, high) = (0, shown.count)
        while low < high {
            let mid = (low + high) / 2
            if shown[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// Why a smart cut cannot be made on a file or a range (it then re-encodes, saying so).
package struct SmartCutUnavailable: Error {
    package let reason: String
}

// MARK: - Decode times

/// The decode times of a smart cut's video samples: one frame apart, as the frames are shown.
///
/// The k-th sample in decode order is decoded when the frame shown `depth` places before it
/// is shown: `shown[k - depth]` (the first `depth` samples one frame apart before the first
/// frame). Every sample is then decoded at or before it is shown — a sample k is shown at
/// rank k − (its reorder) ≥ k − depth — and a constant frame rate gives every sample the same
/// duration, across joins and where a CRA's leading pictures were left out (copying their
/// decode times instead leaves a hole there, which players read as a long frame).
package struct DecodeTimeline: Equatable {
    /// The presentation times of every frame of the output, ascending.
    package let shown: [Int64]
    /// How many frames a sample is decoded ahead of its rank in presentation at most.
    package let depth: Int

    package init(shown: [Int64], depth: Int) {
        self.shown = shown
        self.depth = depth
    }

    /// The decode time of the sample at decode position `k` (0 ..< `shown.count`).
    package func decodeTime(ofSample k: Int) -> Int64 {
        guard !shown.isEmpty else { return 0 }
        if k >= depth { return shown[min(k - depth, shown.count - 1)] }
        let step = shown.count > 1 ? shown[1] - shown[0] : 1
        return shown[0] - Int64(depth - k) * max(step, 1)
    }
}
