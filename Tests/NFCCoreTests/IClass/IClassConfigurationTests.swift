import Testing
import PropertyBased
import NFCCore

/// The iClass configuration block (block 1): one layout for decode, encode and the dissector.
@Suite struct IClassConfigurationTests {
    @Test func roundTrips() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.value().array(of: 8)) { bytes in
            let config = try? IClass.Configuration.decode(bytes)
            #expect(config?.encode() == bytes)
            #expect(config.map { (try? IClass.Configuration.decode($0.encode())) == $0 } == true)
        }
    }

    /// A Proxmark3 default card's block 1: `12 FF FF FF 7F 1F FF 3C` (application limit 12h,
    /// OTP FFFF, no write lock, PicoPass 16K/2, fuses 3C: non-secured page).
    @Test func readsEachFieldFromItsRow() throws {
        let c = try IClass.Configuration.decode([0x12, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0xFF, 0x3C])
        #expect(c.applicationLimit == 0x12 && c.otp == 0xFFFF && c.writeLock == 0xFF && c.chip == 0x7F && c.memory == 0x1F)
        #expect(c.eas == 0xFF && c.fuses == 0x3C && c.cryptMode == 3)
        let otp = try IClass.Configuration.decode([0, 0x34, 0x12, 0, 0, 0, 0, 0]).otp
        #expect(otp == 0x1234)
        #expect(IClass.Configuration.Layout.fuses.range == 7..<8 && IClass.Configuration.Layout.cardType.range == 4..<6)
    }

    @Test func malformedBlocksSayWhere() {
        #expect(throws: DecodeError(offset: 1, expected: "OTP (2 bytes, LSB first)", found: "1 byte")) {
            try IClass.Configuration.decode([0x12, 0xFF])
        }
        #expect(throws: DecodeError(offset: 7, expected: "fuses", found: "end of data")) {
            try IClass.Configuration.decode([0x12, 0xFF, 0xFF, 0xFF, 0x7F, 0x1F, 0xFF])
        }
        #expect(throws: DecodeError(offset: 8, expected: "end of the 8-byte configuration block", found: "1 extra byte")) {
            try IClass.Configuration.decode([UInt8](repeating: 0, count: 9))
        }
    }
}
