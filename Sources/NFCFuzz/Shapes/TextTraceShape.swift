import NFCCore

/// `.nfctrace` text traces (docs/trace-format.md): a header of `@key value` lines and event
/// lines `[start[..end]] kind bytes [key=value] [# comment]`. Frame bytes are mutated through
/// the technology's dialect; times, directives and attributes get the edge values readers trip on.
public struct TextTraceShape: ShapeMutator {
    /// The text-trace shape; it has no settings.
    public init() {}

    /// Text trace magic: `nfctrace 1`, `@tech`, `@timebase`, `@origin` directives, event kinds,
    /// attributes (`crc=`, `rate=`, `parity=`, `reason=`).
    public var dictionary: [[UInt8]] {
        ["nfctrace 1\n", "@tech ", "@timebase ", "@origin ", "felica", "15693", "14443a", "14443b", "carrier", "ns", "us", "field-on", "field-off",
         "malformed", " R ", " T ", "crc=stripped", "tech=", "rate=212", "reason=\"", "/7", "/4", "!", "..", "# ", "9223372036854775807", "-",
         "empty", "@parity known\n", "parity=known", "parity=unknown"].map { Array($0.utf8) }
    }

    static let times = ["0", "-1", "1..0", "5..5", "9223372036854775807", "-9223372036854775808", "9223372036854775807..-9223372036854775808",
                        "4294967296", "1.2", "..", "100..", "12345678901234567890"]
    static let origins = ["0", "1795392000000000", "9223372036854775807", "-9223372036854775808", "-1", "1e3", ""]
    static let technologyNames: [(String, Technology)] = [("14443a", .iso14443a), ("felica", .felica), ("15693", .iso15693), ("14443b", .iso14443b)]

    /// Event lines for frames, with monotonic times.
    static func lines(_ frames: [FuzzFrame], start: Int) -> [String] {
        var time = start
        return frames.map { f in
            defer { time += 100 + f.bytes.count * 75 }
            let span = "\(time)..\(time + 50 + f.bytes.count * 70)"
            switch f.kind {
            case .fieldOn: return "\(time)  field-on"
            case .fieldOff: return "\(time)  field-off"
            case .reader, .tag:
                var hex = f.bytes.isEmpty ? "00" : Hex.string(f.bytes)
                if f.lastByteBits != 8 { hex += "/\(f.lastByteBits)" }
                return "\(span)  \(f.kind == .reader ? "R" : "T")  \(hex)" + (f.crcStripped ? " crc=stripped" : "")
            }
        }
    }

    static func text(header: [String], events: [String]) -> [UInt8] {
        Array((["nfctrace 1"] + header + [""] + events).joined(separator: "\n").utf8) + [0x0A]
    }

    struct Parsed {
        var header: [String]
        var events: [String]
        var technology: Technology
    }

    /// Splits a trace into header and event lines; nil when the magic line is missing.
    static func parse(_ input: [UInt8]) -> Parsed? {
        let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let magic = lines.firstIndex(where: { !$0.trimmingBlanks().isEmpty && !$0.hasPrefix("#") }),
              lines[magic].trimmingBlanks() == "nfctrace 1" else { return nil }
        var header: [String] = []
        var events: [String] = []
        var technology = Technology.iso14443a
        for line in lines[(magic + 1)...] {
            let t = line.trimmingBlanks()
            if t.isEmpty { continue }
            if t.hasPrefix("@") && events.isEmpty {
                header.append(t)
                if t.hasPrefix("@tech "), let tech = technologyNames.first(where: { t.hasSuffix($0.0) }) { technology = tech.1 }
            } else {
                events.append(t)
            }
        }
        return Parsed(header: header, events: events, technology: technology)
    }

    /// The frame an event line holds (for codec-aware mutation of its bytes).
    static func frame(_ line: String, technology: Technology) -> (time: String?, frame: FuzzFrame)? {
        var tokens = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var time: String? = nil
        if let first = tokens.first, let c = first.first, c.isNumber || c == "-" { time = first; tokens.removeFirst() }
        guard let kind = tokens.first, kind == "R" || kind == "T" else { return nil }
        var bytes: [UInt8] = []
        var bits: UInt8 = 8
        for token in tokens.dropFirst() {
            if token.contains("=") || token.hasPrefix("#") { break }
            if token == "empty" { continue }   // a frame of no bytes
            let parts = token.split(separator: "/")
            guard let hex = parts.first.map({ $0.filter { $0 != "!" } }), let b = Hex.parse(hex), b.count == 1 else { return nil }
            bytes += b
            if parts.count == 2, let n = UInt8(parts[1]) { bits = n }
        }
        return (time, FuzzFrame(kind == "R" ? .reader : .tag, technology, bytes: bytes, crcStripped: line.contains("crc=stripped"), lastByteBits: bits))
    }

    static func dialect(_ t: Technology) -> any FrameDialect { FramesShape(technology: t).dialect }

    /// Traces of a 14443-A, a 14443-B and a FeliCa session, with tech, timebase and origin headers.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: 0x5458_5454, maxSize: 1 << 16)
        return Self.technologyNames.prefix(3).map { name, tech in
            Self.text(header: ["@tech \(name)", "@timebase us", "@origin 1795392000000000"], events: Self.lines(Self.dialect(tech).session(&m), start: 0))
        }
    }

    /// A trace of a fresh session of a random technology, with random timebase and sometimes an
    /// origin.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        let (name, tech) = m.random.element(Self.technologyNames) ?? ("14443a", .iso14443a)
        let header = ["@tech \(name)", "@timebase \(m.random.pick("us", "ns", "carrier"))"] + (m.random.chance(50) ? ["@origin \(m.random.element(Self.origins) ?? "0")"] : [])
        return Self.text(header: header, events: Self.lines(Self.dialect(tech).session(&m), start: m.random.pick(0, -1000, 1 << 40)))
    }

    /// What the reader accepts, checked the way it reads: known header values, times that are
    /// 64-bit integers and stay 64-bit once the origin is added, frame lines with hex bytes and
    /// known attributes.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let p = Self.parse(input) else { return false }
        var origin: Int64 = 0
        for line in p.header {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let value = parts.count > 1 ? parts[1].trimmingBlanks() : ""
            switch parts[0] {
            case "@tech": guard Self.technologyNames.contains(where: { $0.0 == value }) else { return false }
            case "@timebase": guard ["us", "ns", "carrier"].contains(value) else { return false }
            case "@origin": guard let o = Int64(value) else { return false }; origin = o
            case "@parity": guard value == "known" || value == "unknown" else { return false }
            case "@": return false
            default: break
            }
        }
        return p.events.allSatisfy { Self.eventIsWellFormed($0, origin: origin, technology: p.technology) }
    }

    static func eventIsWellFormed(_ line: String, origin: Int64, technology: Technology) -> Bool {
        var tokens = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let first = tokens.first, let c = first.first, c.isNumber || c == "-" {
            let times = first.components(separatedBy: "..")
            guard times.count <= 2, times.allSatisfy({ Int64($0).map { !origin.addingReportingOverflow($0).overflow } ?? false }) else { return false }
            tokens.removeFirst()
        }
        guard let kind = tokens.first else { return false }
        if kind == "field-on" || kind == "field-off" { return tokens.count == 1 || tokens[1].hasPrefix("#") }
        if kind == "malformed" { return true }
        let body = tokens.dropFirst().prefix { !$0.hasPrefix("#") }
        let byteTokens = body.prefix { !$0.contains("=") }
        // `empty` stands alone in place of the bytes.
        let empty = byteTokens.first == "empty"
        if empty ? byteTokens.count != 1 : byteTokens.contains("empty") { return false }
        guard kind == "R" || kind == "T", frame(line, technology: technology).map({ !$0.frame.bytes.isEmpty || empty }) == true else { return false }
        for token in body where token.contains("=") {
            let kv = token.split(separator: "=", maxSplits: 1).map(String.init)
            switch kv[0] {
            case "tech": guard kv.count == 2, technologyNames.contains(where: { $0.0 == kv[1] }) else { return false }
            case "crc": guard kv.count == 2, kv[1] == "stripped" || kv[1] == "included" else { return false }
            case "rate": guard kv.count == 2, let r = Int(kv[1]), r > 0 else { return false }
            case "parity":
                guard kv.count == 2, kv[1] == "known" || kv[1] == "unknown" else { return false }
                // Parity errors (!) are known parity.
                if kv[1] == "unknown", byteTokens.contains(where: { $0.hasSuffix("!") }) { return false }
            default: return false
            }
        }
        return true
    }

    /// Changes the trace: one frame's bytes through its dialect, a session inserted, a line removed
    /// or repeated, a frame of another technology (`tech=`), an attribute added, another timebase.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var p = Self.parse(input) else { return nil }
        let dialect = Self.dialect(p.technology)
        let i = m.random.below(max(1, p.events.count))
        switch m.random.weighted([35, 15, 10, 10, 10, 10, 10]) {
        case 0:
            guard i < p.events.count, let (time, f) = Self.frame(p.events[i], technology: p.technology) else { p.events += Self.lines([dialect.readerFrame(&m)], start: 0); break }
            let mutated = (f.kind == .reader ? dialect.mutateReader(f, &m) : dialect.answer(to: nil, &m)) ?? dialect.mutatedPayload(f, &m)
            p.events[i] = (time.map { $0 + " " } ?? "") + (Self.lines([mutated], start: 0).first?.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "R 00")
        case 1: p.events.insert(contentsOf: Self.lines(dialect.session(&m), start: m.random.below(1 << 20)), at: min(i, p.events.count))
        case 2: if i < p.events.count { p.events.remove(at: i) }
        case 3: if i < p.events.count { p.events.insert(p.events[i], at: m.random.below(p.events.count + 1)) }
        case 4:
            // Frames of another technology in the same trace (tech= on the line).
            let (name, tech) = m.random.element(Self.technologyNames) ?? ("felica", .felica)
            p.events.insert((Self.lines([Self.dialect(tech).readerFrame(&m)], start: 10).first ?? "") + " tech=\(name)", at: min(i, p.events.count))
        case 5: if i < p.events.count { p.events[i] += m.random.pick(" rate=212", " rate=424", " crc=stripped", " # note", " crc=included", " parity=known") }
        default:
            p.header = p.header.filter { !$0.hasPrefix("@timebase") } + ["@timebase \(m.random.pick("us", "ns", "carrier"))"]
        }
        return Self.text(header: p.header, events: p.events)
    }

    /// Breaks the trace on purpose: times that overflow or run backwards, bad directives or
    /// origins, stray lines, unknown attribute values, a wrong version line, a byte-order mark, a
    /// cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var p = Self.parse(input) else { return nil }
        let i = m.random.below(max(1, p.events.count))
        switch m.random.below(9) {
        case 0:
            // Times that overflow when the origin is added, or ranges that run backwards.
            if i < p.events.count, let rest = p.events[i].split(separator: " ", maxSplits: 1).last {
                p.events[i] = (m.random.chance(75) ? m.random.pick("1.2", "..", "100..", "12345678901234567890", "9223372036854775807", "-9223372036854775808..9223372036854775807")
                               : (m.random.element(Self.times) ?? "0")) + " " + rest
            }
        case 1: p.header = p.header.filter { !$0.hasPrefix("@origin") } + ["@origin \(m.random.pick("9223372036854775807", "-9223372036854775808", "1e3", "", "0x10"))"]
        case 2: p.header.append(m.random.pick("@tech nfc-z", "@timebase ms", "@", "@origin", "@tech"))
        case 3: p.events.insert(m.random.pick("@tech felica", "R", "T 0", "T 1G", "R 26/9", "R 26/7 30", "field-on 00", "malformed", "1..2..3 R 00", "T empty 00", "R 00 empty"), at: min(i, p.events.count))
        case 4: if i < p.events.count { p.events[i] += m.random.pick(" tech=x", " crc=maybe", " rate=0", " rate=-5", " reason=\"a", " 00", " reason=\"x\"", " parity=maybe", " parity=unknown") }
        case 5: return Array("nfctrace \(m.random.pick("2", "0", "-1", "99999999999999999999", "1x"))\n".utf8) + Self.text(header: p.header, events: p.events).dropFirst(11)
        case 6: return [0xEF, 0xBB, 0xBF] + Array(String(decoding: Self.text(header: p.header, events: p.events), as: UTF8.self).split(separator: "\n").joined(separator: "\r\n").utf8)
        case 7: return truncated(Self.text(header: p.header, events: p.events), &m.random)
        default: if i < p.events.count { p.events[i] = "malformed " + Hex.string(m.random.bytes(m.random.below(8))) + " reason=\"\(m.random.pick("x", "\\\"", "\\"))\"" }
        }
        return Self.text(header: p.header, events: p.events)
    }

    /// The first trace's header with events from the front of one and the back of the other; nil
    /// when either does not parse.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = Self.parse(a), let y = Self.parse(b) else { return nil }
        return Self.text(header: x.header, events: Array(x.events.prefix(m.random.below(x.events.count + 1)) + y.events.suffix(m.random.below(y.events.count + 1))))
    }
}

extension String {
    /// Split on a separator string (Foundation-free).
    func components(separatedBy separator: String) -> [String] {
        let chars = Array(self), sep = Array(separator)
        guard !sep.isEmpty else { return [self] }
        var parts: [String] = []
        var start = 0, i = 0
        while i + sep.count <= chars.count {
            if Array(chars[i..<(i + sep.count)]) == sep {
                parts.append(String(chars[start..<i]))
                i += sep.count
                start = i
            } else {
                i += 1
            }
        }
        return parts + [String(chars[start...])]
    }
}
