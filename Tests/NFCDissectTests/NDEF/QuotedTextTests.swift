import Testing
@testable import NFCDissect

/// The display quoting of NDEF text (IDs, URIs, Text records): plain text is copied whole,
/// anything that would break the line or the quotes is escaped.
@Suite struct QuotedTextTests {
    @Test(arguments: [
        ("nfc.example/p", "\"nfc.example/p\""),
        ("", "\"\""),
        ("学生証 ✓", "\"学生証 ✓\""),
        ("a\"b", "\"a\\\"b\""),
        ("back\\slash", "\"back\\\\slash\""),
        ("line\nbreak\r\ttab", "\"line\\nbreak\\r\\ttab\""),
        ("bell\u{7}del\u{7F}", "\"bell\\u{07}del\\u{7F}\""),
    ])
    func quoting(input: String, expected: String) {
        #expect(quoted(input) == expected)
    }
}
