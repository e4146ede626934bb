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

    /// iClass reader frames: the CRC covers the bytes after the opcode (READ 3: `0C 03` + CRC
    /// over `03`), built and checked by the same rule.
    @Test func aCRCCoveringFromByteN() {
        let read = CRCBytes(payload: [0x0C, 0x03], kind: .iclass, coveringFrom: 1)
        #expect(read.bytes == [0x0C, 0x03] + CRC.bytes(.iclass, [0x03]))
        #expect(read.bytes == IClass.frame(.read(block: 3)))
        #expect(read.crcState(coveringFrom: 1) == .valid)
        #expect(read.crcState() != .valid, "not a CRC over the whole frame")
        #expect(read.payload(ifValidCRC: nil, coveringFrom: 1).map(Array.init) == [0x0C, 0x03])
        var bad = read
        bad.bytes[1] ^= 1
        #expect(bad.payload(ifValidCRC: nil, coveringFrom: 1) == nil)
        #expect(CRCBytes([0x0C], kind: .iclass).crcState(coveringFrom: 1) == .tooShort)
        var frame = Frame(.data(.readerToTag), technology: .iclass)
        frame.setPayload([0x0C, 0x03], crc: true, coveringFrom: 1)
        #expect(frame.bytes == read.bytes)
    }

    /// Bytes that are no frame of a trace (a decrypted MIFARE Classic frame, an answer a
    /// transport returns) use the same rule.
    @Test func crcBytes() {
        let plain = CRCBytes(payload: Self.read, kind: .a)
        #expect(plain.bytes == [0x30, 0x03, 0x99, 0x9A])
        #expect(plain.payload(ifValidCRC: nil).map(Array.init) == Self.read)
        #expect(plain.crcRange == 2..<4 && Array(plain.bytesBeforeCRC) == Self.read && plain.crcWidth == 2)
        let wrong = CRCBytes([0x30, 0x03, 0x99, 0x9B], kind: .a)
        #expect(wrong.payload(ifValidCRC: nil) == nil && Array(wrong.payloadDroppingValidCRC()) == wrong.bytes)
        #expect(CRCBytes(Self.read, kind: .a, crcStripped: true).crcWidth == 0)
        #expect(MIFAREApplicationDirectory.crc(of: [UInt8]()) == 0xC7)
    }
}
