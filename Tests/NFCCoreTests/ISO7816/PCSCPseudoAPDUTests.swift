import Testing
@testable import NFCCore

/// PC/SC Part 3 pseudo-APDUs and ACS's extensions as one codec: what the replay target encodes
/// is what the emulator's reader decodes (issue 21).
@Suite struct PCSCPseudoAPDUTests {
    @Test(arguments: [
        (PCSCPseudoAPDU.getUID(le: 256), "FFCA000000"),
        (.getHistoricalBytes(le: 256), "FFCA010000"),
        (.loadKey(slot: 0, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), "FF82000006FFFFFFFFFFFF"),
        (.authenticate(block: 0x04, keyType: 0x60, slot: 0), "FF860000050100046000"),
        (.authenticateObsolete(block: 0x04, keyType: 0x61, slot: 1), "FF880004026101"),
        (.readBinary(block: 0x04, le: 16), "FFB0000410"),
        (.updateBinary(block: 0x10, data: [0xCA, 0xFE, 0xF0, 0x0D]), "FFD6001004CAFEF00D"),
        (.directTransmit([0xD4, 0x02]), "FF00000002D402"),
        (.readerFirmware, "FF00480000"),
        (.valueOperation(block: 0x08, operation: .decrement, value: 250), "FFD700080502000000FA"),
        (.valueOperation(block: 0x08, operation: .store, value: -1), "FFD700080500FFFFFFFF"),
        (.restoreValue(source: 0x08, target: 0x09), "FFD70008020309"),
    ] as [(PCSCPseudoAPDU, String)])
    func encodesAndDecodesBack(command: PCSCPseudoAPDU, hex: String) throws {
        #expect(Hex.string(command.encode(), separator: "") == hex)
        let apdu = try CommandAPDU.decode(command.encode())
        #expect(PCSCPseudoAPDU(apdu) == command)
    }

    @Test func otherClassesAreNotPseudoAPDUs() throws {
        #expect(PCSCPseudoAPDU(try CommandAPDU.decode([0x00, 0xA4, 0x04, 0x00, 0x02, 0xE1, 0x03])) == nil)
        // An operation ACS does not define stays an unknown class-FF command.
        #expect(PCSCPseudoAPDU(try CommandAPDU.decode([0xFF, 0xD7, 0x00, 0x08, 0x05, 0x07, 0, 0, 0, 1])) == .other(try CommandAPDU.decode([0xFF, 0xD7, 0x00, 0x08, 0x05, 0x07, 0, 0, 0, 1])))
    }
}
