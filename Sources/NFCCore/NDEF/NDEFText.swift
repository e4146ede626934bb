/// The Text record payload (`urn:nfc:wkt:T`, protocols.md §4.4).
public struct NDEFText: Sendable, Hashable {
    public enum Encoding: String, Sendable, Hashable {
        case utf8 = "UTF-8"
        case utf16 = "UTF-16"
    }

    public var text: String
    /// IANA language tag, e.g. `en`, `de-DE` (1–63 ASCII characters).
    public var language: String
    public var encoding: Encoding

    public init(_ text: String, language: String = "en", encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    /// Status byte: b8 UTF-16, b7 RFU, b6…b1 language-code length.
    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        let lang = Array(language.utf8)
        guard lang.count <= 0x3F else { throw .fieldTooLong(field: "language code", length: lang.count, maximum: 63) }
        var out: [UInt8] = [(encoding == .utf16 ? 0x80 : 0) | UInt8(lang.count)]
        out.append(contentsOf: lang)
        switch encoding {
        case .utf8: out.append(contentsOf: Array(text.utf8))
        case .utf16: out.append(contentsOf: UnicodeText.encodeUTF16(text))
        }
        return out
    }

    /// Reads a Text payload; nil when there is no status byte or the language code overflows.
    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFText? {
        var cursor = ByteCursor(payload)
        guard let status = try? cursor.readUInt8("status byte") else {
            issues.append(NDEFIssue(offset: 0, rule: .textPayloadEmpty, message: "Text payload is empty"))
            return nil
        }
        if status & 0x40 != 0 {
            issues.append(NDEFIssue(offset: 0, rule: .textRFUBit, message: "status byte \(Hex.byte(status)) sets RFU bit 6"))
        }
        let languageLength = Int(status & 0x3F)
        let encoding: Encoding = status & 0x80 != 0 ? .utf16 : .utf8
        if languageLength == 0 {
            issues.append(NDEFIssue(offset: 0, rule: .textLanguageLengthZero, message: "language code length 0"))
        }
        guard let languageRange = try? cursor.readRange(languageLength, "language code") else {
            issues.append(NDEFIssue(offset: 0, rule: .textLanguageOverflow,
                                    message: "language code of \(languageLength) bytes, \(payload.count - 1) follow"))
            return nil
        }
        if let bad = UnicodeText.firstNonASCII(payload, languageRange) {
            issues.append(NDEFIssue(offset: bad, rule: .textLanguageNotASCII,
                                    message: "language code byte \(Hex.byte(payload[bad])) is not US-ASCII"))
        }
        let language = UnicodeText.lossyUTF8(payload, languageRange)
        let textRange = cursor.index..<payload.count
        let decoded = encoding == .utf8 ? UnicodeText.utf8(payload, textRange) : UnicodeText.utf16(payload, textRange)
        switch decoded {
        case .success(let text):
            return NDEFText(text, language: language, encoding: encoding)
        case .failure(let bad):
            issues.append(NDEFIssue(offset: bad.offset, rule: .textEncodingInvalid,
                                    message: "text is not valid \(encoding.rawValue) from byte \(bad.offset) of the payload"))
            let shown = encoding == .utf8 ? UnicodeText.lossyUTF8(payload, textRange) : UnicodeText.lossyUTF16(payload, textRange)
            return NDEFText(shown, language: language, encoding: encoding)
        }
    }
}
