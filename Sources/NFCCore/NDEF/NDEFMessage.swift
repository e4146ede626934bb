/// An NDEF message: records in order, MB on the first and ME on the last (protocols.md §4).
public struct NDEFMessage: Sendable, Hashable {
    public var records: [NDEFRecord]

    public init(_ records: [NDEFRecord]) { self.records = records }

    public init(records: NDEFRecord...) { self.records = records }

    /// Encodes the message: MB on the first wire record, ME on the last, SR when the payload is
    /// under 256 bytes (as ndeflib and current AOSP do, §9 #22), IL when there is an ID.
    ///
    /// With `chunkSize`, payloads longer than that are sent as chunked records: the first chunk
    /// carries TNF, TYPE and ID with CF set, the others TNF 6 (Unchanged) (NDEF 1.0 §3.3).
    /// An empty record list encodes as the empty message `D0 00 00`.
    public func encode(chunkSize: Int? = nil) throws(NDEFEncodingError) -> [UInt8] {
        let records = self.records.isEmpty ? [NDEFRecord(tnf: .empty)] : self.records
        var out: [UInt8] = []
        out.reserveCapacity(records.reduce(0) { $0 + $1.payload.count + $1.type.count + $1.id.count + 6 })
        // Payload lengths are 32-bit: anything longer has to be chunked.
        let limit = Int(UInt32.max)
        let size = chunkSize.map { min(max($0, 1), limit) } ?? limit
        for (index, record) in records.enumerated() {
            guard record.type.count <= 255 else { throw .typeTooLong(record: index, length: record.type.count) }
            guard record.id.count <= 255 else { throw .idTooLong(record: index, length: record.id.count) }
            let isFirst = index == 0
            let isLast = index == records.count - 1
            if record.payload.count <= size {
                Self.appendWireRecord(tnf: record.tnf, type: record.type, id: record.id, payload: record.payload[...],
                                      mb: isFirst, me: isLast, cf: false, to: &out)
                continue
            }
            var start = 0
            while start < record.payload.count {
                let end = min(start + size, record.payload.count)
                let first = start == 0
                let final = end == record.payload.count
                Self.appendWireRecord(tnf: first ? record.tnf : .unchanged, type: first ? record.type : [],
                                      id: first ? record.id : [], payload: record.payload[start..<end],
                                      mb: isFirst && first, me: isLast && final, cf: !final, to: &out)
                start = end
            }
        }
        return out
    }

    static func appendWireRecord(tnf: NDEFTypeNameFormat, type: [UInt8], id: [UInt8], payload: ArraySlice<UInt8>,
                                 mb: Bool, me: Bool, cf: Bool, to out: inout [UInt8]) {
        let sr = payload.count < 256
        let header = NDEFHeader(mb: mb, me: me, cf: cf, sr: sr, il: !id.isEmpty, tnf: tnf)
        out.append(header.byte)
        out.append(UInt8(truncatingIfNeeded: type.count))
        let length = UInt32(truncatingIfNeeded: payload.count)
        if sr {
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(contentsOf: [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16),
                                    UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)])
        }
        if !id.isEmpty { out.append(UInt8(truncatingIfNeeded: id.count)) }
        out.append(contentsOf: type)
        out.append(contentsOf: id)
        out.append(contentsOf: payload)
    }
}

/// Why a message could not be encoded: a field too long for its length byte.
public enum NDEFEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case typeTooLong(record: Int, length: Int)
    case idTooLong(record: Int, length: Int)
    /// A typed payload whose field does not fit its length field.
    case fieldTooLong(field: String, length: Int, maximum: Int)

    public var description: String {
        switch self {
        case .typeTooLong(let i, let n): return "record \(i): TYPE of \(n) bytes (TYPE_LENGTH holds at most 255)"
        case .idTooLong(let i, let n): return "record \(i): ID of \(n) bytes (ID_LENGTH holds at most 255)"
        case .fieldTooLong(let f, let n, let max): return "\(f) of \(n) bytes (at most \(max))"
        }
    }
}
