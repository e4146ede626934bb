import Testing
@testable import NFCCore

@Suite struct Type2MemoryTests {
    static let uriMessage = Hex.parse("D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D")!   // §4.8

    /// Header (12 zero bytes) + CC + data area bytes, zero padded to `size` bytes.
    func image(cc: [UInt8], area: [UInt8], size: Int? = nil) -> [UInt8] {
        let data = area + [UInt8](repeating: 0, count: max(0, (size ?? area.count) - area.count))
        return [UInt8](repeating: 0, count: 12) + cc + data
    }

    func rules(_ layout: Type2MemoryLayout) -> [String] { layout.issues.map(\.rule) }

    @Test func ntag215ExampleFromProtocols33() throws {
        let bytes = image(cc: [0xE1, 0x10, 0x3E, 0x00], area: [0x03, 0x10] + Self.uriMessage + [0xFE], size: 496)
        let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.capabilityContainer?.dataAreaSize == 496 && layout.capabilityContainer?.versionText == "1.0")
        #expect(layout.tlvs.map(\.tag) == [.ndef, .terminator])
        let ndef = try #require(layout.ndef)
        #expect(ndef.tlv.lengthRange == 17..<18 && ndef.tlv.length == 16 && ndef.tlv.valueSegments == [18..<34])
        #expect(ndef.result.records.first?.payload == .uri(NDEFURI("https://example.com")))
        // No Lock Control TLV: the default dynamic lock area follows the data area (§3.2).
        #expect(layout.lockAreas == [Type2ControlArea(kind: .lock, range: 512..<519, lockBits: 56, bytesLockedPerBit: 8,
                                                      bytesPerPage: 4, tlvValue: nil)])
    }

    @Test func ntag213FactoryImageWithLockControlTLV() throws {
        let bytes = image(cc: [0xE1, 0x10, 0x12, 0x00], area: Hex.parse("01 03 A0 0C 34 03 00 FE")!, size: 144)
        let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes))
        #expect(rules(layout) == ["t2t.tlv.ndef-empty"])
        #expect(layout.tlvs.map(\.tag) == [.lockControl, .ndef, .terminator])
        let lock = try #require(layout.lockAreas.first)
        // PageAddr 10 × 16 + 0 = byte 160 (page 0x28); 12 lock bits of 8 bytes each.
        #expect(lock.range == 160..<162 && lock.lockBits == 12 && lock.bytesLockedPerBit == 8 && lock.bytesPerPage == 16)
        #expect(!lock.isDefault)
        #expect(layout.ndef?.result.records.isEmpty == true)
    }

    @Test func builderWritesFactoryFormattedImagesThatDecode() throws {
        let message = try NDEFMessage([.uri("https://example.com"), try .text("hi")]).encode()
        for model in [Type2TagModel.ntag213, .ntag215, .ntag216, .ultralightEV1_21] {
            let bytes = try Type2Memory.image(model: model, message: message)
            #expect(bytes.count == model.memoryMap.totalPages * 4)
            let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes))
            #expect(layout.issues.isEmpty, "\(model): \(layout.issues)")
            #expect(layout.ndef?.result.message == (try NDEFMessage(strict: message)))
            #expect(layout.capabilityContainer == Type2CapabilityContainer.factory(for: model))
        }
        let ntag213 = try Type2Memory.image(model: .ntag213, message: [])
        #expect(Array(ntag213[12..<24]) == Hex.parse("E1 10 12 00 01 03 A0 0C 34 03 00 FE")!, "factory state, §2.4")
        // The one factory image (Type2FactoryImage): CFG1 byte 1 reads 05 on real tags (issue 45).
        #expect(Array(ntag213[0x29 * 4..<0x2D * 4]) == Hex.parse("04 00 00 FF 00 05 00 00 FF FF FF FF 00 00 00 00")!)
        // Lock Control TLV (5) + T, L (2) + 139 bytes: no room left, not even for a Terminator.
        #expect(throws: TagMemoryEncodingError.messageTooLarge(needed: 146, available: 144)) {
            try Type2Memory.image(model: .ntag213, message: [UInt8](repeating: 0, count: 139))
        }
    }

    @Test func memoryControlAreaIsSkippedWhenTheNDEFValueIsReassembled() throws {
        // Data area 48 bytes; a Memory Control TLV reserves bytes 30–33 (page 7 × 4 + 2, 4 bytes),
        // which fall inside the NDEF TLV's value: the message continues at byte 34.
        var area: [UInt8] = [0x02, 0x03, 0x72, 0x04, 0x02, 0x03, 0x10]
        area += Self.uriMessage[0..<7] + [0xAA, 0xBB, 0xCC, 0xDD] + Self.uriMessage[7...] + [0xFE]
        let layout = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x10, 0x06, 0x00], area: area, size: 48)))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.reservedAreas.map(\.range) == [30..<34])
        let ndef = try #require(layout.ndef)
        #expect(ndef.tlv.valueSegments == [23..<30, 34..<43])
        #expect(ndef.tlv.value == Self.uriMessage)
        #expect(ndef.result.records.first?.payload == .uri(NDEFURI("https://example.com")))
        // Message offsets map around the reserved bytes.
        #expect(ndef.imageOffset(ofMessageByte: 7) == 34)
        #expect(ndef.imageRange(ofMessageRange: 0..<16) == 23..<43)
        #expect(layout.tlvs.last?.tag == .terminator && layout.tlvs.last?.tagOffset == 43)
    }

    @Test func lockControlAreaInsideTheDataAreaIsSkippedToo() throws {
        // Lock bytes at 24–25 (PageAddr 6 × 4 + 0, 16 bits, 8 bytes per bit), inside the NDEF value.
        let area: [UInt8] = [0x01, 0x03, 0x60, 0x10, 0x32, 0x03, 0x10] + Self.uriMessage[0..<1] + [0x11, 0x22]
            + Self.uriMessage[1...] + [0xFE]
        let layout = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x10, 0x06, 0x00], area: area, size: 48)))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.lockAreas.map(\.range) == [24..<26] && layout.lockAreas.first?.lockBits == 16)
        #expect(layout.ndef?.tlv.valueSegments == [23..<24, 26..<41])
        #expect(layout.ndef?.result.records.first?.payload == .uri(NDEFURI("https://example.com")))
        // A control TLV naming bytes the walk has already passed is pointed out.
        let behind: [UInt8] = [0x01, 0x03, 0x40, 0x08, 0x02, 0x03, 0x00, 0xFE]
        let l2 = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x10, 0x06, 0x00], area: behind, size: 48)))
        #expect(rules(l2) == ["t2t.tlv.control-behind", "t2t.tlv.ndef-empty"])
    }

    @Test func threeByteLengths() throws {
        let record = NDEFRecord.mime("application/octet-stream", payload: [UInt8](repeating: 0x5A, count: 270))
        let message = try NDEFMessage([record]).encode()
        #expect(message.count == 300)
        let bytes = image(cc: [0xE1, 0x10, 0x6D, 0x00], area: [0x03, 0xFF, 0x01, 0x2C] + message + [0xFE], size: 872)
        let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes))
        #expect(layout.issues.isEmpty, "\(layout.issues)")
        #expect(layout.ndef?.tlv.lengthRange == 17..<20 && layout.ndef?.tlv.length == 300)
        #expect(layout.ndef?.result.records.first?.record == record)
        #expect(try TagTLV.encode(.ndef, value: message).prefix(4) == [0x03, 0xFF, 0x01, 0x2C])
        // The 3-byte form for a short value is allowed but noted.
        let short = image(cc: [0xE1, 0x10, 0x06, 0x00], area: [0x03, 0xFF, 0x00, 0x10] + Self.uriMessage + [0xFE], size: 48)
        #expect(rules(Type2Memory.decode(TagMemoryImage(bytes: short))) == ["t2t.tlv.length-form"])
    }

    @Test func truncatedTLVsAreDiagnosedAndWhatIsThereShown() throws {
        // NDEF TLV declares 32 bytes in a 16-byte data area.
        let past = image(cc: [0xE1, 0x10, 0x02, 0x00], area: [0x03, 0x20] + Self.uriMessage.prefix(14))
        let layout = Type2Memory.decode(TagMemoryImage(bytes: past + [0xEE, 0xEE]))
        #expect(rules(layout).contains("t2t.tlv.ndef-past-area"))
        let ndef = try #require(layout.ndef)
        #expect(!ndef.tlv.isComplete && ndef.tlv.value == Array(Self.uriMessage.prefix(14)))
        #expect(ndef.result.issues.map(\.rule) == [.recordTruncated], "the message that is there is still decoded")
        // The length byte itself lies beyond the data area.
        let noLength = image(cc: [0xE1, 0x10, 0x01, 0x00], area: [0, 0, 0, 0, 0, 0, 0, 0x03])
        let l2 = Type2Memory.decode(TagMemoryImage(bytes: noLength + [0x10]))
        #expect(rules(l2).contains("t2t.tlv.truncated"))
        #expect(l2.issues.first { $0.rule == "t2t.tlv.truncated" }?.range.lowerBound == 23)
    }

    @Test func unreadBytesAreReportedNotInvented() throws {
        // A 62-byte NDEF value from byte 18 to 79; the reader never read bytes 64–79.
        let record = NDEFRecord.mime("a/b", payload: [UInt8](repeating: 0x41, count: 56))
        let message = try NDEFMessage([record]).encode()
        let bytes = image(cc: [0xE1, 0x10, 0x3E, 0x00], area: [0x03, 62] + message)
        #expect(bytes.count == 80)
        let known = (0..<80).map { $0 < 64 }
        let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes, known: known))
        let unread = try #require(layout.issues.first { $0.rule == "t2t.tlv.unread" })
        #expect(unread.message == "NDEF Message TLV continues into bytes 64–79, which were not read")
        #expect(unread.range == 64..<80)
        #expect(layout.ndef?.tlv.value.count == 46 && layout.ndef?.tlv.isComplete == false)
        // Everything read is known, so the CC and the TLV header decode normally.
        #expect(layout.capabilityContainer?.dataAreaSize == 496)
    }

    @Test func unreadCapabilityContainer() {
        var known = [Bool](repeating: true, count: 40)
        known[14] = false
        let bytes = image(cc: [0xE1, 0x10, 0x03, 0x00], area: [0x03, 0x00, 0xFE], size: 24)
        let layout = Type2Memory.decode(TagMemoryImage(bytes: bytes, known: known))
        #expect(layout.capabilityContainer == nil)
        #expect(rules(layout).first == "t2t.cc.unread")
        #expect(layout.tlvs.map(\.tag) == [.ndef, .terminator], "TLVs are still read up to the end of the image")
    }

    @Test func capabilityContainerChecks() throws {
        let amiibo = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xF1, 0x10, 0xFF, 0xEE], area: [0x03, 0x00])))
        #expect(rules(amiibo) == ["t2t.cc.magic"] && amiibo.tlvArea == nil)
        let v2 = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x20, 0x02, 0x00], area: [0x03, 0x00, 0xFE], size: 16)))
        #expect(rules(v2).first == "t2t.cc.version" && v2.issues.first?.severity == .error)
        let readOnly = try Type2CapabilityContainer.decode([0xE1, 0x10, 0x12, 0x0F])
        #expect(readOnly.readAccess == .granted && readOnly.writeAccess == .none)
        let nfcpyPassword = try Type2CapabilityContainer.decode([0xE1, 0x10, 0x12, 0x88])
        #expect(nfcpyPassword.readAccess == .proprietary(8) && nfcpyPassword.writeAccess == .proprietary(8))
        #expect(throws: DecodeError.self) { try Type2CapabilityContainer.decode([0xE1, 0x10, 0x12]) }
    }

    @Test func nullRFUAndMisplacedControlTLVs() {
        let area: [UInt8] = [0x00, 0x00, 0x00, 0x05, 0x02, 0xAA, 0xBB, 0x03, 0x00, 0x02, 0x03, 0xF0, 0x01, 0x02, 0xFE]
        let layout = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x10, 0x06, 0x00], area: area, size: 48)))
        #expect(layout.tlvs.map(\.tag) == [.null, .rfu(0x05), .ndef, .memoryControl, .terminator])
        #expect(layout.tlvs.first?.repeatCount == 3 && layout.tlvs.first?.range == 16..<19)
        #expect(rules(layout) == ["t2t.tlv.rfu", "t2t.tlv.ndef-empty", "t2t.tlv.control-order"])
    }

    @Test func noNDEFTLVAndNoTerminator() {
        let layout = Type2Memory.decode(TagMemoryImage(bytes: image(cc: [0xE1, 0x10, 0x01, 0x00], area: [0xFD, 0x02, 0x01, 0x02, 0, 0, 0, 0])))
        #expect(layout.tlvs.map(\.tag) == [.proprietary, .null])
        #expect(rules(layout) == ["t2t.tlv.no-ndef", "t2t.tlv.no-terminator"])
    }
}

/// The byte-range text of issues and lock areas: people count bytes with inclusive ends.
@Suite struct TagMemoryRangeTextTests {
    @Test func rangesAreWrittenWithInclusiveEnds() {
        #expect(TagMemoryImage.describe([]) == "")
        #expect(TagMemoryImage.describe([64..<80]) == "64–79")
        #expect(TagMemoryImage.describe([64..<80, 5..<6, 512..<519]) == "64–79, 5, 512–518")
        #expect(TagMemoryImage.describe(9..<10) == "9")
    }
}
