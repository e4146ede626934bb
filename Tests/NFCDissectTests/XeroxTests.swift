import Testing
import NFCCore
@testable import NFCDissect

/// Issue 44, point 5: a Fuji Xerox memory chip's session (the Proxmark3's `hf xerox` reader, as in
/// its issues #2275 and #3315) is named as Xerox's, not as ISO 14443-3 B guesses or "unknown".
@Suite struct XeroxTests {
    static let uid: [UInt8] = [0x80, 0xFE, 0x09, 0x2F, 0x46, 0x03, 0x00, 0xE0]

    static func framed(_ direction: Direction, _ bytes: [UInt8]) -> Frame {
        Frame(.data(direction), technology: .iso14443b, bytes: CRC.appending(.b, to: bytes))
    }

    static var session: [Frame] {
        var frames = [framed(.readerToTag, [0x0D, 0x37, 0x21]), framed(.readerToTag, [0x5D, 0x37, 0x21])]
        frames.append(Frame(.data(.readerToTag), technology: .iso14443b, bytes: [0xA1]))
        frames.append(Frame(.data(.readerToTag), technology: .iso14443b, bytes: [0xB5]))
        frames.append(framed(.tagToReader, [0x50] + uid + [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]))
        frames.append(framed(.readerToTag, [0x1D] + uid + [0x00, 0x0F, 0x01, 0x0F]))
        frames.append(framed(.tagToReader, [0x00]))
        frames.append(framed(.readerToTag, [0x02, 0x30] + uid + [0x15]))
        frames.append(framed(.tagToReader, [0x02, 0x41, 0x42, 0x43, 0x44]))
        frames.append(framed(.readerToTag, [0x02, 0x31] + uid + [0x31, 0x00, 0x00, 0x00, 0x00]))
        frames.append(framed(.tagToReader, [0x02, 0x00]))
        return frames
    }

    @Test func theWakeUpHasTheCRCTheProxmark3Shows() {
        // `0d 37 21 92 f2 | ok` in the Proxmark3 listing of issue #2275.
        #expect(CRC.appending(.b, to: [0x0D, 0x37, 0x21]) == [0x0D, 0x37, 0x21, 0x92, 0xF2])
    }

    @Test func aXeroxSessionIsNamed() {
        let events = Dissector.dissect(Self.session)
        let d = frames(events)
        #expect(d.map(\.summary) == [
            "Xerox WUP1", "Xerox WUP2", "Xerox slot marker NAK slot 0: no chip in this slot", "Xerox slot marker ACK slot 2: the chip answered in this slot",
            "Xerox chip UID 80 FE 09 2F 46 03 00 E0", "Xerox ATTRIB UID 80 FE 09 2F 46 03 00 E0", "ATTRIB accepted",
            "Xerox READ block 21", "block 21: 41 42 43 44", "Xerox WRITE block 49: 00 00 00 00", "Xerox WRITE block 49: accepted",
        ], "\(d.map(\.summary))")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
        #expect(d[0].crc == .ok(.b) && d[2].crc == .notExpected)
        #expect(sessions(events).map(\.headline) == ["Fuji Xerox memory chip, UID 80 FE 09 2F 46 03 00 E0"])
        // Outside a Xerox session B5 stays what ISO 14443-3 makes of it.
        let plain = frames(Dissector.dissect([Self.framed(.readerToTag, [0x05, 0x00, 0x04]), Self.framed(.readerToTag, [0xB5])]))
        #expect(plain[1].summary == "Slot-MARKER slot 12", "\(plain[1].summary)")
    }
}
