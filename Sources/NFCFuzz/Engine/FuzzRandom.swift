import NFCCore

/// The fuzzer's only source of randomness: NFCCore's SplitMix64 from a 64-bit seed, with the
/// choices mutations need.
///
/// Every mutation takes one of these by `inout`, so a seed replays the same mutation and no
/// state is shared between callers (libFuzzer hands each custom-mutator call its own seed).
public struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var source: SplitMix64

    /// A source that replays the same choices for the same `seed`.
    public init(seed: UInt64) { source = SplitMix64(seed: seed) }

    /// NFCCore's SplitMix64: full period, good enough mixing for mutation choices.
    public mutating func next() -> UInt64 { source.next() }

    /// 0..<count; 0 when count ≤ 0, so callers never have to guard empty collections twice.
    public mutating func below(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        return Int(next() % UInt64(count))
    }

    /// lower...upper (inclusive); lower when the range is empty.
    public mutating func between(_ lower: Int, _ upper: Int) -> Int {
        upper <= lower ? lower : lower + below(upper - lower + 1)
    }

    /// True with probability percent / 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// True or false, evenly.
    public mutating func bool() -> Bool { next() & 1 == 1 }

    /// Any byte value, evenly.
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }

    /// Any 16-bit value, evenly.
    public mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: next()) }

    /// `count` random bytes (none when `count` ≤ 0).
    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<max(0, count)).map { _ in byte() } }

    /// One element, nil for an empty array.
    public mutating func element<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[below(items.count)]
    }

    /// One of the given values (at least one must be given).
    public mutating func pick<T>(_ first: T, _ rest: T...) -> T {
        let i = below(rest.count + 1)
        return i == 0 ? first : rest[i - 1]
    }

    /// Index of a weight, chosen in proportion to it; 0 when every weight is zero.
    public mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0) { $0 + max(0, $1) }
        guard total > 0 else { return 0 }
        var r = below(total)
        for (i, w) in weights.enumerated() where w > 0 {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// A length up to `maximum`, biased towards small values (most parsers branch on the first
    /// few bytes), with the boundary values that catch off-by-one errors.
    public mutating func length(upTo maximum: Int) -> Int {
        guard maximum > 0 else { return 0 }
        switch below(8) {
        case 0: return maximum
        case 1: return 0
        case 2: return min(maximum, 1)
        case 3...5: return below(min(maximum, 16) + 1)
        default: return below(maximum + 1)
        }
    }

    /// A seed for a nested generator, so that sub-mutations do not consume this one unevenly.
    public mutating func fork() -> FuzzRandom { FuzzRandom(seed: next()) }
}
