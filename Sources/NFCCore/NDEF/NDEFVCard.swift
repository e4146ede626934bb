/// A vCard (`text/vcard`, `text/x-vcard`; RFC 6350 / vCard 3.0 RFC 2426) shown as its
/// content lines. Read only to be displayed: nothing here makes a message invalid.
public struct NDEFVCard: Sendable, Hashable {
    /// One unfolded content line: `[group.]NAME[;PARAM…]:VALUE`.
    public struct Line: Sendable, Hashable {
        public var name: String
        public var parameters: [String]
        public var value: String
        /// Where the line (first physical line through the last folded one) lies in the payload.
        public var range: Range<Int>

        public init(name: String, parameters: [String] = [], value: String, range: Range<Int> = 0..<0) {
            self.name = name
            self.parameters = parameters
            self.value = value
            self.range = range
        }
    }

    public var lines: [Line]

    public init(lines: [Line]) { self.lines = lines }

    public func value(of name: String) -> String? {
        lines.first(where: { $0.name.uppercased() == name })?.value
    }

    /// The formatted name (FN), or N when there is no FN.
    public var formattedName: String? { value(of: "FN") ?? value(of: "N") }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFVCard {
        var lines: [Line] = []
        var physical: [(text: [UInt8], range: Range<Int>)] = []
        var start = 0
        var i = 0
        // Physical lines end at LF (CR before it is dropped).
        while i <= payload.count {
            if i == payload.count || payload[i] == 0x0A {
                var end = i
                if end > start && payload[end - 1] == 0x0D { end -= 1 }
                if i > start || i < payload.count { physical.append((Array(payload[start..<end]), start..<i)) }
                start = i + 1
            }
            i += 1
        }
        // RFC 6350 §3.2: a line starting with a space or tab continues the previous one.
        var current: (text: [UInt8], range: Range<Int>)?
        for line in physical {
            if let first = line.text.first, first == 0x20 || first == 0x09, var c = current {
                c.text.append(contentsOf: line.text.dropFirst())
                c.range = c.range.lowerBound..<line.range.upperBound
                current = c
                continue
            }
            if let c = current, let parsed = parse(c.text, c.range) { lines.append(parsed) }
            current = line.text.isEmpty ? nil : line
        }
        if let c = current, let parsed = parse(c.text, c.range) { lines.append(parsed) }

        let first = lines.first.map { $0.name.uppercased() == "BEGIN" && $0.value.uppercased() == "VCARD" } ?? false
        let last = lines.last.map { $0.name.uppercased() == "END" && $0.value.uppercased() == "VCARD" } ?? false
        if !first || !last {
            issues.append(NDEFIssue(offset: 0, rule: .vCardStructure,
                                    message: "vCard does not run from BEGIN:VCARD to END:VCARD"))
        }
        return NDEFVCard(lines: lines)
    }

    private static func parse(_ text: [UInt8], _ range: Range<Int>) -> Line? {
        guard let colon = text.firstIndex(of: 0x3A) else { return nil }
        let head = String(decoding: text[..<colon], as: UTF8.self)
        let value = String(decoding: text[(colon + 1)...], as: UTF8.self)
        let parts = head.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let nameWithGroup = parts.first ?? head
        // Drop a group prefix ("item1.TEL" → "TEL").
        let name = nameWithGroup.split(separator: ".").last.map(String.init) ?? nameWithGroup
        return Line(name: name, parameters: Array(parts.dropFirst()), value: value, range: range)
    }
}
