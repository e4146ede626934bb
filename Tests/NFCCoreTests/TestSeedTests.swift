import NFCCore
import NFCTestInputs
import Testing

/// The seed every randomised test runs with: fixed unless NFCTRACE_TEST_SEED says otherwise, and
/// named in failure messages in a form that can be pasted back into the variable.
@Suite struct TestSeedTests {
    @Test func theSeedIsFixedAndNamedSoThatARunCanBeRepeated() {
        let seed = TestSeed(0x5EED)
        let expected: UInt64 = TestSeed.override ?? 0x5EED
        #expect(seed.value == expected)
        #expect(seed.description == "seed 0x\(String(expected, radix: 16, uppercase: true)) (repeat with NFCTRACE_TEST_SEED=0x\(String(expected, radix: 16, uppercase: true)))")
        var a = seed.generator, b = SplitMix64(seed: expected)
        #expect((0..<8).map { _ in a.next() } == (0..<8).map { _ in b.next() })
    }

    @Test func theVariableTakesDecimalAndHexadecimal() {
        #expect(TestSeed.parse("42") == 42)
        #expect(TestSeed.parse("0x2A") == 42)
        #expect(TestSeed.parse(" 0X2a ") == 42)
        #expect(TestSeed.parse("0x") == nil)
        #expect(TestSeed.parse("forty-two") == nil)
        #expect(TestSeed.parse("18446744073709551616") == nil)
    }
}
