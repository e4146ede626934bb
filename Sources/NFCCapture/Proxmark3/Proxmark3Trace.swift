import NFCCore

/// The Proxmark3 tracelog (`trace save`): records of `u32 timestamp | u16 duration |
/// u16 length (bit 15 = from tag) | data | ceil(length/8) parity bytes`, little-endian, no file
/// header (notes/proxmark3-interop.md §1.2). Times are carrier periods (1/13.56 MHz).
public enum Proxmark3Trace {
    static let headerLength = 8

    static func parityLength(_ dataLength: Int) -> Int { (dataLength - 1) / 8 + 1 }   // C integer division, 1 for 0

    /// Structural detection: the bytes must split into plausible records that end exactly at
    /// the end of the file (or run past the end of a long prefix).
    static func looksLikeTrace(_ p: [UInt8], complete: Bool) -> Bool {
        var i = 0
        var records = 0
        while i < p.count {
            guard p.count - i >= headerLength else { return !complete && records >= 2 }
            let raw = Int(p[i + 6]) | Int(p[i + 7]) << 8
            let length = raw & 0x7FFF
            guard length <= 4096 else { return false }
            let size = headerLength + length + parityLength(length)
            if i + size > p.count { return !complete && records >= 2 }
            // Parity bytes only use bits for the data bytes present.
            let used = length % 8
            if length > 0, used != 0, p[i + size - 1] & UInt8(0xFF >> used) != 0 { return false }
            i += size
            records += 1
        }
        return records >= 1
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

/// Writes a Proxmark3 `.trace` (carrier-period times; parity computed when not known).
public final class Proxmark3TraceWriter: FrameWriter {
    private let output: ByteOutput
    private var count = 0
    private var lastTicks: Int64 = 0

    public init(output: ByteOutput) { self.output = output }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        guard case .data(let direction) = frame.event else { return }   // the format has no field events
        var data = frame.bytes
        if frame.technology == .felica { data = [0xB2, 0x4D] + data }
        guard data.count <= 0x7FFF else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: "\(data.count) bytes exceed the 32767-byte record limit")
        }
        let start = frame.start.map { $0.converted(to: .carrierCycles).value } ?? lastTicks
        lastTicks = start
        let end = frame.end.map { $0.converted(to: .carrierCycles).value } ?? start + Int64(max(1, frame.bitCount + 1) * 128)
        var duration = max(0, end - start)
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
