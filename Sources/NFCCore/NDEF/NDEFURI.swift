/// The URI record payload (`urn:nfc:wkt:U`, protocols.md §4.5): an identifier code that
/// abbreviates a prefix, then the rest of the URI in UTF-8.
public struct NDEFURI: Sendable, Hashable {
    /// The identifier code as sent (undefined codes are kept; they read as no prefix).
    public var code: UInt8
    /// The URI field after the identifier code.
    public var rest: String

    public init(code: UInt8, rest: String) {
        self.code = code
        self.rest = rest
    }

    /// Abbreviates `uri` with the longest matching prefix, as ndeflib does (§4.5: AOSP takes the
    /// first match in table order instead; both decode the same).
    public init(_ uri: String) {
        var best: (code: Int, length: Int) = (0, 0)
        let bytes = Array(uri.utf8)
        for (code, prefix) in Self.prefixes.enumerated() where prefix.count > best.length {
            let p = Array(prefix.utf8)
            if bytes.count >= p.count && bytes[0..<p.count].elementsEqual(p) { best = (code, p.count) }
        }
        code = UInt8(best.code)
        rest = String(decoding: bytes[best.length...], as: UTF8.self)
    }

    /// The identifier codes 0x00–0x23 (URI RTD Table 3; §9 #21: 0x23 `urn:nfc:` is in current tables).
    public static let prefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://",
        "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:",
        "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://", "file://", "urn:epc:id:",
        "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The prefix of `code`; nil for undefined codes.
    public static func prefix(of code: UInt8) -> String? {
        Int(code) < prefixes.count ? prefixes[Int(code)] : nil
    }

    public var prefix: String? { Self.prefix(of: code) }

    /// The whole URI. An undefined code reads as no prefix (what ndeflib's relaxed mode does).
    public var uri: String { (prefix ?? "") + rest }

    public func encode() -> [UInt8] { [code] + Array(rest.utf8) }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFURI? {
        var cursor = ByteCursor(payload)
        guard let code = try? cursor.readUInt8("URI identifier code") else {
            issues.append(NDEFIssue(offset: 0, rule: .uriPayloadEmpty, message: "URI payload is empty"))
            return nil
        }
        if prefix(of: code) == nil {
            issues.append(NDEFIssue(offset: 0, rule: .uriPrefixUndefined,
                                    message: "URI identifier code \(Hex.byte(code)) is undefined"))
        }
        let range = 1..<payload.count
        switch UnicodeText.utf8(payload, range) {
        case .success(let rest):
            if let control = payload[range].firstIndex(where: { $0 <= 0x1F }) {
                issues.append(NDEFIssue(offset: control, rule: .uriControlCharacter,
                                        message: "URI contains control character \(Hex.byte(payload[control]))"))
            }
            return NDEFURI(code: code, rest: rest)
        case .failure(let bad):
            issues.append(NDEFIssue(offset: bad.offset, rule: .uriEncodingInvalid,
                                    message: "URI field is not valid UTF-8 from byte \(bad.offset) of the payload"))
            return NDEFURI(code: code, rest: UnicodeText.lossyUTF8(payload, range))
        }
    }
}
