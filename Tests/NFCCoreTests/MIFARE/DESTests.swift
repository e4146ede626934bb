import Testing
@testable import NFCCore

@Suite struct DESTests {
    static func hex(_ s: String) -> [UInt8] { Hex.parse(s)! }

    /// The worked example of the DES literature (key 133457799BBCDFF1) and the FIPS 81 test
    /// ("Now is t" under 0123456789ABCDEF).
    @Test func publishedVectors() {
        let des = DES(key: Self.hex("133457799BBCDFF1"))
        #expect(des.encrypt(Self.hex("0123456789ABCDEF")) == Self.hex("85E813540F0AB405"))
        #expect(des.decrypt(Self.hex("85E813540F0AB405")) == Self.hex("0123456789ABCDEF"))
        #expect(DES(key: Self.hex("0123456789ABCDEF")).encrypt(Array("Now is t".utf8)) == Self.hex("3FA40E8A984D4815"))
    }

    @Test func tripleDESWithEqualHalvesIsDES() {
        let key = Self.hex("133457799BBCDFF1")
        let t = TripleDES(key: key + key)
        #expect(t.encryptBlock(Self.hex("0123456789ABCDEF")) == Self.hex("85E813540F0AB405"))
        var rng = SplitMix64(seed: 9)
        let k = (0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let data = (0..<24).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let iv = (0..<8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let t2 = TripleDES(key: k)
        #expect(t2.decryptCBC(t2.encryptCBC(data, iv: iv), iv: iv) == data)
    }
}
