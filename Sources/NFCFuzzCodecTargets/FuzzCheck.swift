/// What a fuzz target concluded about one input. Decoders must never trap on any input (that
/// is the crash libFuzzer looks for); a `.mismatch` is the other kind of bug a target finds:
/// a round trip or a protocol invariant that does not hold. The libFuzzer harness traps on it;
/// the regression tests expect `.ok`.
public enum FuzzCheck: Sendable, Equatable {
    case ok
    /// `rule — details`: the part before ` — ` is what crash reports group by.
    case mismatch(String)

    /// The first failing check of several.
    package static func all(_ checks: FuzzCheck...) -> FuzzCheck {
        checks.first { $0 != .ok } ?? .ok
    }

    package static func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> FuzzCheck {
        condition ? .ok : .mismatch(message())
    }
}
