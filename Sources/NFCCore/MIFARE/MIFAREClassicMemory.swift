/// What the blocks of a MIFARE Classic card hold (protocols-wave2.md §1.3–1.6; NXP MF1S50 §8,
/// AN10787).

/// The access bits of a sector trailer (bytes 6–8): three bits C1 C2 C3 per block, stored
/// twice, once inverted.
public struct MIFAREClassicAccessBits: Sendable, Hashable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = Array(bytes.prefix(3)) + [UInt8](repeating: 0, count: max(0, 3 - bytes.count)) }

    /// The three bytes for the conditions C1C2C3 of blocks 0, 1, 2 and the trailer, inverted
    /// copies included.
    public init(conditions: [UInt8]) {
        var c1: UInt8 = 0, c2: UInt8 = 0, c3: UInt8 = 0
        for j in 0..<4 {
            let v = j < conditions.count ? conditions[j] : 0
            c1 |= (v >> 2 & 1) << UInt8(j)
            c2 |= (v >> 1 & 1) << UInt8(j)
            c3 |= (v & 1) << UInt8(j)
        }
        bytes = [(~c2 & 0x0F) << 4 | (~c1 & 0x0F), c1 << 4 | (~c3 & 0x0F), c3 << 4 | c2]
    }

    /// C1 C2 C3 of block j (0–2 data or block groups on 4K large sectors, 3 the trailer) as a
    /// 3-bit number C1C2C3.
    public func condition(_ j: Int) -> UInt8 {
        let c1 = bytes[1] >> UInt8(4 + j) & 1, c2 = bytes[2] >> UInt8(j) & 1, c3 = bytes[2] >> UInt8(4 + j) & 1
        return c1 << 2 | c2 << 1 | c3
    }

    /// The three checks of the inverted copies: byte 6 low ↔ byte 7 high (C1), byte 6 high ↔
    /// byte 8 low (C2), byte 7 low ↔ byte 8 high (C3).
    var checks: (c1: Bool, c2: Bool, c3: Bool) {
        (bytes[0] & 0x0F == ~(bytes[1] >> 4) & 0x0F, bytes[0] >> 4 == ~bytes[2] & 0x0F, bytes[1] & 0x0F == ~(bytes[2] >> 4) & 0x0F)
    }

    public var isConsistent: Bool { checks == (true, true, true) }

    /// Which stored byte breaks the copies, when one does: a byte is the culprit when both
    /// checks it takes part in fail. Nil when consistent.
    public var inconsistency: String? {
        let (c1, c2, c3) = checks
        switch (c1, c2, c3) {
        case (true, true, true): return nil
        case (false, false, true): return "byte 6 does not hold the inverted C1 and C2 of bytes 7 and 8"
        case (false, true, false): return "byte 7 disagrees with bytes 6 and 8 (C1 and C3)"
        case (true, false, false): return "byte 8 disagrees with bytes 6 and 7 (C2 and C3)"
        case (false, true, true): return "C1: byte 6 low nibble is not the inverse of byte 7 high nibble"
        case (true, false, true): return "C2: byte 6 high nibble is not the inverse of byte 8 low nibble"
        case (true, true, false): return "C3: byte 7 low nibble is not the inverse of byte 8 high nibble"
        case (false, false, false): return "bytes 6, 7 and 8 all disagree"
        }
    }

    /// Which keys an operation may be done with.
    public struct Keys: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let a = Keys(rawValue: 1)
        public static let b = Keys(rawValue: 2)
        public static let ab: Keys = [.a, .b]
        public static let never: Keys = []

        public func contains(_ key: MIFAREClassicCommand.KeyType) -> Bool { contains(key == .a ? Keys.a : Keys.b) }
        var text: String { self == .ab ? "AB" : self == .a ? "A" : "B" }
    }

    public enum DataOperation: String, Sendable, CaseIterable {
        case read, write, increment
        case decrement = "decrement/transfer/restore"
    }

    public enum TrailerOperation: String, Sendable, CaseIterable {
        case keyAWrite = "key A write"
        case accessRead = "access bits read"
        case accessWrite = "access bits write"
        case keyBRead = "key B read"
        case keyBWrite = "key B write"
    }

    /// Data blocks, by condition C1C2C3: read, write, increment, decrement/transfer/restore
    /// (MF1S50 Table 8; protocols-wave2.md §1.4).
    static let dataTable: [[Keys]] = [
        [.ab, .ab, .ab, .ab],         // 000 transport configuration
        [.ab, .never, .never, .ab],   // 001 value block, decrement only
        [.ab, .never, .never, .never], // 010 read-only
        [.b, .b, .never, .never],     // 011
        [.ab, .b, .never, .never],    // 100
        [.b, .never, .never, .never], // 101 read-only
        [.ab, .b, .b, .ab],           // 110 value block
        [.never, .never, .never, .never], // 111 locked
    ]

    /// The sector trailer, by condition: key A write, access bits read and write, key B read and write.
    static let trailerTable: [[Keys]] = [
        [.a, .a, .never, .a, .a],     // 000
        [.a, .a, .a, .a, .a],         // 001 transport configuration
        [.never, .a, .never, .a, .never], // 010
        [.b, .ab, .b, .never, .b],    // 011
        [.b, .ab, .never, .never, .b], // 100
        [.never, .ab, .b, .never, .never], // 101
        [.never, .ab, .never, .never, .never], // 110
        [.never, .ab, .never, .never, .never], // 111
    ]

    public static func allows(_ op: DataOperation, condition: UInt8) -> Keys {
        dataTable[Int(condition & 7)][DataOperation.allCases.firstIndex(of: op)!]
    }

    public static func allows(_ op: TrailerOperation, trailerCondition: UInt8) -> Keys {
        trailerTable[Int(trailerCondition & 7)][TrailerOperation.allCases.firstIndex(of: op)!]
    }

    /// What a data block's condition allows, from the table: `read AB, write B (value block)`.
    public static func dataBlockRights(_ c: UInt8) -> String {
        let parts = DataOperation.allCases.compactMap { op -> String? in
            let k = allows(op, condition: c)
            return k == .never ? nil : "\(op.rawValue) \(k.text)"
        }
        let note: String
        switch c & 7 {
        case 0b000: note = " (transport configuration)"
        case 0b110: note = " (value block)"
        case 0b001: note = " (value block, decrement only)"
        case 0b010, 0b101: note = " (read-only)"
        default: note = ""
        }
        return parts.isEmpty ? "no access (locked)" : parts.joined(separator: ", ") + note
    }

    /// What the trailer's condition allows, from the table.
    public static func trailerRights(_ c: UInt8) -> String {
        let parts = TrailerOperation.allCases.compactMap { op -> String? in
            let k = allows(op, trailerCondition: c)
            return k == .never ? nil : "\(op.rawValue) \(k.text)"
        }
        return parts.joined(separator: ", ") + (c & 7 == 0b001 ? " (transport configuration)" : "")
    }

    /// Whether key B can be read under the trailer's condition (then it is data, not a key).
    public static func keyBReadable(_ trailerCondition: UInt8) -> Bool { allows(.keyBRead, trailerCondition: trailerCondition) != .never }
}

/// A sector trailer: key A, the access bits, the general purpose byte, key B (MF1S50 §8.7).
public enum MIFAREClassicTrailer {
    public enum Layout {
        public static let keyA = FieldLayout(0, 6, "key A")
        public static let accessBits = FieldLayout(6, 3, "access bits")
        public static let generalPurpose = FieldLayout(9, 1, "general purpose byte")
        /// The access bits and the GPB, written together.
        public static let accessAndGPB = FieldLayout(6, 4, "access bits and GPB")
        public static let keyB = FieldLayout(10, 6, "key B")
    }

    /// The access bits of a 16-byte trailer.
    public static func accessBits(_ trailer: [UInt8]) -> MIFAREClassicAccessBits {
        MIFAREClassicAccessBits(Array(trailer.dropFirst(Layout.accessBits.offset).prefix(Layout.accessBits.width)))
    }
}

/// A value block: value, its inverse, value again, then address, ¬address, address, ¬address.
public struct MIFAREClassicValueBlock: Sendable, Hashable {
    public let value: Int32
    public let address: UInt8

    public enum Layout {
        public static let value = FieldLayout(0, 4, "value")
        public static let inverted = FieldLayout(4, 4, "inverted value")
        public static let copy = FieldLayout(8, 4, "value copy")
        public static let address = FieldLayout(12, 4, "address bytes")
    }

    /// Nil when the 16 bytes do not have the value-block format.
    public init?(_ block: [UInt8]) {
        guard block.count == 16 else { return nil }
        func word(_ f: FieldLayout) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(block[f.offset + $1]) << UInt32(8 * $1) } }
        let v = word(Layout.value), inv = word(Layout.inverted), copy = word(Layout.copy)
        let a = block[12], na = block[13]
        guard v == copy, v == ~inv, na == ~a, block[14] == a, block[15] == na else { return nil }
        value = Int32(bitPattern: v)
        address = a
    }

    public init(value: Int32, address: UInt8) {
        self.value = value
        self.address = address
    }

    public func encode() -> [UInt8] {
        let v = UInt32(bitPattern: value)
        var w = PayloadWriter()
        w.putLE(v, Layout.value)
        w.putLE(~v, Layout.inverted)
        w.putLE(v, Layout.copy)
        w.put([address, ~address, address, ~address], Layout.address)
        return w.bytes
    }
}

/// The MIFARE Application Directory (NXP AN10787): MAD1 in sector 0 blocks 1–2, MAD2 in
/// sector 16 blocks 64–66. Byte 0 is the CRC-8 over the rest, byte 1 the info byte, then one
/// 2-byte AID per sector.
public struct MIFAREApplicationDirectory: Sendable, Hashable {
    public let crc: UInt8
    public let info: UInt8
    /// AIDs as the 16-bit value PM3 and libfreefare show (bytes read little-endian: `03 E1` → 0xE103).
    public let aids: [UInt16]
    public let crcIsValid: Bool
    /// The CRC-8 the body needs.
    public let expectedCRC: UInt8
    public let version: Int

    /// `bytes`: the 32 bytes of blocks 1–2 (MAD1) or the 48 of blocks 64–66 (MAD2).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 32 || bytes.count == 48 else { return nil }
        version = bytes.count == 32 ? 1 : 2
        crc = bytes[0]
        info = bytes[1]
        expectedCRC = Self.crc(of: bytes[1...])
        crcIsValid = expectedCRC == crc
        aids = stride(from: 2, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
    }

    /// The sector of the first AID: 1 for MAD1, 17 for MAD2.
    public var firstSector: Int { version == 1 ? 1 : 17 }

    public static let ndefAID: UInt16 = 0xE103

    /// Names of the administrative AIDs and of the public applications nfctrace knows.
    public static func name(_ aid: UInt16) -> String? {
        switch aid {
        case 0x0000: return "free"
        case 0x0001: return "defect"
        case 0x0002: return "reserved"
        case 0x0003: return "additional directory info"
        case 0x0004: return "card holder information"
        case 0x0005: return "not applicable (no such sector)"
        case ndefAID: return "NFC Forum NDEF"
        default: return nil
        }
    }
}

/// Block 0 of sector 0: the manufacturer block. For a 4-byte UID: UID0…UID3 and BCC; many
/// cards keep SAK and ATQA at bytes 5–7, but that is no rule.
public struct MIFAREClassicManufacturerBlock: Sendable, Hashable {
    public let uid: [UInt8]
    public let bcc: UInt8
    public let rest: [UInt8]

    public enum Layout {
        public static let uid = FieldLayout(0, 4, "UID")
        public static let bcc = FieldLayout(4, 1, "BCC")
        public static let manufacturerData = FieldLayout(5, 11, "manufacturer data")
    }

    public init?(_ block: [UInt8]) {
        guard block.count == 16 else { return nil }
        uid = Array(block[Layout.uid.range])
        bcc = block[Layout.bcc.offset]
        rest = Array(block[Layout.manufacturerData.range])
    }

    public var bccIsValid: Bool { uid.reduce(0, ^) == bcc }
}

/// NDEF on a Classic card (NFC Forum MIFARE Classic mapping): the sectors the MAD gives the
/// NDEF AID hold, in order and without their trailers, one TLV area as on a Type 2 tag.
public enum MIFAREClassicNDEF {
    /// The TLV area of the data blocks of `sectors`; blocks not read are unknown bytes.
    public static func area(sectors: [Int], blocks: [Int: [UInt8]]) -> TagTLVArea {
        var bytes: [UInt8] = [], known: [Bool] = []
        for sector in sectors {
            let first = MIFAREClassicLayout.firstBlock(ofSector: sector)
            for b in first..<MIFAREClassicLayout.trailer(ofSector: sector) {
                let data = blocks[b]
                bytes += data ?? [UInt8](repeating: 0, count: 16)
                known += [Bool](repeating: data != nil, count: 16)
            }
        }
        var walker = TagTLVWalker(image: TagMemoryImage(bytes: bytes, known: known), start: 0, size: bytes.count, flavor: .mifareClassic)
        return walker.walk()
    }
}
