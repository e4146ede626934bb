/// The Type 2 Tag Capability Container: page 3, bytes 12–15 (protocols.md §3.1; T2T §6.1).
public struct Type2CapabilityContainer: Sendable, Hashable {
    /// CC0: `E1` when the tag holds NDEF data.
    public var magic: UInt8
    /// CC1: major version in the high nibble, minor in the low one.
    public var version: UInt8
    /// CC2: data area size / 8.
    public var size: UInt8
    /// CC3: read access (high nibble) and write access (low nibble).
    public var access: UInt8

    public init(magic: UInt8 = 0xE1, version: UInt8 = 0x10, size: UInt8, access: UInt8 = 0x00) {
        self.magic = magic
        self.version = version
        self.size = size
        self.access = access
    }

    /// Where each CC byte sits (NFC Forum T2T §6.1; offsets inside the CC, page 3 of the tag).
    public enum Layout {
        public static let magic = FieldLayout(0, 1, "CC0 (magic)")
        public static let version = FieldLayout(1, 1, "CC1 (version)")
        public static let size = FieldLayout(2, 1, "CC2 (data area size)")
        public static let access = FieldLayout(3, 1, "CC3 (access)")
        /// The CC in a memory image: page 3, bytes 12–15.
        public static let imageRange = 12..<16
    }

    /// Reads the 4 CC bytes.
    public static func decode<C: Collection>(_ bytes: C) throws(DecodeError) -> Type2CapabilityContainer where C.Element == UInt8 {
        var cursor = ByteCursor(Array(bytes))
        let cc = Type2CapabilityContainer(magic: try cursor.readUInt8(Layout.magic), version: try cursor.readUInt8(Layout.version),
                                          size: try cursor.readUInt8(Layout.size), access: try cursor.readUInt8(Layout.access))
        try cursor.expectEnd("the 4-byte capability container")
        return cc
    }

    public var bytes: [UInt8] {
        var w = PayloadWriter()
        w.put(magic, Layout.magic)
        w.put(version, Layout.version)
        w.put(size, Layout.size)
        w.put(access, Layout.access)
        return w.bytes
    }

    public var isNDEF: Bool { magic == 0xE1 }
    public var majorVersion: UInt8 { version >> 4 }
    public var minorVersion: UInt8 { version & 0x0F }
    public var versionText: String { "\(majorVersion).\(minorVersion)" }
    /// Data area size in bytes (CC2 × 8).
    public var dataAreaSize: Int { Int(size) * 8 }

    public enum Access: Sendable, Hashable {
        case granted
        case none
        case proprietary(UInt8)
        case rfu(UInt8)

        public var name: String {
            switch self {
            case .granted: return "granted without security"
            case .none: return "no access"
            case .proprietary(let v): return "proprietary (\(Hex.value(v, digits: 1)))"
            case .rfu(let v): return "RFU (\(Hex.value(v, digits: 1)))"
            }
        }
    }

    /// Read nibble: 0 free, 8–E proprietary, others RFU.
    public var readAccess: Access {
        switch access >> 4 {
        case 0x0: return .granted
        case 0x8...0xE: return .proprietary(access >> 4)
        default: return .rfu(access >> 4)
        }
    }

    /// Write nibble: 0 free, 8–E proprietary, F none (read-only tag), others RFU.
    public var writeAccess: Access {
        switch access & 0x0F {
        case 0x0: return .granted
        case 0xF: return .none
        case 0x8...0xE: return .proprietary(access & 0x0F)
        default: return .rfu(access & 0x0F)
        }
    }

    /// The factory CC of NTAG21x (protocols.md §2.4); others: user memory / 8.
    public static func factory(for model: Type2TagModel) -> Type2CapabilityContainer {
        switch model {
        case .ntag213, .ntag213F: return Type2CapabilityContainer(size: 0x12)
        case .ntag215: return Type2CapabilityContainer(size: 0x3E)
        case .ntag216, .ntag216F: return Type2CapabilityContainer(size: 0x6D)
        default: return Type2CapabilityContainer(size: UInt8(clamping: model.memoryMap.userBytes / 8))
        }
    }

    /// What a reader must make of this CC (T2T §6.1, protocols.md §3.1), at image offsets 12–15.
    func check(into issues: inout [TagMemoryIssue]) {
        if !isNDEF {
            issues.append(TagMemoryIssue(.warning, "t2t.cc.magic", "CC0 \(Hex.byte(magic)) is not E1: the tag is not NDEF formatted", range: Layout.magic.range(at: Layout.imageRange.lowerBound)))
        }
        if isNDEF && majorVersion != 1 {
            issues.append(TagMemoryIssue(majorVersion > 1 ? .error : .warning, "t2t.cc.version",
                                         "mapping version \(versionText): readers support major version 1 and must reject a higher one",
                                         range: Layout.version.range(at: Layout.imageRange.lowerBound)))
        }
        if case .rfu = readAccess {
            issues.append(TagMemoryIssue(.warning, "t2t.cc.access", "read access \(readAccess.name)", range: Layout.access.range(at: Layout.imageRange.lowerBound)))
        }
        if case .rfu = writeAccess {
            issues.append(TagMemoryIssue(.warning, "t2t.cc.access", "write access \(writeAccess.name)", range: Layout.access.range(at: Layout.imageRange.lowerBound)))
        }
    }
}

/// A lock or reserved area named by a Lock Control or Memory Control TLV (protocols.md §3.2),
/// or the dynamic lock area a tag without Lock Control TLV has after its data area.
public struct Type2ControlArea: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case lock = "lock area"
        case reserved = "reserved area"
    }

    public var kind: Kind
    /// Absolute bytes of the area.
    public var range: Range<Int>
    /// Lock areas: number of lock bits; reserved areas: nil.
    public var lockBits: Int?
    /// Lock areas: bytes each lock bit protects.
    public var bytesLockedPerBit: Int?
    /// 2^n from V2 (the "page" size the position is counted in).
    public var bytesPerPage: Int
    /// The TLV value (V0 V1 V2), nil for the default dynamic lock area.
    public var tlvValue: [UInt8]?

    public var isDefault: Bool { tlvValue == nil }

    public init(kind: Kind, range: Range<Int>, lockBits: Int?, bytesLockedPerBit: Int?, bytesPerPage: Int, tlvValue: [UInt8]?) {
        self.kind = kind
        self.range = range
        self.lockBits = lockBits
        self.bytesLockedPerBit = bytesLockedPerBit
        self.bytesPerPage = bytesPerPage
        self.tlvValue = tlvValue
    }

    /// V0: PageAddr (high nibble), ByteOffset (low nibble); V1: size (bits for lock, bytes for
    /// reserved; 0 = 256); V2: BytesPerPage = 2^(low nibble), BytesLockedPerLockBit = 2^(high nibble).
    public init?(_ kind: Kind, value: [UInt8]) {
        var cursor = ByteCursor(value)
        guard let v0 = try? cursor.readUInt8("V0"), let v1 = try? cursor.readUInt8("V1"),
              let v2 = try? cursor.readUInt8("V2") else { return nil }
        let bytesPerPage = 1 << Int(v2 & 0x0F)
        let start = Int(v0 >> 4) * bytesPerPage + Int(v0 & 0x0F)
        let size = v1 == 0 ? 256 : Int(v1)
        self.kind = kind
        self.bytesPerPage = bytesPerPage
        self.tlvValue = Array(value.prefix(3))
        switch kind {
        case .lock:
            lockBits = size
            bytesLockedPerBit = 1 << Int(v2 >> 4)
            range = start..<(start + (size + 7) / 8)
        case .reserved:
            lockBits = nil
            bytesLockedPerBit = nil
            range = start..<(start + size)
        }
    }

    /// Without a Lock Control TLV: lock bytes right after the data area, one bit per 8 bytes of
    /// data beyond the first 48 (protocols.md §3.2).
    static func defaultDynamicLock(dataAreaSize: Int) -> Type2ControlArea? {
        guard dataAreaSize > 48 else { return nil }
        let bits = (dataAreaSize - 48 + 7) / 8
        let start = 16 + dataAreaSize
        return Type2ControlArea(kind: .lock, range: start..<(start + (bits + 7) / 8), lockBits: bits, bytesLockedPerBit: 8,
                                bytesPerPage: 4, tlvValue: nil)
    }
}
