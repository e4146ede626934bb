import Testing
import NFCCore
@testable import NFCDissect

@Suite struct TagMemoryDescriberTests {
    @Test func theArticleCCIsExplainedCorrectly() throws {
        // protocols.md §6.5: 40 = version 1.0 and access, 30 = MLEN (384 bytes), 01 = MBREAD.
        let image = TagMemoryImage(bytes: [0xE1, 0x40, 0x30, 0x01, 0x03, 0x00, 0xFE])
        let tree = TagMemoryDescriber.describe(Type5Memory.decode(image), image: image)
        #expect(tree.first(key: "t5t.cc")?.value == "E1 40 30 01" && tree.first(key: "t5t.cc")?.range == 0..<4)
        #expect(tree.first(key: "t5t.cc.version")?.value == "1.0 (b8–b5 of 0x40)" && tree.first(key: "t5t.cc.version")?.range == 1..<2)
        #expect(tree.first(key: "t5t.cc.read_access")?.value == "always (b4–b3)")
        #expect(tree.first(key: "t5t.cc.write_access")?.value == "always (b2–b1)")
        #expect(tree.first(key: "t5t.cc.mlen")?.value == "0x30 → 384-byte data area" && tree.first(key: "t5t.cc.mlen")?.range == 2..<3)
        #expect(tree.first(key: "t5t.cc.features")?.value == "0x01: MBREAD (Read Multiple Blocks supported)")
        #expect(tree.first(key: "t5t.cc.features")?.range == 3..<4)
        #expect(tree.first(key: "t5t.tlv.ndef.length")?.value == "0" && tree.first(key: "t5t.tlv.ndef.length")?.range == 5..<6)
        #expect(tree.diagnostics.map(\.message) == ["NDEF Message TLV with L=0: the tag holds no NDEF message [t5t.tlv.ndef-empty]"])
    }

    @Test func type2ImageFieldsPointIntoTheImage() throws {
        let bytes = try Type2Memory.image(model: .ntag213, message: NDEFMessage([.uri("https://example.com")]).encode())
        let image = TagMemoryImage(bytes: bytes)
        let tree = TagMemoryDescriber.describe(Type2Memory.decode(image), image: image)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.first(key: "t2t.cc.version")?.value == "1.0 (0x10)" && tree.first(key: "t2t.cc.version")?.range == 13..<14)
        #expect(tree.first(key: "t2t.cc.size")?.value == "0x12 → 144 bytes")
        #expect(tree.first(key: "t2t.tlv.lock_control.position")?.value == "byte 160 (PageAddr 10 × 16 + ByteOffset 0)")
        #expect(tree.first(key: "t2t.tlv.ndef")?.value == "URI https://example.com" && tree.first(key: "t2t.tlv.ndef")?.range == 21..<39)
        #expect(tree.first(key: "t2t.tlv.ndef.length")?.value == "16" && tree.first(key: "t2t.tlv.ndef.length")?.range == 22..<23)
        // NDEF fields are placed at image offsets: the message starts at byte 23.
        #expect(tree.first(key: "ndef.record")?.range == 23..<39)
        #expect(tree.first(key: "ndef.uri")?.range == 27..<39)
        #expect(tree.first(key: "t2t.lock_area")?.value == "bytes 160–161: 12 lock bits, 8 bytes each")
        #expect(tree.first(key: "t2t.data_area")?.range == 16..<160)
    }

    @Test func reservedBytesInsideTheMessageStayOutOfItsFields() throws {
        let message = try NDEFMessage([.uri("https://example.com")]).encode()
        var area: [UInt8] = [0x02, 0x03, 0x72, 0x04, 0x02, 0x03, 0x10]
        area += message[0..<7] + [0xAA, 0xBB, 0xCC, 0xDD] + message[7...] + [0xFE]
        let bytes = [UInt8](repeating: 0, count: 12) + [0xE1, 0x10, 0x06, 0x00] + area + [UInt8](repeating: 0, count: 48 - area.count)
        let image = TagMemoryImage(bytes: bytes)
        let tree = TagMemoryDescriber.describe(Type2Memory.decode(image), image: image)
        #expect(tree.first(key: "t2t.reserved_area")?.range == 30..<34)
        #expect(tree.first(key: "ndef.record.payload_length")?.range == 25..<26)
        // The URI field runs from byte 28 across the reserved area to 42.
        #expect(tree.first(key: "ndef.uri.rest")?.range == 28..<43)
        #expect(tree.first(key: "t2t.tlv.memory_control.size")?.value == "4 bytes")
    }

    @Test func unreadBytesAreDiagnosed() throws {
        let message = try NDEFMessage([.mime("a/b", payload: [UInt8](repeating: 0x41, count: 56))]).encode()
        let bytes = [UInt8](repeating: 0, count: 12) + [0xE1, 0x10, 0x3E, 0x00, 0x03, 62] + message
        let image = TagMemoryImage(bytes: bytes, known: (0..<bytes.count).map { $0 < 64 })
        let tree = TagMemoryDescriber.describe(Type2Memory.decode(image), image: image)
        #expect(tree.diagnostics.contains {
            $0.severity == .warning && $0.message == "NDEF Message TLV continues into bytes 64–79, which were not read [t2t.tlv.unread]"
        })
        #expect(tree.first(key: "t2t.tlv.ndef.value")?.value == "46 of 62 bytes read")
    }

    @Test func type3Fields() throws {
        let message = try NDEFMessage([.uri("https://example.com")]).encode()
        let blocks = try Type3Memory.blocks(message: message, nmaxb: 13)
        let image = TagMemoryImage(bytes: blocks.flatMap { $0 })
        let tree = TagMemoryDescriber.describe(Type3Memory.decode(image), image: image)
        #expect(tree.first(key: "t3t.aib.nbr")?.value == "4 blocks per Check")
        #expect(tree.first(key: "t3t.aib.ln")?.value == "16 bytes in 1 block" && tree.first(key: "t3t.aib.ln")?.range == 11..<14)
        #expect(tree.first(key: "t3t.aib.checksum")?.value.hasSuffix("(valid)") == true)
        #expect(tree.first(key: "ndef.uri")?.range == 20..<32)
    }

    @Test func describingArbitraryImagesNeverTraps() {
        var state: UInt64 = 0x5EED_0004
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        for n in 0..<20_000 {
            var bytes = (0..<Int(next() % 80)).map { _ in UInt8(truncatingIfNeeded: next()) }
            if bytes.count >= 16 && n % 2 == 0 { bytes.replaceSubrange(12..<16, with: [0xE1, 0x10, 0x08, 0x00]) }
            if bytes.count >= 4 && n % 3 == 0 { bytes.replaceSubrange(0..<4, with: [0xE1, 0x40, 0x08, 0x01]) }
            let image = TagMemoryImage(bytes: bytes, known: n % 4 == 0 ? bytes.map { $0 & 7 != 0 } : nil)
            for tree in [TagMemoryDescriber.describe(Type2Memory.decode(image), image: image),
                         TagMemoryDescriber.describe(Type3Memory.decode(image), image: image),
                         TagMemoryDescriber.describe(Type5Memory.decode(image), image: image)] {
                _ = FieldTreeText.render(tree)
            }
        }
    }
}
