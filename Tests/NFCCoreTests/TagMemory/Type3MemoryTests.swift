import Testing
@testable import NFCCore

@Suite struct Type3MemoryTests {
    // A FeliCa Lite-S style AIB: version 1.0, Nbr 4, Nbw 1, Nmaxb 13, read/write, Ln 16.
    static let aib = Hex.parse("10 04 01 00 0D 00 00 00 00 00 01 00 00 10 00 33")!

    @Test func attributeInformationBlockFields() throws {
        let aib = try Type3AttributeInformationBlock.decode(Self.aib)
        #expect(aib.version == 0x10 && aib.versionText == "1.0")
        #expect(aib.nbr == 4 && aib.nbw == 1 && aib.nmaxb == 13)
        #expect(aib.writeF == 0 && !aib.isWriting && aib.rwFlag == 1 && !aib.isReadOnly)
        #expect(aib.ln == 16 && aib.ndefBlockCount == 1)
        #expect(aib.checksum == 0x0033 && aib.checksumIsValid)
        #expect(aib.bytes == Self.aib)
        #expect(Type3AttributeInformationBlock(nbr: 4, nbw: 1, nmaxb: 13, ln: 16).bytes == Self.aib, "encoding computes the checksum")
        #expect(throws: DecodeError.self) { try Type3AttributeInformationBlock.decode(Array(Self.aib.prefix(15))) }
    }

    @Test func blocksRoundTrip() throws {
        let message = try NDEFMessage([.uri("https://example.com/felica"), try .text("Lite-S")]).encode()
        let blocks = try Type3Memory.blocks(message: message, nmaxb: 13)
        #expect(blocks.count == 1 + (message.count + 15) / 16 && blocks.allSatisfy { $0.count == 16 })
        let layout = Type3Memory.decode(TagMemoryImage(bytes: blocks.flatMap { $0 }))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.attributeInformationBlock?.ln == UInt32(message.count))
        #expect(layout.ndefRange == 16..<(16 + message.count))
        #expect(layout.ndef?.message == (try NDEFMessage(strict: message)))
        #expect(throws: TagMemoryEncodingError.self) { try Type3Memory.blocks(message: message, nmaxb: 1) }
    }

    @Test func checksumWriteFlagAndLength() {
        var bad = Self.aib
        bad[15] = 0x34
        let layout = Type3Memory.decode(TagMemoryImage(bytes: bad + [UInt8](repeating: 0, count: 16)))
        #expect(layout.issues.first?.rule == "t3t.aib.checksum" && layout.issues.first?.range == 14..<16)
        #expect(layout.issues.first?.message == "checksum 0034, bytes 0–13 sum to 0033")

        var writing = Type3AttributeInformationBlock(nbr: 4, nbw: 1, nmaxb: 13, writeF: 0x0F, ln: 0)
        #expect(Type3Memory.decode(TagMemoryImage(bytes: writing.bytes)).issues.map(\.rule) == ["t3t.aib.writing"])
        writing = Type3AttributeInformationBlock(nbr: 4, nbw: 1, nmaxb: 1, ln: 40)
        #expect(Type3Memory.decode(TagMemoryImage(bytes: writing.bytes + [UInt8](repeating: 0, count: 48))).issues.map(\.rule)
                .contains("t3t.aib.ln"))
    }

    @Test func unreadDataBlocks() throws {
        let message = try NDEFMessage([.mime("a/b", payload: [UInt8](repeating: 7, count: 40))]).encode()
        let bytes = try Type3Memory.blocks(message: message, nmaxb: 13).flatMap { $0 }
        let known = (0..<bytes.count).map { $0 < 32 }   // the AIB and one data block were read
        let layout = Type3Memory.decode(TagMemoryImage(bytes: bytes, known: known))
        let unread = layout.issues.first { $0.rule == "t3t.ndef.unread" }
        #expect(unread?.message == "the NDEF message (Ln 46) continues into bytes 32–61, which were not read")
        #expect(layout.ndef?.byteCount == 16)
        #expect(Type3Memory.decode(TagMemoryImage(bytes: [0x10])).issues.map(\.rule) == ["t3t.aib.unread"])
    }
}
