import Foundation
import ViewfinderCore

/// Names one activated sprite on its layer (`activate()` returns it; `motion.sprite(id)` finds it).
public struct SpriteID: Sendable, Hashable, CustomStringConvertible {
    /// Activation count on the layer, from 0.
    public let number: Int

    /// "sprite #n".
    public var description: String { "sprite #\(number)" }
}

/// Why a sprite stopped, as told to its didStop handler.
public enum SpriteStop: Sendable, Hashable {
    /// It ran to its end (its `then` starts now).
    case finished
    /// `stop()` or `clear()` ended it early (its `then` never starts).
    case interrupted
}

/// A sprite waiting to be activated, with its callbacks and what follows it, possibly on
/// another layer.
struct PendingSprite {
    /// The layer it will animate. Weak: a pending follower is kept in that layer's own records,
    /// and a strong reference there would keep every tree with a chained sprite alive forever.
    weak var layer: Layer?
    let recipe: SpriteRecipe
    var didStop: ((SpriteStop) -> Void)?
    var next: [PendingSprite] = []

    /// The chain with `last` run after its current end.
    func appending(_ last: PendingSprite) -> PendingSprite {
        var copy = self
        copy.next = [next.first.map { $0.appending(last) } ?? last]
        return copy
    }

    /// What starts when this one finishes: a Swift chain's `then`, or a scene's.
    var follower: PendingSprite? {
        if let first = next.first { return first }
        return recipe.then.first.map { PendingSprite(layer: layer, recipe: $0) }
    }
}

/// A scene sprite that was not started because one of its name was running.
struct IgnoredSprite: Sendable, Hashable {
    /// Where the scene file gives it, e.g. "layers[0].sprites[1]".
    let origin: String
    let name: String
    /// When it would have started.
    let time: Double
}

/// Bookkeeping of an active sprite; evaluation never reads it.
struct SpriteRecord {
    let id: SpriteID
    let name: String?
    let didStop: ((SpriteStop) -> Void)?
    let follower: PendingSprite?
    /// Finished, and still listed only because it holds its end state.
    var hasFinished = false
    /// A held sprite that finished in the current delivery of stop events: the finished
    /// sprites before it on its property are dropped when the delivery ends.
    var isNewHold = false
}

/// A layer's presentation at one instant with all its current sprites applied (see
/// `Layer.activationCache`).
struct ActivationCache {
    let time: Double
    let generation: Int
    let model: LayerState
    let state: LayerState
}

/// A stop event found by `Layer.advance(to:)`.
private struct DueStop {
    let layer: Layer
    let id: SpriteID
    let end: Double
    let order: Int
}

extension Layer {
    /// Delivers, in time order, every stop event due by `t` anywhere in this layer's tree:
    /// a finished sprite calls didStop(.finished), starts its `then` at exactly its end time,
    /// and is dropped unless it holds its end state. Call it each frame before
    /// `presentation(at:)` (a `MotionTicker` does); when nothing ends it allocates nothing.
    public func advance(to t: Double) {
        let root = self.root
        guard !root.isSettling else { return }
        root.isSettling = true
        defer {
            root.isSettling = false
            root.eventTime = nil
        }
        while true {
            // Nothing can be due before the earliest end: a frame with no stop costs nothing.
            if t < root.earliestEnd && !root.treeHasFinishedSprites { return }
            var due: [DueStop] = []
            var order = 0
            var nextEnd = Double.infinity
            var finishedRemain = false
            root.collectStops(upTo: t, into: &due, order: &order, nextEnd: &nextEnd, finishedRemain: &finishedRemain)
            root.earliestEnd = nextEnd
            root.treeHasFinishedSprites = finishedRemain
            if due.isEmpty { return }
            due.sort { ($0.end, $0.order) < ($1.end, $1.order) }
            root.earliestNewEnd = .infinity
            var index = 0
            while index < due.count {
                due[index].layer.finish(due[index].id, at: due[index].end)
                index += 1
                // A sprite started by a callback may end before the next event: look again.
                if index < due.count && root.earliestNewEnd < due[index].end { break }
            }
            for stop in due[..<index] where stop.layer.hasNewHolds { stop.layer.dropCoveredHolds() }
        }
    }

    private func collectStops(upTo t: Double, into due: inout [DueStop], order: inout Int,
                              nextEnd: inout Double, finishedRemain: inout Bool) {
        if hasFinishedSprites { purgeFinished(before: t) }
        finishedRemain = finishedRemain || hasFinishedSprites
        for index in records.indices where !records[index].hasFinished {
            let end = tracks[index].timing.end
            if end <= t {
                due.append(DueStop(layer: self, id: records[index].id, end: end, order: order))
            } else {
                nextEnd = min(nextEnd, end)
            }
            order += 1
        }
        for sublayer in sublayers {
            sublayer.collectStops(upTo: t, into: &due, order: &order, nextEnd: &nextEnd, finishedRemain: &finishedRemain)
        }
    }

    /// Finishes one sprite at its end time. Its callback and its follower run while it still
    /// shows its end state, so a follower's "from" continues where it stopped.
    private func finish(_ id: SpriteID, at end: Double) {
        guard let index = recordIndex(of: id), !records[index].hasFinished else { return }
        records[index].hasFinished = true
        let record = records[index]
        let root = self.root
        root.eventTime = end
        record.didStop?(.finished)
        if let follower = record.follower {
            root.eventTime = end
            follower.layer?.activate(follower, at: end)
        }
        guard let now = recordIndex(of: id) else { return }
        if tracks[now].timing.keepsAlive {
            records[now].isNewHold = true
            hasNewHolds = true
        } else {
            // Stays listed until time passes its end, so that presentation(at: end) shows the
            // end state whether or not the stop has been delivered yet.
            hasFinishedSprites = true
            root.treeHasFinishedSprites = true
        }
    }

    /// Drops finished, unheld sprites whose end is before `t`: they show nothing any more.
    private func purgeFinished(before t: Double) {
        var remaining = false
        removeSprites { index in
            guard records[index].hasFinished && !tracks[index].timing.keepsAlive else { return false }
            if tracks[index].timing.end < t { return true }
            remaining = true
            return false
        }
        hasFinishedSprites = remaining
    }

    /// Forgets the finished sprites listed before a held sprite that finished in this delivery
    /// on the same property: it hides them for ever, so a live view's list does not grow
    /// without end. One pass for all the holds that began, however many.
    func dropCoveredHolds() {
        hasNewHolds = false
        var covered = Set<AnimatedProperty>()
        var drop = [Bool](repeating: false, count: records.count)
        for index in records.indices.reversed() {
            if records[index].hasFinished && covered.contains(tracks[index].property) {
                drop[index] = true
            } else if records[index].isNewHold {
                covered.insert(tracks[index].property)
            }
            records[index].isNewHold = false
        }
        removeSprites { drop[$0] }
    }

    /// Removes the sprites at the indices `shouldRemove` picks, keeping the others' order, in
    /// one pass (removing them one by one would move the rest of the list each time).
    private func removeSprites(where shouldRemove: (Int) -> Bool) {
        var kept = 0
        for index in records.indices where !shouldRemove(index) {
            if kept != index {
                records[kept] = records[index]
                tracks[kept] = tracks[index]
            }
            kept += 1
        }
        guard kept < records.count else { return }
        records.removeLast(records.count - kept)
        tracks.removeLast(tracks.count - kept)
    }

    /// Where `id` is listed. Sprites are listed in activation order, so by number: a binary
    /// search keeps finishing each of n sprites from costing n.
    func recordIndex(of id: SpriteID) -> Int? {
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if records[middle].id.number < id.number { low = middle + 1 } else { high = middle }
        }
        return low < records.count && records[low].id == id ? low : nil
    }

    /// Activates a sprite now (or at `time`), reading missing start values from the
    /// presentation then. Stop events due before then are delivered first.
    @discardableResult
    func activate(_ pending: PendingSprite, at time: Double? = nil) -> SpriteID {
        let root = self.root
        let start = time ?? currentTime
        if !root.isSettling { advance(to: start) }
        // A name is the original's activate-as: while one of that name runs, another is ignored.
        if let name = pending.recipe.name, let running = runningSprite(named: name) {
            if let origin = pending.recipe.origin {
                ignoredSprites.append(IgnoredSprite(origin: origin, name: name, time: start))
            }
            return running
        }
        let shown: LayerState
        if let cache = activationCache, cache.generation == trackGeneration, cache.time == start, cache.model == model {
            shown = cache.state
        } else {
            shown = presentation(at: start)
        }
        let track = pending.recipe.resolved(at: start, presentation: shown, model: model)
        let id = SpriteID(number: nextSpriteNumber)
        nextSpriteNumber += 1
        tracks.append(track)
        var next = shown
        track.apply(at: start, to: &next)
        activationCache = ActivationCache(time: start, generation: trackGeneration, model: model, state: next)
        records.append(SpriteRecord(id: id, name: pending.recipe.name, didStop: pending.didStop,
                                    follower: pending.follower))
        root.earliestEnd = min(root.earliestEnd, track.timing.end)
        if root.isSettling { root.earliestNewEnd = min(root.earliestNewEnd, track.timing.end) }
        return id
    }

    /// The sprite running under `name` (activated, not yet finished), if any.
    func runningSprite(named name: String) -> SpriteID? {
        records.first { $0.name == name && !$0.hasFinished }?.id
    }

    /// Whether any sprite on this layer is still running (activated and not yet finished), so
    /// a screen knows to keep drawing frames.
    public var hasRunningSprites: Bool {
        records.contains { !$0.hasFinished }
    }

    /// Whether `id` is activated and has not finished or been stopped.
    func isRunning(_ id: SpriteID) -> Bool {
        recordIndex(of: id).map { !records[$0].hasFinished } ?? false
    }

    /// Ends one sprite: a running one is interrupted (didStop(.interrupted), no `then`); a held
    /// one lets go of its end state. Unknown ids are ignored.
    func stopSprite(_ id: SpriteID) {
        guard let index = recordIndex(of: id) else { return }
        let record = records.remove(at: index)
        tracks.remove(at: index)
        if !record.hasFinished { record.didStop?(.interrupted) }
    }

    /// Ends every sprite on this layer (not its sublayers), running ones as interrupted.
    func clearSprites() {
        let stopped = records
        tracks.removeAll()
        records.removeAll()
        for record in stopped where !record.hasFinished {
            record.didStop?(.interrupted)
        }
    }

    /// How many sprites are running or waiting for their delay (finished ones are not counted,
    /// even while they hold their end state).
    public var activeSpriteCount: Int { records.count { !$0.hasFinished } }
}
