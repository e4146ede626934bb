import Testing
import NFCCore
import NFCDissect
@testable import NFCEmulator

@Suite struct MIFAREClassicTagTests {
    static let uid: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]

    static func card(_ edit: (inout MIFAREClassicMemory) -> Void = { _ in }) -> MIFAREClassicTag {
        var memory = MIFAREClassicMemory.blank(.oneK, uid: uid)
        edit(&memory)
        return MIFAREClassicTag(MIFAREClassicDump(memory: memory, uid: uid))!
    }

    @Test func readWriteAndValueOperationsOnABlankCard() {
        let tag = Self.card()
        let r = MIFAREClassicReader(tag)
        r.activate()
        #expect(r.authenticate(.a, block: 4, key: 0xFFFF_FFFF_FFFF))
        #expect(r.send(MIFAREClassicCommand.read(block: 4).encode()).map { Array($0.prefix(16)) } == [UInt8](repeating: 0, count: 16))
        let value = MIFAREClassicValueBlock(value: 100, address: 5).encode()
        #expect(r.send(MIFAREClassicCommand.write(block: 5).encode()) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.writeData(value).encode()) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.decrement(block: 5).encode()) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.valueOperand(30).encode()) == nil, "no answer to the operand on success")
        #expect(r.send(MIFAREClassicCommand.transfer(block: 6).encode()) == [0x0A])
        #expect(tag.memory.blocks[6] == MIFAREClassicValueBlock(value: 70, address: 5).encode())
        // The trailer reads with key A hidden, the transport access bits and key B (readable under 001).
        let trailer = r.send(MIFAREClassicCommand.read(block: 7).encode()).map { Array($0.prefix(16)) }
        #expect(trailer == [0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        // A block of another sector needs its own authentication.
        #expect(r.send(MIFAREClassicCommand.read(block: 8).encode()) == [0x04])

        // The dissector reads the whole exchange back with the built-in keys.
        let d = Dissector.dissect(r.frames).compactMap { e -> FrameDissection? in if case .frame(let f) = e { return f } else { return nil } }
        let summaries = d.map(\.summary)
        #expect(summaries.contains("{aT}: authenticated (key A, sector 1) with FFFFFFFFFFFF"))
        #expect(summaries.contains("DECREMENT block 0x05") && summaries.contains("value operand 30") && summaries.contains("TRANSFER block 0x06"))
        #expect(summaries.last == "NAK 4: invalid operation, transfer buffer invalid")
        for f in d where f.frame.lastByteBits == 8 && f.frame.bytes.count > 4 && f.summary.hasPrefix("block") { #expect(f.crc == .ok(.a)) }
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
    }

    @Test func aWrongKeyGetsNoAnswerAndNestedAuthenticationWorks() {
        let tag = Self.card { m in
            m.blocks[11] = Crypto1.key(0x3B7E_4FD5_75AD) + [0xFF, 0x07, 0x80, 0x69] + Crypto1.key(0xFFFF_FFFF_FFFF)
            m.blocks[8] = [UInt8](repeating: 0x88, count: 16)
        }
        let r = MIFAREClassicReader(tag)
        r.activate()
        #expect(!r.authenticate(.a, block: 8, key: 0xFFFF_FFFF_FFFF))
        r.activate()
        #expect(r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF))
        #expect(r.authenticate(.a, block: 8, key: 0x3B7E_4FD5_75AD), "nested")
        #expect(r.send(MIFAREClassicCommand.read(block: 8).encode()).map { Array($0.prefix(16)) } == [UInt8](repeating: 0x88, count: 16))
    }

    @Test func accessConditionsAreEnforced() {
        // Sector 1: data blocks 100 (read AB, write B), trailer 011; key B not readable.
        let tag = Self.card { m in
            m.blocks[7] = Crypto1.key(0xA0A1_A2A3_A4A5) + [0x78, 0x77, 0x88, 0x00] + Crypto1.key(0xB0B1_B2B3_B4B5)
        }
        let r = MIFAREClassicReader(tag)
        r.activate()
        #expect(r.authenticate(.a, block: 4, key: 0xA0A1_A2A3_A4A5))
        #expect(r.send(MIFAREClassicCommand.read(block: 4).encode())?.count == 18)
        #expect(r.send(MIFAREClassicCommand.write(block: 4).encode()) == [0x04], "write needs key B")
        r.activate()
        #expect(r.authenticate(.b, block: 4, key: 0xB0B1_B2B3_B4B5))
        #expect(r.send(MIFAREClassicCommand.write(block: 4).encode()) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.writeData([UInt8](repeating: 7, count: 16)).encode()) == [0x0A])
        #expect(tag.memory.blocks[4] == [UInt8](repeating: 7, count: 16))
        #expect(r.send(MIFAREClassicCommand.read(block: 7).encode()).map { Array($0.prefix(16)) } == [0, 0, 0, 0, 0, 0, 0x78, 0x77, 0x88, 0, 0, 0, 0, 0, 0, 0],
                "key B hidden under trailer condition 011")
        // Block 0 is read-only whatever the keys.
        r.activate()
        #expect(r.authenticate(.a, block: 0, key: 0xFFFF_FFFF_FFFF))
        #expect(r.send(MIFAREClassicCommand.write(block: 0).encode()) == [0x04])
    }

    @Test func gen1aBackdoorOpensBlockZero() {
        var dump = MIFAREClassicDump(memory: .blank(.oneK, uid: Self.uid), uid: Self.uid)
        dump.gen1a = true
        let tag = MIFAREClassicTag(dump)!
        let r = MIFAREClassicReader(tag)
        #expect(r.send([0x40], bits: 7, crc: false) == [0x0A])
        #expect(r.send([0x43], crc: false) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.read(block: 0).encode()).map { Array($0.prefix(4)) } == Self.uid)
        let block0: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x04, 0x08, 0x04, 0x00] + [UInt8](repeating: 0, count: 8)
        #expect(r.send(MIFAREClassicCommand.write(block: 0).encode()) == [0x0A])
        #expect(r.send(MIFAREClassicCommand.writeData(block0).encode()) == [0x0A])
        #expect(tag.memory.blocks[0] == block0)
        // Without the backdoor the same frames are not answered.
        let plain = MIFAREClassicReader(Self.card())
        #expect(plain.send([0x40], bits: 7, crc: false) == nil)
        let d = Dissector.dissect(r.frames).compactMap { e -> String? in if case .frame(let f) = e { return f.summary } else { return nil } }
        #expect(d.prefix(4) == ["short frame 0x40: magic wake-up 1 (Gen1a backdoor)", "ACK", "magic wake-up 2 (Gen1a backdoor)", "ACK"], "\(d)")
    }

    @Test func dumpsLoadAndSaveRoundTrips() throws {
        let tag = Self.card { m in m.blocks[4] = Array(0..<16) }
        let saved = try #require(tag.savedDump())
        let back = try TagDump.load(saved, name: "saved.nfc")
        let tag2 = try #require(back.makeTag() as? MIFAREClassicTag)
        #expect(tag2.memory == tag.memory && tag2.savedDump() == saved)
        #expect(back.summary == "MIFARE Classic 1K, UID DE AD BE EF")
        let raw = tag.memory.blocks.flatMap { $0 }
        #expect((try TagDump.load(raw, name: "card.bin").makeTag() as? MIFAREClassicTag)?.memory == tag.memory)
        let eml = tag.memory.blocks.map { Hex.string($0, separator: "") }.joined(separator: "\n") + "\n"
        #expect((try TagDump.load(Array(eml.utf8), name: "card.eml").makeTag() as? MIFAREClassicTag)?.memory == tag.memory)
        let json = JSONValue.object([("Created", .string("proxmark3")), ("FileType", .string("mfcard")),
                                     ("Card", .object([("UID", .string("DEADBEEF")), ("ATQA", .string("0400")), ("SAK", .string("08"))])),
                                     ("blocks", .object(tag.memory.blocks.enumerated().map { ("\($0.offset)", .string(Hex.string($0.element, separator: ""))) }))])
        let fromJSON = try TagDump.load(Array(json.text.utf8), name: "card.json")
        #expect((fromJSON.makeTag() as? MIFAREClassicTag)?.memory == tag.memory)
        #expect(throws: DumpError.self) { try TagDump.load(Array("0011\n".utf8) + [UInt8](repeating: 0x41, count: 30), name: "bad.eml") }
    }
}
