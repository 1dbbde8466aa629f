import Foundation
import ViewfinderCore

/// A value one thread hands to others once: `settle` sets it, `wait` blocks until it is set.
/// (A probe's result that the thread making an export's cover checks its own reader against.)
final class Handoff<Value: Sendable>: Sendable {
    private let condition = NSCondition()
    /// Written once under `condition`, read under it: the lock orders the two.
    private let slot: Lent<Value?>

    /// A handoff still waiting for its value, or one that has it already.
    init(_ value: Value? = nil) {
        slot = Lent(value)
    }

    /// Sets the value (the first call wins) and wakes every waiter.
    func settle(_ value: Value) {
        condition.lock()
        if slot.value == nil { slot.value = value }
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once set (blocks until then).
    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = slot.value { return value }
            condition.wait()
        }
    }
}
