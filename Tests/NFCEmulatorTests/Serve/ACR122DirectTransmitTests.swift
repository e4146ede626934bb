import Testing
import NFCCore
@testable import NFCEmulator

/// Issue 21, point 3: ACR122 direct transmit through the emulated contactless reader
/// (`FF 00 00 00 Lc D4 …`): the PN532 commands a PC/SC application passes, executed as the chip
/// does with the card the reader activated.
@Suite struct ACR122DirectTransmitTests {
    static func reader(_ model: String) throws -> PCSCContactlessCard {
        let tag = try #require(BuiltInTag.named(model)?.make().makeTag())
        let reader = try #require(PCSCContactlessCard(tag: tag))
        #expect(reader.powerOn())
        return reader
    }

    static func direct(_ r: PCSCContactlessCard, _ pn532: [UInt8]) -> [UInt8] {
        r.transmit([0xFF, 0x00, 0x00, 0x00, UInt8(pn532.count)] + pn532)
    }

    static let ok: [UInt8] = [0x90, 0x00]

    @Test func firmwareAndType2ThroughTheChip() throws {
        let r = try Self.reader("ntag215")
        #expect(r.transmit([0xFF, 0x00, 0x48, 0x00, 0x00]) == Array("ACR122U215".utf8))
        #expect(Self.direct(r, [0xD4, 0x02]) == [0xD5, 0x03] + PN532.firmwareVersion + Self.ok)
        let readBinary = r.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])
        // InDataExchange READ 4 and InCommunicateThru READ 4 give the same 16 bytes as FF B0.
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0x30, 0x04]) == [0xD5, 0x41, 0x00] + readBinary)
        #expect(Self.direct(r, [0xD4, 0x42, 0x30, 0x04]) == [0xD5, 0x43, 0x00] + readBinary)
        // WRITE page 5 (the chip takes the 4-bit ACK), read back.
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0xA2, 0x05, 0xCA, 0xFE, 0xBA, 0xBE]) == [0xD5, 0x41, 0x00] + Self.ok)
        #expect(Array(r.transmit([0xFF, 0xB0, 0x00, 0x05, 0x04]).prefix(4)) == [0xCA, 0xFE, 0xBA, 0xBE])
        // A page past the end: the tag NAKs, the chip reports no success.
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0xA2, 0xF0, 0, 0, 0, 0]) == [0xD5, 0x41, PN532.Status.timeout.rawValue] + Self.ok)
        // InListPassiveTarget 106 A: one target, SENS_RES most significant byte first, SEL_RES, NFCID1.
        #expect(Self.direct(r, [0xD4, 0x4A, 0x01, 0x00]) == [0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xE1, 0x7A, 0x20, 0x4B, 0x2C, 0x80] + Self.ok)
        #expect(Self.direct(r, [0xD4, 0xEE]) == [0x63, 0x7F], "no such PN532 command")
    }

    // InAutoPoll (what nfc-poll sends): the type found, then InListPassiveTarget's target data.
    @Test func autoPollFindsTheCard() throws {
        let r = try Self.reader("ntag215")
        let target: [UInt8] = [0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xE1, 0x7A, 0x20, 0x4B, 0x2C, 0x80]
        #expect(r.pn532([0xD4, 0x60, 0x01, 0x01, 0x11, 0x10]) == [0xD5, 0x61, 0x01, 0x10, UInt8(target.count)] + target, "FeliCa asked first, a MIFARE card found")
        let felica = try Self.reader("felica-lite-s")
        let found = try #require(felica.pn532([0xD4, 0x60, 0x01, 0x01, 0x10, 0x11]))
        #expect(found.prefix(4) == [0xD5, 0x61, 0x01, 0x11] && found[6] == 0x14 && found[7] == 0x01, "the Polling answer with the system code asked for: length 14, code 01")
    }

    @Test func mifareClassicAuthenticationRunsOnTheChip() throws {
        let r = try Self.reader("mifare-classic-1k")
        let uid: [UInt8] = [0x4E, 0x2A, 0x91, 0xC3]
        let key = [UInt8](repeating: 0xFF, count: 6)
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0x60, 0x04] + [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5] + uid) == [0xD5, 0x41, PN532.Status.mifareAuthenticationError.rawValue] + Self.ok)
        // The reader selects the card again after a refused authentication (as the chip must).
        #expect(Self.direct(r, [0xD4, 0x4A, 0x01, 0x00]).prefix(3) == [0xD5, 0x4B, 0x01])
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0x60, 0x04] + key + uid) == [0xD5, 0x41, 0x00] + Self.ok)
        let data: [UInt8] = Array(0..<16)
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0xA0, 0x05] + data) == [0xD5, 0x41, 0x00] + Self.ok)
        #expect(Self.direct(r, [0xD4, 0x40, 0x01, 0x30, 0x05]) == [0xD5, 0x41, 0x00] + data + Self.ok)
    }

    @Test func isoDEPIsFramedByTheChip() throws {
        let r = try Self.reader("type4-ndef")
        let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07] + Type4Tag.ndefApplication + [0x00]
        #expect(Self.direct(r, [0xD4, 0x40, 0x01] + select) == [0xD5, 0x41, 0x00, 0x90, 0x00] + Self.ok)
        let target = Self.direct(r, [0xD4, 0x4A, 0x01, 0x00])
        #expect(target.prefix(4) == [0xD5, 0x4B, 0x01, 0x01] && target[6] == 0x20, "SAK 20")
        let uidLength = Int(target[7])
        let ats = Array(target[(8 + uidLength)...].dropLast(2))
        #expect(ats.first.map(Int.init) == ats.count && (try? ATS.decode(ats)) != nil, "the ATS follows the UID, TL first: \(Hex.string(ats))")
    }
}
