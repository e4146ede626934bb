import Testing
import NFCCore
@testable import NFCEmulator

/// Issue 21, point 3: FeliCa and ISO 15693 tags in the emulated contactless PC/SC reader.
@Suite struct PCSCFeliCaISO15693Tests {
    static func reader(_ model: String) throws -> PCSCContactlessCard {
        let tag = try #require(BuiltInTag.named(model)?.make().makeTag())
        let reader = try #require(PCSCContactlessCard(tag: tag))
        #expect(reader.powerOn())
        return reader
    }

    static let ok: [UInt8] = [0x90, 0x00]

    @Test func feliCaByPollingIDmAndCommandsThrough() throws {
        let r = try Self.reader("felica-lite-s")
        // The storage-card ATR with standard 11 and name 003B (ACS's FeliCa ATR, TCK 42).
        #expect(r.atr == [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x11, 0x00, 0x3B, 0x00, 0x00, 0x00, 0x00, 0x42])
        let idmAnswer = r.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        #expect(idmAnswer.count == 10 && Array(idmAnswer.suffix(2)) == Self.ok)
        let idm = try #require(FeliCaIDm(Array(idmAnswer.prefix(8))))
        // Read Without Encryption, service 000B, block 0, through FF 00 00 00 (length byte first).
        let read = FeliCaCommand.readWithoutEncryption(idm: idm, services: [FeliCaServiceCode(rawValue: 0x000B)], blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)]).encode()
        let answer = r.transmit([0xFF, 0x00, 0x00, 0x00, UInt8(read.count)] + read)
        #expect(Array(answer.suffix(2)) == Self.ok)
        let response = try FeliCaResponse.decode(Array(answer.dropLast(2)), answering: try FeliCaCommand.decode(read))
        guard case .readWithoutEncryption(let id, let status, let blocks) = response else { Issue.record("\(response)"); return }
        #expect(id == idm && status.isSuccess && blocks.count == 1 && blocks[0].count == 16)
        // The same through the PN532 (direct transmit): D5 41 00 + the answer.
        let direct = r.transmit([0xFF, 0x00, 0x00, 0x00, UInt8(read.count + 3), 0xD4, 0x40, 0x01] + read)
        #expect(direct == [0xD5, 0x41, 0x00] + answer)
        #expect(r.transmit([0xFF, 0xB0, 0x00, 0x00, 0x10]) == [0x6A, 0x81], "no READ BINARY for FeliCa")
    }

    @Test func iso15693ByInventoryUIDAndBlocks() throws {
        let r = try Self.reader("slix2")
        #expect(r.atr?.prefix(15) == [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x0B, 0x00, 0x14], "ISO 15693 part 3, ICODE SLI")
        // UID E0 04 01 08 49 D0 DC 81, as the VICC sends it (least significant byte first).
        #expect(r.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]) == [0x81, 0xDC, 0xD0, 0x49, 0x08, 0x01, 0x04, 0xE0] + Self.ok)
        let cc = r.transmit([0xFF, 0xB0, 0x00, 0x00, 0x04])
        #expect(cc.count == 6 && cc[0] == 0xE1 && Array(cc.suffix(2)) == Self.ok, "block 0: the NDEF CC")
        #expect(r.transmit([0xFF, 0xD6, 0x00, 0x05, 0x04, 0xCA, 0xFE, 0xF0, 0x0D]) == Self.ok)
        #expect(r.transmit([0xFF, 0xB0, 0x00, 0x05, 0x04]) == [0xCA, 0xFE, 0xF0, 0x0D] + Self.ok)
        #expect(r.transmit([0xFF, 0xB0, 0x00, 0xF0, 0x04]) == [0x63, 0x00], "a block beyond the tag")
    }
}
