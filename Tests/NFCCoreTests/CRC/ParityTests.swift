import Testing
import PropertyBased
@testable import NFCCore

/// ISO/IEC 14443-A bits with their parity as a PN53x sends them with its parity generation off
/// (issue 21: MIFARE Classic through libnfc).
@Suite struct ParityTests {
    /// `30 00` with odd parity: 0x30 has two bits set (parity 1), 0x00 none (parity 1). Bit 8 (the
    /// first parity bit) is bit 0 of the second byte, bit 17 bit 1 of the third: 30 01 02.
    @Test func twoBytesAsTheAirCarriesThem() {
        let wrapped = Parity.wrap([0x30, 0x00], parity: Parity.bits([0x30, 0x00], errors: nil), bits: 16)
        #expect(wrapped.bits == 18)
        #expect(wrapped.bytes == [0x30, 0x01, 0x02])
        let back = Parity.unwrap(wrapped.bytes, bits: wrapped.bits)
        #expect(back.bytes == [0x30, 0x00] && back.parity == [1, 1] && back.lastByteBits == 8)
    }

    /// A short frame (REQA, 7 bits) and a 4-bit ACK go without parity.
    @Test func framesShorterThanNineBitsHaveNoParity() {
        let reqa = Parity.wrap([0x26], parity: [], bits: 7)
        #expect(reqa.bytes == [0x26] && reqa.bits == 7)
        let ack = Parity.unwrap([0x0A], bits: 4)
        #expect(ack.bytes == [0x0A] && ack.parity.isEmpty && ack.lastByteBits == 4)
    }

    /// Any bytes with any parity bits come back as they went, and `bits`/`parityErrors` agree.
    @Test func roundTrip() async {
        await propertyCheck(input: Gen<UInt8>.value().array(of: 2...40), Gen<UInt8>.value().array(of: 40)) { bytes, flips in
            let errors = bytes.indices.filter { flips[$0] & 1 == 1 }
            let parity = Parity.bits(bytes, errors: errors)
            let wrapped = Parity.wrap(bytes, parity: parity, bits: bytes.count * 8)
            #expect(wrapped.bits == bytes.count * 9)
            let back = Parity.unwrap(wrapped.bytes, bits: wrapped.bits)
            #expect(back.bytes == bytes && back.parity == parity)
            #expect(Crypto1.parityErrors(sent: back.bytes, parity: back.parity) == errors)
        }
    }

    /// The error list as readers and users can give it (issue 51, point 3, where it is read in one
    /// pass): a position listed twice is one error, positions outside the frame are left out.
    @Test func errorListsAsGiven() {
        let bytes: [UInt8] = [0x30, 0x00, 0x01]
        #expect(Parity.bits(bytes, errors: [1, 1, -1, 3, 99]) == [1, 0, 0])
        #expect(Parity.errorFlags([2, 2, -5, 3], count: 3) == [false, false, true])
        #expect(Parity.errorFlags(nil, count: 2) == [false, false])
    }
}
