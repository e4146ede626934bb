import Testing
@testable import NFCCore

/// The iClass key diversification and MAC (issue 44, point 5): the paper's and loclass's test
/// vectors, and the Proxmark3's `hf iclass lookup` example that finds the AA1 default key.
@Suite struct IClassCipherTests {
    static func bytes(_ hex: String) -> [UInt8] { Hex.parse(hex) ?? [] }

    /// loclass's hash0 vectors (DES output → card key).
    @Test(arguments: [("0102030405060708", "0BDD6512073C460A"), ("1020304050607080", "0208211405F3381F"), ("1122334455667788", "2BEE256D40AC1F3A"),
                      ("ABCDABCDABCDABCD", "A91C9EC66F7DA592"), ("BCDABCDABCDABCDA", "79CA5796A474E19B"), ("CDABCDABCDABCDAB", "A8901B9F7EC76DA4"),
                      ("DABCDABCDABCDABC", "357AA8E0979A5B8D"), ("21BA6565071F9299", "34E80F88D5CF39EA"), ("14E2ADFC5BB7E134", "6AC90C6508BD9EA3")])
    func hash0(_ input: String, _ key: String) {
        #expect(IClassCipher.hash0(Self.bytes(input)) == Self.bytes(key))
    }

    /// "Dismantling iClass": key E033CA419AEE43F9, CC FEFFFFFFFFFFFFFF, NR 0 → MAC 1D49C9DA.
    @Test func thePapersMAC() {
        #expect(IClassCipher.readerMAC(key: Self.bytes("E033CA419AEE43F9"), epurse: Self.bytes("FEFFFFFFFFFFFFFF"), nr: [0, 0, 0, 0]) == Self.bytes("1D49C9DA"))
    }

    /// The Proxmark3's `hf iclass lookup --csn 9655a400f8ff12e0 --epurse f0ffffffffffffff --macs
    /// 0000000089cb984b` finds AE A6 84 A6 DA B2 32 78; a card key of PM3 issue #14's dump.
    @Test func theDefaultKeyIsFound() {
        let csn = Self.bytes("9655A400F8FF12E0"), epurse = Self.bytes("F0FFFFFFFFFFFFFF")
        let key = IClassCipher.diversifiedKey(csn: csn, masterKey: Self.bytes("AEA684A6DAB23278"))
        #expect(key == Self.bytes("D353C1CAD29B341A"))
        #expect(IClassCipher.readerMAC(key: key, epurse: epurse, nr: [0, 0, 0, 0]) == Self.bytes("89CB984B"))
        #expect(IClassKeys.identify(csn: csn, epurse: epurse, nr: [0, 0, 0, 0], readerMAC: Self.bytes("89CB984B"))?.name == "the AA1 default key")
        #expect(IClassKeys.identify(csn: csn, epurse: epurse, nr: [0, 0, 0, 1], readerMAC: Self.bytes("89CB984B")) == nil)
        #expect(IClassCipher.diversifiedKey(csn: Self.bytes("97AD1E01F8FF12E0"), masterKey: Self.bytes("AEA684A6DAB23278")) == Self.bytes("990B050E84A6B30A"))
    }
}
