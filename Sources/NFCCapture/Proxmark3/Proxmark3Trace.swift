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

    init(input: ByteInput, technology: Technology) {
        self.input = input
        self.technology = technology
        metadata["tech"] = technology.rawValue
        metadata["timebase"] = TimeUnit.carrierCycles.rawValue
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
        let data = Array(record[8..<8 + length])
        let parityBytes = Array(record[(8 + length)...])
        var frame = Frame(.data(fromTag ? .tagToReader : .readerToTag), technology: technology, bytes: data)
        // ISO 15693 durations are stored divided by 32 (LogTrace_ISO15693).
        let realDuration = Int64(duration) * (technology == .iso15693 ? 32 : 1)
        frame.start = Timestamp(Int64(timestamp), .carrierCycles)
        frame.end = Timestamp(Int64(timestamp) + realDuration, .carrierCycles)
        if technology == .iso14443a {
            frame.lastByteBits = Proxmark3Trace.estimatedBits(dataLength: length, duration: Int(duration))
            var errors: [Int] = []
            for (j, b) in data.enumerated() where j / 8 < parityBytes.count {
                let received = (parityBytes[j / 8] >> (7 - UInt8(j % 8))) & 1
                // short frames carry no parity bit
                if frame.lastByteBits == 8, received != Parity.odd(b) { errors.append(j) }
            }
            frame.parityErrors = errors
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

/// Writes a Proxmark3 `.trace` (carrier-period times; parity computed when not known).
public final class Proxmark3TraceWriter: FrameWriter {
    private let output: ByteOutput
    private let times: Proxmark3Times
    private var count = 0
    private var lastTicks: Int64 = 0
    private var origin: Int64?

    public init(output: ByteOutput, times: Proxmark3Times = .absolute) {
        self.output = output
        self.times = times
    }

    /// The counter value of `t`, or why it has none.
    private func ticks(_ t: Timestamp) throws(CaptureError) -> Int64 {
        guard let carrier = t.converted(to: .carrierCycles)?.value else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "its time \(t.value) \(t.unit.rawValue) is beyond the 64-bit nanosecond range")
        }
        var v = carrier
        switch times {
        case .absolute: break
        case .first:
            if origin == nil { origin = carrier }
            let (d, o) = carrier.subtractingReportingOverflow(origin ?? carrier)
            v = o ? -1 : d
        case .wrap: return carrier & 0xFFFF_FFFF
        }
        guard (0...0xFFFF_FFFF).contains(v) else {
            let seconds = Double(v) / 13_560_000
            let what = times == .first ? "\(Int(seconds.rounded())) s after the first frame" : "\(Int(seconds.rounded())) s"
            throw CaptureError.unrepresentable(path: output.name, frame: count,
                reason: "its time (\(what)) is outside the Proxmark3 trace's 32-bit carrier counter (0 to 316.7 s); "
                    + (times == .first ? "give --pm3-times wrap to let the counter wrap as the device's does"
                                       : "give --pm3-times first (count from the first frame) or wrap (modulo 2^32, as the device's counter)"))
        }
        return v
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        guard case .data(let direction) = frame.event else { return }   // the format has no field events
        var data = frame.bytes
        if frame.technology == .felica { data = [0xB2, 0x4D] + data }
        guard data.count <= 0x7FFF else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "\(data.count) bytes exceed the 32767-byte record limit")
        }
        let start = try frame.start.map { t throws(CaptureError) in try ticks(t) } ?? lastTicks
        lastTicks = start
        var duration: Int64
        if let end = frame.end, let s = frame.start, let e = end.converted(to: .carrierCycles), let b = s.converted(to: .carrierCycles) {
            let (d, o) = e.value.subtractingReportingOverflow(b.value)
            duration = o ? 0 : max(0, d)   // the record's 16-bit field clamps it anyway
        } else {
            duration = Int64(max(1, frame.bitCount + 1) * 128)
        }
        if frame.technology == .iso15693 { duration /= 32 }
        var record: [UInt8] = []
        let ts = UInt32(truncatingIfNeeded: start)
        let du = UInt16(clamping: duration)
        let len = UInt16(data.count) | (direction == .tagToReader ? 0x8000 : 0)
        record += [UInt8(ts & 0xFF), UInt8((ts >> 8) & 0xFF), UInt8((ts >> 16) & 0xFF), UInt8(ts >> 24)]
        record += [UInt8(du & 0xFF), UInt8(du >> 8), UInt8(len & 0xFF), UInt8(len >> 8)]
        record += data
        var parity = [UInt8](repeating: 0, count: Proxmark3Trace.parityLength(data.count))
        let errors = Set(frame.parityErrors ?? [])
        if frame.technology == .iso14443a {
            for (j, b) in data.enumerated() {
                let bit = Parity.odd(b) ^ (errors.contains(j) ? 1 : 0)
                parity[j / 8] |= bit << (7 - UInt8(j % 8))
            }
        }
        record += parity
        output.write(record)
    }

    public func finish() throws(CaptureError) { try output.finish() }
}
