import Testing
import NFCCore

/// The Type 1 (Topaz) codec: commands as nfcpy's `tt1` sends them, answers, the CRC_B nfcpy's
/// pn533 driver adds, the memory layout down to the NDEF TLV.
@Suite struct Type1CodecTests {
    static let uid: [UInt8] = [0x28, 0x5F, 0x12, 0x01]

    static let commands: [Type1Command] = [
        .readIdentification, .readAll(uid: uid), .read(address: 0x0A, uid: uid),
        .writeErase(address: 0x10, data: 0x19, uid: uid), .writeNoErase(address: 0x70, data: 0x01, uid: uid),
        .readSegment(segment: 1, uid: uid), .read8(block: 0x0F, uid: uid),
        .writeErase8(block: 0x10, data: [1, 2, 3, 4, 5, 6, 7, 8], uid: uid),
        .writeNoErase8(block: 0x11, data: [8, 7, 6, 5, 4, 3, 2, 1], uid: uid),
    ]

    @Test(arguments: commands) func commandsRoundTrip(command: Type1Command) throws {
        let bytes = command.encode()
        #expect(bytes.count == command.code.payloadLength)
        #expect(try Type1Command.decode(bytes) == command)
    }

    /// Byte for byte what nfcpy 1.0's `nfc/tag/tt1.py` builds (read_id, read_all, read_byte,
    /// write_byte, read_block, read_segment).
    @Test func commandsAreWhatNfcpySends() throws {
        #expect(Type1Command.readIdentification.encode() == Hex.parse("78 00 00 00 00 00 00"))
        #expect(Type1Command.readAll(uid: Self.uid).encode() == Hex.parse("00 00 00 28 5F 12 01"))
        #expect(Type1Command.read(address: 0x0A, uid: Self.uid).encode() == Hex.parse("01 0A 00 28 5F 12 01"))
        #expect(Type1Command.writeErase(address: 0x10, data: 0x19, uid: Self.uid).encode() == Hex.parse("53 10 19 28 5F 12 01"))
        #expect(Type1Command.writeNoErase(address: 0x10, data: 0x19, uid: Self.uid).encode() == Hex.parse("1A 10 19 28 5F 12 01"))
        #expect(Type1Command.read8(block: 0x0F, uid: Self.uid).encode() == Hex.parse("02 0F 00 00 00 00 00 00 00 00 28 5F 12 01"))
        #expect(Type1Command.readSegment(segment: 2, uid: Self.uid).encode() == Hex.parse("10 20 00 00 00 00 00 00 00 00 28 5F 12 01"))
    }

    @Test func wrongLengthsAndCodesAreErrors() {
        #expect(throws: DecodeError.self) { try Type1Command.decode([0x78, 0x00]) }
        #expect(throws: DecodeError.self) { try Type1Command.decode(Hex.parse("02 0F 00 28 5F 12 01") ?? []) }
        #expect(throws: DecodeError.self) { try Type1Command.decode(Hex.parse("30 04 00 28 5F 12 01") ?? []) }
        #expect(throws: DecodeError.self) { try Type1Command.decode([]) }
        #expect(throws: DecodeError.self) { try Type1Response.decode([0x11, 0x48, 0x28], to: .readIdentification) }
        #expect(throws: DecodeError.self) { try Type1Response.decode([0x0A, 0xE1, 0x00], to: .read(address: 0x0A, uid: Self.uid)) }
    }

    @Test func answersRoundTrip() throws {
        let rid = Type1Response.identification(header: .topaz96, uid: Self.uid)
        #expect(rid.encode() == Hex.parse("11 48 28 5F 12 01"))
        #expect(try Type1Response.decode(rid.encode(), to: .readIdentification) == rid)
        let all = Type1Response.all(header: .topaz512, memory: [UInt8](repeating: 0xAB, count: 120))
        #expect(try Type1Response.decode(all.encode(), to: .readAll(uid: Self.uid)) == all)
        let byte = Type1Response.byte(address: 0x0A, data: 0xE1)
        #expect(try Type1Response.decode(byte.encode(), to: .writeErase(address: 0x0A, data: 0xE1, uid: Self.uid)) == byte)
        #expect(byte.memoryContent?.offset == 10)
        let segment = Type1Response.segment(address: 0x10, data: [UInt8](repeating: 1, count: 128))
        #expect(try Type1Response.decode(segment.encode(), to: .readSegment(segment: 1, uid: Self.uid)) == segment)
        #expect(segment.memoryContent?.offset == 128)
        #expect(Type1HeaderROM.topaz96.productName == "Topaz 96 (BCM20203T96)" && Type1HeaderROM.topaz96.isStaticOnly)
        #expect(!Type1HeaderROM.topaz512.isStaticOnly && Type1HeaderROM.topaz512.isNFCForum)
    }

    /// Type 1 frames end in CRC_B (nfcpy's pn533 `send_cmd_recv_rsp` for Type 1 adds and checks
    /// `crc_b`); these are its bytes, computed with nfcpy's `Device.add_crc_b`.
    @Test func frameCRCIsCRCB() {
        #expect(CRC.appending(.b, to: Hex.parse("78 00 00 00 00 00 00") ?? []) == Hex.parse("78 00 00 00 00 00 00 D0 43"))
        #expect(CRC.appending(.b, to: Hex.parse("11 48 28 5F 12 01") ?? []) == Hex.parse("11 48 28 5F 12 01 11 3E"))
        #expect(CRC.appending(.b, to: Hex.parse("00 00 00 28 5F 12 01") ?? []) == Hex.parse("00 00 00 28 5F 12 01 77 98"))
    }

    @Test func topaz96ImageDecodesToItsMessage() throws {
        let message = try NDEFMessage([.uri("https://nfctrace.example/t1")]).encode()
        let image = try Type1Memory.topaz96Image(uid: [0x28, 1, 2, 3, 4, 5, 6], message: message)
        #expect(image.count == 120 && Array(image[8..<12]) == [0xE1, 0x10, 0x0E, 0x00] && image[12] == 0x03)
        let layout = Type1Memory.decode(TagMemoryImage(bytes: image))
        #expect(layout.ndef?.tlv.value == message)
        #expect(layout.issues.filter { $0.severity == .error }.isEmpty, "\(layout.issues)")
        #expect(Type1Memory.memorySize(try #require(layout.capabilityContainer)) == 120)
        // The data area ends before block D: an NDEF TLV running into it is cut there.
        #expect(throws: TagMemoryEncodingError.self) { try Type1Memory.topaz96Image(uid: [], message: [UInt8](repeating: 0, count: 90)) }
        // A CC that was not read leaves the layout empty, with an issue.
        let unread = Type1Memory.decode(TagMemoryImage(bytes: Array(image[0..<8])))
        #expect(unread.capabilityContainer == nil && unread.issues.first?.rule == "t1t.cc.unread")
    }
}
