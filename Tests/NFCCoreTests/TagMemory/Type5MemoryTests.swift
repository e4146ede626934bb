import Testing
@testable import NFCCore

@Suite struct Type5MemoryTests {
    @Test func theArticleCapabilityContainer() throws {
        // §6.5: the source article labels byte 2 "access" and byte 3 "version"; both are wrong.
        let cc = try Type5CapabilityContainer.decode([0xE1, 0x40, 0x30, 0x01])
        #expect(cc.magic == 0xE1 && cc.isNDEF && !cc.isExtended && cc.length == 4)
        #expect(cc.majorVersion == 1 && cc.minorVersion == 0 && cc.versionText == "1.0")
        #expect(cc.readAccess == .always && cc.writeAccess == .always)
        #expect(cc.mlen == 0x30 && cc.dataAreaSize == 384)
        #expect(cc.supportsReadMultipleBlocks && !cc.supportsLockBlock && !cc.requiresSpecialFrame)
        #expect(cc.featureNames == ["MBREAD (Read Multiple Blocks supported)"])
        var issues: [TagMemoryIssue] = []
        cc.check(into: &issues)
        #expect(issues.isEmpty)
        #expect(cc.bytes == [0xE1, 0x40, 0x30, 0x01])
    }

    @Test func accessBits() throws {
        #expect(try Type5CapabilityContainer.decode([0xE1, 0x43, 0x40, 0x00]).writeAccess == .never, "43 = read-only")
        #expect(try Type5CapabilityContainer.decode([0xE1, 0x4A, 0x40, 0x00]).readAccess == .proprietary)
        #expect(try Type5CapabilityContainer.decode([0xE1, 0x4A, 0x40, 0x00]).writeAccess == .proprietary)
        #expect(try Type5CapabilityContainer.decode([0xE1, 0x45, 0x40, 0x18]).readAccess == .rfu)
        let lockAndSpecial = try Type5CapabilityContainer.decode([0xE1, 0x40, 0x40, 0x18])
        #expect(lockAndSpecial.supportsLockBlock && lockAndSpecial.requiresSpecialFrame && !lockAndSpecial.supportsReadMultipleBlocks)
    }

    @Test func eightByteForm() throws {
        let bytes: [UInt8] = [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00]
        let cc = try Type5CapabilityContainer.decode(bytes)
        #expect(cc.isExtended && cc.length == 8 && cc.mlen == 256 && cc.dataAreaSize == 2048)
        #expect(cc.bytes == bytes)
        #expect(throws: DecodeError.self) { try Type5CapabilityContainer.decode([0xE1, 0x40, 0x00, 0x01, 0x00]) }
        // TLVs start right after the 8 bytes.
        let image = bytes + [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE]
        let layout = Type5Memory.decode(TagMemoryImage(bytes: image))
        #expect(layout.tlvs.first?.tagOffset == 8)
        #expect(layout.ndef?.result.records.map(\.record) == [.empty])
    }

    @Test func articleImageDecodes() throws {
        let message = try NDEFMessage([.uri("https://example.com")]).encode()
        let bytes = [0xE1, 0x40, 0x30, 0x01, 0x03, UInt8(message.count)] + message + [0xFE]
        let layout = Type5Memory.decode(TagMemoryImage(bytes: bytes + [UInt8](repeating: 0, count: 384 - 19)))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.tlvs.map(\.tag) == [.ndef, .terminator])
        #expect(layout.ndef?.tlv.valueSegments == [6..<22])
    }

    @Test func builderRoundTrips() throws {
        let message = try NDEFMessage([.uri("https://example.com/nfc"), try .text("tag")]).encode()
        let small = try Type5Memory.image(message: message, memorySize: 512)
        #expect(small.count == 512 && Array(small.prefix(4)) == [0xE1, 0x40, 0x3F, 0x01])
        let decoded = Type5Memory.decode(TagMemoryImage(bytes: small))
        let expected = try NDEFMessage(strict: message)
        #expect(decoded.issues.isEmpty && decoded.ndef?.result.message == expected)
        let large = try Type5Memory.image(message: message, memorySize: 8192, readOnly: true)
        let cc = try Type5CapabilityContainer.decode(Array(large.prefix(8)))
        #expect(cc.isExtended && cc.mlen == 1023 && cc.writeAccess == .never)
        #expect(Type5Memory.decode(TagMemoryImage(bytes: large)).ndef?.result.message == expected)
        #expect(throws: TagMemoryEncodingError.self) { try Type5Memory.image(message: message, memorySize: 16) }
    }

    @Test func checksAndUnreadBlocks() throws {
        let notNDEF = Type5Memory.decode(TagMemoryImage(bytes: [0x00, 0x40, 0x30, 0x01, 0x03, 0x00]))
        #expect(notNDEF.issues.map(\.rule) == ["t5t.cc.magic"] && notNDEF.tlvArea == nil)
        let v2 = Type5Memory.decode(TagMemoryImage(bytes: [0xE1, 0x80, 0x02, 0x01, 0x03, 0x00, 0xFE]))
        #expect(v2.issues.first?.rule == "t5t.cc.version" && v2.issues.first?.severity == .error)
        // Blocks 2 and 3 (bytes 8–15) were not read.
        let message = try NDEFMessage([.uri("https://example.com")]).encode()
        let bytes = [0xE1, 0x40, 0x30, 0x01, 0x03, UInt8(message.count)] + message + [0xFE, 0x00]
        let known = (0..<bytes.count).map { !(8..<16).contains($0) }
        let layout = Type5Memory.decode(TagMemoryImage(bytes: bytes, known: known))
        let unread = try #require(layout.issues.first { $0.rule == "t5t.tlv.unread" })
        #expect(unread.message == "NDEF Message TLV continues into bytes 8–15, which were not read")
        #expect(Type5Memory.decode(TagMemoryImage(bytes: [0xE1, 0x40], known: nil)).issues.map(\.rule) == ["t5t.cc.unread"])
    }
}
