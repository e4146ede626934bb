import NFCCapture
import NFCCore

/// A frame as the text exports of other tools carry it (Proxmark3 listings, nfc-laboratory
/// JSON): the model both are rendered from and parsed back into.
public struct ForeignFrame: Sendable, Equatable {
    /// Whether the frame went reader to tag or tag to reader, or is a field event.
    public var kind: FuzzFrame.Kind
    /// The frame's air interface.
    public var technology: Technology
    /// The frame's bytes as the tool shows them (CRC included).
    public var bytes: [UInt8]
    /// Valid bits of the last byte (7 for a short frame such as REQA).
    public var lastByteBits: UInt8
    /// Indices of bytes whose parity bit was wrong (the listing's `!`).
    public var parityErrors: [Int]
    /// Carrier periods (listings) or nanoseconds (nfc-laboratory).
    public var start: Int64
    /// End of the frame, in the same unit as `start`.
    public var end: Int64
    /// nfc-laboratory's flags beyond the short frame, as its reader keeps them (`nfc-laboratory: encrypted, CRC error`).
    public var comment: String?
    /// nfc-laboratory's bit rate in bit/s (106000, 212000 …), nil when not given.
    public var bitRate: Int?

    /// A frame from its parts; no parity errors, comment or bit rate unless given.
    public init(kind: FuzzFrame.Kind, technology: Technology, bytes: [UInt8], lastByteBits: UInt8 = 8, parityErrors: [Int] = [],
                start: Int64, end: Int64, comment: String? = nil, bitRate: Int? = nil) {
        self.kind = kind
        self.technology = technology
        self.bytes = bytes
        self.lastByteBits = lastByteBits
        self.parityErrors = parityErrors
        self.start = start
        self.end = end
        self.comment = comment
        self.bitRate = bitRate
    }
}

/// Proxmark3 `trace list` tables and nfc-laboratory JSON exports (docs/trace-format.md): frames
/// from the technologies' dialects (and Type B / iClass commands from their codecs), rendered in
/// the tool's layout; mutated as frames (bytes through the dialect, times, bits, parity, flags)
/// and as text (the layouts' variants, prose, colours, cut rows, bad numbers).
public struct ForeignCaptureShape: ShapeMutator {
    /// Which tool's export: a Proxmark3 `trace list` table or an nfc-laboratory JSON export.
    public enum Format: Sendable { case proxmark3Listing, nfcLaboratory }
    /// Which tool's export this shape makes and reads.
    public let format: Format

    /// The shape of `format`'s exports.
    public init(_ format: Format) { self.format = format }

    /// Magic of the tool's layout: listing column headers and annotations, or nfc-laboratory's JSON
    /// keys and frame types.
    public var dictionary: [[UInt8]] {
        let words: [String]
        switch format {
        case .proxmark3Listing:
            words = [" | Rdr |", " | Tag |", " |  *  |", "|            |            |     |", "(7)", "(4)", "!", "[", "]", "'", " |  ok | ", " |  !! | ",
                     "      Start |        End | Src | Data (! denotes parity error)", "        Gap |   Duration | Src | Data",
                     "[=] ISO14443A - all times are in carrier periods (1/13.56MHz)\n", "ISO14443B", "ISO15693", "FeliCa", "iClass", "microseconds",
                     " +      0:    :     ", ":   0: TAG ", " !crc", "Frame Delay Time ", "\u{1B}[33m", "\u{1B}[0m", "[+] ", "[=] ", "4294967295", "0.0"]
        case .nfcLaboratory:
            words = ["{\"frames\":[", "]}", "\"frameType\":", "\"techType\":", "\"frameData\":\"", "\"timeStart\":", "\"timeEnd\":", "\"frameFlags\":",
                     "\"frameRate\":", "257", "258", "259", "260", "256", "1e308", "-0", "\\u0000", ":", "\"", ",", "{", "}"]
        }
        return words.map { Array($0.utf8) }
    }

    // MARK: model

    static let technologies: [Technology] = [.iso14443a, .iso14443b, .felica, .iso15693, .iclass]

    /// Frames of one technology: a dialect session, or Type B / iClass commands from their codecs.
    static func session(_ technology: Technology, _ m: inout MutationContext) -> [FuzzFrame] {
        switch technology {
        case .iso14443a: return NFCADialect().session(&m)
        case .felica: return FeliCaDialect().session(&m)
        case .iso15693: return ISO15693Dialect().session(&m)
        case .iso14443b:
            let pupi = (0..<4).map { _ in m.random.byte() }
            let atqb = ATQB(pupi: pupi, applicationData: [0, 0, 0, 0], protocolInfo: [0x00, 0x81, 0x75]).encode()
            let commands: [[UInt8]] = [ISO14443BCommand.request(afi: 0, param: m.random.pick(0, 8, 0x14)).encode(), atqb,
                                       ISO14443BCommand.attrib(ATTRIB(pupi: pupi)).encode(), [0x00],
                                       SRxCommand.readBlock(address: m.random.byte()).encode(), [m.random.byte(), 0, 0, 0]]
            return commands.enumerated().map { i, c in FuzzFrame.data(i % 2 == 0 ? .reader : .tag, .iso14443b, payload: c, crc: true) }
        case .iclass:
            let block = m.random.byte()
            let data = (0..<8).map { _ in m.random.byte() }
            return [FuzzFrame(.reader, .iclass, bytes: IClass.frame(.actall)), FuzzFrame(.reader, .iclass, bytes: IClass.frame(.identify)),
                    FuzzFrame.data(.tag, .iclass, payload: data, crc: true),
                    FuzzFrame(.reader, .iclass, bytes: IClass.frame(.read(block: block))), FuzzFrame.data(.tag, .iclass, payload: data, crc: true)]
        }
    }

    func frames(_ m: inout MutationContext) -> [ForeignFrame] {
        let technology = m.random.element(Self.technologies.filter { format == .proxmark3Listing || $0 != .iclass }) ?? .iso14443a
        var t = Int64(m.random.below(5000))
        return Self.session(technology, &m).compactMap { f in
            guard f.kind == .reader || f.kind == .tag || format == .nfcLaboratory else { return nil }
            let length = Int64(max(1, f.bytes.count) * 1200)
            defer { t += length + 2000 }
            return ForeignFrame(kind: f.kind, technology: technology, bytes: f.bytes, lastByteBits: f.lastByteBits, start: t, end: t + length,
                                bitRate: format == .nfcLaboratory && (f.kind == .reader || f.kind == .tag) ? 106 : nil)
        }
    }

    // MARK: rendering

    /// The listing name of a technology's unit line.
    static func unitName(_ t: Technology) -> String {
        switch t {
        case .iso14443a: return "ISO14443A"
        case .iso14443b: return "ISO14443B"
        case .felica: return "FeliCa"
        case .iso15693: return "ISO15693"
        case .iclass: return "iClass"
        }
    }

    /// A listing in today's layout: one technology (the first frame's), 18 bytes per row,
    /// `(n)` after the last byte of every 1-byte or short 14443-A frame, `!` after bytes with a
    /// parity error. FeliCa frames are listed as given (the reader takes a `B2 4D` off).
    public static func listing(_ frames: [ForeignFrame]) -> [UInt8] {
        var out = "[+] Recorded activity\n[=] \(unitName(frames.first?.technology ?? .iso14443a)) - all times are in carrier periods (1/13.56MHz)\n\n"
        out += "      Start |        End | Src | Data (! denotes parity error)                                           | CRC | Annotation\n"
        out += "------------+------------+-----+-------------------------------------------------------------------------+-----+--------------------\n"
        for f in frames where f.kind == .reader || f.kind == .tag {
            var cells: [String] = []
            let wrong = Parity.errorFlags(f.parityErrors, count: f.bytes.count)
            for (i, b) in f.bytes.enumerated() {
                var cell = Hex.string([b], separator: "")
                if wrong[i] { cell += "!" }
                if i == f.bytes.count - 1, f.technology == .iso14443a, f.bytes.count == 1 || f.lastByteBits != 8 { cell += "(\(f.lastByteBits))" }
                cells.append(cell)
            }
            var rows = stride(from: 0, to: max(cells.count, 1), by: 18).map { cells[$0..<min($0 + 18, cells.count)].joined(separator: "  ") }
            if rows.isEmpty { rows = [""] }
            let pad = { (s: String) in s.count >= 72 ? s : s + String(repeating: " ", count: 72 - s.count) }
            out += "\(lpad(f.start)) |\(lpad(f.end)) | \(f.kind == .tag ? "Tag" : "Rdr") |\(pad(rows[0])) |     | \n"
            for r in rows.dropFirst() { out += "            |            |     |\(pad(r)) |     | \n" }
        }
        return Array(out.utf8)
    }

    private static func lpad(_ v: Int64) -> String {
        let s = String(v)
        return s.count >= 11 ? s : String(repeating: " ", count: 11 - s.count) + s
    }

    static func frame(_ f: ForeignFrame) -> Frame {
        Frame(f.kind.event, technology: f.technology, bytes: f.bytes, lastByteBits: f.lastByteBits, parityErrors: f.parityErrors.isEmpty ? nil : f.parityErrors,
                     start: Timestamp(f.start, .nanoseconds), end: Timestamp(f.end, .nanoseconds), bitRate: f.bitRate, comment: f.comment)
    }

    /// An nfc-laboratory export, as nfctrace's writer (`convert --to nfclab`) writes it.
    public static func laboratory(_ frames: [ForeignFrame]) -> [UInt8] {
        let out = ByteOutput.inMemory()
        let writer = NFCLaboratoryWriter(output: out)
        for f in frames { try? writer.write(frame(f)) }
        try? writer.finish()
        return out.memory ?? []
    }

    func render(_ frames: [ForeignFrame]) -> [UInt8] {
        format == .proxmark3Listing ? Self.listing(frames) : Self.laboratory(frames)
    }

    /// Rendered within `maxSize` (libFuzzer cuts longer inputs, which would break them): frames
    /// are dropped from the end until it fits.
    func render(_ frames: [ForeignFrame], within maxSize: Int) -> [UInt8] {
        var kept = frames
        var out = render(kept)
        while out.count > maxSize, kept.count > 1 {
            kept.removeLast(max(1, kept.count / 4))
            out = render(kept)
        }
        return out
    }

    // MARK: parsing (the shape's own renderings; anything else is left to byte mutations)

    static func parseListing(_ input: [UInt8]) -> [ForeignFrame]? {
        var frames: [ForeignFrame] = []
        var technology = Technology.iso14443a
        for raw in input.split(separator: 0x0A) {
            let line = String(decoding: raw, as: UTF8.self)
            if line.contains("all times are in") {
                technology = technologies.first { line.contains(unitName($0)) } ?? technology
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            guard cells.count >= 4 else { continue }
            let starts = cells[2] == "Rdr" || cells[2] == "Tag"
            guard starts || (cells[0].isEmpty && cells[2].isEmpty) else { continue }   // header, separator, annotations
            var bytes: [UInt8] = []
            var parity: [Int] = []
            var bits: UInt8 = 8
            for word in cells[3].split(separator: " ") {
                var w = Substring(word)
                if let open = w.firstIndex(of: "("), let n = UInt8(w[w.index(after: open)...].dropLast()) { bits = n; w = w[..<open] }
                if w.hasSuffix("!") { parity.append(bytes.count); w = w.dropLast() }
                guard let b = UInt8(w, radix: 16) else { return nil }
                bytes.append(b)
            }
            if starts {
                guard let s = Int64(cells[0]), let e = Int64(cells[1]) else { return nil }
                frames.append(ForeignFrame(kind: cells[2] == "Tag" ? .tag : .reader, technology: technology, bytes: bytes, lastByteBits: bits,
                                           parityErrors: parity, start: s, end: e))
            } else if !frames.isEmpty {
                let base = frames[frames.count - 1].bytes.count
                frames[frames.count - 1].bytes += bytes
                frames[frames.count - 1].parityErrors += parity.map { $0 + base }
            }
        }
        return frames.isEmpty ? nil : frames
    }

    /// The export read by nfctrace's reader; nil when it is damaged or holds no frame.
    static func parseLaboratory(_ input: [UInt8]) -> [ForeignFrame]? {
        guard let reader = try? Capture.open(ByteInput.memory(input), options: CaptureReadOptions(format: .nfcLaboratory)) else { return nil }
        var frames: [ForeignFrame] = []
        do {
            while frames.count < 10_000, let f = try reader.next() {
                let start = f.start?.nanoseconds ?? 0
                frames.append(ForeignFrame(kind: FuzzFrame.Kind(f.event), technology: f.technology, bytes: f.bytes, lastByteBits: f.lastByteBits,
                                           start: start, end: f.end?.nanoseconds ?? start, comment: f.comment, bitRate: f.bitRate))
            }
        } catch {
            return nil
        }
        return frames.isEmpty ? nil : frames
    }

    func parse(_ input: [UInt8]) -> [ForeignFrame]? {
        format == .proxmark3Listing ? Self.parseListing(input) : Self.parseLaboratory(input)
    }

    // MARK: ShapeMutator

    /// Five exports of the dialects' sessions in the tool's layout.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: format == .proxmark3Listing ? 0x504D_4C53 : 0x4E46_4C42, maxSize: 1 << 16)
        return (0..<5).map { _ in render(frames(&m), within: 4096) }
    }

    /// An export of fresh frames of the dialects, within the size limit.
    public func generate(_ m: inout MutationContext) -> [UInt8] { render(frames(&m), within: m.maxSize) }

    /// Well-formed: the shape's own layout, exactly (parsed and rendered again, the same bytes).
    /// Anything else (prose, colours, old rows, damage) is what the breakage makes.
    public func isWellFormed(_ input: [UInt8]) -> Bool { parse(input).map { render($0) == input } ?? false }

    /// Changes one frame and renders the export again in the tool's layout: its bytes, frames
    /// inserted or removed, times at their edges, valid bits, a parity error, nfc-laboratory's
    /// flags, the direction.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var frames = parse(input) else { return nil }
        let i = m.random.below(frames.count)
        switch m.random.weighted([30, 10, 10, 10, 10, 10, 10, 10]) {
        case 0:
            var bytes = frames[i].bytes
            m.mutateBytes(&bytes, limit: 300)
            frames[i].bytes = bytes
        case 1: frames.insert(contentsOf: self.frames(&m), at: i)
        case 2: if frames.count > 1 { frames.remove(at: i) }
        case 3:
            // Listings count carrier periods (no sign); nfc-laboratory seconds, read up to 9e9.
            let top: Int64 = format == .proxmark3Listing ? Int64.max : 8_999_999_999_000_000_000
            frames[i].start = m.random.pick(0, 4_294_967_295, top, frames[i].end &+ 1)
            frames[i].end = m.random.pick(frames[i].start, 0, top)
        case 4: frames[i].lastByteBits = UInt8(1 + m.random.below(8))
        case 5: if !frames[i].bytes.isEmpty { frames[i].parityErrors = [m.random.below(frames[i].bytes.count)] }
        case 6:
            let names = NFCLaboratory.flagNames.map(\.1).filter { _ in m.random.bool() }
            frames[i].comment = names.isEmpty ? nil : NFCLaboratory.commentPrefix + names.joined(separator: ", ")
        default: frames[i].kind = m.random.element(FuzzFrame.Kind.allCases) ?? .reader
        }
        return render(frames, within: m.maxSize)
    }

    /// Text-level breakage: a row or object cut, a number made huge or not a number, prose and
    /// colours, a continuation row with nothing before it, an unbalanced quote or brace.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard parse(input) != nil else { return nil }
        var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        guard !lines.isEmpty else { return nil }
        let i = m.random.below(lines.count)
        switch m.random.below(6) {
        case 0: return truncated(input, &m.random)
        case 1: lines[i] = Array(lines[i].prefix(m.random.below(lines[i].count + 1)))
        case 2: lines.insert(Array(m.random.pick("Some prose | with | bars", "\u{1B}[1;31mred\u{1B}[0m", "[=] ", "            |            |     |41  42 |", "  +   12:  0: TAG zz").utf8), at: i)
        case 3:
            if let d = lines[i].firstIndex(where: { (0x30...0x39).contains($0) }) { lines[i].insert(contentsOf: Array(m.random.pick("99999999999999999999", "1e9", "-", ".5", "NaN").utf8), at: d) }
        case 4: lines[i] += Array(m.random.pick("\"", "{", "}", "]", "\\", "(9)", "!!").utf8)
        default: lines.insert(lines[i], at: i)
        }
        return Array(lines.joined(separator: [0x0A]))
    }

    /// Frames from the front of one export and the back of the other, rendered again; nil when
    /// either does not parse.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = parse(a), let y = parse(b) else { return nil }
        return render(Array(x.prefix(1 + m.random.below(x.count))) + Array(y.suffix(m.random.below(y.count + 1))), within: m.maxSize)
    }
}
