/// Handover Request, Select, Mediation and Initiate payloads (`Hr`, `Hs`, `Hm`, `Hi`;
/// Connection Handover 1.3 §3, protocols.md §4.7): a version byte and a nested message.
public struct NDEFHandover: Sendable, Equatable {
    public enum Kind: String, Sendable, Hashable {
        case request = "Handover Request"
        case select = "Handover Select"
        case mediation = "Handover Mediation"
        case initiate = "Handover Initiate"

        public var type: String {
            switch self {
            case .request: return "Hr"
            case .select: return "Hs"
            case .mediation: return "Hm"
            case .initiate: return "Hi"
            }
        }

        var context: NDEFRecordKind.Context {
            switch self {
            case .request: return .handoverRequest
            case .select: return .handoverSelect
            case .mediation: return .handoverMediation
            case .initiate: return .handoverInitiate
            }
        }
    }

    public var kind: Kind
    /// Major version in the high nibble, minor in the low one (`13` = 1.3).
    public var version: UInt8
    /// The nested message (from payload byte 1), read in this record's context.
    public var message: NDEFDecodeResult

    public init(kind: Kind, version: UInt8, message: NDEFDecodeResult) {
        self.kind = kind
        self.version = version
        self.message = message
    }

    public var versionText: String { "\(version >> 4).\(version & 0x0F)" }

    public var alternativeCarriers: [NDEFAlternativeCarrier] {
        message.records.compactMap { if case .alternativeCarrier(let a) = $0.payload { return a } else { return nil } }
    }

    public var collisionResolution: UInt16? {
        for r in message.records { if case .collisionResolution(let n) = r.payload { return n } }
        return nil
    }

    public var errors: [NDEFHandoverError] {
        message.records.compactMap { if case .handoverError(let e) = $0.payload { return e } else { return nil } }
    }

    /// Reads the version byte and the nested message. Returns nil without a version byte.
    static func read(_ kind: Kind, _ payload: [UInt8], depth: Int, record: NDEFRecord,
                     issues: inout [NDEFIssue]) -> NDEFHandover? {
        guard let version = payload.first else {
            issues.append(NDEFIssue(offset: 0, rule: .handoverVersionMissing, message: "\(kind.type) payload is empty"))
            return nil
        }
        let nested = NDEFPayload.readNested(payload, from: 1, context: kind.context, depth: depth, record: record,
                                            issues: &issues)
        let handover = NDEFHandover(kind: kind, version: version, message: nested)
        // Connection Handover 1.2 §3.1.1: a Handover Request carries a collision resolution
        // record from version 1.2 on.
        if kind == .request && version > 0x11 && handover.collisionResolution == nil {
            issues.append(NDEFIssue(offset: 0, rule: .handoverCollisionResolutionMissing,
                                    message: "Handover Request \(handover.versionText) without a collision resolution record"))
        }
        return handover
    }

    /// Version byte + nested message.
    public static func encode(version: UInt8, records: [NDEFRecord]) throws(NDEFEncodingError) -> [UInt8] {
        [version] + (records.isEmpty ? [] : try NDEFMessage(records).encode())
    }
}

/// The Error record (`err`) of a Handover Select.
public struct NDEFHandoverError: Sendable, Hashable {
    public var reason: UInt8
    public var data: [UInt8]

    public init(reason: UInt8, data: [UInt8]) {
        self.reason = reason
        self.data = data
    }

    /// Connection Handover 1.3 Table 4: reasons 1–3 and the size of their data.
    public var reasonName: String {
        switch reason {
        case 1: return "temporary memory constraints"
        case 2: return "permanent memory constraints"
        case 3: return "carrier-specific constraints"
        default: return "reserved reason \(Hex.byte(reason))"
        }
    }

    static func dataSize(of reason: UInt8) -> Int? {
        switch reason {
        case 1: return 1   // minimum wait, ms
        case 2: return 4   // maximum NDEF message size, bytes
        case 3: return 1   // minimum wait, ms
        default: return nil
        }
    }

    public func encode() -> [UInt8] { [reason] + data }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFHandoverError? {
        guard let reason = payload.first else {
            issues.append(NDEFIssue(offset: 0, rule: .errorDataShort, message: "Error record payload is empty"))
            return nil
        }
        if reason == 0 {
            issues.append(NDEFIssue(offset: 0, rule: .errorReasonReserved, message: "error reason 0 is reserved"))
        }
        let data = Array(payload.dropFirst())
        if let size = dataSize(of: reason) {
            if data.count < size {
                issues.append(NDEFIssue(offset: payload.count, rule: .errorDataShort,
                                        message: "error reason \(reason) needs \(size) data byte\(size == 1 ? "" : "s"), has \(data.count)"))
                return nil
            }
            if data.count > size {
                issues.append(NDEFIssue(offset: 1 + size, rule: .errorDataLong,
                                        message: "\(data.count - size) byte(s) after the error data"))
            }
        }
        return NDEFHandoverError(reason: reason, data: data)
    }
}

enum NDEFCollisionResolution {
    /// The collision resolution record (`cr`): a 16-bit random number.
    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> UInt16? {
        var cursor = ByteCursor(payload)
        guard payload.count == 2, let n = try? cursor.readUInt16BE("random number") else {
            issues.append(NDEFIssue(offset: 0, rule: .collisionResolutionLength,
                                    message: "collision resolution record of \(payload.count) bytes, needs 2"))
            return nil
        }
        return n
    }
}
