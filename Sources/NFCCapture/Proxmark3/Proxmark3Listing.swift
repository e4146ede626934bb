import NFCCore

/// The Proxmark3 client's `trace list` / `hf 14a list` tables, as people paste them into
/// write-ups and issues (notes/proxmark3-interop.md §2.6):
///
/// ```
/// [=] ISO14443A - all times are in carrier periods (1/13.56MHz)
///       Start |        End | Src | Data (! denotes parity error)      | CRC | Annotation
/// ------------+------------+-----+-----------------------------------+-----+-----------
///           0 |       1056 | Rdr |26(7)                              |     | REQA
///     2112566 |    2120726 | Rdr |1B  DA  E5  57  96  70  88         |  ok | PWD-AUTH
/// ```
///
/// A byte is `XX`, `XX!` when its parity bit was wrong, `XX(n)` when only n bits went over the
/// air; frames longer than a row go on in rows whose Start/End/Src cells are blank; `-c` puts
/// the CRC bytes in `[…]`; `-u` gives times in µs and `-r` replaces Start/End by Gap/Duration.
/// Rows of `  *  ` (the client's decryption of the frame above) and `Frame Delay Time` rows are
/// the client's own annotations, not frames. The CRC and annotation columns are not read: the
/// dissector checks and names the frame itself.
///
/// The older clients' layout (` +   delta:  duration:  TAG  04 00 …`) is read too
/// (`Proxmark3Listing.oldRow`).
public enum Proxmark3Listing {
    /// Technology names of the unit line (`[=] ISO14443B - all times are in carrier periods`).
    static let technologies: [(name: [UInt8], technology: Technology)] = [
        (Array("ISO14443A".utf8), .iso14443a), (Array("ISO14443B".utf8), .iso14443b),
        (Array("ISO15693".utf8), .iso15693), (Array("FeliCa".utf8), .felica), (Array("iClass".utf8), .iclass),
    ]

    /// Some table header or a few rows in the first 64 KiB, after prose, colours and prefixes.
    static func looksLikeListing(_ p: [UInt8]) -> Bool {
        // Detection tries the binary formats first (CaptureFormat.detect); a listing is text.
        var rows = 0
        var scratch: [UInt8] = []
        for line in p.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(400) {
            let clean = cleaned(line, into: &scratch)
            if isHeader(clean) { return true }
            if case .frame? = try? parseRow(clean) { rows += 1 } else if oldRow(clean) != nil { rows += 1 }
            if rows >= 2 { return true }
        }
        return false
    }

    // MARK: - Lines

    /// The line without ANSI colour sequences, the client's `[=] `/`[+] ` prefix and a CR.
    /// `scratch` holds the copy when colours had to be removed (most lines need no copy).
    static func cleaned(_ line: ArraySlice<UInt8>, into scratch: inout [UInt8]) -> ArraySlice<UInt8> {
        var s = line
        if s.contains(0x1B) {
            scratch.removeAll(keepingCapacity: true)
            var i = s.startIndex
            while i < s.endIndex {
                if s[i] == 0x1B {
                    // CSI: ESC [ parameters… final byte (0x40…0x7E).
                    i += 1
                    if i < s.endIndex, s[i] == UInt8(ascii: "[") {
                        i += 1
                        while i < s.endIndex, !(0x40...0x7E).contains(s[i]) { i += 1 }
                    }
                    i += 1
                    continue
                }
                scratch.append(s[i])
                i += 1
            }
            s = scratch[...]
        }
        if s.last == 0x0D { s = s.dropLast() }
        // `[=] `, `[+] `, `[#] `, `[!] `, `[!!] `, `[-] `, `[?] `, `[usb|script] pm3 --> ` …
        var i = s.startIndex
        while i < s.endIndex, s[i] == 0x20 || s[i] == 0x09 { i += 1 }
        if i < s.endIndex, s[i] == UInt8(ascii: "["), let close = s[i...].prefix(8).firstIndex(of: UInt8(ascii: "]")),
           s[(i + 1)..<close].allSatisfy({ "=+#!-?".utf8.contains($0) }) {
            s = s[(close + 1)...]
            if s.first == 0x20 { s = s.dropFirst() }
        }
        return s
    }

    /// The column header: `Start | End | Src | Data …` or `Gap | Duration | Src | Data …`.
    static func isHeader(_ s: ArraySlice<UInt8>) -> Bool {
        guard let src = find(Array("| Src |".utf8), in: s) else { return false }
        let before = s[..<src]
        return find(Array("Start".utf8), in: before) != nil || find(Array("Gap".utf8), in: before) != nil
    }

    /// The technology a unit line names (`ISO14443A - all times are in …`; the 2014 clients
    /// wrote `iso14443a - All times are in …`, older ones `iClass - Timings are not as
    /// accurate`), if it is one. Today's clients print `ISO15693 / iCLASS - …` for both
    /// technologies: then `technology` is nil and the rows tell (`iClassOr15693`).
    static func unitLine(_ s: ArraySlice<UInt8>) -> (technology: Technology?, microseconds: Bool)? {
        guard find(Array("all times are in".utf8), in: s, caseless: true) != nil
                || find(Array("Timings are not as accurate".utf8), in: s, caseless: true) != nil else { return nil }
        let µs = find(Array("microseconds".utf8), in: s, caseless: true) != nil
        let named = technologies.filter { find($0.name, in: s, caseless: true) != nil }.map(\.technology)
        if Set(named) == [.iso15693, .iclass] { return (nil, µs) }
        return named.first.map { ($0, µs) }
    }

    /// iClass or ISO 15693, for a table under the unit line both share, from its first rows:
    /// a `<SOF>` row (a bare iClass SOF) or a `<EOF>` row (an ISO 15693 reader EOF), the client's
    /// annotation of a reader frame, or else the first reader frame's first byte: an iClass
    /// opcode (ACTALL 0A, IDENTIFY/READ 0C, SELECT 81, READCHECK 88/18, CHECK 05, UPDATE 87)
    /// rather than ISO 15693 request flags (02, 22, 26 …).
    /// Only the rows of this table count: the lookahead stops at the next unit line, so that a
    /// listing of unit lines costs each of them one line, not the 400 after it (issue 51).
    static func iClassOr15693(_ lines: some Sequence<ArraySlice<UInt8>>) -> Technology {
        var scratch: [UInt8] = []
        for raw in lines {
            let line = cleaned(raw, into: &scratch)
            if unitLine(line) != nil { break }
            guard case .frame(_, _, let tag, let data)? = try? parseRow(line) else { continue }
            if find(Array("<SOF>".utf8), in: data) != nil { return .iclass }
            if find(Array("<EOF>".utf8), in: data) != nil { return .iso15693 }
            guard !tag else { continue }
            let annotation = line[data.endIndex...]
            if iClassNames.contains(where: { find(Array($0.utf8), in: annotation) != nil }) { return .iclass }
            if iso15693Names.contains(where: { find(Array($0.utf8), in: annotation) != nil }) { return .iso15693 }
            let cell = trimmed(data)
            guard cell.count >= 2, let hi = Hex.digit(cell[cell.startIndex]), let lo = Hex.digit(cell[cell.startIndex + 1]) else { continue }
            return [0x0A, 0x0C, 0x81, 0x88, 0x18, 0x05, 0x87].contains(hi << 4 | lo) ? .iclass : .iso15693
        }
        return .iso15693
    }

    /// The non-empty lines of `text`, split at LF one at a time as they are asked for: a
    /// lookahead reads only as far as it goes, where a split of the whole 64 KiB it may look at
    /// cost that much for every unit line of a listing (issue 51).
    static func lines(_ text: ArraySlice<UInt8>) -> some Sequence<ArraySlice<UInt8>> {
        sequence(state: text) { (rest: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? in
            while rest.first == 0x0A { rest = rest.dropFirst() }
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
    }

    /// The client's annotations of reader frames that only one of the two has (cmdhflist.c).
    static let iClassNames = ["ACTALL", "IDENTIFY", "READCHECK", "CHECK", "UPDATE", "PAGESEL"]
    static let iso15693Names = ["INVENTORY", "STAY_QUIET", "READBLOCK", "WRITEBLOCK", "GET_SYSTEM_INFO", "READ_MULTI", "RESET_TO_READY"]

    /// What the client prints in place of the bytes of a record without any (cmdtrace.c): a bare
    /// iClass SOF, an ISO 15693 reader EOF, anything else.
    static let emptyRecordTexts = ["<SOF>", "<EOF>", "<empty trace - possible error>"].map { Array($0.utf8) }

    /// The client prints times as unsigned 32-bit counts of carrier periods since the first
    /// frame (`%10u`), so they wrap every 2^32 periods (316.7 s); in µs (`-u`) every 2^32 / 13.56.
    static func timeModulus(microseconds: Bool) -> Int64 {
        microseconds ? 316_738_001_180 : 1 << 32   // ns: 2^32 / 13.56 MHz
    }

    /// `x` modulo `m`, taken as the nearest value to 0: a step back in time reads as one.
    static func signedModulo(_ x: Int64, _ m: Int64) -> Int64 {
        let r = (x % m + m) % m
        return r >= m / 2 ? r - m : r
    }

    static func find(_ needle: [UInt8], in s: ArraySlice<UInt8>, caseless: Bool = false) -> Int? {
        guard !needle.isEmpty, needle.count <= s.count else { return nil }
        @inline(__always) func fold(_ c: UInt8) -> UInt8 { caseless && (0x41...0x5A).contains(c) ? c | 0x20 : c }
        let n = needle.map(fold)
        var i = s.startIndex
        let last = s.endIndex - n.count
        while i <= last {
            var j = 0
            while j < n.count, fold(s[i + j]) == n[j] { j += 1 }
            if j == n.count { return i }
            i += 1
        }
        return nil
    }

    // MARK: - Rows of the current table

    /// Where a frame came from, as the Src column says.
    enum Source { case reader, tag }

    /// A table row: the first row of a frame, a continuation of its bytes, or one of the
    /// client's own rows (decryption, frame delay) that carries no frame.
    enum Row: Equatable {
        case frame(start: ArraySlice<UInt8>, end: ArraySlice<UInt8>, tag: Bool, data: ArraySlice<UInt8>)
        case continuation(data: ArraySlice<UInt8>)
        case annotation
    }

    struct RowError: Error { let reason: String }

    /// Splits a row at its `|`; nil when the line is no row (prose, the separator line).
    static func parseRow(_ s: ArraySlice<UInt8>) throws(RowError) -> Row? {
        // Four cells at least: time, time, source, data (CRC and annotation may be cut off).
        var cells: [Range<Int>] = []
        var from = s.startIndex
        var i = s.startIndex
        while i < s.endIndex, cells.count < 4 {
            if s[i] == UInt8(ascii: "|") {
                cells.append(from..<i)
                from = i + 1
            }
            i += 1
        }
        if cells.count < 4 {
            guard cells.count == 3 else { return nil }
            cells.append(from..<s.endIndex)   // a row without the CRC and annotation columns
        }
        let start = trimmed(s[cells[0]]), end = trimmed(s[cells[1]]), src = trimmed(s[cells[2]])
        let data = s[cells[3]]
        if src.elementsEqual("Rdr".utf8) || src.elementsEqual("Tag".utf8) {
            guard isTime(start), isTime(end) else {
                if start.allSatisfy({ $0 == UInt8(ascii: "-") }) { return nil }
                throw RowError(reason: "a \(String(decoding: src, as: UTF8.self)) row whose times are \"\(String(decoding: start.prefix(20), as: UTF8.self))\" and \"\(String(decoding: end.prefix(20), as: UTF8.self))\"")
            }
            return .frame(start: start, end: end, tag: src.first == UInt8(ascii: "T"), data: data)
        }
        if src.elementsEqual("*".utf8) { return .annotation }
        guard src.isEmpty, start.isEmpty || isTime(start), end.isEmpty || isTime(end) else { return nil }
        // Blank source: more bytes of the frame above, or a `Frame Delay Time` row (-r --frame).
        let d = trimmed(data)
        guard let first = d.first, Hex.digit(first) != nil, d.count >= 2, Hex.digit(d[d.startIndex + 1]) != nil else { return .annotation }
        return start.isEmpty ? .continuation(data: data) : .annotation
    }

    static func isTime(_ s: ArraySlice<UInt8>) -> Bool {
        !s.isEmpty && s.allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }
    }

    static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lo = s.startIndex, hi = s.endIndex
        while lo < hi, s[lo] == 0x20 || s[lo] == 0x09 { lo += 1 }
        while hi > lo, s[hi - 1] == 0x20 || s[hi - 1] == 0x09 { hi -= 1 }
        return s[lo..<hi]
    }

    /// A time cell: an integer (carrier periods) or µs with decimals (`-u`), in nanoseconds
    /// for µs; nil on overflow.
    static func time(_ s: ArraySlice<UInt8>, microseconds: Bool) -> Int64? {
        var whole: Int64 = 0
        var fraction: Int64 = 0, scale: Int64 = 1
        var afterPoint = false
        for c in s {
            if c == UInt8(ascii: ".") {
                guard !afterPoint else { return nil }
                afterPoint = true
                continue
            }
            let d = Int64(c &- 0x30)
            if afterPoint {
                if scale < 1000 { fraction = fraction * 10 + d; scale *= 10 }
            } else {
                let (m, o1) = whole.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(d)
                guard !o1, !o2 else { return nil }
                whole = a
            }
        }
        guard microseconds || afterPoint else { return whole }
        let (ns, o) = whole.multipliedReportingOverflow(by: 1000)
        guard !o else { return nil }
        return ns + fraction * (1000 / scale)
    }

    /// Appends the bytes of a data cell to `bytes`: `XX`, `XX!` (parity error, its index into
    /// `parityErrors`), `XX(7)` (bits of a short frame), `[`/`]` around CRC bytes (`-c`) and the
    /// `'` of short bytes. Returns the bits of the last byte if a `(n)` said so.
    static func appendData(_ cell: ArraySlice<UInt8>, to bytes: inout [UInt8], parityErrors: inout [Int]) throws(RowError) -> UInt8? {
        // `<SOF>`, `<EOF>`: a record without bytes (the whole cell).
        if bytes.isEmpty, let first = cell.firstIndex(where: { $0 != 0x20 }), cell[first] == UInt8(ascii: "<"),
           emptyRecordTexts.contains(where: { cell[first...].starts(with: $0) }) {
            return nil
        }
        var bits: UInt8?
        var i = cell.startIndex
        let end = cell.endIndex
        while i < end {
            let c = cell[i]
            if c == 0x20 || c == 0x09 || c == UInt8(ascii: "[") || c == UInt8(ascii: "]") || c == UInt8(ascii: "'") {
                i += 1
                continue
            }
            // The 2014 clients wrote the CRC verdict (` !crc`) into the data cell.
            if c == UInt8(ascii: "!") { break }
            guard i + 1 < end, let hi = Hex.digit(c), let lo = Hex.digit(cell[i + 1]) else {
                throw RowError(reason: "data \"\(String(decoding: trimmed(cell).prefix(40), as: UTF8.self))\" is no byte list")
            }
            bytes.append(hi << 4 | lo)
            i += 2
            if i < end, cell[i] == UInt8(ascii: "!") {
                parityErrors.append(bytes.count - 1)
                i += 1
            }
            if i < end, cell[i] == UInt8(ascii: "(") {
                guard i + 2 < end, (0x31...0x38).contains(cell[i + 1]), cell[i + 2] == UInt8(ascii: ")") else {
                    throw RowError(reason: "a bit count that is not (1) … (8)")
                }
                bits = cell[i + 1] - 0x30
                i += 3
            }
            if i < end, cell[i] != 0x20, cell[i] != 0x09, cell[i] != UInt8(ascii: "]"), cell[i] != UInt8(ascii: "'") {
                throw RowError(reason: "data \"\(String(decoding: trimmed(cell).prefix(40), as: UTF8.self))\" is no byte list")
            }
        }
        return bits
    }

    // MARK: - Rows of the older clients

    /// A row of the clients before 2014 (`recorded activity:` / ` ETU     :rssi: who bytes`):
    /// ` +<delta>: <rssi>: TAG <bytes> [!crc]`, the delta counted from the previous frame's
    /// start, the "rssi" never measured (`  0` for tag frames, blank for the reader's), `TAG` or
    /// three spaces, lowercase bytes with `!` after a tag byte of wrong parity, one line per frame.
    /// Returns the delta, the direction and the rest (bytes then text); nil when the line is not one.
    static func oldRow(_ s: ArraySlice<UInt8>) -> (time: ArraySlice<UInt8>, tag: Bool, rest: ArraySlice<UInt8>)? {
        let t = trimmed(s)
        guard t.first == UInt8(ascii: "+") else { return nil }
        let afterPlus = t.dropFirst()
        guard let c1 = afterPlus.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let time = trimmed(afterPlus[..<c1])
        let rest1 = afterPlus[(c1 + 1)...]
        guard let c2 = rest1.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let rssi = trimmed(rest1[..<c2])
        guard isTime(time), rssi.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var rest = trimmed(rest1[(c2 + 1)...])
        var tag = false
        if rest.starts(with: "TAG".utf8) {
            tag = true
            rest = trimmed(rest.dropFirst(3))
        }
        return (time, tag, rest)
    }
}

/// Reads a Proxmark3 listing line by line; memory does not grow with the listing.
final class Proxmark3ListingReader: FrameReader {
    let format = CaptureFormat.proxmark3Listing
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private let forcedTechnology: Technology?
    private var technology: Technology
    private var microseconds = false
    /// `-r`: Gap and Duration columns instead of Start and End.
    private var relative = false
    private var lastEnd: Int64 = 0
    /// Pre-2014 rows count from the previous frame's start; later ones are read near it.
    private var lastStart: Int64 = 0
    private var sawStart = false
    private var frameNumber = 0
    private var failed = false
    private var scratch: [UInt8] = []
    /// The frame being gathered: its rows' bytes so far.
    private var pending: Frame?
    private var pendingBits: UInt8?
    private let ending: ByteInput.LineEnding

    init(input: ByteInput, options: CaptureReadOptions) {
        self.input = input
        forcedTechnology = options.technology
        technology = options.technology ?? .iso14443a
        ending = ByteInput.LineEnding.of(input.peek(1 << 16))
        metadata["source"] = "Proxmark3 trace list"
        // The header says the technology before any frame; writers take the metadata first.
        if forcedTechnology == nil {
            var scratch: [UInt8] = []
            let lines = input.peek(1 << 16).split(separator: 0x0A)
            for (n, line) in lines.prefix(64).enumerated() {
                if let unit = Proxmark3Listing.unitLine(Proxmark3Listing.cleaned(line, into: &scratch)) {
                    technology = unit.technology ?? Proxmark3Listing.iClassOr15693(lines.dropFirst(n + 1).prefix(400))
                    break
                }
            }
        }
        metadata["tech"] = technology.rawValue
        metadata["timebase"] = TimeUnit.carrierCycles.rawValue
        // 14443-A rows show every parity error (`!`): the parity of the others is right.
        if technology == .iso14443a { metadata["parity"] = "known" }
    }

    private func damage(_ reason: String, at offset: Int) -> CaptureError {
        failed = true
        pending = nil
        return CaptureError.damaged(path: input.name, offset: offset, frame: frameNumber + 1, reason: "line \(lineNumber): \(reason)")
    }

    private var lineNumber = 0

    /// A time that renderers and writers can compute in: within the 64-bit nanosecond range, as
    /// a text trace requires of its times (a Start of 2^63-1 periods saturated to a time before 1970).
    private func checked(_ v: Int64, at offset: Int) throws(CaptureError) -> Timestamp {
        let t = stamp(v)
        guard t.checkedNanoseconds != nil else {
            throw damage("time \(v) \(t.unit.rawValue) is beyond the 64-bit nanosecond range (±292 years of 1970)", at: offset)
        }
        return t
    }

    /// Damage found while finishing the frame before it: thrown on the next call, after that
    /// frame was delivered.
    private var deferred: CaptureError?

    func next() throws(CaptureError) -> Frame? {
        if let e = deferred {
            deferred = nil
            throw e
        }
        if failed { return nil }
        while true {
            guard let (raw, offset, truncated) = input.readLine(limit: 1 << 16, ending: ending) else {
                if let e = input.ioError { throw damage("I/O error: \(e)", at: input.offset) }
                return finishPending()
            }
            lineNumber += 1
            if truncated { throw damage("a line longer than 64 KiB: no Proxmark3 listing has one", at: offset) }
            let line = Proxmark3Listing.cleaned(raw, into: &scratch)
            // Table rows first: they are nearly every line of a listing.
            let row: Proxmark3Listing.Row?
            do {
                row = try Proxmark3Listing.parseRow(line)
            } catch {
                throw damage(error.reason, at: offset)
            }
            switch row {
            case .frame(let start, let end, let tag, let data)?:
                let done = finishPending()
                do {
                    try begin(start: start, end: end, tag: tag, data: data, offset: offset)
                } catch {
                    guard let done else { throw error }
                    deferred = error
                    return done
                }
                if let done { return done }
                continue
            case .continuation(let data)?:
                guard pending != nil else { throw damage("bytes continuing a frame, with no frame before them", at: offset) }
                try more(data, offset: offset)
                continue
            case .annotation?:
                continue
            case nil:
                break
            }
            let done = finishPending()
            if let unit = Proxmark3Listing.unitLine(line) {
                if forcedTechnology == nil {
                    technology = unit.technology ?? Proxmark3Listing.iClassOr15693(Proxmark3Listing.lines(input.peek(1 << 16)).prefix(400))
                }
                microseconds = unit.microseconds
            } else if Proxmark3Listing.isHeader(line) {
                relative = Proxmark3Listing.find(Array("Gap".utf8), in: line) != nil
            } else if let old = Proxmark3Listing.oldRow(line) {
                do {
                    try beginOld(old, offset: offset)
                } catch {
                    guard let done else { throw error }
                    deferred = error
                    return done
                }
            }
            // Anything else is prose around a pasted table, or its separator line: no error.
            if let done { return done }
        }
    }

    private func finishPending() -> Frame? {
        guard var f = pending else { return nil }
        pending = nil
        if technology == .iso14443a {
            if let bits = pendingBits {
                f.lastByteBits = bits
            } else if let s = f.start, let e = f.end, let sc = s.converted(to: .carrierCycles), let ec = e.converted(to: .carrierCycles) {
                // Gaps add up with wrapping (-r): start and end can be any two values.
                let (duration, overflow) = ec.value.subtractingReportingOverflow(sc.value)
                if !overflow { f.lastByteBits = Proxmark3Trace.estimatedBits(dataLength: f.bytes.count, duration: Int(clamping: duration)) }
            }
            if f.lastByteBits != 8 { f.parityErrors = [] }
        } else {
            f.parityErrors = nil
        }
        if technology == .felica, f.bytes.starts(with: [0xB2, 0x4D]) {
            f.bytes.removeFirst(2)   // sync code; frames start at LEN
        }
        frameNumber += 1
        return f
    }

    private func stamp(_ v: Int64) -> Timestamp {
        Timestamp(v, microseconds ? .nanoseconds : .carrierCycles)
    }

    private func begin(start: ArraySlice<UInt8>, end: ArraySlice<UInt8>, tag: Bool, data: ArraySlice<UInt8>, offset: Int) throws(CaptureError) {
        // `-u` prints µs with one decimal; without it, whole carrier periods.
        if !microseconds, start.contains(UInt8(ascii: ".")) || end.contains(UInt8(ascii: ".")) { microseconds = true }
        guard let a = Proxmark3Listing.time(start, microseconds: microseconds),
              let b = Proxmark3Listing.time(end, microseconds: microseconds) else { throw damage("a time beyond 64 bits", at: offset) }
        // Printed times wrap (unsigned 32 bits): each is read as the nearest to the one before,
        // so a frame before the first (4294937600) is 2.19 ms early, not 316.7 s late.
        let m = Proxmark3Listing.timeModulus(microseconds: microseconds)
        let s: Int64, e: Int64
        if relative {
            // Gap from the previous frame's end, then the frame's duration.
            s = lastEnd &+ Proxmark3Listing.signedModulo(a, m)
            e = s &+ b
        } else {
            // The first frame has no frame before it: its time is as printed.
            s = sawStart ? lastStart &+ Proxmark3Listing.signedModulo(a &- lastStart, m) : a
            e = s &+ Proxmark3Listing.signedModulo(b &- a, m)
        }
        let startTime = try checked(s, at: offset), endTime = try checked(e, at: offset)
        lastEnd = e
        lastStart = s
        sawStart = true
        var frame = Frame(.data(tag ? .tagToReader : .readerToTag), technology: technology, bytes: [])
        frame.start = startTime
        frame.end = endTime
        frame.parityErrors = []
        pending = frame
        pendingBits = nil
        try more(data, offset: offset)
    }

    private func more(_ data: ArraySlice<UInt8>, offset: Int) throws(CaptureError) {
        guard var f = pending else { return }
        pending = nil   // f is the only reference while it grows
        // Taken out of the frame, so that the list is not copied on its first append: a copy per
        // row made a frame of many rows of parity errors quadratic (issue 51).
        var errors = f.parityErrors ?? []
        f.parityErrors = nil
        do {
            if let bits = try Proxmark3Listing.appendData(data, to: &f.bytes, parityErrors: &errors) { pendingBits = bits }
        } catch {
            throw damage(error.reason, at: offset)
        }
        guard f.bytes.count <= 0x7FFF else { throw damage("a frame of more than 32767 bytes", at: offset) }
        f.parityErrors = errors
        pending = f
    }

    /// A row of the clients before 2014: the delta from the previous frame's start, in the
    /// firmware's sample counter (carrier periods on the 2013 firmware; unconfirmed earlier),
    /// no end time.
    private func beginOld(_ row: (time: ArraySlice<UInt8>, tag: Bool, rest: ArraySlice<UInt8>), offset: Int) throws(CaptureError) {
        guard let delta = Proxmark3Listing.time(row.time, microseconds: false) else { throw damage("a time beyond 64 bits", at: offset) }
        let s = lastStart &+ delta
        let startTime = try checked(s, at: offset)
        lastStart = s
        sawStart = true
        var frame = Frame(.data(row.tag ? .tagToReader : .readerToTag), technology: technology, bytes: [])
        frame.start = startTime
        var errors: [Int] = []
        // The bytes come first; the annotation (and `!crc`) after them, from the first word
        // that is not a byte.
        var i = row.rest.startIndex
        while i < row.rest.endIndex {
            let word = row.rest[i...].prefix { $0 != 0x20 && $0 != 0x09 }
            if word.isEmpty { i += 1; continue }
            let isByte = word.count >= 2 && Hex.digit(word[word.startIndex]) != nil && Hex.digit(word[word.startIndex + 1]) != nil
                && (word.count == 2 || word.dropFirst(2).allSatisfy { $0 == UInt8(ascii: "!") })
            guard isByte else { break }
            do {
                _ = try Proxmark3Listing.appendData(word, to: &frame.bytes, parityErrors: &errors)
            } catch {
                throw damage(error.reason, at: offset)
            }
            i = word.endIndex
        }
        frame.parityErrors = errors
        pending = frame
        pendingBits = nil
    }
}
