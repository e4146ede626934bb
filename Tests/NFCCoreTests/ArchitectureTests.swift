import Foundation
import Testing

/// The house rules a reviewer would otherwise check by eye (DESIGN.md, issue 45 point 2), read
/// from the source tree itself: no literal byte ranges in the dissectors (ranges come from the
/// codecs' layout tables), no CRC handled outside `NFCCore/CRC`, and raw-pointer code only in
/// the places sanctioned for it. Each offence is printed as `file:line: text`.
@Suite struct ArchitectureTests {
    /// The repository: three folders above this file (Tests/NFCCoreTests/ArchitectureTests.swift).
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    struct Rule: Sendable, CustomStringConvertible {
        let name: String
        /// Path prefixes (from the repository root) the rule reads.
        let scope: [String]
        /// Path prefixes inside the scope the rule leaves alone, for the reason given.
        let sanctioned: [String: String]
        let pattern: String
        var description: String { name }

        func applies(to path: String) -> Bool {
            scope.contains(where: path.hasPrefix) && !sanctioned.keys.contains(where: path.hasPrefix)
        }

        /// `path:line: text` for each line of `text` that breaks the rule.
        func offences(path: String, text: String) throws -> [String] {
            guard applies(to: path) else { return [] }
            let regex = try ArchitectureTests.regex(pattern)
            var found: [String] = []
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = ArchitectureTests.code(of: line)
                if ArchitectureTests.matches(regex, code) { found.append("\(path):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
            return found
        }
    }

    /// NSRegularExpression (Swift's `Regex` needs macOS 13), whose `\b` is the simple kind:
    /// between a word character and another. (Unicode's word rules, Swift `Regex`'s default,
    /// join `p.withUnsafeBytes` into one word and would miss it.)
    static func regex(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: pattern)
    }

    static func matches(_ regex: NSRegularExpression, _ text: some StringProtocol) -> Bool {
        let s = String(text)
        return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }

    /// A line without its comment: a rule is about code, and doc comments name the very calls
    /// the rules forbid. `//` counts as a comment where it starts the line or follows a space
    /// (not `https://` in a string).
    static func code(of line: Substring) -> Substring {
        var previous: Character = " "
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if line[index] == "/", next < line.endIndex, line[next] == "/", previous == " " || previous == "\t" {
                return line[..<index]
            }
            previous = line[index]
            index = next
        }
        return line
    }

    /// Renderers, the byte input and C interop: where DESIGN.md lets raw pointers live.
    static let unsafeSanctioned: [String: String] = [
        "Sources/NFCDissect/Render/": "renderers (a renderer module later): the sanctioned home of fast output code",
        "Sources/NFCCapture/": "the byte input: capture files read through buffers",
        "FuzzTesting/Sources/": "libFuzzer's C entry points (LLVMFuzzerTestOneInput and friends) hand over raw buffers",
        "Sources/NFCReaders/LibNFCTarget.swift": "C interop: libnfc's nfc_initiator_transceive_* take and fill C buffers",
        "Sources/NFCReaders/PCSCTarget.swift": "C interop: pcsc-lite's SCARD_READERSTATE holds the ATR in a C array",
        "Sources/NFCEmulator/Serve/NFCPyUDPServer.swift": "C interop: BSD sockets (bind, recvfrom, sendto take sockaddr pointers)",
        "Sources/NFCEmulator/Serve/PN532SerialServer.swift": "C interop: the pseudo-terminal's read/write take C buffers",
        "Sources/NFCEmulator/Serve/VPCDClient.swift": "C interop: BSD sockets (connect takes a sockaddr pointer)",
        "Sources/NFCReplay/Targets/UDPTarget.swift": "C interop: BSD sockets (sendto takes a sockaddr pointer)",
        "Sources/NFCCore/Platform/POSIXThread.swift": "C interop: pthread_create takes an Unmanaged context pointer",
        "Sources/nfctrace/FileSystem.swift": "C interop: readdir's dirent holds the name in a C array",
        "Sources/nfctrace/Subprocess.swift": "C interop: posix_spawn's environment and the pipes' read/write",
        "Sources/nfctrace/CLI.swift": "C interop: write(2) of a message to standard error",
        "Sources/NFCCore/Bytes/JSONText.swift": "JSON string escaping for the JSON renderer, in place; moves out of NFCCore with the renderers (issue 45 point 3)",
        "Sources/NFCFuzzTargets/CaptureTargets.swift": "feeds NFCCapture's raw-buffer record decoders as the capture readers do",
        "Sources/NFCCore/Bytes/Hex.swift": "byte input: hex text of capture files parsed in place (hundreds of MB, issue 51)",
        "Sources/NFCCore/Bytes/PrintableText.swift": "the terminal-safety scan of every text on output, in place (issue 51 point 16)",
        "Sources/NFCCore/CRC/CRC.swift": "the CRC table lookup of every frame; the index is a UInt8, the tables have 256 entries",
        "Sources/NFCCore/MIFARE/Crypto1Recovery64.swift": "Crypto1 key recovery's inner loops over 2^20-entry state tables",
        "Sources/NFCDissect/NDEF/FieldTree.swift": "plural() writes summary counts in one go; the speed work (issue 45 point 4) settles it",
    ]

    static let rules: [Rule] = [
        Rule(name: "a literal byte range in a dissector (take it from the codec's layout table)",
             scope: ["Sources/NFCDissect/"],
             sanctioned: ["Sources/NFCDissect/Render/": "renderers index their own output buffers, not frame bytes"],
             // bytes[2..<4], bytes[1...3], bytes[2...], bytes[..<4], range: 0..<1, payload.prefix(4)
             pattern: #"\[\s*\d+\s*(\.\.<|\.\.\.)|\[\s*(\.\.<|\.\.\.)\s*\d+\s*\]|range:\s*\d+\s*(\.\.<|\.\.\.)\s*\d+|\b(bytes|payload|data|body)\.(prefix|suffix|dropFirst|dropLast)\(\s*\d+\s*\)"#),
        Rule(name: "dropLast(2) / removeLast(2): a CRC stripped by hand (use CRCFramed)",
             scope: ["Sources/", "FuzzTesting/Sources/"], sanctioned: ["Sources/NFCCore/CRC/": "the CRC API itself"],
             pattern: #"\b(dropLast|removeLast)\(\s*2\s*\)"#),
        Rule(name: "a CRC. call outside NFCCore/CRC (use CRCFramed, CRCBytes)",
             scope: ["Sources/", "FuzzTesting/Sources/"], sanctioned: ["Sources/NFCCore/CRC/": "the CRC API itself"],
             pattern: #"\bCRC\.[a-z]"#),
        Rule(name: "raw-pointer or unchecked-exclusivity code outside the sanctioned places",
             scope: ["Sources/", "FuzzTesting/Sources/"], sanctioned: unsafeSanctioned,
             pattern: #"\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b|\bwithUnsafe[A-Za-z]*|\bunsafeUninitializedCapacity\b|\bUnmanaged\b|@exclusivity\(\s*unchecked\s*\)|\bwithContiguous(Mutable)?StorageIfAvailable\b|\bwithUTF8\b"#),
    ]

    /// Every Swift file under `Sources/` and `FuzzTesting/Sources/`, as (path from the root, text).
    static func sources() throws -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        for top in ["Sources", "FuzzTesting/Sources"] {
            guard let walker = FileManager.default.enumerator(atPath: root + "/" + top) else { continue }
            while let relative = walker.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let path = top + "/" + relative
                files.append((path, try String(contentsOfFile: root + "/" + path, encoding: .utf8)))
            }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test(arguments: rules)
    func theTreeKeepsTheRule(_ rule: Rule) throws {
        let files = try Self.sources()
        #expect(files.count > 100, "the source tree was not found at \(Self.root)")
        var offences: [String] = []
        for file in files { offences += try rule.offences(path: file.path, text: file.text) }
        for offence in offences { print(offence) }
        #expect(offences.isEmpty, "\(rule.name):\n\(offences.joined(separator: "\n"))")
    }

    /// Each rule fails on the thing it is for, inserted into a file of its scope, and passes a
    /// comment that only names it: the rules can fail, and fail on no comment.
    @Test func eachRuleCatchesAnInsertedOffence() throws {
        let dissector = "Sources/NFCDissect/ISO14443A/Type2Frames.swift"
        let emulator = "Sources/NFCEmulator/Type2/Type2Tag.swift"
        let cases: [(rule: Int, path: String, line: String)] = [
            (0, dissector, #"ctx.sink.add(Field("ntag.page", "Page", v, range: 1..<2))"#),
            (0, dissector, "let pwd = Array(payload[1...4])"),
            (0, dissector, "let cc = bytes[12..<16]"),
            (0, dissector, "let head = ctx.frame.bytes[..<4]"),
            (0, dissector, "let uid = payload.prefix(4)"),
            (1, emulator, "let payload = Array(frame.bytes.dropLast(2))"),
            (2, emulator, "let ok = CRC.check(.a, frame.bytes) == .ok"),
            (3, emulator, "bytes.withUnsafeBufferPointer { p in }"),
            (3, emulator, "let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)"),
            (3, emulator, "@exclusivity(unchecked) var table: [UInt8] = []"),
        ]
        for c in cases {
            let rule = Self.rules[c.rule]
            let text = "import NFCCore\n\(c.line)\n"
            #expect(try rule.offences(path: c.path, text: text) == ["\(c.path):2: \(c.line)"], "\(rule.name) misses \(c.line)")
            #expect(try rule.offences(path: c.path, text: "/// \(c.line)\nx = 1 // \(c.line)\n").isEmpty, "\(rule.name) reads a comment")
        }
        // The sanctioned places stay sanctioned, and a dissector's computed range is no offence.
        #expect(try Self.rules[3].offences(path: "Sources/NFCCapture/IO/ByteInput.swift", text: "p.withUnsafeBytes { _ in }").isEmpty)
        #expect(try Self.rules[0].offences(path: dissector, text: "let r = Type2Command.Layout.page.range").isEmpty)
        #expect(try Self.rules[2].offences(path: dissector, text: "let k: CRC.Kind = .a").isEmpty)
    }

    /// Every allowlisted file exists and still needs its entry (a stale entry would let new
    /// unsafe code in unseen).
    @Test func theAllowlistIsCurrent() throws {
        let files = try Self.sources()
        let pattern = try Self.regex(Self.rules[3].pattern)
        for (entry, reason) in Self.unsafeSanctioned where entry.hasSuffix(".swift") {
            let file = files.first { $0.path == entry }
            #expect(file != nil, "\(entry) (\(reason)) is no longer in the tree")
            #expect(file.map { Self.matches(pattern, $0.text) } == true, "\(entry) has no raw-pointer code left: drop it from the allowlist")
        }
    }
}
