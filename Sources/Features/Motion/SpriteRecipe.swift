import Foundation
import ViewfinderCore

/// What a sprite will do, before it is activated: its values may still be missing ("from the
/// current presentation value") and its start time is not yet known.
struct SpriteRecipe: Sendable {
    var property: AnimatedProperty
    var from: AnimatableValue?
    var to: AnimatableValue?
    var by: AnimatableValue?
    var keyframes: KeyframeTrack?
    var path: MotionPath?
    /// How far along the path (0…1) the sprite goes.
    var pathStop = 1.0
    /// Set by `.duration(_:)`; otherwise a spring's settling time or the appearance's duration.
    var duration: Double?
    var defaultDuration: Double
    var delay: Double
    var repetition: Repetition
    var autoreverses: Bool
    var curve: TimingCurve
    var keepsAlive: Bool
    /// Adds its value to what is on screen beneath it instead of replacing it (Core Animation's `additive`).
    var additive = false
    /// Each repeat starts where the previous one ended (Core Animation's `cumulative`).
    var cumulative = false
    var name: String?
    /// Where a scene file gives this sprite ("layers[0].sprites[1]"); nil for the Swift chain.
    var origin: String?
    /// Scenes keep their chains here (a Sendable value); the Swift chain keeps them with callbacks.
    var then: [SpriteRecipe] = []

    init(property: AnimatedProperty, appearance: SpriteAppearance) {
        self.property = property
        defaultDuration = appearance.duration
        delay = appearance.delay
        repetition = appearance.repetition
        autoreverses = appearance.autoreverses
        curve = appearance.curve
        keepsAlive = appearance.keepsAlive
    }

    /// The seconds one pass lasts.
    var resolvedDuration: Double {
        if let duration { return duration }
        if case .spring(let spring) = curve, spring.settlingDuration.isFinite { return spring.settlingDuration }
        return defaultDuration
    }

    /// A grouped sprite's start and end, part by part: a part `from` leaves out starts on screen,
    /// one `to` and `by` leave out ends at the model value.
    private func groupCourse(presentation: LayerState, model: LayerState) -> SpriteTrack.Course {
        func values(_ value: AnimatableValue?) -> [AnimatableValue?] {
            if case .group(let values)? = value, values.count == property.parts.count { return values }
            return Array(repeating: nil, count: property.parts.count)
        }
        let from = values(from), to = values(to), by = values(by)
        var starts: [AnimatableValue?] = [], ends: [AnimatableValue?] = []
        for (index, part) in property.parts.enumerated() {
            let start = from[index] ?? part.property.value(in: presentation)
            starts.append(start)
            ends.append(to[index] ?? by[index].map { start.adding($0) } ?? part.property.value(in: model))
        }
        return .between(.group(starts), .group(ends))
    }

    /// The sprite as it runs from `time`: missing start values are read from `presentation`
    /// (what is on screen then) and a missing end value from `model`, as in Core Animation.
    func resolved(at time: Double, presentation: LayerState, model: LayerState) -> SpriteTrack {
        let course: SpriteTrack.Course
        if let path {
            course = .path(MeasuredPath(path, start: presentation.position), stop: pathStop)
        } else if let keyframes, !keyframes.values.isEmpty {
            course = .keyframes(keyframes)
        } else if !property.parts.isEmpty {
            course = groupCourse(presentation: presentation, model: model)
        } else {
            let start = from ?? property.value(in: presentation)
            let end = to ?? by.map { start.adding($0) } ?? property.value(in: model)
            course = .between(start, end)
        }
        let timing = SpriteTiming(begin: time + max(delay.isFinite ? delay : 0, 0), duration: resolvedDuration,
                                  repetition: repetition, autoreverses: autoreverses, curve: curve, keepsAlive: keepsAlive)
        var cycleOffset: AnimatableValue?
        if cumulative {
            switch course {
            case .between(let start, let end): cycleOffset = end.adding(start.scaled(by: -1))
            case .keyframes(let track):
                if let first = track.values.first, let last = track.values.last { cycleOffset = last.adding(first.scaled(by: -1)) }
            case .path(let path, let stop):
                let a = path.point(atProgress: 0, duration: 1), b = path.point(atProgress: stop, duration: 1)
                cycleOffset = .point(Point(x: b.x - a.x, y: b.y - a.y))
            }
        }
        return SpriteTrack(property: property, course: course, timing: timing, additive: additive, cycleOffset: cycleOffset)
    }
}

/// An activated sprite reduced to what evaluation needs: a property, a course and a timing.
/// Evaluating it reads only these values, so a frame allocates nothing.
struct SpriteTrack: Sendable {
    /// The values the sprite goes through.
    enum Course: Sendable {
        case between(AnimatableValue, AnimatableValue)
        case keyframes(KeyframeTrack)
        case path(MeasuredPath, stop: Double)
    }

    let property: AnimatedProperty
    let course: Course
    let timing: SpriteTiming
    /// Whether the value is added to what is beneath.
    var additive = false
    /// For a cumulative sprite, what each completed cycle adds (its end minus its start).
    var cycleOffset: AnimatableValue?

    /// Writes the sprite's value at `time` into `state`; does nothing when it shows nothing then.
    func apply(at time: Double, to state: inout LayerState) {
        guard let progress = timing.progress(at: time) else { return }
        if additive || cycleOffset != nil {
            applyCombined(at: time, progress: progress, to: &state)
            return
        }
        switch course {
        case .between(let start, let end):
            if property.kind == .image {
                crossFade(from: start, to: end, progress: progress, in: &state)
            } else if case .group(let starts) = start, case .group(let ends) = end, !property.parts.isEmpty {
                // Part by part, so that a group allocates no array per frame.
                for index in 0..<min(property.parts.count, starts.count, ends.count) {
                    guard let a = starts[index], let b = ends[index] else { continue }
                    property.parts[index].property.set(a.interpolated(to: b, fraction: progress), in: &state)
                }
            } else {
                property.set(start.interpolated(to: end, fraction: progress), in: &state)
            }
        case .keyframes(let keyframes):
            if let value = keyframes.value(at: progress, duration: timing.duration) { property.set(value, in: &state) }
        case .path(let path, let stop):
            property.set(.point(path.point(atProgress: progress * stop, duration: timing.duration)), in: &state)
        }
    }

    /// An additive or cumulative sprite: its value, plus what completed cycles add, plus (when
    /// additive) what is beneath it.
    private func applyCombined(at time: Double, progress: Double, to state: inout LayerState) {
        var value: AnimatableValue
        switch course {
        case .between(let start, let end): value = start.interpolated(to: end, fraction: progress)
        case .keyframes(let keyframes):
            guard let found = keyframes.value(at: progress, duration: timing.duration) else { return }
            value = found
        case .path(let path, let stop): value = .point(path.point(atProgress: progress * stop, duration: timing.duration))
        }
        if let cycleOffset {
            let cycles = Double(timing.completedCycles(at: time))
            if cycles > 0 { value = value.adding(cycleOffset.scaled(by: cycles)) }
        }
        if additive { value = property.value(in: state).adding(value) }
        property.set(value, in: &state)
    }

    /// Pictures do not interpolate: the new one shows over the old with a growing share.
    private func crossFade(from start: AnimatableValue, to end: AnimatableValue, progress: Double,
                           in state: inout LayerState) {
        guard case .image(let old) = start, case .image(let new) = end else { return }
        if progress <= 0 {
            state.contents = old
            state.contentsCrossFade = nil
        } else if progress >= 1 {
            state.contents = new
            state.contentsCrossFade = nil
        } else {
            state.contents = new
            state.contentsCrossFade = ContentsCrossFade(from: old, progress: progress)
        }
    }
}
