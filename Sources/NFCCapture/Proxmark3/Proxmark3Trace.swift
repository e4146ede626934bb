import NFCCore

/// The Proxmark3 tracelog (`trace save`): records of `u32 timestamp | u16 duration |
/// u16 length (bit 15 = from tag) | data | ceil(length/8) parity bytes`, little-endian, no file
/// header (notes/proxmark3-interop.md §1.2). Times are carrier periods (1/13.56 MHz).
public enum Proxmark3Trace {
    static let headerLength = 8

    static func parityLength(_ dataLength: Int) -> Int { (dataLength - 1) / 8 + 1 }   // C integer division, 1 for 0

    /// A reader gives up after this many records without data in a row: real traces have a few
    /// (bare SOFs in iClass sniffs), a run of zeros is no trace.
    public static let emptyRecordLimit = 256

    /// Structural detection: the bytes must split into plausible records, at least one of them
    /// with data (zeros split into empty records forever), that end exactly at the end of the
    /// file, run past the end of a long prefix, or, after two whole records, stop in the middle
    /// of one: a trace cut short is a damaged trace, reported as such by the reader.
    static func looksLikeTrace(_ p: [UInt8], complete: Bool) -> Bool {
        var i = 0
        var records = 0
        var withData = 0
        while i < p.count {
            guard p.count - i >= headerLength else { return records >= 2 && withData >= 1 }
            let raw = Int(p[i + 6]) | Int(p[i + 7]) << 8
            let length = raw & 0x7FFF
            guard length <= 4096 else { return false }
            let size = headerLength + length + parityLength(length)
            if i + size > p.count { return records >= 2 && withData >= 1 }
            // Parity bytes only use bits for the data bytes present.
            let used = length % 8
            if length > 0, used != 0, p[i + size - 1] & UInt8(0xFF >> used) != 0 { return false }
            i += size
            records += 1
            if length > 0 { withData += 1 }
        }
        return records >= 1 && withData >= 1
    }

    /// Proxmark3 logs 7-bit and 4-bit frames as one byte; the duration tells how many bits went
    /// over the air. 106 kbit/s: 128 carrier periods per bit, start and end bits included.
    static func estimatedBits(dataLength: Int, duration: Int) -> UInt8 {
        guard dataLength == 1, duration > 0, duration < 1088 else { return 8 }
        let bits = (duration + 64) / 128 - 1
        return UInt8(max(1, min(8, bits)))
    }
}

/// Reads a Proxmark3 `.trace`, streaming record by record.
final class Proxmark3TraceReader: FrameReader {
    let format = CaptureFormat.proxmark3
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private let technology: Technology
    private var frameNumber = 0
    private var failed = false
    private var emptyRun = 0
    /// The start of the record before, in carrier periods since the first counter value, and
    /// how often the 32-bit counter wrapped so far.
    private var lastTicks: Int64?
    private var wraps: Int64 = 0

    /// The comment of the first frame after a wrap.
    static let wrapNote = "the Proxmark3's 32-bit carrier counter wrapped before this frame (it does every 316.7 s): times from here on are counted on past 2^32 periods"

    init(input: ByteInput, technology: Technology) {
        self.input = input
        self.technology = technology
        metadata["tech"] = technology.rawValue
        metadata["timebase"] = TimeUnit.carrierCycles.rawValue
        // Every 14443-A record holds its parity bits (`@parity known` in a text trace).
        if technology == .iso14443a { metadata["parity"] = "known" }
    }

    func next() throws(CaptureError) -> Frame? {
        if failed { return nil }
        if input.isAtEnd {
            if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
            return nil
        }
        let recordStart = input.offset
        let header = Array(input.peek(Proxmark3Trace.headerLength))
        guard header.count == Proxmark3Trace.headerLength else {
            failed = true
            throw CaptureError.damaged(path: input.name, offset: recordStart, frame: frameNumber + 1,
                                       reason: "truncated record header: \(header.count) of 8 bytes")
        }
        var c = ByteCursor(header)
        // The cursor cannot fail here: the header has 8 bytes.
        let timestamp = (try? c.readUInt32LE("timestamp")) ?? 0
        let duration = (try? c.readUInt16LE("duration")) ?? 0
        let lengthField = (try? c.readUInt16LE("length")) ?? 0
        let length = Int(lengthField & 0x7FFF)
        let fromTag = lengthField & 0x8000 != 0
        let parityLength = Proxmark3Trace.parityLength(length)
        let size = Proxmark3Trace.headerLength + length + parityLength
        let record = Array(input.peek(size))
        guard record.count == size else {
            failed = true
            throw CaptureError.damaged(path: input.name, offset: recordStart, frame: frameNumber + 1,
                                       reason: "truncated record: header announces \(length) data and \(parityLength) parity bytes, only \(record.count - 8) follow")
        }
        if length == 0 {
            emptyRun += 1
            guard emptyRun <= Proxmark3Trace.emptyRecordLimit else {
                failed = true
                throw CaptureError.damaged(path: input.name, offset: recordStart, frame: frameNumber + 1,
                                           reason: "\(emptyRun) records without data in a row: no Proxmark3 trace goes on like this (zeros?)")
            }
        } else {
            emptyRun = 0
        }
        _ = input.read(size)
        frameNumber += 1
        var frame = Proxmark3Trace.frame(timestamp: timestamp, duration: duration, fromTag: fromTag,
                                         data: Array(record[8..<8 + length]), parity: record[(8 + length)...], technology: technology)
        // The device's counter wraps (as `convert --pm3-times wrap` writes it): a step back of
        // more than half its range is a wrap, not a frame 316.7 s before the one it follows.
        // Smaller steps back stay as they are.
        var ticks = Int64(timestamp) + wraps << 32
        if let last = lastTicks, ticks < last - (1 << 31) {
            wraps += 1
            ticks += 1 << 32
            frame.comment = Self.wrapNote
        }
        if wraps > 0 {
            frame.start = Timestamp(ticks, .carrierCycles)
            frame.end = frame.end.map { Timestamp($0.value + wraps << 32, .carrierCycles) }
        }
        lastTicks = ticks
        return frame
    }
}

extension Proxmark3Trace {
    /// ISO 15693 and iClass durations are stored divided by 32 (the firmware's LogTrace_ISO15693),
    /// and the client multiplies them again.
    static func durationScale(_ technology: Technology) -> Int64 {
        technology == .iso15693 || technology == .iclass ? 32 : 1
    }

    /// The stored duration of a record without data: the client lists an iClass one of 2048
    /// carrier periods as `<SOF>` and an ISO 15693 reader one of 512 as `<EOF>`
    /// (cmdtrace.c); nil for other technologies.
    static func bareDuration(_ technology: Technology, fromTag: Bool) -> UInt16? {
        switch technology {
        case .iclass: return 64
        case .iso15693 where !fromTag: return 16
        default: return nil
        }
    }

    /// The frame a record holds: what the reader delivers, and what the writer reads its own
    /// records back as to find what they lost.
    static func frame(timestamp: UInt32, duration: UInt16, fromTag: Bool, data: [UInt8], parity: ArraySlice<UInt8>,
                      technology: Technology) -> Frame {
        var frame = Frame(.data(fromTag ? .tagToReader : .readerToTag), technology: technology, bytes: data)
        frame.start = Timestamp(Int64(timestamp), .carrierCycles)
        frame.end = Timestamp(Int64(timestamp) + Int64(duration) * durationScale(technology), .carrierCycles)
        if technology == .iso14443a {
            frame.lastByteBits = estimatedBits(dataLength: data.count, duration: Int(duration))
            var errors: [Int] = []
            // Short frames carry no parity bit.
            if frame.lastByteBits == 8 {
                for (j, b) in data.enumerated() where j / 8 < parity.count {
                    let received = (parity[parity.startIndex + j / 8] >> (7 - UInt8(j % 8))) & 1
                    if received != Parity.odd(b) { errors.append(j) }
                }
            }
            // The firmware logs zero bits when it has no parity, and nfctrace writes them for
            // parity it does not know: zero bits that would be errors mean "unknown".
            frame.parityErrors = !errors.isEmpty && parity.allSatisfy({ $0 == 0 }) ? nil : errors
        }
        if technology == .felica, frame.bytes.starts(with: [0xB2, 0x4D]) {
            frame.bytes.removeFirst(2)   // sync code; frames start at LEN
        }
        return frame
    }
}

/// How times go into a Proxmark3 trace, whose records count carrier periods in 32 bits
/// (2^32 periods of 1/13.56 MHz ≈ 316.7 s).
public enum Proxmark3Times: String, Sendable, CaseIterable {
    /// As they are; a time outside the counter's range cannot be written (the writer fails).
    case absolute
    /// Counted from the first frame's time; a trace longer than the counter's range fails.
    case first
    /// Modulo 2^32, as the device's own counter wraps.
    case wrap
}

/// Writes a Proxmark3 `.trace`: carrier-period times, 14443-A parity as recorded (zero bits where
/// it is unknown, as the firmware logs no parity), zero-length records for bare SOFs. What a
/// frame loses is found by reading each record back as `Proxmark3TraceReader` will.
public final class Proxmark3TraceWriter: FrameWriter {
    private let output: ByteOutput
    private let times: Proxmark3Times
    private var count = 0
    private var lastTicks: Int64 = 0
    private var origin: Int64?
    private var emptyRun = 0
    private var ledger = LossLedger(.proxmark3)
    public var losses: [FrameLoss] { ledger.losses }

    /// `origin` is the time `.first` counts from (the trace's start); without it, the first
    /// frame's. `metadata` is what the trace says of itself, which a .trace has no place for.
    public init(output: ByteOutput, times: Proxmark3Times = .absolute, origin: Timestamp? = nil, metadata: TraceMetadata = TraceMetadata()) {
        self.output = output
        self.times = times
        self.origin = origin?.converted(to: .carrierCycles)?.value
        ledger.dropMetadata(metadata)
    }

    /// The counter value of `t`, or why it has none.
    private func ticks(_ t: Timestamp) throws(CaptureError) -> Int64 {
        guard let carrier = t.converted(to: .carrierCycles)?.value else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "its time \(t.value) \(t.unit.rawValue) is beyond the 64-bit nanosecond range")
        }
        switch times {
        case .wrap:
            return carrier & 0xFFFF_FFFF
        case .absolute:
            guard (0...0xFFFF_FFFF).contains(carrier) else {
                throw CaptureError.unrepresentable(path: output.name, frame: count,
                    reason: "its time (\(Proxmark3Trace.span(carrier))) is outside the Proxmark3 trace's 32-bit carrier counter (0 to 316.7 s); "
                        + "give --pm3-times first (count from the trace's start) or wrap (modulo 2^32, as the device's counter)")
            }
            return carrier
        case .first:
            if origin == nil { origin = carrier }
            let (v, overflow) = carrier.subtractingReportingOverflow(origin ?? carrier)
            if !overflow, (0...0xFFFF_FFFF).contains(v) { return v }
            let what = !overflow && v < 0
                ? "it starts \(Proxmark3Trace.span(-v)) before the time --pm3-times first counts from (the earliest of the first frames), and the counter does not go below 0"
                : "it starts \(overflow ? "more than 292 years" : Proxmark3Trace.span(v)) after the trace's start, more than the 32-bit carrier counter holds (316.7 s)"
            throw CaptureError.unrepresentable(path: output.name, frame: count,
                reason: what + "; give --pm3-times wrap to let the counter wrap as the device's does")
        }
    }

    public func writeComments(_ lines: [String]) {
        if !lines.isEmpty { ledger.record(.commentLines, frame: nil, count: lines.count) }
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        let direction: Direction
        switch frame.event {
        case .data(let d): direction = d
        case .fieldOn, .fieldOff:
            ledger.record(.fieldEvents, frame: count)
            return
        case .malformed:
            ledger.record(.malformed, frame: count)
            return
        }
        var data = frame.bytes
        if frame.technology == .felica { data = [0xB2, 0x4D] + data }
        guard data.count <= 0x7FFF else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "\(data.count) bytes exceed the 32767-byte record limit")
        }
        emptyRun = data.isEmpty ? emptyRun + 1 : 0
        guard emptyRun <= Proxmark3Trace.emptyRecordLimit else {
            throw CaptureError.unrepresentable(path: output.name, frame: count,
                reason: "more than \(Proxmark3Trace.emptyRecordLimit) frames without bytes in a row: a .trace reader takes such a run for zeros, not a trace")
        }
        let start = try frame.start.map { t throws(CaptureError) in try ticks(t) } ?? lastTicks
        lastTicks = start
        let fromTag = direction == .tagToReader
        let scale = Proxmark3Trace.durationScale(frame.technology)
        var duration: Int64
        if data.isEmpty, let bare = Proxmark3Trace.bareDuration(frame.technology, fromTag: fromTag) {
            duration = Int64(bare)
        } else if let s = frame.start?.converted(to: .carrierCycles), let e = frame.end?.converted(to: .carrierCycles) {
            let (d, o) = e.value.subtractingReportingOverflow(s.value)
            duration = o ? 0 : max(0, d) / scale   // the record's 16-bit field clamps it below
        } else {
            // 106 kbit/s: 128 carrier periods a bit, the start bit included.
            duration = Int64(max(1, frame.bitCount + 1) * 128) / scale
        }
        let ts = UInt32(truncatingIfNeeded: start)
        let du = UInt16(clamping: duration)
        let len = UInt16(data.count) | (fromTag ? 0x8000 : 0)
        var record: [UInt8] = [UInt8(ts & 0xFF), UInt8((ts >> 8) & 0xFF), UInt8((ts >> 16) & 0xFF), UInt8(ts >> 24),
                               UInt8(du & 0xFF), UInt8(du >> 8), UInt8(len & 0xFF), UInt8(len >> 8)]
        record += data
        // Zero bits where parity is unknown (the firmware's own "none") and for other technologies;
        // a short last byte has no parity bit.
        var parity = [UInt8](repeating: 0, count: Proxmark3Trace.parityLength(data.count))
        if frame.technology == .iso14443a, let errors = frame.parityErrors {
            let wrong = Parity.errorFlags(errors, count: data.count)
            for (j, b) in data.enumerated() where j < data.count - 1 || frame.lastByteBits == 8 {
                parity[j / 8] |= (Parity.odd(b) ^ (wrong[j] ? 1 : 0)) << (7 - UInt8(j % 8))
            }
        }
        record += parity
        output.write(record)
        let back = Proxmark3Trace.frame(timestamp: ts, duration: du, fromTag: fromTag, data: data, parity: parity[...], technology: frame.technology)
        account(frame, back: back, start: start)
    }

    /// Records what `frame` lost in the record read back as `back` (read as the frame's own
    /// technology: without --tech a reader takes it for 14443-A, which is the technology loss).
    private func account(_ frame: Frame, back: Frame, start ticks: Int64) {
        ledger.compare(frame, back, number: count)
        if frame.technology != .iso14443a { ledger.record(.technology, frame: count) }
        guard let start = frame.start, let carrier = start.converted(to: .carrierCycles)?.value else {
            // The previous frame's start, and an end from the bit count.
            ledger.record(.startTimes, frame: count)
            ledger.record(.endTimes, frame: count)
            return
        }
        if !start.survives(.carrierCycles) || frame.end.map({ !$0.survives(.carrierCycles) }) == true {
            ledger.record(.timePrecision, frame: count)
        }
        let shift = times == .first ? origin ?? 0 : 0
        if shift != 0 { ledger.record(.timeOrigin, frame: count) }
        // A start that does not come back (wrapped) is a changed time; an end is compared as
        // the duration it gives, so that a wrap counts once.
        if carrier &- shift != ticks { ledger.record(.startTimes, frame: count) }
        let scale = Proxmark3Trace.durationScale(frame.technology)
        let expectedEnd = frame.end?.converted(to: .carrierCycles).map { Timestamp($0.value &- carrier &+ ticks, .carrierCycles) }
        ledger.compareTime(expectedEnd, back.end, precision: scale * 74, kind: .endTimes, number: count)
    }

    public func finish() throws(CaptureError) { try output.finish() }
}

extension Proxmark3Trace {
    /// A count of carrier periods said in µs, ms or s.
    static func span(_ carrier: Int64) -> String {
        let seconds = Double(carrier) / 13_560_000
        switch seconds.magnitude {
        case ..<0.001: return "\((seconds * 1e6 * 10).rounded() / 10) µs"
        case ..<1: return "\((seconds * 1e3 * 100).rounded() / 100) ms"
        default: return "\((seconds * 10).rounded() / 10) s"
        }
    }
}
