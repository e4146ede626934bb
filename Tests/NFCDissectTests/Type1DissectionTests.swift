import Testing
import NFCCore
@testable import NFCDissect

/// Type 1 (Topaz) frames with their CRC_B on air, as a sniffer records them: the registration
/// in `ISO14443AFrameProtocols` reads them once the ATQA says Type 1.
@Suite struct Type1DissectionTests {
    static let uid: [UInt8] = [0x28, 0x5F, 0x12, 0x01]

    static func framed(_ direction: Direction, _ bytes: [UInt8]) -> Frame {
        Frame(.data(direction), technology: .iso14443a, bytes: CRC.appending(.b, to: bytes))
    }

    static func session(ridAnswerCRC: Bool = true, readAnswer: [UInt8] = [0x0A, 0xE1]) -> [Frame] {
        var rid = framed(.tagToReader, Type1Response.identification(header: .topaz96, uid: uid).encode())
        if !ridAnswerCRC { rid.bytes[rid.bytes.count - 1] ^= 0xFF }
        return [
            Frame(.data(.readerToTag), technology: .iso14443a, bytes: [0x26], lastByteBits: 7),
            Frame(.data(.tagToReader), technology: .iso14443a, bytes: [0x00, 0x0C]),
            framed(.readerToTag, Type1Command.readIdentification.encode()),
            rid,
            framed(.readerToTag, Type1Command.read(address: 0x0A, uid: uid).encode()),
            framed(.tagToReader, readAnswer),
            framed(.readerToTag, Type1Command.writeErase(address: 0x0B, data: 0x55, uid: uid).encode()),
            framed(.tagToReader, [0x0B, 0x55]),
        ]
    }

    @Test func aTopazSessionIsNamed() {
        let events = Dissector.dissect(Self.session())
        let d = frames(events)
        #expect(d.map(\.summary) == [
            "REQA", "ATQA 0C00: 4-byte UID, Type 1 Tag", "RID",
            "HR0 0x11 HR1 0x48 (Topaz 96 (BCM20203T96)), UID0–3 28 5F 12 01",
            "READ block 1 byte 2 (0x0A)", "block 1 byte 2 (0x0A) = 0xE1",
            "WRITE-E block 1 byte 3 (0x0B): 0x55", "block 1 byte 3 (0x0B) = 0x55",
        ], "\(d.map(\.summary))")
        #expect(d[2...].allSatisfy { $0.crc == .ok(.b) }, "\(d.map(\.crc))")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
        #expect(d[2].layer == "NFC Type 1")
        #expect(sessions(events).map(\.headline) == ["Topaz 96 (BCM20203T96), UID0–3 28 5F 12 01, 1 write"])
    }

    @Test func aWrongCRCAndAWrongAddressAreSaid() {
        let d = frames(Dissector.dissect(Self.session(ridAnswerCRC: false, readAnswer: [0x0C, 0xE1])))
        guard case .mismatch(.b, _, _) = d[3].crc else {
            Issue.record("RID answer CRC: \(d[3].crc)")
            return
        }
        #expect(d[5].diagnostics.contains { $0.severity == .warning && $0.message.contains("address 0x0C") }, "\(d[5].diagnostics)")
    }

    /// Before this registration the 14443-A dissector read these frames as Type 2 commands.
    @Test func withoutAType1ATQATheFramesStayType2() {
        var frames = Self.session()
        frames[1] = Frame(.data(.tagToReader), technology: .iso14443a, bytes: [0x44, 0x00])
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(d[2].layer != "NFC Type 1", "\(d[2].layer)")
    }
}
