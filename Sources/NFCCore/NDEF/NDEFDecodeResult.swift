/// How a decode judges what it finds. Both modes decode the same records and report the same
/// issues; they differ in what makes the message invalid.
public enum NDEFValidation: String, Sendable, Hashable {
    /// Invalid if any NDEF or record-type rule is breached.
    case strict
    /// Invalid only if decoding had to stop (a record runs past the data); everything else is
    /// tolerated and listed.
    case lenient
}

/// What decoding an NDEF message produced: the records decoded so far and every issue found.
public struct NDEFDecodeResult: Sendable, Equatable {
    public var records: [NDEFDecodedRecord]
    /// All issues, nested messages included, in the order found; offsets are in the decoded bytes.
    public var issues: [NDEFIssue]
    public var mode: NDEFValidation
    /// Number of bytes decoded.
    public var byteCount: Int
    /// Bytes that belong to no record: a record cut short, or bytes after the ME record.
    public var unparsedRange: Range<Int>?

    public init(records: [NDEFDecodedRecord], issues: [NDEFIssue], mode: NDEFValidation, byteCount: Int,
                unparsedRange: Range<Int>?) {
        self.records = records
        self.issues = issues
        self.mode = mode
        self.byteCount = byteCount
        self.unparsedRange = unparsedRange
    }

    public var message: NDEFMessage { NDEFMessage(records.map(\.record)) }

    /// Valid under `mode`: strict needs no breach, lenient only needs decoding to have finished.
    public var isValid: Bool { firstRejection == nil }

    /// The issue that makes the message invalid under `mode`, if any.
    public var firstRejection: NDEFIssue? {
        switch mode {
        case .strict: return issues.first(where: \.isBreach)
        case .lenient: return issues.first(where: { $0.isBreach && !$0.tolerated })
        }
    }

    /// Issues lenient mode decoded past.
    public var tolerated: [NDEFIssue] { issues.filter { $0.isBreach && $0.tolerated } }

    /// The same result with every offset passed through `map` (a nested message placed in its
    /// parent record's payload).
    func relocated(_ map: (Int) -> Int) -> NDEFDecodeResult {
        var copy = self
        copy.records = records.map { $0.relocated(map) }
        copy.issues = issues.map { var i = $0; i.offset = map(i.offset); return i }
        copy.unparsedRange = unparsedRange.map { r in
            let lower = map(r.lowerBound)
            return r.isEmpty ? lower..<lower : lower..<max(lower, map(r.upperBound - 1) + 1)
        }
        return copy
    }
}

/// A record and what nfctrace read from its payload.
public struct NDEFDecodedRecord: Sendable, Equatable {
    public var record: NDEFRecord
    /// The record type as nfctrace understood it in its context; nil when not read.
    public var kind: NDEFRecordKind?
    public var payload: NDEFPayload

    public init(record: NDEFRecord, kind: NDEFRecordKind?, payload: NDEFPayload) {
        self.record = record
        self.kind = kind
        self.payload = payload
    }

    /// Equal when the records are: the payload view follows from the record and its context.
    public static func == (lhs: NDEFDecodedRecord, rhs: NDEFDecodedRecord) -> Bool { lhs.record == rhs.record }

    func relocated(_ map: (Int) -> Int) -> NDEFDecodedRecord {
        var copy = self
        copy.record.chunks = record.chunks.map { $0.relocated(map) }
        copy.payload = payload.relocated(map)
        return copy
    }
}

extension NDEFMessage {
    /// Decodes an NDEF message. Never throws and never traps: garbage yields the records that
    /// could be read plus issues saying where and why the rest could not.
    public static func decode(_ bytes: [UInt8], mode: NDEFValidation = .lenient) -> NDEFDecodeResult {
        var decoder = NDEFMessageDecoder(bytes: bytes, context: .message, depth: 0)
        return decoder.decode(mode: mode, allowEmpty: false)
    }

    /// The framing alone: the records as their headers and chunks give them, and the framing
    /// issues, with no payload read (every record's `kind` nil and `payload` `.bytes`, nested
    /// messages not opened). For code that moves whole records around and needs nothing a
    /// payload says, such as the fuzzer's crossover: the payload readers are most of what
    /// `decode` costs. Lenient validity is then the framing's alone (a Smart Poster whose nested
    /// message is cut short is valid here, not in `decode`).
    public static func decodeFraming(_ bytes: [UInt8], mode: NDEFValidation = .lenient) -> NDEFDecodeResult {
        var decoder = NDEFMessageDecoder(bytes: bytes, context: .message, depth: 0)
        decoder.readsPayloads = false
        return decoder.decode(mode: mode, allowEmpty: false)
    }

    /// Strict decoding for callers that want a value or an error: throws the first breach
    /// (offset + the rule as what was expected).
    public init(strict bytes: [UInt8]) throws(DecodeError) {
        let result = NDEFMessage.decode(bytes, mode: .strict)
        if let issue = result.firstRejection { throw issue.decodeError }
        self = result.message
    }
}
