import Testing
import NFCCore
@testable import NFCEmulator

/// The emulated Topaz 96 answers like the T1T Operation specification says, frames with CRC_B.
@Suite struct Type1TagTests {
    static func topaz() throws -> Type1Tag {
        let dump = try #require(BuiltInTag.named("topaz96")).make()
        return try #require(dump.makeTag() as? Type1Tag)
    }

    static func send(_ tag: Type1Tag, _ command: Type1Command, crc: Bool = true) -> [UInt8]? {
        let payload = command.encode()
        var bytes = CRC.appending(.b, to: payload)
        if !crc { bytes[bytes.count - 1] ^= 0x01 }
        guard let answer = tag.respond(to: Frame(.data(.readerToTag), bytes: bytes)) else { return nil }
        #expect(CRC.check(.b, answer.bytes) == .ok, "answer to \(command.summary) has a bad CRC_B")
        return Array(answer.bytes.dropLast(2))
    }

    @Test func activationAndIdentification() throws {
        let tag = try Self.topaz()
        tag.fieldOn()
        #expect(Self.send(tag, .readIdentification) == nil, "a tag in IDLE answers nothing but REQA/WUPA")
        let atqa = tag.respond(to: Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7))
        #expect(atqa?.bytes == [0x00, 0x0C])
        #expect(try ATQA.decode(atqa?.bytes ?? []).isType1Tag)
        #expect(Self.send(tag, .readIdentification) == Hex.parse("11 48 28 5F 12 01"))
        #expect(Self.send(tag, .readIdentification, crc: false) == nil, "a frame with a wrong CRC_B gets no answer")
    }

    @Test func readAllAndWrites() throws {
        let tag = try Self.topaz()
        tag.fieldOn()
        _ = tag.respond(to: Frame(.data(.readerToTag), bytes: [0x52], lastByteBits: 7))
        let uid = Array(tag.uid.prefix(4))
        let all = try #require(Self.send(tag, .readAll(uid: uid)))
        #expect(all.count == 122 && Array(all[10..<14]) == [0xE1, 0x10, 0x0E, 0x00])
        #expect(Self.send(tag, .readAll(uid: [1, 2, 3, 4])) == nil, "another UID: another tag, silence")
        #expect(Self.send(tag, .writeErase(address: 0x20, data: 0x5A, uid: uid)) == [0x20, 0x5A])
        #expect(Self.send(tag, .writeNoErase(address: 0x20, data: 0x81, uid: uid)) == [0x20, 0xDB], "WRITE-NE only sets bits")
        #expect(Self.send(tag, .read(address: 0x20, uid: uid)) == [0x20, 0xDB])
        // LOCK0 bit 4 locks block 4 (bytes 0x20…0x27); the lock bytes themselves are OTP.
        #expect(Self.send(tag, .writeNoErase(address: 0x70, data: 0x10, uid: uid)) == [0x70, 0x00], "block E is not writable here")
        #expect(Self.send(tag, .writeErase(address: 0x00, data: 0xFF, uid: uid)) == [0x00, 0x28], "the UID is read-only")
        // Dynamic-memory commands on a static-memory tag: no answer.
        #expect(Self.send(tag, .read8(block: 1, uid: uid)) == nil)
    }
}
