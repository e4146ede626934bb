import Foundation
import NFCCore
import Testing

/// The seed of a randomised test. Each test has a fixed one, so that a failure happens again on
/// the next run; `NFCTRACE_TEST_SEED` (decimal or `0x` hexadecimal) replaces it in every seeded
/// test, to try other sequences or to repeat a failure seen with one. A seeded test names its
/// seed in its failure messages (`#expect(…, "\(seed)")`), so the run that failed can be repeated.
public struct TestSeed: Sendable, CustomStringConvertible {
    /// The environment variable that overrides every seeded test's fixed seed.
    public static let environmentVariable = "NFCTRACE_TEST_SEED"

    /// The seed the test runs with.
    public let value: UInt64

    /// `fixed`, unless `NFCTRACE_TEST_SEED` is set. A value that is not a number is a test
    /// failure (recorded, and `fixed` used), not silently ignored.
    public init(_ fixed: UInt64) {
        guard let text = ProcessInfo.processInfo.environment[Self.environmentVariable] else {
            value = fixed
            return
        }
        guard let parsed = Self.parse(text) else {
            Issue.record("\(Self.environmentVariable)=\(text) is not a decimal or 0x-hexadecimal 64-bit number")
            value = fixed
            return
        }
        value = parsed
    }

    /// The seed `NFCTRACE_TEST_SEED` sets for every seeded test of this run, nil when it is not
    /// set or not a number.
    public static var override: UInt64? { ProcessInfo.processInfo.environment[environmentVariable].flatMap(parse) }

    /// A decimal or `0x` hexadecimal 64-bit number, blanks around it allowed; nil otherwise.
    public static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt64(trimmed.dropFirst(2), radix: 16) }
        return UInt64(trimmed)
    }

    /// A new generator at the start of this seed's sequence.
    public var generator: SplitMix64 { SplitMix64(seed: value) }

    /// "seed 0x…", with how to run the test again with it.
    public var description: String {
        let hex = "0x" + String(value, radix: 16, uppercase: true)
        return "seed \(hex) (repeat with \(Self.environmentVariable)=\(hex))"
    }
}
