/// The commands of the NFC Forum Type 4 Tag operation (T4T 2.0 §5.4; protocols-wave2.md §4)
/// as ISO/IEC 7816-4 APDUs: the one codec the dissector, the emulator and the APDU annotator
/// read the file identifier of a SELECT and the NLEN of an UPDATE BINARY through.
public enum Type4Command: Sendable, Hashable {
    /// `00 A4 04 00 Lc name Le`: an application by its name (the NDEF Tag Application).
    case selectApplication(name: [UInt8])
    /// `00 A4 00 0C 02 fileID`: a file by its identifier (the CC file E103, the NDEF file).
    case selectFile(id: UInt16)
    /// `00 B0 P1P2 Le`: P1P2 is the offset (15 bits; the short-EF form is not Type 4's).
    case readBinary(offset: Int, length: Int?)
    /// `00 D6 P1P2 Lc data`.
    case updateBinary(offset: Int, data: [UInt8])

    /// P1 of SELECT (ISO/IEC 7816-4 §11.2.2, Table 39).
    public static let selectByName: UInt8 = 0x04
    public static let selectByFileID: UInt8 = 0x00
    /// P2 of a SELECT by file ID in T4T 2.0 §5.4.3: first or only occurrence, no answer data.
    public static let selectNoAnswerData: UInt8 = 0x0C

    /// Where the values sit in the APDU's data field (offsets inside the data).
    public enum Layout {
        /// SELECT by file ID: the file identifier, most significant byte first.
        public static let fileID = FieldLayout(0, 2, "file identifier (2 bytes)")
        /// UPDATE BINARY at offset 0 of the NDEF file with 2 bytes: the NLEN it writes.
        public static let nlen = FieldLayout(0, 2, "NLEN (2 bytes)")
    }

    /// The file identifier in a SELECT's data: exactly two bytes.
    public static func fileID(_ data: [UInt8]) throws(DecodeError) -> UInt16 {
        var c = ByteCursor(data)
        let id = try c.readUInt16BE(Layout.fileID)
        try c.expectEnd("the file identifier")
        return id
    }

    /// The NLEN an UPDATE BINARY of exactly two bytes writes (offset 0 of the NDEF file).
    public static func nlen(_ data: [UInt8]) throws(DecodeError) -> Int {
        var c = ByteCursor(data)
        let n = try c.readUInt16BE(Layout.nlen)
        try c.expectEnd("NLEN")
        return Int(n)
    }

    /// Decodes an interindustry APDU as a Type 4 command; errors carry APDU offsets (data
    /// field errors are offsets inside the data).
    public static func decode(_ apdu: CommandAPDU) throws(DecodeError) -> Type4Command {
        guard apdu.isInterindustry else {
            throw DecodeError(offset: CommandAPDU.Layout.cla.offset, expected: "an interindustry class", found: Hex.byte(apdu.cla))
        }
        switch apdu.ins {
        case ISO7816Instruction.select:
            switch apdu.p1 {
            case selectByName: return .selectApplication(name: apdu.data)
            case selectByFileID: return .selectFile(id: try fileID(apdu.data))
            default:
                throw DecodeError(offset: CommandAPDU.Layout.p1.offset, expected: "SELECT by name (04) or file ID (00)", found: Hex.byte(apdu.p1))
            }
        case ISO7816Instruction.readBinary, ISO7816Instruction.updateBinary:
            guard let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else {
                throw DecodeError(offset: CommandAPDU.Layout.p1.offset, expected: "a 15-bit offset in P1P2 (P1 b8 clear)", found: Hex.byte(apdu.p1))
            }
            return apdu.ins == ISO7816Instruction.readBinary ? .readBinary(offset: offset, length: apdu.le) : .updateBinary(offset: offset, data: apdu.data)
        default:
            throw DecodeError(offset: CommandAPDU.Layout.ins.offset, expected: "SELECT, READ BINARY or UPDATE BINARY", found: Hex.byte(apdu.ins))
        }
    }

    /// The APDU as T4T 2.0 §5.4 writes it.
    public var apdu: CommandAPDU {
        switch self {
        case .selectApplication(let name):
            return CommandAPDU(cla: 0x00, ins: ISO7816Instruction.select, p1: Self.selectByName, p2: 0x00, data: name, le: 256)
        case .selectFile(let id):
            var w = PayloadWriter()
            w.put([UInt8(id >> 8), UInt8(truncatingIfNeeded: id)], Layout.fileID)
            return CommandAPDU(cla: 0x00, ins: ISO7816Instruction.select, p1: Self.selectByFileID, p2: Self.selectNoAnswerData, data: w.bytes)
        case .readBinary(let offset, let length):
            return CommandAPDU(cla: 0x00, ins: ISO7816Instruction.readBinary, p1: UInt8(truncatingIfNeeded: offset >> 8) & 0x7F,
                               p2: UInt8(truncatingIfNeeded: offset), le: length)
        case .updateBinary(let offset, let data):
            return CommandAPDU(cla: 0x00, ins: ISO7816Instruction.updateBinary, p1: UInt8(truncatingIfNeeded: offset >> 8) & 0x7F,
                               p2: UInt8(truncatingIfNeeded: offset), data: data)
        }
    }
}
