import Foundation
import MediaIO
import ViewfinderCore

// Pure logic over timestamps and keyframe flags: what a smart cut copies and what it
// re-encodes, planned over MediaIO's `PacketIndex`. Nothing here reads a file, so it is tested
// on made-up indexes (`SmartCutPlanTests`).

/// What a smart cut does with one kept range: the frames shown in `[keepStart, keepEnd)`
/// (stream ticks) go to the output `offset` ticks later. Frames before `copyShown` are
/// re-encoded (the head), the packets at decode positions `copy` are copied, the frames after
/// `copyShown` are re-encoded (the tail). Without a copy the head is the whole range.
struct SmartRangePlan {
    let keepStart: Int64
    let keepEnd: Int64
    let offset: Int64
    let copy: Range<Int>?
    let copyShown: Range<Int64>
    /// Decode positions inside `copy` that are not copied: the leading pictures of an HEVC CRA
    /// the copy starts at (shown before it, they belong to the head, which is re-encoded).
    var leading: Range<Int> = 0..<0
    /// Where the head's and the tail's decoders start (decode positions of keyframes).
    let headDecodeFrom: Int?
    let tailDecodeFrom: Int?

    var headEnd: Int64 { copy == nil ? keepEnd : copyShown.lowerBound }
    var tailStart: Int64 { copyShown.upperBound }
    var hasHead: Bool { headDecodeFrom != nil }
    var hasTail: Bool { tailDecodeFrom != nil }
    /// Whether the range's last frames are re-encoded (a tail, or a head that is the whole range).
    var endsReencoded: Bool { hasTail || (copy == nil && hasHead) }
    /// The first decode position the range reads.
    var firstPosition: Int { [headDecodeFrom, copy?.lowerBound, tailDecodeFrom].compactMap { $0 }.min() ?? 0 }
}

extension PacketIndex {
    /// The least a copy leaves at its edges, in frames: a head of none or `head`, a tail of none
    /// or `tail`, and `lastSequence` packets from the copy's last IDR to its end where a tail or
    /// (`followed`) another range comes after it.
    struct CopyEdges {
        var head = 1
        var tail = 1
        var lastSequence = 1
        var followed = false
    }

    /// The plans of `ranges` (`[start, end)` in stream ticks, each non-empty), laid end to end
    /// on the output's timeline from 0 in the order given.
    ///
    /// With `minimumSequence` above 1, every coded sequence (IDR to IDR) that another follows,
    /// but the file's first, holds at least that many frames: a copy ends earlier (a longer
    /// tail, or its last sequence whole) or starts later (a longer head). openh264 before 2.4.1
    /// (Debian 12 has 2.3.1) shows the pictures still waiting at an IDR one per picture decoded
    /// after it, and at the next IDR sorts what is left of both sequences together by picture
    /// order count: a sequence shorter than the pictures waiting at its start comes out of
    /// order (fixed upstream in openh264 #3707).
    func plans(for ranges: [(start: Int64, end: Int64)], copying: Bool, minimumSequence: Int = 1) -> [SmartRangePlan] {
        var starts: [Int64] = []
        var outputStart: Int64 = 0
        for range in ranges {
            starts.append(outputStart)
            outputStart += range.end - range.start
        }
        var plans = zip(ranges, starts).map { range, start in
            plan(keepStart: range.start, keepEnd: range.end, outputStart: start, copying: copying)
        }
        guard copying, minimumSequence > 1 else { return plans }
        // Frames of the re-encoded sequence still open at the end of the ranges planned so far.
        var open = 0
        for n in plans.indices {
            let range = ranges[n]
            // A tail before the next range's copied IDR is a sequence of its own; a tail before
            // the next range's head is one encoding with it.
            let nextStartsCopied = n + 1 < plans.count && !plans[n + 1].hasHead && plans[n + 1].copy != nil
            let edges = CopyEdges(head: n > 0 ? max(1, minimumSequence - open) : 1,
                                  tail: nextStartsCopied ? minimumSequence : 1,
                                  lastSequence: minimumSequence, followed: n + 1 < plans.count)
            plans[n] = plan(keepStart: range.start, keepEnd: range.end, outputStart: starts[n], copying: true, edges: edges)
            if plans[n].copy != nil {
                open = plans[n].hasTail ? tailFrames(plans[n]) : 0
            } else {
                open += shownCount(from: range.start, to: range.end)
            }
        }
        return plans
    }

    private func tailFrames(_ plan: SmartRangePlan) -> Int { shownCount(from: plan.tailStart, to: plan.keepEnd) }

    /// The plan of one range `[keepStart, keepEnd)` placed at output tick `outputStart`. With
    /// `copying` false (a full re-encode), everything is head. The copy leaves edges as long as
    /// `edges` asks.
    func plan(keepStart: Int64, keepEnd: Int64, outputStart: Int64, copying: Bool,
              edges: CopyEdges = CopyEdges()) -> SmartRangePlan {
        let offset = outputStart - keepStart
        if copying, let (copy, shownRange, leading) = copyStretch(keepStart: keepStart, keepEnd: keepEnd, edges: edges) {
            let head = shownRange.lowerBound > keepStart ? decodeStart(covering: keepStart, before: copy.lowerBound) : nil
            let tail = shownRange.upperBound < keepEnd ? tailDecodeStart(copyEnd: copy.upperBound, copyStart: copy.lowerBound) : nil
            let headOK = head != nil || shownRange.lowerBound == keepStart
            let tailOK = tail != nil || shownRange.upperBound >= keepEnd
            if headOK && tailOK {
                return SmartRangePlan(keepStart: keepStart, keepEnd: keepEnd, offset: offset, copy: copy,
                                      copyShown: shownRange, leading: leading, headDecodeFrom: head, tailDecodeFrom: tail)
            }
        }
        return SmartRangePlan(keepStart: keepStart, keepEnd: keepEnd, offset: offset, copy: nil,
                              copyShown: keepEnd..<keepEnd,
                              headDecodeFrom: decodeStart(covering: keepStart, before: entries.count) ?? 0,
                              tailDecodeFrom: nil)
    }

    /// The longest run of packets that can be copied for `[keepStart, keepEnd)`: it starts at an
    /// IDR (or an HEVC CRA, leaving out its leading pictures) shown inside the range and ends
    /// where the packets so far show exactly the frames of one unbroken stretch, nothing decoded
    /// later being shown inside it (at a keyframe, or between two groups of B-frames), leaving
    /// edges of the lengths `edges` asks for.
    private func copyStretch(keepStart: Int64, keepEnd: Int64, edges: CopyEdges) -> (Range<Int>, Range<Int64>, Range<Int>)? {
        var earlierMaximum = Int64.min
        for k in entries.indices {
            defer { earlierMaximum = max(earlierMaximum, entries[k].pts) }
            let start = entries[k].pts
            // Nothing decoded before the start may be shown after it.
            guard entries[k].startsCopy, start >= keepStart, start < keepEnd, earlierMaximum < start else { continue }
            let head = shownCount(from: keepStart, to: start)
            guard head == 0 || head >= edges.head else { continue }
            // A CRA's leading pictures follow it at once in decode order and are shown before it.
            var leadingEnd = k + 1
            if entries[k].kind == .cleanRandomAccess {
                while leadingEnd < entries.count, entries[leadingEnd].kind == .leading, entries[leadingEnd].pts < start {
                    leadingEnd += 1
                }
            }
            let leading = (k + 1)..<leadingEnd
            var best: (Range<Int>, Range<Int64>, Range<Int>)?
            var (low, high) = (start, start)
            var lastIDR = k
            if entries[k].isDiscarded { continue }
            for l in leadingEnd...entries.count {
                if l > leadingEnd {
                    let entry = entries[l - 1]
                    if entry.isDiscarded { break }
                    low = min(low, entry.pts)
                    high = max(high, entry.pts)
                    if entry.isIDR { lastIDR = l - 1 }
                }
                let stop = laterMinimum[l]
                if stop > keepEnd { break }
                let tail = shownCount(from: stop, to: keepEnd)
                if low == start, high < stop, l - k - leading.count == shownCount(from: start, to: stop),
                   tail == 0 || tail >= edges.tail, (tail == 0 && !edges.followed) || l - lastIDR >= edges.lastSequence {
                    best = (k..<l, start..<stop, leading)
                }
            }
            if let best { return best }
        }
        return nil
    }

    /// The keyframe to start decoding from so that every frame shown in `[target, …)` that is
    /// decoded before position `limit` comes out right: the last keyframe shown at or before
    /// `target`, one further back when it is not an IDR (its leading pictures refer to the
    /// group before it).
    private func decodeStart(covering target: Int64, before limit: Int) -> Int? {
        let candidates = entries.indices.prefix(limit).filter { entries[$0].isKeyframe && entries[$0].pts <= target }
        guard let last = candidates.last else { return entries.first?.isKeyframe == true ? 0 : nil }
        if entries[last].isIDR || candidates.count == 1 { return last }
        return candidates[candidates.count - 2]
    }

    /// Where the tail's decoder starts: at the end of the copy when an IDR lies there, otherwise
    /// at the keyframe before (one further back when that one is not an IDR), so that every
    /// frame shown after the copy has its references.
    private func tailDecodeStart(copyEnd: Int, copyStart: Int) -> Int? {
        guard copyEnd < entries.count else { return nil }
        if entries[copyEnd].isIDR { return copyEnd }
        let keyframes = entries.indices.prefix(copyEnd + 1).filter { entries[$0].isKeyframe }
        guard let last = keyframes.last else { return nil }
        if entries[last].isIDR || keyframes.count == 1 { return last }
        return keyframes[keyframes.count - 2]
    }
}


extension PacketIndex {
    /// The decode timeline of a cut made of `plans`: the kept frames at their output times, and
    /// the largest reordering of any copied stretch (re-encoded stretches are made to reorder
    /// no deeper: `EncoderLanes`).
    func decodeTimeline(of plans: [SmartRangePlan]) -> DecodeTimeline {
        let shownOut = plans.flatMap { plan in
            shown[lowerBound(plan.keepStart)..<lowerBound(plan.keepEnd)].map { $0 + plan.offset }
        }
        return DecodeTimeline(shown: shownOut, depth: plans.map(reorderDepth(of:)).max() ?? 0)
    }

    /// How far ahead of its rank in presentation a copied packet of `plan` is decoded, at most
    /// (0 without a copy): within the copied packets, decode position minus presentation rank.
    func reorderDepth(of plan: SmartRangePlan) -> Int {
        guard let copy = plan.copy else { return 0 }
        return Self.reorderDepth(copy.filter { !plan.leading.contains($0) && !entries[$0].isDiscarded }.map { entries[$0].pts })
    }

    /// How far ahead of its rank in presentation any packet of the track is decoded, at most.
    var reorderDepth: Int { Self.reorderDepth(entries.filter { !$0.isDiscarded }.map(\.pts)) }

    /// The largest decode position minus presentation rank among `times` in decode order.
    private static func reorderDepth(_ times: [Int64]) -> Int {
        let rank = Dictionary(times.sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return times.enumerated().map { $0 - (rank[$1] ?? $0) }.max() ?? 0
    }
}
