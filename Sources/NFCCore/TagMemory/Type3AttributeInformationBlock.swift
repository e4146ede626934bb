/// The Type 3 Tag Attribute Information Block: block 0 of service `000B` (protocols.md §5.8;
/// T3T §6.2).
public struct Type3AttributeInformationBlock: Sendable, Hashable {
    /// Mapping version: major in the high nibble, minor in the low one (`10` = 1.0).
    public var version: UInt8
    /// Nbr: blocks one Check command may read.
    public var nbr: UInt8
    /// Nbw: blocks one Update command may write.
    public var nbw: UInt8
    /// Nmaxb: blocks available for NDEF data.
    public var nmaxb: UInt16
    /// Bytes 5–8, zero in version 1.0.
    public var reserved: [UInt8]
    /// WriteF: `00` done, `0F` a write is in progress.
    public var writeF: UInt8
    /// RWFlag: `00` read-only, `01` read/write.
    public var rwFlag: UInt8
    /// Ln: NDEF message length in bytes (24 bit).
    public var ln: UInt32
    /// The checksum as read (sum of bytes 0–13, 16-bit BE).
    public var checksum: UInt16

    public init(version: UInt8 = 0x10, nbr: UInt8, nbw: UInt8, nmaxb: UInt16, writeF: UInt8 = 0x00,
                rwFlag: UInt8 = 0x01, ln: UInt32) {
        self.version = version
        self.nbr = nbr
        self.nbw = nbw
        self.nmaxb = nmaxb
        self.reserved = [0, 0, 0, 0]
        self.writeF = writeF
        self.rwFlag = rwFlag
        self.ln = ln & 0xFF_FFFF
        self.checksum = 0
        self.checksum = computedChecksum
    }

    /// Reads the 16-byte block. The checksum is kept as read; `checksumIsValid` compares it.
    /// Where its values sit in block 0 (NFC Forum Type 3 Tag §7.1, protocols.md §5.6).
    public enum Layout {
        public static let all = FieldLayout(0, 16, "the 16-byte Attribute Information Block")
        public static let version = FieldLayout(0, 1, "Ver")
        public static let nbr = FieldLayout(1, 1, "Nbr")
        public static let nbw = FieldLayout(2, 1, "Nbw")
        public static let nmaxb = FieldLayout(3, 2, "Nmaxb")
        public static let reserved = FieldLayout(5, 4, "bytes 5–8 (reserved)")
        public static let writeF = FieldLayout(9, 1, "WriteF")
        public static let rwFlag = FieldLayout(10, 1, "RWFlag")
        public static let ln = FieldLayout(11, 3, "Ln")
        public static let checksum = FieldLayout(14, 2, "checksum")
    }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> Type3AttributeInformationBlock {
        var c = ByteCursor(block)
        var aib = Type3AttributeInformationBlock(version: try c.readUInt8(Layout.version), nbr: try c.readUInt8(Layout.nbr),
                                                 nbw: try c.readUInt8(Layout.nbw), nmaxb: try c.readUInt16BE(Layout.nmaxb.expected), ln: 0)
        aib.reserved = try c.readBytes(Layout.reserved)
        aib.writeF = try c.readUInt8(Layout.writeF)
        aib.rwFlag = try c.readUInt8(Layout.rwFlag)
        aib.ln = try c.readUInt24BE(Layout.ln.expected)
        aib.checksum = try c.readUInt16BE(Layout.checksum.expected)
        try c.expectEnd(Layout.all.expected)
        return aib
    }

    /// Bytes 0–13, without the checksum.
    private var body: [UInt8] {
        [version, nbr, nbw, UInt8(nmaxb >> 8), UInt8(truncatingIfNeeded: nmaxb)] + reserved.prefix(4)
            + [UInt8](repeating: 0, count: max(0, 4 - reserved.count))
            + [writeF, rwFlag, UInt8(truncatingIfNeeded: ln >> 16), UInt8(truncatingIfNeeded: ln >> 8), UInt8(truncatingIfNeeded: ln)]
    }

    public var computedChecksum: UInt16 { UInt16(truncatingIfNeeded: body.reduce(0) { $0 + Int($1) }) }
    public var checksumIsValid: Bool { checksum == computedChecksum }

    /// The 16 bytes with the checksum as held (use `withComputedChecksum` to fix it first).
    public var bytes: [UInt8] { body + [UInt8(checksum >> 8), UInt8(truncatingIfNeeded: checksum)] }

    public var withComputedChecksum: Type3AttributeInformationBlock {
        var copy = self
        copy.checksum = computedChecksum
        return copy
    }

    public var versionText: String { "\(version >> 4).\(version & 0x0F)" }
    public var isWriting: Bool { writeF == 0x0F }
    public var isReadOnly: Bool { rwFlag == 0x00 }
    /// Blocks the NDEF message occupies: ceil(Ln / 16).
    public var ndefBlockCount: Int { (Int(ln) + 15) / 16 }
}

/// A Type 3 tag's NDEF data: the AIB (block 0) and the blocks after it.
public struct Type3MemoryLayout: Sendable, Equatable {
    public var attributeInformationBlock: Type3AttributeInformationBlock?
    /// Where the NDEF message lies in the image: from byte 16, Ln bytes.
    public var ndefRange: Range<Int>?
    public var ndef: NDEFDecodeResult?
    public var issues: [TagMemoryIssue]
}

public enum Type3Memory {
    /// Reads an image of blocks 0, 1, 2 … of service `000B` (16 bytes each).
    public static func decode(_ image: TagMemoryImage) -> Type3MemoryLayout {
        var issues: [TagMemoryIssue] = []
        guard image.firstUnknown(in: Type3AttributeInformationBlock.Layout.all.range) == nil,
              let aib = try? Type3AttributeInformationBlock.decode(Array(image.bytes[Type3AttributeInformationBlock.Layout.all.range])) else {
            issues.append(TagMemoryIssue(.warning, "t3t.aib.unread", "the Attribute Information Block (block 0) was not read",
                                         range: 0..<min(16, max(1, image.count))))
            return Type3MemoryLayout(attributeInformationBlock: nil, ndefRange: nil, ndef: nil, issues: issues)
        }
        if !aib.checksumIsValid {
            issues.append(TagMemoryIssue(.error, "t3t.aib.checksum",
                                         "checksum \(Hex.value(aib.checksum, digits: 4)), bytes 0–13 sum to \(Hex.value(aib.computedChecksum, digits: 4))",
                                         range: Type3AttributeInformationBlock.Layout.checksum.range))
        }
        if aib.version >> 4 != 1 {
            issues.append(TagMemoryIssue(aib.version >> 4 > 1 ? .error : .warning, "t3t.aib.version",
                                         "mapping version \(aib.versionText): readers support major version 1", range: 0..<1))
        }
        if aib.reserved.contains(where: { $0 != 0 }) {
            issues.append(TagMemoryIssue(.warning, "t3t.aib.reserved", "bytes 5–8 are not zero", range: 5..<9))
        }
        switch aib.writeF {
        case 0x00: break
        case 0x0F:
            // §9 #15: the spec says the data may still be valid; nfcpy refuses to read it.
            issues.append(TagMemoryIssue(.warning, "t3t.aib.writing", "WriteF 0F: a write was in progress, the data may be incomplete",
                                         range: 9..<10))
        default:
            issues.append(TagMemoryIssue(.warning, "t3t.aib.writef", "WriteF \(Hex.byte(aib.writeF)) is neither 00 nor 0F", range: 9..<10))
        }
        if aib.rwFlag > 0x01 {
            issues.append(TagMemoryIssue(.warning, "t3t.aib.rwflag", "RWFlag \(Hex.byte(aib.rwFlag)) is neither 00 nor 01", range: 10..<11))
        }
        if aib.ndefBlockCount > Int(aib.nmaxb) {
            issues.append(TagMemoryIssue(.error, "t3t.aib.ln", "Ln \(aib.ln) needs \(aib.ndefBlockCount) blocks, Nmaxb allows \(aib.nmaxb)",
                                         range: 11..<14))
        }
        if aib.nbr == 0 || aib.nbw == 0 {
            issues.append(TagMemoryIssue(.warning, "t3t.aib.nb", "Nbr \(aib.nbr), Nbw \(aib.nbw): a reader needs at least 1", range: 1..<3))
        }
        let range = 16..<(16 + Int(aib.ln))
        var data = Array(image.bytes[min(16, image.count)..<min(range.upperBound, image.count)])
        let runs = image.unknownRuns(in: range)
        if let first = runs.first {
            issues.append(TagMemoryIssue(.warning, "t3t.ndef.unread",
                                         "the NDEF message (Ln \(aib.ln)) continues into bytes \(TagMemoryImage.describe(runs)), which were not read",
                                         range: first.lowerBound..<range.upperBound))
            data = Array(data.prefix(max(0, first.lowerBound - 16)))
        }
        var ndef: NDEFDecodeResult?
        if aib.ln > 0 {
            let result = NDEFMessage.decode(data, mode: .lenient)
            ndef = result
            for i in result.issues {
                issues.append(TagMemoryIssue(!i.isBreach ? .note : (i.tolerated ? .warning : .error), "ndef." + i.rule.rawValue,
                                             "NDEF message byte \(i.offset): \(i.message)", range: (16 + i.offset)..<(17 + i.offset)))
            }
        }
        return Type3MemoryLayout(attributeInformationBlock: aib, ndefRange: range, ndef: ndef, issues: issues)
    }

    /// AIB + NDEF data blocks (zero padded) for `message`.
    public static func blocks(message: [UInt8], nbr: UInt8 = 4, nbw: UInt8 = 1, nmaxb: UInt16,
                              readOnly: Bool = false) throws(TagMemoryEncodingError) -> [[UInt8]] {
        let needed = (message.count + 15) / 16
        guard message.count <= 0xFF_FFFF, needed <= Int(nmaxb) else {
            throw .messageTooLarge(needed: message.count, available: Int(nmaxb) * 16)
        }
        let aib = Type3AttributeInformationBlock(nbr: nbr, nbw: nbw, nmaxb: nmaxb, rwFlag: readOnly ? 0x00 : 0x01,
                                                 ln: UInt32(message.count))
        var out = [aib.bytes]
        var i = 0
        while i < message.count {
            let chunk = Array(message[i..<min(i + 16, message.count)])
            out.append(chunk + [UInt8](repeating: 0, count: 16 - chunk.count))
            i += 16
        }
        return out
    }
}
