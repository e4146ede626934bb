import NFCCapture
import NFCCore
import NFCFuzz

/// Targets for the capture format readers, fed from memory.
enum CaptureTargets {
    /// Every frame a reader delivers before the end or the first damage.
    static func frames(_ input: [UInt8], options: CaptureReadOptions = CaptureReadOptions()) -> (frames: [Frame], metadata: TraceMetadata?) {
        guard let reader = try? Capture.open(ByteInput.memory(input), options: options) else { return ([], nil) }
        var frames: [Frame] = []
        // Bounded: a hostile file must not keep the target busy forever.
        while frames.count < 100_000, let f = try? reader.next() { frames.append(f) }
        return (frames, reader.metadata)
    }

    /// What a text trace can carry of a frame, times compared in nanoseconds.
    struct Carried: Equatable {
        var event: Frame.Event
        var technology: Technology
        var bytes: [UInt8]
        var lastByteBits: UInt8
        var crcStripped: Bool
        var parityErrors: [Int]?
        var start: Int64?
        var end: Int64?
        var bitRate: Int?
        var comment: String?

        init(_ f: Frame) {
            event = f.event
            technology = f.technology
            bytes = f.bytes
            lastByteBits = f.lastByteBits
            crcStripped = f.crcStripped
            parityErrors = f.parityErrors
            start = f.start?.nanoseconds
            end = f.end?.nanoseconds
            bitRate = f.bitRate
            comment = f.comment
        }
    }

    /// Reads the trace (detected and forced), writes the frames back as text and reads them again.
    static func textTrace(_ input: [UInt8]) -> FuzzCheck {
        _ = frames(input)
        let (read, metadata) = frames(input, options: CaptureReadOptions(format: .nfctrace))
        guard let metadata, !read.isEmpty else { return .ok }
        let out = ByteOutput.inMemory()
        let writer = TextTraceWriter(output: out, metadata: metadata)
        do {
            for f in read { try writer.write(f) }
            try writer.finish()
        } catch {
            return .ok   // a frame the format cannot write is reported, not lost silently
        }
        let again = frames(out.memory ?? [], options: CaptureReadOptions(format: .nfctrace)).frames
        guard again.count == read.count else { return .mismatch("frames lost after write → read — \(read.count) written, \(again.count) read back") }
        for (i, (a, b)) in zip(read, again).enumerated() where Carried(a) != Carried(b) {
            return .mismatch("a frame differs after write → read — frame \(i + 1): \(Carried(a)) vs \(Carried(b))")
        }
        return .ok
    }

    /// The tracelog as each technology (the file does not say which), and detection.
    static func proxmark3(_ input: [UInt8]) -> FuzzCheck {
        _ = frames(input)
        var check = FuzzCheck.ok
        for technology in [Technology.iso14443a, .felica, .iso15693] {
            let read = frames(input, options: CaptureReadOptions(format: .proxmark3, technology: technology)).frames
            guard !read.isEmpty else { continue }
            let out = ByteOutput.inMemory()
            let writer = Proxmark3TraceWriter(output: out)
            do {
                for f in read { try writer.write(f) }
                try writer.finish()
            } catch { continue }
            let again = frames(out.memory ?? [], options: CaptureReadOptions(format: .proxmark3, technology: technology)).frames
            let same = again.count == read.count && zip(read, again).allSatisfy { $0.event == $1.event && $0.bytes == $1.bytes && $0.start == $1.start }
            check = .all(check, .expect(same, "frames differ after write → read — \(technology.rawValue), \(read.count) vs \(again.count) frames"))
        }
        return check
    }

    /// A listing (detected and forced) listed again in today's layout reads back to the same
    /// frames: bytes, bits, parity errors, times, technology.
    static func proxmark3Listing(_ input: [UInt8]) -> FuzzCheck {
        _ = frames(input)
        let read = frames(input, options: CaptureReadOptions(format: .proxmark3Listing)).frames
        func inCarrierPeriods(_ t: Timestamp?) -> Bool { t.map { $0.unit == .carrierCycles && $0.value >= 0 } ?? false }
        // µs listings and several tables in one file are read, not listed again.
        guard let first = read.first, read.allSatisfy({ $0.technology == first.technology && inCarrierPeriods($0.start) && inCarrierPeriods($0.end) }) else { return .ok }
        let model: [ForeignFrame] = read.map { f in
            let sync: [UInt8] = f.technology == .felica ? [0xB2, 0x4D] : []
            return ForeignFrame(kind: f.isTagFrame ? .tag : .reader, technology: f.technology, bytes: sync + f.bytes, lastByteBits: f.lastByteBits,
                                parityErrors: f.parityErrors ?? [], start: f.start?.value ?? 0, end: f.end?.value ?? 0)
        }
        let again = frames(ForeignCaptureShape.listing(model), options: CaptureReadOptions(format: .proxmark3Listing)).frames
        guard again.count == read.count else { return .mismatch("frames lost after listing → read — \(read.count) listed, \(again.count) read back") }
        for (i, (a, b)) in zip(read, again).enumerated() {
            let sameFrame = a.event == b.event && a.technology == b.technology && a.bytes == b.bytes && a.lastByteBits == b.lastByteBits
            let sameMarks = (a.parityErrors ?? []) == (b.parityErrors ?? [])
            let sameTimes = a.start == b.start && a.end == b.end
            if !(sameFrame && sameMarks && sameTimes) { return .mismatch("a frame differs after listing → read — frame \(i + 1): \(Carried(a)) vs \(Carried(b))") }
        }
        return .ok
    }

    /// An export (detected and forced) written again by nfctrace's writer reads back to the same
    /// frames; times in seconds as doubles keep nanoseconds up to their rounding.
    static func nfcLaboratory(_ input: [UInt8]) -> FuzzCheck {
        _ = frames(input)
        let read = frames(input, options: CaptureReadOptions(format: .nfcLaboratory)).frames
        guard !read.isEmpty else { return .ok }
        let out = ByteOutput.inMemory()
        let writer = NFCLaboratoryWriter(output: out)
        do {
            for f in read { try writer.write(f) }
            try writer.finish()
        } catch {
            return .mismatch("a frame the reader gave cannot be written back — \(error)")
        }
        let again = frames(out.memory ?? [], options: CaptureReadOptions(format: .nfcLaboratory)).frames
        guard again.count == read.count else { return .mismatch("frames lost after write → read — \(read.count) written, \(again.count) read back") }
        for (i, (a, b)) in zip(read, again).enumerated() {
            let (x, y) = (a.start?.nanoseconds ?? 0, b.start?.nanoseconds ?? 0)
            let close = abs(x - y) <= max(1, abs(x) >> 40)
            let sameFrame = a.event == b.event && a.technology == b.technology && a.bytes == b.bytes && a.lastByteBits == b.lastByteBits
            let sameNotes = a.comment == b.comment && (a.bitRate ?? 0) == (b.bitRate ?? 0)
            if !(sameFrame && sameNotes && close) { return .mismatch("a frame differs after write → read — frame \(i + 1): \(Carried(a)) vs \(Carried(b))") }
        }
        return .ok
    }

    static func pcap(_ input: [UInt8]) -> FuzzCheck {
        _ = frames(input)
        _ = frames(input, options: CaptureReadOptions(format: .pcapng, technology: .felica))
        return .ok
    }

    /// Both pseudo-header decoders; a record that decodes to a frame encodes to a record that
    /// decodes to the same frame.
    static func pcapRecord(_ input: [UInt8]) -> FuzzCheck {
        input.withUnsafeBytes { raw -> FuzzCheck in
            var check = FuzzCheck.ok
            let a = ISO14443PseudoHeader.decode(raw, wireLength: input.count + (input.first ?? 0 == 0 ? 0 : 2), technology: .iso14443a)
            if case .malformed = a.event {} else if let encoded = ISO14443PseudoHeader.encode(a) {
                let again = encoded.withUnsafeBytes { ISO14443PseudoHeader.decode($0, wireLength: encoded.count, technology: .iso14443a) }
                check = .all(check, .expect(again == a, "ISO 14443 pseudo-header: frame differs after encode → decode"))
            }
            let b = NFCTracePseudoHeader.decode(raw, fallback: .iso15693)
            if case .malformed = b.event {} else if let encoded = NFCTracePseudoHeader.encode(b) {
                let again = encoded.withUnsafeBytes { NFCTracePseudoHeader.decode($0, fallback: .iso15693) }
                check = .all(check, .expect(again == b, "nfctrace pseudo-header: frame differs after encode → decode"))
            }
            return check
        }
    }
}
