/// Why a dump could not be loaded: the file, and the line or field at fault.
public struct DumpError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line of a text dump, when the problem is on one line.
    public var line: Int?
    /// The field (key) at fault, when there is one.
    public var field: String?
    public var message: String

    public init(file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var where_ = file
        if let line { where_ += ":\(line)" }
        if let field { where_ += " (\(field))" }
        return "\(where_): \(message)"
    }
}

/// The `Key: value` text of a Flipper Zero `.nfc` file (protocols.md §7.1), with line numbers
/// kept so that errors can point at the line.
public struct FlipperNFCFile: Sendable {
    public struct Entry: Sendable {
        public var key: String
        public var value: String
        public var line: Int
    }

    public let name: String
    public private(set) var entries: [Entry] = []
    /// Whether a `# Written by nfctrace` comment says nfctrace saved the file (its fields are
    /// then exactly in Flipper's own order, with no third-party variant to guess at).
    public private(set) var writtenByNFCTrace = false

    public static let filetype = "Flipper NFC device"

    public init(text: String, name: String) throws(DumpError) {
        self.name = name
        var lineNumber = 0
        // LF, CRLF (one Character) or CR alone: line numbers in errors count all three right.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("# Written by nfctrace") { writtenByNFCTrace = true }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw DumpError(file: name, line: lineNumber, message: "expected \"Key: value\", found \"\(trimmed.prefix(40))\"")
            }
            let key = String(trimmed[..<colon]).trimmingBlanks()
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmingBlanks()
            entries.append(Entry(key: key, value: value, line: lineNumber))
        }
        guard let first = entries.first, first.key == "Filetype", first.value == Self.filetype else {
            throw DumpError(file: name, line: entries.first?.line ?? 1, field: "Filetype", message: "expected \"Filetype: \(Self.filetype)\"")
        }
        // A later version may change what keys mean (v3 turned the ATQA around): refuse to guess.
        if let v = entry("Version"), !Self.versions.contains(Int(v.value) ?? -1) {
            throw DumpError(file: name, line: v.line, field: "Version", message: "file format version \"\(v.value.prefix(20))\" is not one nfctrace reads (\(Self.versions.lowerBound)–\(Self.versions.upperBound))")
        }
    }

    /// The `.nfc` format versions the Flipper firmware has written (protocols.md §7).
    public static let versions = 1...4

    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    public func string(_ key: String) -> String? { entry(key)?.value }

    /// Space-separated hex bytes (`04 51 5C FA`); `count` enforces a length.
    public func bytes(_ key: String, count: Int? = nil) throws(DumpError) -> [UInt8]? {
        guard let e = entry(key) else { return nil }
        guard let b = Hex.parse(e.value) else {
            throw DumpError(file: name, line: e.line, field: key, message: "expected hex bytes, found \"\(e.value.prefix(40))\"")
        }
        if let count, b.count != count {
            throw DumpError(file: name, line: e.line, field: key, message: "expected \(count) bytes, found \(b.count)")
        }
        return b
    }

    public func requiredBytes(_ key: String, count: Int? = nil) throws(DumpError) -> [UInt8] {
        guard let b = try bytes(key, count: count) else { throw DumpError(file: name, field: key, message: "missing") }
        return b
    }

    public func int(_ key: String) throws(DumpError) -> Int? {
        guard let e = entry(key) else { return nil }
        guard let v = Int(e.value) else {
            throw DumpError(file: name, line: e.line, field: key, message: "expected a decimal number, found \"\(e.value.prefix(20))\"")
        }
        return v
    }

    /// The file format version (`Version: 2/3/4`).
    public var version: Int { Int(string("Version") ?? "") ?? 0 }
}
