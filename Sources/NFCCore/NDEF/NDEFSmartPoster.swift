/// The Smart Poster payload (`urn:nfc:wkt:Sp`, protocols.md §4.6): a nested NDEF message
/// with one URI record, titles, and the local `act`, `s` and `t` records.
public struct NDEFSmartPoster: Sendable, Equatable {
    /// The nested message, read in the Smart Poster context.
    public var message: NDEFDecodeResult

    public init(message: NDEFDecodeResult) { self.message = message }

    public var records: [NDEFDecodedRecord] { message.records }

    /// The URI record (a valid Smart Poster has exactly one).
    public var uri: NDEFURI? {
        for r in records { if case .uri(let u) = r.payload { return u } }
        return nil
    }

    public var titles: [NDEFText] {
        records.compactMap { if case .text(let t) = $0.payload { return t } else { return nil } }
    }

    public var action: NDEFSmartPosterAction? {
        for r in records { if case .smartPosterAction(let a) = r.payload { return a } }
        return nil
    }

    public var size: UInt32? {
        for r in records { if case .smartPosterSize(let s) = r.payload { return s } }
        return nil
    }

    public var resourceType: String? {
        for r in records { if case .smartPosterType(let t) = r.payload { return t } }
        return nil
    }

    /// Icon records: media types `image/*` and `video/*`.
    public var icons: [NDEFRecord] {
        records.map(\.record).filter { $0.tnf == .media && Self.isIconType($0.type) }
    }

    static func isIconType(_ type: [UInt8]) -> Bool {
        let lower = NDEFRecordKind.asciiLowercased(type)
        return lower.starts(with: Array("image/".utf8)) || lower.starts(with: Array("video/".utf8))
    }

    /// The Smart Poster's own rule: exactly one URI record (Smart Poster RTD §3.2).
    static func check(_ message: NDEFDecodeResult, issues: inout [NDEFIssue]) {
        let count = message.records.filter { $0.kind == .uri }.count
        if count != 1 {
            issues.append(NDEFIssue(offset: 0, rule: .smartPosterURICount,
                                    message: "Smart Poster holds \(count) URI records, needs exactly 1"))
        }
    }
}

/// The Smart Poster action record (`act`): what to do with the resource.
public enum NDEFSmartPosterAction: Sendable, Hashable {
    case exec
    case save
    case edit
    /// A value the RTD reserves; kept as read.
    case reserved(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .exec
        case 1: self = .save
        case 2: self = .edit
        default: self = .reserved(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .exec: return 0
        case .save: return 1
        case .edit: return 2
        case .reserved(let v): return v
        }
    }

    public var name: String {
        switch self {
        case .exec: return "do the action (open, send, call)"
        case .save: return "save for later"
        case .edit: return "open for editing"
        case .reserved(let v): return "reserved \(Hex.byte(v))"
        }
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFSmartPosterAction? {
        guard payload.count == 1, let value = payload.first else {
            issues.append(NDEFIssue(offset: 0, rule: .smartPosterActionLength,
                                    message: "action record of \(payload.count) bytes, needs 1"))
            return nil
        }
        let action = NDEFSmartPosterAction(rawValue: value)
        if case .reserved = action {
            issues.append(NDEFIssue(offset: 0, rule: .smartPosterActionUndefined,
                                    message: "action \(Hex.byte(value)) is not defined"))
        }
        return action
    }
}

enum NDEFSmartPosterFields {
    /// The size record (`s`): resource size, 32-bit BE.
    static func readSize(_ payload: [UInt8], issues: inout [NDEFIssue]) -> UInt32? {
        var cursor = ByteCursor(payload)
        guard payload.count == 4, let size = try? cursor.readUInt32BE("size") else {
            issues.append(NDEFIssue(offset: 0, rule: .smartPosterSizeLength,
                                    message: "size record of \(payload.count) bytes, needs 4"))
            return nil
        }
        return size
    }

    /// The type record (`t`): the resource's media type in UTF-8.
    static func readType(_ payload: [UInt8], issues: inout [NDEFIssue]) -> String? {
        switch UnicodeText.utf8(payload, 0..<payload.count) {
        case .success(let text): return text
        case .failure(let bad):
            issues.append(NDEFIssue(offset: bad.offset, rule: .smartPosterTypeEncodingInvalid,
                                    message: "type record is not valid UTF-8 from byte \(bad.offset)"))
            return nil
        }
    }
}
