import NFCCore

/// nfc-laboratory's JSON frame export (josevcm/nfc-laboratory, the SDR decoder): `{"frames":
/// [{…}, …]}`, one object per frame with `frameData` (hex bytes joined by `:`, CRC included),
/// `timeStart`/`timeEnd` in seconds, `techType`, `frameType`, `frameFlags`, `frameRate` in bit/s.
/// The numeric codes are those of the lab's frame model (`RawFrame.h`): techType 0x0101 NFC-A,
/// 0x0102 NFC-B, 0x0103 NFC-F, 0x0104 NFC-V; frameType 0x0100 carrier off, 0x0101 carrier on,
/// 0x0102 poll (reader → tag), 0x0103 listen (tag → reader); frameFlags 0x01 short frame,
/// 0x02 encrypted, 0x08 truncated, 0x10 parity error, 0x20 CRC error, 0x40 sync error.
public enum NFCLaboratory {
    static let technologies: [Int: Technology] = [0x0101: .iso14443a, 0x0102: .iso14443b, 0x0103: .felica, 0x0104: .iso15693]
    static let carrierOff = 0x0100, carrierOn = 0x0101, poll = 0x0102, listen = 0x0103
    public static let flagNames: [(Int, String)] = [(0x02, "encrypted"), (0x08, "truncated"), (0x10, "parity error"), (0x20, "CRC error"), (0x40, "sync error")]
    static let shortFrame = 0x01
    static let parityErrorFlag = 0x10
    /// How a frame's comment keeps the lab's flags (`nfc-laboratory: encrypted, CRC error`).
    public static let commentPrefix = "nfc-laboratory: "
    /// What the reader says of every export (metadata "source").
    static let source = "nfc-laboratory JSON export"
    /// One frame object is held at a time (the export is read object by object): this bounds it.
    public static let sizeLimit = 256 << 20

    /// A JSON object whose first member names the frame list, with a frame field close by.
    static func looksLikeExport(_ p: [UInt8]) -> Bool {
        guard let first = p.firstIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }), p[first] == 0x7B else { return false }
        let head = String(decoding: p.prefix(4096), as: UTF8.self)
        return head.contains("\"frames\"") && (head.contains("\"frameData\"") || head.contains("\"techType\""))
    }
}

/// Reads an nfc-laboratory export object by object from the input, so that memory holds one
/// frame object at a time (a whole export read first, then parsed, took 20 times the file's
/// size for one long frameData; issue 51) and a file cut short or damaged yields the frames
/// before the damage, then the damage with its offset and frame number.
final class NFCLaboratoryReader: FrameReader {
    let format = CaptureFormat.nfcLaboratory
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private var frameNumber = 0
    private var finished = false

    init(input: ByteInput) throws(CaptureError) {
        self.input = input
        metadata["source"] = NFCLaboratory.source
        metadata["timebase"] = TimeUnit.nanoseconds.rawValue
        // The frame list: after `"frames"`, its `[`.
        guard skip(past: Array("\"frames\"".utf8)), skip(past: [0x5B]) else {
            if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
            throw CaptureError.damaged(path: input.name, offset: 0, frame: 1, reason: "no \"frames\" array")
        }
    }

    /// Consumes the input up to and including the first `needle`; false when it ends first.
    private func skip(past needle: [UInt8]) -> Bool {
        while true {
            let window = input.peek(1 << 16)
            guard window.count >= needle.count else { return false }
            if let i = Proxmark3Listing.find(needle, in: window) {
                _ = input.read(i - window.startIndex + needle.count)
                return true
            }
            // Keep the last bytes: the needle may go on in the next window.
            _ = input.read(window.count - needle.count + 1)
        }
    }

    private func damage(_ reason: String, at offset: Int) -> CaptureError {
        finished = true
        return CaptureError.damaged(path: input.name, offset: offset, frame: frameNumber + 1, reason: reason)
    }

    /// The length of the object that starts the input (string-aware brace matching), nil when
    /// the input ends first. Scanned once, as the input is buffered further.
    private func objectLength() throws(CaptureError) -> Int? {
        var depth = 0, inString = false, escaped = false
        var scanned = 0
        var window = input.peek(1 << 16)
        while true {
            var i = window.startIndex + scanned
            while i < window.endIndex {
                let b = window[i]
                if inString {
                    if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
                } else if b == 0x22 {
                    inString = true
                } else if b == 0x7B {
                    depth += 1
                } else if b == 0x7D {
                    depth -= 1
                    if depth == 0 { return i - window.startIndex + 1 }
                }
                i += 1
            }
            scanned = window.count
            guard scanned <= NFCLaboratory.sizeLimit else {
                throw damage("a frame object longer than \(ByteInput.size(NFCLaboratory.sizeLimit))", at: input.offset)
            }
            // Half as much again each time: few refills, and a buffer at most 1.5 times the object.
            // The old window is let go first, or growing the buffer would copy it.
            window = []
            window = input.peek(scanned + max(1 << 16, scanned / 2))
            if window.count == scanned { return nil }
        }
    }

    func next() throws(CaptureError) -> Frame? {
        while !finished {
            // Between objects: commas and white space, then an object or the end of the list.
            while true {
                let window = input.peek(4096)
                let blank = window.prefix { [0x20, 0x0A, 0x0D, 0x09, 0x2C].contains($0) }.count
                if blank == 0 { break }
                _ = input.read(blank)
            }
            let start = input.offset
            guard let first = input.peek(1).first else {
                if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
                throw damage("the file ends inside the frame list", at: start)
            }
            if first == 0x5D {
                finished = true
                return nil
            }
            guard first == 0x7B else { throw damage("expected a frame object, found \(Hex.byte(first))", at: start) }
            guard let length = try objectLength() else {
                if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
                throw damage("the file ends inside a frame object", at: start)
            }
            let object: JSONValue
            do {
                object = try JSONValue.parse(input.peek(length))
            } catch {
                throw damage("frame object: \(error)", at: start + error.offset)
            }
            _ = input.read(length)
            if let frame = try frame(object, offset: start) { return frame }
        }
        return nil
    }

    private func frame(_ o: JSONValue, offset: Int) throws(CaptureError) -> Frame? {
        do {
            let frame = try NFCLaboratory.frame(o)
            if metadata["tech"] == nil { metadata["tech"] = frame.technology.rawValue }
            frameNumber += 1
            return frame
        } catch {
            throw damage(error.reason, at: offset)
        }
    }
}

extension NFCLaboratory {
    struct FrameError: Error { let reason: String }

    /// The frame one frame object holds: what the reader delivers, and what the writer reads its
    /// own objects back as to find what they lost.
    static func frame(_ o: JSONValue) throws(FrameError) -> Frame {
        guard let type = o["frameType"]?.integer, let tech = o["techType"]?.integer else {
            throw FrameError(reason: "a frame without frameType or techType (integers)")
        }
        guard let technology = technologies[tech] else {
            throw FrameError(reason: "techType \(tech) is none of NFC-A, -B, -F, -V (0x0101…0x0104)")
        }
        let seconds = o["timeStart"]?.number ?? 0
        guard seconds.isFinite, abs(seconds) < 9e9 else { throw FrameError(reason: "timeStart \(seconds) is no time in seconds") }
        let start = Timestamp(Int64((seconds * 1e9).rounded()), .nanoseconds)
        let end = o["timeEnd"]?.number.flatMap { $0.isFinite && abs($0) < 9e9 ? Timestamp(Int64(($0 * 1e9).rounded()), .nanoseconds) : nil }
        switch type {
        case carrierOn: return Frame(.fieldOn, technology: technology, start: start, end: end)
        case carrierOff: return Frame(.fieldOff, technology: technology, start: start, end: end)
        case poll, listen: break
        default: throw FrameError(reason: "frameType \(type) is none of carrier off/on, poll, listen (0x0100…0x0103)")
        }
        // A frame without bytes (a bare SOF) has "": it stays a frame of none, as in a text
        // trace (`empty`). Anything but a string is damage, not a frame of no bytes.
        guard let text = o["frameData"]?.string else {
            throw FrameError(reason: "frameData \(o["frameData"].map { "\(PrintableText.escaped(Array($0.text.utf8), limit: 40)) is no string of hex bytes" } ?? "is missing")")
        }
        // Hex.parse takes the `:` between bytes as it is.
        guard let data = Hex.parse(text) else {
            throw FrameError(reason: "frameData \"\(PrintableText.escaped(Array(text.utf8).prefix(40)))\" is no hex")
        }
        let flags = o["frameFlags"]?.integer ?? 0
        // A rate beyond 1 Tbit/s is no rate (the lab's are 106 000 … 848 000 bit/s), nor is 0.
        let rate = o["frameRate"]?.number.flatMap { abs($0) <= 1e12 && ($0 / 1000).rounded() != 0 ? JSONValue.integer(($0 / 1000).rounded()) : nil }
        let notes = flagNames.filter { flags & $0.0 != 0 }.map(\.1)
        let short = flags & shortFrame != 0 && data.count == 1
        return Frame(.data(type == poll ? .readerToTag : .tagToReader), technology: technology, bytes: data,
                     lastByteBits: short ? 7 : 8, start: start, end: end, bitRate: rate,
                     comment: notes.isEmpty ? nil : commentPrefix + notes.joined(separator: ", "))
    }
}

/// Writes an nfc-laboratory JSON export (`convert --to nfclab`) with every field the lab's own
/// reader asks for (TraceStorageTask's readFrameEntry refuses a frame without one): frameType,
/// techType, framePhase, frameFlags, frameRate in bit/s (0 where unknown), timeStart/timeEnd and
/// dateTime in seconds, sampleStart/sampleEnd/sampleRate (0: no samples), frameData as hex joined
/// by `:`. frameFlags holds the short-frame bit for a 7-bit single byte, parity error where the
/// frame has one, and the flags a frame read from such an export kept in its comment. The lab
/// has no iClass: such frames cannot be written; malformed records are dropped. What a frame
/// loses is found by reading each object back as the reader will.
public final class NFCLaboratoryWriter: FrameWriter {
    private let output: ByteOutput
    private var count = 0
    private var written = 0
    private var phase = NFCLaboratory.PhaseTracker()
    private var ledger = LossLedger(.nfcLaboratory)
    public var losses: [FrameLoss] { ledger.losses }

    public init(output: ByteOutput, metadata: TraceMetadata = TraceMetadata()) {
        self.output = output
        ledger.dropMetadata(metadata, readerSays: TraceMetadata([.init("source", NFCLaboratory.source)]))
    }

    public func writeComments(_ lines: [String]) {
        if !lines.isEmpty { ledger.record(.commentLines, frame: nil, count: lines.count) }
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        guard let tech = NFCLaboratory.technologies.first(where: { $0.value == frame.technology })?.key else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "nfc-laboratory has no \(frame.technology.displayName)")
        }
        let type: Int
        switch frame.event {
        case .data(.readerToTag): type = NFCLaboratory.poll
        case .data(.tagToReader): type = NFCLaboratory.listen
        case .fieldOn: type = NFCLaboratory.carrierOn
        case .fieldOff: type = NFCLaboratory.carrierOff
        case .malformed:
            ledger.record(.malformed, frame: count)
            return
        }
        var flags = frame.bytes.count == 1 && frame.lastByteBits == 7 ? NFCLaboratory.shortFrame : 0
        if let c = frame.comment, c.hasPrefix(NFCLaboratory.commentPrefix) {
            for (bit, name) in NFCLaboratory.flagNames where c.contains(name) { flags |= bit }
        }
        if let p = frame.parityErrors, !p.isEmpty { flags |= NFCLaboratory.parityErrorFlag }
        var rate = 0
        if let r = frame.bitRate {
            let (bits, overflow) = r.multipliedReportingOverflow(by: 1000)
            guard !overflow else { throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "a rate of \(r) kbit/s does not fit the export's bit/s") }
            rate = bits
        }
        let start = frame.start.map { Double($0.nanoseconds) / 1e9 } ?? 0
        let end = frame.end.map { Double($0.nanoseconds) / 1e9 } ?? start
        // One string, not one per byte (sixteen times the frame's size for a long frame).
        let data = Hex.string(frame.bytes, separator: ":")
        let object = "{\"frameType\":\(type),\"techType\":\(tech),\"framePhase\":\(phase.phase(of: frame)),\"frameFlags\":\(flags),\"frameRate\":\(rate),"
            + "\"timeStart\":\(start),\"timeEnd\":\(end),\"dateTime\":\(start),\"sampleStart\":0,\"sampleEnd\":0,\"sampleRate\":0,"
            + "\"frameData\":\"\(data)\"}"
        written += 1
        output.write(Array(((written == 1 ? "{\"frames\":[\n" : ",\n") + object).utf8))
        account(frame, object: object)
    }

    /// Reads the object back as the reader will and records what the frame lost.
    private func account(_ frame: Frame, object: String) {
        guard let parsed = try? JSONValue.parse(Array(object.utf8)), let back = try? NFCLaboratory.frame(parsed) else {
            ledger.record(.bytes, frame: count)   // cannot happen: the object is the writer's own
            return
        }
        ledger.compare(frame, back, number: count)
        ledger.compareTime(frame.start, back.start, precision: Self.precision(frame.start), kind: .startTimes, number: count)
        ledger.compareTime(frame.end, back.end, precision: Self.precision(frame.end), kind: .endTimes, number: count)
    }

    /// How far a time may move as seconds in a double (a few of its last bits), at least 1 ns.
    static func precision(_ t: Timestamp?) -> Int64 { max(1, Int64(clamping: (t?.nanoseconds.magnitude ?? 0) >> 51)) }

    public func finish() throws(CaptureError) {
        output.write(Array((written == 0 ? "{\"frames\":[\n]}\n" : "\n]}\n").utf8))
        try output.finish()
    }
}

extension NFCLaboratory {
    /// The lab's frame phases (RawFrame.h; the numbers its exports carry): the carrier, selection
    /// (activation) and application phases.
    static let carrierPhase = 0x0101, selectionPhase = 0x0102, applicationPhase = 0x0103

    /// Which phase a frame belongs to, as the lab's decoders mark it: field events the carrier's,
    /// the activation commands (REQA/WUPA, anticollision and SELECT, RATS; REQB/WUPB, ATTRIB;
    /// FeliCa POLLING; ISO 15693 INVENTORY) and their answers selection, the rest application.
    struct PhaseTracker {
        private var selecting = false

        mutating func phase(of frame: Frame) -> Int {
            switch frame.event {
            case .data(.readerToTag): selecting = Self.activates(frame)
            case .data(.tagToReader): break
            default: return NFCLaboratory.carrierPhase
            }
            return selecting ? NFCLaboratory.selectionPhase : NFCLaboratory.applicationPhase
        }

        static func activates(_ frame: Frame) -> Bool {
            let b = frame.bytes
            guard let first = b.first else { return false }
            switch frame.technology {
            case .iso14443a: return (b.count == 1 && frame.lastByteBits == 7) || [0x93, 0x95, 0x97, 0xE0].contains(first)
            case .iso14443b: return first == 0x05 || first == 0x1D
            case .felica: return b.count > 1 && b[1] == 0x00
            case .iso15693: return b.count > 1 && b[1] == 0x01
            case .iclass: return false
            }
        }
    }
}
