/// One TLV block of a Type 2 or Type 5 tag's data area (protocols.md §3.2, §6.5).
public struct TagTLV: Sendable, Hashable {
    public enum Tag: Sendable, Hashable {
        case null, lockControl, memoryControl, ndef, proprietary, terminator
        /// A type the tag type does not define; skipped by its length.
        case rfu(UInt8)

        public init(byte: UInt8) {
            switch byte {
            case 0x00: self = .null
            case 0x01: self = .lockControl
            case 0x02: self = .memoryControl
            case 0x03: self = .ndef
            case 0xFD: self = .proprietary
            case 0xFE: self = .terminator
            default: self = .rfu(byte)
            }
        }

        public var byte: UInt8 {
            switch self {
            case .null: return 0x00
            case .lockControl: return 0x01
            case .memoryControl: return 0x02
            case .ndef: return 0x03
            case .proprietary: return 0xFD
            case .terminator: return 0xFE
            case .rfu(let b): return b
            }
        }

        public var name: String {
            switch self {
            case .null: return "NULL TLV"
            case .lockControl: return "Lock Control TLV"
            case .memoryControl: return "Memory Control TLV"
            case .ndef: return "NDEF Message TLV"
            case .proprietary: return "Proprietary TLV"
            case .terminator: return "Terminator TLV"
            case .rfu(let b): return "RFU TLV \(Hex.byte(b))"
            }
        }

        /// NULL and Terminator are a lone T byte.
        public var hasLength: Bool { self != .null && self != .terminator }
    }

    public var tag: Tag
    /// Absolute offset of the T byte (of the first, for a run of NULL TLVs).
    public var tagOffset: Int
    /// From the T byte to the last value byte read (reserved areas inside included).
    public var range: Range<Int>
    /// The L field: 1 byte, or 3 (`FF` + 2 bytes BE).
    public var lengthRange: Range<Int>?
    /// L as declared.
    public var length: Int?
    /// Where the value bytes that were read lie (lock and reserved areas left out).
    public var valueSegments: [Range<Int>]
    /// The value bytes read (all of them when `isComplete`).
    public var value: [UInt8]
    public var isComplete: Bool
    /// How many NULL TLVs in a row this entry stands for (1 for other TLVs).
    public var repeatCount: Int

    public init(tag: Tag, tagOffset: Int, range: Range<Int>, lengthRange: Range<Int>? = nil, length: Int? = nil,
                valueSegments: [Range<Int>] = [], value: [UInt8] = [], isComplete: Bool = true, repeatCount: Int = 1) {
        self.tag = tag
        self.tagOffset = tagOffset
        self.range = range
        self.lengthRange = lengthRange
        self.length = length
        self.valueSegments = valueSegments
        self.value = value
        self.isComplete = isComplete
        self.repeatCount = repeatCount
    }

    /// Image offset of value byte `index` (value bytes skip lock and reserved areas).
    public func imageOffset(ofValueByte index: Int) -> Int? {
        guard index >= 0 else { return nil }
        var rest = index
        for s in valueSegments {
            if rest < s.count { return s.lowerBound + rest }
            rest -= s.count
        }
        return nil
    }

    /// Image range of value bytes `range`: exact when contiguous, else from first to last byte.
    public func imageRange(ofValueRange range: Range<Int>) -> Range<Int>? {
        guard let lower = imageOffset(ofValueByte: range.lowerBound) else {
            if range.isEmpty, let last = valueSegments.last, range.lowerBound == value.count {
                return last.upperBound..<last.upperBound
            }
            return nil
        }
        if range.isEmpty { return lower..<lower }
        guard let upper = imageOffset(ofValueByte: range.upperBound - 1) else { return lower..<(valueSegments.last?.upperBound ?? lower) }
        return lower..<(upper + 1)
    }

    /// The TLV's encoding: T, L (1 or 3 bytes) and V.
    public static func encode(_ tag: Tag, value: [UInt8]) throws(TagMemoryEncodingError) -> [UInt8] {
        guard tag.hasLength else { return [tag.byte] }
        guard value.count <= 0xFFFE else { throw .valueTooLong(length: value.count, maximum: 0xFFFE) }
        // T2T §2.3: 1-byte L for 0x00–0xFE, `FF` + 2 bytes for 0x00FF–0xFFFE.
        let length: [UInt8] = value.count < 0xFF
            ? [UInt8(value.count)]
            : [0xFF, UInt8(truncatingIfNeeded: value.count >> 8), UInt8(truncatingIfNeeded: value.count)]
        return [tag.byte] + length + value
    }
}

/// An NDEF message found in a TLV, decoded, with the way back to image offsets.
public struct TagNDEFMessage: Sendable, Equatable {
    /// Index of the NDEF Message TLV in the TLV list.
    public var tlvIndex: Int
    public var tlv: TagTLV
    /// The message decoded leniently from the value bytes that were read.
    public var result: NDEFDecodeResult

    public init(tlvIndex: Int, tlv: TagTLV, result: NDEFDecodeResult) {
        self.tlvIndex = tlvIndex
        self.tlv = tlv
        self.result = result
    }

    /// Image range of message bytes `range`.
    public func imageRange(ofMessageRange range: Range<Int>) -> Range<Int>? { tlv.imageRange(ofValueRange: range) }
    public func imageOffset(ofMessageByte offset: Int) -> Int? { tlv.imageOffset(ofValueByte: offset) }
}

/// Why a memory image could not be built.
public enum TagMemoryEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case valueTooLong(length: Int, maximum: Int)
    case messageTooLarge(needed: Int, available: Int)
    case invalidField(String)
    case ndef(NDEFEncodingError)

    public var description: String {
        switch self {
        case .valueTooLong(let n, let max): return "TLV value of \(n) bytes (at most \(max))"
        case .messageTooLarge(let n, let a): return "needs \(n) bytes, the data area has \(a)"
        case .invalidField(let s): return s
        case .ndef(let e): return e.description
        }
    }
}
