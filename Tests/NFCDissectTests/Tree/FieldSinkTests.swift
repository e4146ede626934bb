import Testing
import NFCCore
@testable import NFCDissect

@Suite struct FieldSinkTests {
    /// The fields of a frame come out stably sorted by where they start (fields without a range
    /// last), whatever order the dissector added them in; the sink is empty afterwards.
    @Test func fieldsComeOutInByteOrderStably() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let n = Int(rng.next() % 12)
            var sink = FieldSink(enabled: true)
            var added: [Field] = []
            for i in 0..<n {
                let start = Int(rng.next() % 6)
                let range: Range<Int>? = rng.next() % 5 == 0 ? nil : start..<start + 1
                // The label records the order of adding, so stability is visible.
                let f = Field("k.\(i)", "added \(i)", .hex([UInt8(i)]), range: range, children: i % 3 == 0 ? [Field("c", "c", "x")] : [])
                added.append(f)
                sink.add(f)
            }
            let expected = added.enumerated().sorted {
                let a = $0.element.range?.lowerBound ?? Int.max, b = $1.element.range?.lowerBound ?? Int.max
                return a != b ? a < b : $0.offset < $1.offset
            }.map(\.element)
            #expect(sink.takeInByteOrder() == expected)
            #expect(sink.fields.isEmpty)
        }
    }

    @Test func aDisabledSinkBuildsNothing() {
        var sink = FieldSink(enabled: false)
        var built = 0
        sink.add({ built += 1; return Field("k", "K", "v") }())
        #expect(built == 0)
        #expect(sink.takeInByteOrder().isEmpty)
    }
}

@Suite struct PluralTests {
    /// `plural` writes the count and the word itself; it says what an interpolation says.
    @Test func countsAndWords() {
        for n in [0, 1, 2, 9, 10, 11, 99, 100, 123_456, -1, -12, Int.max, Int.min] {
            for word in ["byte", "record", "", "naïve unit"] {
                #expect(plural(n, word) == "\(n) \(word)\(n == 1 ? "" : "s")")
            }
        }
    }
}
