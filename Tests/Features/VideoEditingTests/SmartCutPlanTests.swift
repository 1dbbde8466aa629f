import Foundation
import MediaIO
import Testing
import ViewfinderCore

@testable import VideoEditing

/// A made-up index from a line of pictures in decode order, each a letter and the time it is
/// shown: `I` an IDR, `K` a keyframe that is not an IDR (open GOP), `C` an HEVC CRA, `L` a
/// leading picture, `P` and `B` other pictures, `D` a discarded one. Decode times are the
/// positions less one (one B-frame of delay); `end` is the time after the last frame.
func madeUpIndex(_ pictures: String, end: Int64, decodeTimes: Bool = true) -> PacketIndex {
    var entries: [PacketIndex.Entry] = []
    for (position, word) in pictures.split(separator: " ").enumerated() {
        let pts = Int64(word.dropFirst()) ?? -1
        let letter = word.first ?? "P"
        let kind: PacketIndex.PictureKind = switch letter {
        case "I": .idr
        case "C": .cleanRandomAccess
        case "L": .leading
        default: .other
        }
        entries.append(PacketIndex.Entry(pts: pts, dts: Int64(position) - 1, isKeyframe: "IKC".contains(letter), kind: kind,
                                         isDiscarded: letter == "D"))
    }
    return PacketIndex(entries: entries, keys: entries.map(\.dts), end: end, hasDecodeTimes: decodeTimes)
}

/// Closed GOPs of four with two B-frames, twelve frames (H.264 as phones and x264 write it).
let closedGOPs = madeUpIndex("I0 P3 B1 B2 I4 P7 B5 B6 I8 P11 B9 B10", end: 12)
/// Open GOPs: the second keyframe is not an IDR and its B-frames refer back across it.
let openGOPs = madeUpIndex("I0 P3 B1 B2 K6 B4 B5 P9 B7 B8", end: 10)
/// HEVC with open GOPs: a CRA whose two leading pictures (RASL) are shown before it.
let craGOPs = madeUpIndex("I0 P2 B1 C5 L3 L4 P7 B6", end: 8)

@Suite("Smart cut: the packet index")
struct PacketIndexTests {
    @Test("frames shown are the presentation times in order, discarded packets left out")
    func shown() {
        let index = madeUpIndex("I0 P3 B1 D2 B2", end: 4)
        #expect(index.shown == [0, 1, 2, 3])
        #expect(index.end == 4)
        #expect(index.shownCount(from: 1, to: 3) == 2)
        #expect(index.shownCount(from: 3, to: 1) == 0)
        #expect(index.lowerBound(2) == 2 && index.lowerBound(5) == 4 && index.lowerBound(-1) == 0)
    }

    @Test("the smallest time shown from each decode position on, the end past the last")
    func laterMinimum() {
        #expect(closedGOPs.laterMinimum == [0, 1, 1, 2, 4, 5, 5, 6, 8, 9, 9, 10, 12])
    }

    @Test("packets are found by their decode times")
    func positionsByDecodeTime() {
        #expect(!closedGOPs.keyedByPresentation)
        #expect(closedGOPs.position[-1] == 0 && closedGOPs.position[4] == 5 && closedGOPs.position[10] == 11)
        #expect(closedGOPs.position.count == closedGOPs.entries.count)
    }

    @Test("without decode times (Matroska) they are made from the presentation times, held back by the reordering, and packets are found by presentation time")
    func matroska() {
        let index = madeUpIndex("I0 P3 B1 B2", end: 4, decodeTimes: false)
        #expect(index.keyedByPresentation)
        #expect(index.entries.map(\.dts) == [-1, 0, 1, 2])
        #expect(zip(index.entries.map(\.dts), index.entries.map(\.pts)).allSatisfy { $0 <= $1 })
        #expect(index.position[3] == 1 && index.position[1] == 2)
    }

    @Test("a copy starts at an IDR or a CRA only")
    func copyStarts() {
        #expect(closedGOPs.entries.map(\.startsCopy) == [true, false, false, false, true, false, false, false, true, false, false, false])
        #expect(openGOPs.entries.filter(\.startsCopy).count == 1)
        #expect(craGOPs.entries.map(\.startsCopy) == [true, false, false, true, false, false, false, false])
    }
}

@Suite("Smart cut: the range plan")
struct SmartRangePlanTests {
    @Test("a range from one IDR to the next is copied whole: no head, no tail")
    func onKeyframes() {
        let plan = closedGOPs.plan(keepStart: 4, keepEnd: 8, outputStart: 0, copying: true)
        #expect(plan.copy == 4..<8 && plan.copyShown == 4..<8 && plan.leading.isEmpty)
        #expect(!plan.hasHead && !plan.hasTail)
        #expect(plan.firstPosition == 4 && plan.offset == -4)
    }

    @Test("a range cut mid-GOP at both ends: the head decodes from the IDR before, the tail from the IDR at the copy's end")
    func midGOP() {
        let plan = closedGOPs.plan(keepStart: 5, keepEnd: 10, outputStart: 0, copying: true)
        #expect(plan.copy == 8..<9 && plan.copyShown == 8..<9)
        #expect(plan.headDecodeFrom == 4 && plan.headEnd == 8)
        #expect(plan.tailDecodeFrom == 8 && plan.tailStart == 9)
        #expect(plan.firstPosition == 4)
    }

    @Test("a range ending mid-GOP after B-frames: the copy stops where its packets show one unbroken stretch")
    func endsMidGOP() {
        let plan = closedGOPs.plan(keepStart: 4, keepEnd: 10, outputStart: 0, copying: true)
        // I8 is copied (shown at 8); P11 is not: the B-frames decoded after it are re-encoded.
        #expect(plan.copy == 4..<9 && plan.copyShown == 4..<9)
        #expect(!plan.hasHead && plan.tailDecodeFrom == 8)
    }

    @Test("a range without a keyframe inside is all head, decoded from the keyframe before it")
    func noKeyframe() {
        let plan = closedGOPs.plan(keepStart: 1, keepEnd: 3, outputStart: 0, copying: true)
        #expect(plan.copy == nil && plan.headDecodeFrom == 0 && plan.headEnd == 3 && !plan.hasTail)
    }

    @Test("not copying, every range is all head even where a copy could be made")
    func notCopying() {
        let plan = closedGOPs.plan(keepStart: 4, keepEnd: 8, outputStart: 0, copying: false)
        #expect(plan.copy == nil && plan.headDecodeFrom == 4 && plan.headEnd == 8)
    }

    @Test("open GOP: a keyframe that is not an IDR starts no copy, and decoding starts one keyframe further back")
    func openGOP() {
        let plan = openGOPs.plan(keepStart: 7, keepEnd: 10, outputStart: 0, copying: true)
        #expect(plan.copy == nil)
        #expect(plan.headDecodeFrom == 0, "K6's leading B-frames refer to the GOP before it")
    }

    @Test("HEVC CRA: the copy starts at the CRA, its leading pictures left to the head")
    func cleanRandomAccess() {
        let plan = craGOPs.plan(keepStart: 2, keepEnd: 8, outputStart: 0, copying: true)
        #expect(plan.copy == 3..<8 && plan.copyShown == 5..<8 && plan.leading == 4..<6)
        #expect(plan.headDecodeFrom == 0 && plan.headEnd == 5 && !plan.hasTail)
    }

    @Test("joined ranges are laid end to end on the output's timeline, in the order given")
    func joins() {
        let plans = closedGOPs.plans(for: [(9, 12), (1, 3), (4, 8)], copying: true)
        #expect(plans.map(\.offset) == [-9, 2, 1])
        #expect(plans.map(\.keepStart) == [9, 1, 4] && plans.map(\.keepEnd) == [12, 3, 8])
        #expect(plans.map { $0.copy != nil } == [false, false, true])
    }
}

/// Four closed GOPs of eight, two B-frames between P-frames, 32 frames.
let longGOPs = madeUpIndex((0..<4).map { gop in
    let b = gop * 8
    return "I\(b) P\(b + 3) B\(b + 1) B\(b + 2) P\(b + 6) B\(b + 4) B\(b + 5) P\(b + 7)"
}.joined(separator: " "), end: 32)

@Suite("Smart cut: coded sequences long enough at joins")
struct SmartCutSequenceTests {
    @Test("the reorder depth is how far ahead of its rank in presentation a packet is decoded")
    func reorderDepth() {
        #expect(longGOPs.reorderDepth == 1)
        #expect(madeUpIndex("I0 P1 P2", end: 3).reorderDepth == 0)
    }

    @Test("a copy that would end one frame after an IDR, before the next range's copied IDR, ends a GOP earlier with a tail")
    func lastSequence() {
        let loose = longGOPs.plans(for: [(0, 9), (16, 24)], copying: true)
        #expect(loose[0].copy == 0..<9 && !loose[0].hasTail, "without the rule I8 alone is the copy's last sequence")
        let plans = longGOPs.plans(for: [(0, 9), (16, 24)], copying: true, minimumSequence: 3)
        // Not I8 alone (a sequence of one), nor a one-frame tail: the copy ends after B2.
        #expect(plans[0].copy == 0..<4 && plans[0].copyShown == 0..<4)
        #expect(plans[0].tailStart == 4 && plans[0].tailDecodeFrom == 0)
        #expect(plans[1].copy == 16..<24 && !plans[1].hasHead)
    }

    @Test("a short tail before the next range's copied IDR grows back to an earlier end of the copy")
    func shortTail() {
        let loose = longGOPs.plans(for: [(0, 14), (24, 32)], copying: true)
        #expect(loose[0].copyShown == 0..<12 && loose[0].tailStart == 12, "a tail of two frames")
        let plans = longGOPs.plans(for: [(0, 14), (24, 32)], copying: true, minimumSequence: 3)
        // Not after I8 either (a sequence of one before the tail's IDR): after P7.
        #expect(plans[0].copyShown == 0..<8 && plans[0].tailStart == 8 && plans[0].tailDecodeFrom == 8)
    }

    @Test("a short head after another range starts the copy at the next IDR; the file's first head may be short")
    func shortHead() {
        let loose = longGOPs.plans(for: [(0, 8), (15, 32)], copying: true)
        #expect(loose[1].copy?.lowerBound == 16 && loose[1].headEnd == 16, "a head of one frame")
        let plans = longGOPs.plans(for: [(0, 8), (15, 32)], copying: true, minimumSequence: 3)
        #expect(plans[0].copy == 0..<8 && !plans[0].hasTail)
        #expect(plans[1].copy == 24..<32 && plans[1].headEnd == 24 && plans[1].headDecodeFrom == 8)
        let first = longGOPs.plans(for: [(7, 16), (24, 32)], copying: true, minimumSequence: 3)
        #expect(first[0].copy == 8..<16 && first[0].headEnd == 8, "nothing waits before the file's first head")
    }

    @Test("a tail that goes on into the next range's head is one sequence with it")
    func tailIntoHead() {
        let plans = longGOPs.plans(for: [(0, 14), (23, 32)], copying: true, minimumSequence: 3)
        // The tail (12, 13) and the next head (23) are one encoding of three frames.
        #expect(plans[0].copyShown == 0..<12 && plans[0].tailStart == 12)
        #expect(plans[1].copy == 24..<32 && plans[1].headEnd == 24)
        let short = longGOPs.plans(for: [(0, 13), (23, 32)], copying: true, minimumSequence: 3)
        // A tail of one and a head of one: the head grows to the next IDR's GOP.
        #expect(short[0].tailStart == 12 && short[1].copy == nil)
    }
}

@Suite("Smart cut: decode times")
struct DecodeTimelineTests {
    /// The decode times of the first `count` samples.
    func times(_ timeline: DecodeTimeline, _ count: Int) -> [Int64] { (0..<count).map(timeline.decodeTime(ofSample:)) }

    @Test("a copied GOP with B-frames: decoded one frame ahead at most, one frame apart, each at or before it is shown")
    func copiedGOP() {
        let plan = closedGOPs.plan(keepStart: 4, keepEnd: 8, outputStart: 0, copying: true)
        #expect(closedGOPs.reorderDepth(of: plan) == 1)
        let timeline = closedGOPs.decodeTimeline(of: [plan])
        #expect(timeline.shown == [0, 1, 2, 3] && timeline.depth == 1)
        #expect(times(timeline, 4) == [-1, 0, 1, 2])
        // The copied samples in decode order show 0, 3, 1, 2 (the source's 4, 7, 5, 6 moved by −4).
        #expect(zip(times(timeline, 4), [0, 3, 1, 2] as [Int64]).allSatisfy { $0 <= $1 })
    }

    @Test("a re-encoded stretch has no reordering; a range without a copy needs no delay")
    func noCopy() {
        let plan = closedGOPs.plan(keepStart: 1, keepEnd: 3, outputStart: 0, copying: true)
        #expect(plan.copy == nil && closedGOPs.reorderDepth(of: plan) == 0)
        #expect(times(closedGOPs.decodeTimeline(of: [plan]), 2) == [0, 1])
    }

    @Test("HEVC CRA: the leading pictures left out leave no hole — every sample one frame after the one before")
    func leadingPicturesLeftOut() {
        let plan = craGOPs.plan(keepStart: 2, keepEnd: 8, outputStart: 0, copying: true)
        // Copied: C5 P7 B6 (the leading L3 L4 go to the head): B6 is decoded one place ahead of its rank.
        #expect(craGOPs.reorderDepth(of: plan) == 1)
        let timeline = craGOPs.decodeTimeline(of: [plan])
        // Head 0 1 2 (re-encoded, in order), then the BLA at 3, P at 5, B at 4.
        let decoded = times(timeline, 6), shownAt: [Int64] = [0, 1, 2, 3, 5, 4]
        #expect(decoded == [-1, 0, 1, 2, 3, 4])
        #expect(zip(decoded, shownAt).allSatisfy { $0 <= $1 })
    }

    @Test("joined ranges: one timeline over the output, as deep as the deepest copy")
    func joins() {
        let plans = closedGOPs.plans(for: [(9, 12), (1, 3), (4, 8)], copying: true)
        let timeline = closedGOPs.decodeTimeline(of: plans)
        #expect(timeline.shown == Array(0..<9) && timeline.depth == 1)
        #expect(Set(zip(times(timeline, 9).dropFirst(), times(timeline, 9)).map { $0 - $1 }) == [1])
    }

    @Test("uneven frame times (Matroska's milliseconds): each sample decoded when the frame `depth` places before is shown")
    func unevenTimes() {
        let timeline = DecodeTimeline(shown: [0, 33, 67, 100], depth: 2)
        #expect(times(timeline, 4) == [-66, -33, 0, 33])
        #expect(DecodeTimeline(shown: [], depth: 3).decodeTime(ofSample: 0) == 0)
    }
}
