import Testing
import NFCCore

/// The one CRC API on frames (issue 17): split, check, strip and append, for every technology.
@Suite struct FrameCRCTests {
    static let read = [UInt8]([0x30, 0x03])   // READ page 3; CRC_A 99 9A

    @Test(arguments: Technology.allCases)
    func aValidCRCIsSplitStrippedAndAppendedAgain(technology: Technology) {
        var frame = Frame(.data(.readerToTag), technology: technology)
        frame.setPayload(Self.read, crc: true)
        #expect(frame.bytes == Self.read + CRC.bytes(technology.crcKind, Self.read))
        #expect(frame.crcState() == .valid)
        #expect(frame.payload(ifValidCRC: nil).map(Array.init) == Self.read)
        #expect(Array(frame.payloadDroppingValidCRC()) == Self.read)
        let stripped = frame.stripValidCRC()
        #expect(stripped)
        #expect(frame.bytes == Self.read && frame.crcStripped)
        #expect(frame.crcState() == .stripped)
        #expect(frame.payload(ifValidCRC: nil).map(Array.init) == Self.read, "a stripped frame's bytes are its payload")
        let again = frame.stripValidCRC()
        #expect(!again, "nothing left to strip")
        frame.setPayload(Self.read, crc: true)
        #expect(frame.bytes == Self.read, "a stripped frame gets no CRC appended")
    }

    @Test func wrongAndMissingCRCs() {
        let good = Frame(.data(.readerToTag), bytes: [0x30, 0x03, 0x99, 0x9A])
        #expect(good.crcState() == .valid)
        #expect(good.crcState(.b) != .valid, "another kind does not match")
        let bad = Frame(.data(.readerToTag), bytes: [0x30, 0x03, 0x99, 0x9B])
        #expect(bad.crcState() == .mismatch(expected: [0x99, 0x9A], found: [0x99, 0x9B]))
        #expect(bad.payload(ifValidCRC: nil) == nil)
        #expect(Array(bad.payloadDroppingValidCRC()) == bad.bytes, "kept whole: no CRC claimed")
        var copy = bad
        let strippedBad = copy.stripValidCRC()
        #expect(!strippedBad && copy == bad)
        // A CRC needs a payload byte before it: two bytes are too short, even if they match.
        let empty = Frame(.data(.readerToTag), bytes: CRC.bytes(.a, [UInt8]()))
        #expect(empty.crcState() == .tooShort)
        #expect(empty.payload(ifValidCRC: nil) == nil)
    }
}
