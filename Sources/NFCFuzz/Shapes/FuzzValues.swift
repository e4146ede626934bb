import NFCCore

/// Field values that make parsers take their interesting branches: texts in several scripts
/// and lengths, language tags, URIs, record types. Shared by the generators of every shape.
enum FuzzValues {
    static let texts: [String] = [
        "", "a", "Hello, world", "nfctrace", "Grüße aus Köln", "日本語のテキスト", "🙂🚀", "e\u{301}",
        "line\nbreak", "tab\there", String(repeating: "x", count: 250), String(repeating: "ü", count: 140),
    ]
    static let languages: [String] = ["en", "de-DE", "ja", "fr", "zh-Hant-TW", "x", "", String(repeating: "l", count: 63)]
    static let uris: [String] = [
        "https://www.example.com/", "http://example.org/a?b=c", "tel:+15551234", "mailto:a@b.c", "urn:nfc:sn:1",
        "ftp://ftp.example.net/f", "file:///tmp/x", "sip:alice@example.com", "btspp://0012", "example.com",
        "https://" + String(repeating: "a", count: 240) + ".com",
    ]
    static let wellKnownTypes: [String] = ["T", "U", "Sp", "act", "s", "t", "Hr", "Hs", "Hm", "Hi", "Hc", "ac", "cr", "err", "Di", "Sig", "X"]
    static let mediaTypes: [String] = [
        "text/plain", "text/vcard", "text/x-vcard", "image/png", "application/vnd.wfa.wsc", "application/vnd.wfa.p2p",
        "application/vnd.bluetooth.ep.oob", "application/vnd.bluetooth.le.oob", "text/plain; charset=utf-8",
    ]
    static let externalTypes: [String] = ["android.com:pkg", "example.com:t", "nfctrace.dev:fuzz"]

    static func text(_ r: inout FuzzRandom) -> String {
        if r.chance(20) { return String(decoding: r.bytes(r.length(upTo: 40)).map { 0x20 + $0 % 0x5F }, as: UTF8.self) }
        return r.element(texts) ?? ""
    }

    /// Mostly real tags; the empty and the 63-character one are edges a strict decode flags.
    static func language(_ r: inout FuzzRandom) -> String { r.chance(85) ? r.pick("en", "de-DE", "ja", "fr", "zh-Hant-TW") : (r.element(languages) ?? "en") }

    static func uri(_ r: inout FuzzRandom) -> String { r.element(uris) ?? "" }

    /// A payload of `n` bytes that is mostly printable (parsers often branch on text).
    static func payload(_ r: inout FuzzRandom, upTo limit: Int) -> [UInt8] {
        let n = r.length(upTo: limit)
        return r.chance(50) ? r.bytes(n) : (0..<n).map { _ in 0x20 + r.byte() % 0x5F }
    }

    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }

    /// A 16-bit value near a boundary, or random.
    static func u16(_ r: inout FuzzRandom) -> UInt16 {
        r.chance(60) ? (r.element(ByteMutator.interesting16) ?? 0) : r.uint16()
    }

    /// An 8-bit value near a boundary, or random.
    static func u8(_ r: inout FuzzRandom) -> UInt8 {
        r.chance(60) ? (r.element(ByteMutator.interesting8) ?? 0) : r.byte()
    }
}
