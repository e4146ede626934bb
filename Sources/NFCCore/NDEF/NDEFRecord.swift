/// One NDEF record: TNF, TYPE, ID and PAYLOAD (protocols.md §4.1).
///
/// A record decoded from bytes also keeps its layout: the wire record it came from, or, for a
/// chunked record, every chunk in order (the payload is the chunks reassembled). Records built in
/// code have no chunks until they are encoded and decoded again.
///
/// Two records are equal when TNF, TYPE, ID and PAYLOAD are equal: the layout says where a
/// record was found, not what it is, so an encode → decode round trip compares equal.
public struct NDEFRecord: Sendable {
    public var tnf: NDEFTypeNameFormat
    public var type: [UInt8]
    public var id: [UInt8]
    public var payload: [UInt8]
    /// The wire records this record was decoded from (one unless chunked); empty if built in code.
    public var chunks: [NDEFChunk]

    public init(tnf: NDEFTypeNameFormat, type: [UInt8] = [], id: [UInt8] = [], payload: [UInt8] = [],
                chunks: [NDEFChunk] = []) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
        self.chunks = chunks
    }

    /// Header flags of the (first) wire record, as decoded.
    public var header: NDEFHeader? { chunks.first?.header }

    /// Byte range in the message, from the first chunk's header to the last chunk's payload end.
    public var range: Range<Int>? {
        guard let first = chunks.first, let last = chunks.last else { return nil }
        return first.range.lowerBound..<last.range.upperBound
    }

    /// Whether the record was sent in chunks (CF set on its first wire record).
    public var isChunked: Bool { chunks.first?.header.cf ?? false }

    /// TYPE as text. NDEF types are US-ASCII (RTD §2.3, RFC 2046, RFC 3986); bytes that are
    /// not UTF-8 show as U+FFFD.
    public var typeText: String { String(decoding: type, as: UTF8.self) }

    /// ID as text (record IDs are URIs; Latin-1 keeps every byte visible, as ndeflib does).
    public var idText: String { String(id.map { Character(Unicode.Scalar($0)) }) }

    /// The full type name: `urn:nfc:wkt:U`, `urn:nfc:ext:android.com:pkg`, `text/plain`, …
    public var typeName: String {
        switch tnf {
        case .wellKnown, .external: return (tnf.urnPrefix ?? "") + typeText
        case .media, .absoluteURI: return typeText
        case .empty: return ""
        case .unknown: return "unknown"
        case .unchanged: return "unchanged"
        case .reserved: return "reserved"
        }
    }

    /// Where byte `index` of the (reassembled) payload sits in the message; nil if out of range
    /// or the record was built in code. Logarithmic in the number of chunks, so mapping every
    /// field of a record cut into many chunks stays linear overall.
    public func messageOffset(ofPayloadByte index: Int) -> Int? {
        guard index >= 0, !chunks.isEmpty else { return nil }
        // The last chunk whose payload starts at or before `index`.
        var lo = 0, hi = chunks.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if chunks[mid].payloadOffset <= index { lo = mid } else { hi = mid - 1 }
        }
        let chunk = chunks[lo]
        let inChunk = index - chunk.payloadOffset
        guard inChunk >= 0 && inChunk < chunk.payloadRange.count else { return nil }
        return chunk.payloadRange.lowerBound + inChunk
    }

    /// Message offset just past the payload (where a reader that wanted more bytes stopped).
    public var payloadEndOffset: Int { chunks.last?.payloadRange.upperBound ?? payload.count }

    /// Message range of payload bytes `range`: exact when contiguous, otherwise the span from
    /// the first byte to the last (chunk headers in between included).
    public func messageRange(ofPayloadRange range: Range<Int>) -> Range<Int>? {
        guard let lower = messageOffset(ofPayloadByte: range.lowerBound) else {
            // An empty range at the very end of the payload.
            if range.isEmpty, let last = chunks.last, range.lowerBound == payload.count {
                return last.payloadRange.upperBound..<last.payloadRange.upperBound
            }
            return nil
        }
        if range.isEmpty { return lower..<lower }
        guard let upper = messageOffset(ofPayloadByte: range.upperBound - 1) else { return nil }
        return lower..<(upper + 1)
    }
}

extension NDEFRecord: Equatable, Hashable {
    public static func == (lhs: NDEFRecord, rhs: NDEFRecord) -> Bool {
        lhs.tnf == rhs.tnf && lhs.type == rhs.type && lhs.id == rhs.id && lhs.payload == rhs.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tnf)
        hasher.combine(type)
        hasher.combine(id)
        hasher.combine(payload)
    }
}

/// The first byte of a wire record: MB, ME, CF, SR, IL flags and the TNF (protocols.md §4.1).
public struct NDEFHeader: Sendable, Hashable {
    public var byte: UInt8

    public init(byte: UInt8) { self.byte = byte }

    public init(mb: Bool, me: Bool, cf: Bool, sr: Bool, il: Bool, tnf: NDEFTypeNameFormat) {
        byte = (mb ? 0x80 : 0) | (me ? 0x40 : 0) | (cf ? 0x20 : 0) | (sr ? 0x10 : 0) | (il ? 0x08 : 0)
            | tnf.rawValue
    }

    public var mb: Bool { byte & 0x80 != 0 }
    public var me: Bool { byte & 0x40 != 0 }
    public var cf: Bool { byte & 0x20 != 0 }
    public var sr: Bool { byte & 0x10 != 0 }
    public var il: Bool { byte & 0x08 != 0 }
    public var tnf: NDEFTypeNameFormat { NDEFTypeNameFormat(header: byte) }

    /// "MB ME SR" — the flags that are set.
    public var flagNames: String {
        Self.flagNameTable[(mb ? 16 : 0) | (me ? 8 : 0) | (cf ? 4 : 0) | (sr ? 2 : 0) | (il ? 1 : 0)]
    }

    /// `flagNames` of the 32 flag combinations, made once (every record's header shows them).
    private static let flagNameTable: [String] = (0..<32).map { bits in
        let names = [(16, "MB"), (8, "ME"), (4, "CF"), (2, "SR"), (1, "IL")].filter { bits & $0.0 != 0 }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: " ")
    }
}

/// Where one wire record lies in the message: every field's byte range (absolute).
public struct NDEFChunk: Sendable, Hashable {
    public var header: NDEFHeader
    /// The whole wire record, header to payload end.
    public var range: Range<Int>
    public var typeLengthOffset: Int
    /// 1 byte with SR, 4 bytes without.
    public var payloadLengthRange: Range<Int>
    /// Present when IL is set.
    public var idLengthOffset: Int?
    public var typeRange: Range<Int>
    public var idRange: Range<Int>
    public var payloadRange: Range<Int>
    /// Where this chunk's payload starts in the record's reassembled payload (0 for the first).
    public var payloadOffset: Int

    public init(header: NDEFHeader, range: Range<Int>, typeLengthOffset: Int, payloadLengthRange: Range<Int>,
                idLengthOffset: Int?, typeRange: Range<Int>, idRange: Range<Int>, payloadRange: Range<Int>,
                payloadOffset: Int = 0) {
        self.header = header
        self.range = range
        self.typeLengthOffset = typeLengthOffset
        self.payloadLengthRange = payloadLengthRange
        self.idLengthOffset = idLengthOffset
        self.typeRange = typeRange
        self.idRange = idRange
        self.payloadRange = payloadRange
        self.payloadOffset = payloadOffset
    }

    /// The same layout with every offset passed through `map` (used when a nested message is
    /// placed in its parent, whose payload may itself be split into chunks).
    public func relocated(_ map: (Int) -> Int) -> NDEFChunk {
        func r(_ x: Range<Int>) -> Range<Int> {
            let lower = map(x.lowerBound)
            return x.isEmpty ? lower..<lower : lower..<max(lower, map(x.upperBound - 1) + 1)
        }
        return NDEFChunk(header: header, range: r(range), typeLengthOffset: map(typeLengthOffset),
                         payloadLengthRange: r(payloadLengthRange), idLengthOffset: idLengthOffset.map(map),
                         typeRange: r(typeRange), idRange: r(idRange), payloadRange: r(payloadRange),
                         payloadOffset: payloadOffset)
    }
}
