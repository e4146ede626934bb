/// NFC Forum Type 4 Tag identifiers (protocols-wave2.md §4.1).
public enum Type4Tag {
    /// NDEF Tag Application, mapping 2.0 and later.
    public static let ndefApplication: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    /// The same, mapping 1.0.
    public static let ndefApplicationV1: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
    /// The Capability Container file.
    public static let ccFile: UInt16 = 0xE103
    /// The NDEF file id customarily given in the CC.
    public static let defaultNDEFFile: UInt16 = 0xE104
}

/// A Type 4 Tag's CC file (protocols-wave2.md §4.2): CCLEN, mapping version, MLe, MLc and the
/// NDEF File Control TLV (`04 06`, or `06 08` with a 4-byte size in mapping 3.0).
public struct Type4CapabilityContainer: Sendable, Hashable {
    public var ccLength: UInt16
    public var mappingVersion: UInt8
    /// Most data one READ BINARY answers.
    public var maxReadLength: UInt16
    /// Most data one UPDATE BINARY takes.
    public var maxWriteLength: UInt16
    public var ndefFile: FileControl
    /// Further (proprietary) file control TLVs, kept as they are.
    public var otherTLVs: [[UInt8]]

    /// An NDEF or proprietary file: id, maximum size, read and write access.
    public struct FileControl: Sendable, Hashable {
        public var tag: UInt8
        public var fileID: UInt16
        public var maxSize: UInt32
        public var readAccess: UInt8
        public var writeAccess: UInt8

        public init(tag: UInt8 = Layout.ndefFileControlTag, fileID: UInt16, maxSize: UInt32, readAccess: UInt8 = 0, writeAccess: UInt8 = 0) {
            self.tag = tag
            self.fileID = fileID
            self.maxSize = maxSize
            self.readAccess = readAccess
            self.writeAccess = writeAccess
        }

        /// `06 08` carries a 4-byte size and its NDEF file a 4-byte ENLEN.
        public var isExtended: Bool { tag == Layout.extendedNDEFFileControlTag }
        public var lengthFieldSize: Int { isExtended ? 4 : 2 }
        /// NLEN (ENLEN) opens the NDEF file; the message follows it.
        public var lengthRange: Range<Int> { 0..<lengthFieldSize }
        /// The NDEF file's NLEN where no CC says otherwise.
        public static let defaultLengthRange = 0..<2

        public static func accessName(_ b: UInt8) -> String {
            switch b {
            case 0x00: return "granted"
            case 0xFF: return "never (read-only)"
            case 0x80...0xFE: return "proprietary (\(Hex.byte(b)))"
            default: return "RFU (\(Hex.byte(b)))"
            }
        }
    }

    public enum Layout {
        public static let ccLength = FieldLayout(0, 2, "CCLEN (2 bytes)")
        public static let mappingVersion = FieldLayout(2, 1, "mapping version")
        public static let maxReadLength = FieldLayout(3, 2, "MLe (2 bytes)")
        public static let maxWriteLength = FieldLayout(5, 2, "MLc (2 bytes)")
        public static let fileControlTag = FieldLayout(7, 1, "NDEF File Control TLV tag (04 or 06)")
        public static let fileControlLength = FieldLayout(8, 1, "NDEF File Control TLV length")
        public static let fileID = FieldLayout(9, 2, "NDEF file id")
        public static let maxSize = FieldLayout(11, 2, "maximum NDEF file size")
        public static let maxSizeExtended = FieldLayout(11, 4, "maximum NDEF file size (4 bytes)")
        public static let ndefFileControlTag: UInt8 = 0x04
        public static let extendedNDEFFileControlTag: UInt8 = 0x06
        public static let proprietaryFileControlTag: UInt8 = 0x05

        /// Read and write access follow the size.
        public static func readAccess(extended: Bool) -> FieldLayout { FieldLayout(extended ? 15 : 13, 1, "read access") }
        public static func writeAccess(extended: Bool) -> FieldLayout { FieldLayout(extended ? 16 : 14, 1, "write access") }
        /// The smallest CC: CCLEN 000F.
        public static let minimumLength = 15
    }

    public init(mappingVersion: UInt8 = 0x20, maxReadLength: UInt16, maxWriteLength: UInt16, ndefFile: FileControl, otherTLVs: [[UInt8]] = []) {
        self.mappingVersion = mappingVersion
        self.maxReadLength = maxReadLength
        self.maxWriteLength = maxWriteLength
        self.ndefFile = ndefFile
        self.otherTLVs = otherTLVs
        self.ccLength = UInt16(7 + (ndefFile.isExtended ? 10 : 8) + otherTLVs.reduce(0) { $0 + $1.count })
    }

    /// `2.0`.
    public var versionText: String { "\(mappingVersion >> 4).\(mappingVersion & 0x0F)" }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> Type4CapabilityContainer {
        var c = ByteCursor(bytes)
        let ccLength = try c.readUInt16BE(Layout.ccLength.expected)
        let version = try c.readUInt8(Layout.mappingVersion.expected)
        let mle = try c.readUInt16BE(Layout.maxReadLength.expected)
        let mlc = try c.readUInt16BE(Layout.maxWriteLength.expected)
        let tag = try c.readUInt8(Layout.fileControlTag.expected)
        guard tag == Layout.ndefFileControlTag || tag == Layout.extendedNDEFFileControlTag else {
            throw DecodeError(offset: Layout.fileControlTag.offset, expected: Layout.fileControlTag.expected, found: Hex.byte(tag))
        }
        let extended = tag == Layout.extendedNDEFFileControlTag
        let length = try c.readUInt8(Layout.fileControlLength.expected)
        guard length == (extended ? 8 : 6) else {
            throw DecodeError(offset: Layout.fileControlLength.offset, expected: "length \(extended ? 8 : 6) for TLV \(Hex.byte(tag))", found: "\(length)")
        }
        let fid = try c.readUInt16BE(Layout.fileID.expected)
        let size = extended ? try c.readUInt32BE(Layout.maxSizeExtended.expected) : UInt32(try c.readUInt16BE(Layout.maxSize.expected))
        let read = try c.readUInt8(Layout.readAccess(extended: extended).expected)
        let write = try c.readUInt8(Layout.writeAccess(extended: extended).expected)
        var cc = Type4CapabilityContainer(mappingVersion: version, maxReadLength: mle, maxWriteLength: mlc,
                                          ndefFile: FileControl(tag: tag, fileID: fid, maxSize: size, readAccess: read, writeAccess: write))
        cc.ccLength = ccLength
        // Further TLVs up to CCLEN (or the end of what was read).
        let end = min(Int(ccLength), bytes.count)
        while c.offset + 2 <= end {
            let t = try c.readUInt8("file control TLV tag")
            let l = Int(try c.readUInt8("file control TLV length"))
            let v = try c.readBytes(l, "\(l) bytes of file control TLV \(Hex.byte(t))")
            cc.otherTLVs.append([t, UInt8(l)] + v)
        }
        return cc
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        w.put([UInt8(ccLength >> 8), UInt8(truncatingIfNeeded: ccLength)], Layout.ccLength)
        w.put(mappingVersion, Layout.mappingVersion)
        w.put([UInt8(maxReadLength >> 8), UInt8(truncatingIfNeeded: maxReadLength)], Layout.maxReadLength)
        w.put([UInt8(maxWriteLength >> 8), UInt8(truncatingIfNeeded: maxWriteLength)], Layout.maxWriteLength)
        let extended = ndefFile.isExtended
        w.put(ndefFile.tag, Layout.fileControlTag)
        w.put(UInt8(extended ? 8 : 6), Layout.fileControlLength)
        w.put([UInt8(ndefFile.fileID >> 8), UInt8(truncatingIfNeeded: ndefFile.fileID)], Layout.fileID)
        let size = ndefFile.maxSize
        if extended {
            w.put((0..<4).map { UInt8(truncatingIfNeeded: size >> UInt32(24 - 8 * $0)) }, Layout.maxSizeExtended)
        } else {
            w.put([UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size)], Layout.maxSize)
        }
        w.put(ndefFile.readAccess, Layout.readAccess(extended: extended))
        w.put(ndefFile.writeAccess, Layout.writeAccess(extended: extended))
        var bytes = w.bytes
        for t in otherTLVs { bytes += t }
        return bytes
    }
}
