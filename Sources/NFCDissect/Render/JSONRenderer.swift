import NFCCore

/// One JSON object per line: `{"type":"frame",…}` for each frame and `{"type":"session",…}`
/// for each tag session. The schema is documented in docs/json-output.md; keys never depend
/// on content (unlike tshark's label-derived keys).
public final class JSONRenderer {
    public static let schemaVersion = 1
    // Touched by one render call at a time (a renderer belongs to one thread): no dynamic
    // exclusivity check per frame.
    @exclusivity(unchecked) private var clock = RelativeClock()
    /// Reused across events; moved into a local while one is written.
    private var writer: JSONWriter? = JSONWriter(capacity: 16384)

    public init() {}

    public func render(_ event: DissectionEvent, into out: inout [UInt8]) {
        switch event {
        case .frame(let d): line(into: &out) { renderFrame(d, &$0) }
        case .session(let s): line(into: &out) { renderSession(s, &$0) }
        }
    }

    /// An event as the pipeline hands it over (`PipelinedDissection.drain` moves it out of its
    /// batch); a session's summary is built now unless it already was.
    public func render(pending event: consuming PendingEvent, into out: inout [UInt8]) {
        switch consume event {
        case .frame(let d): line(into: &out) { renderFrame(d, &$0) }
        case .session(let s): line(into: &out) { renderSession(s.summary(), &$0) }
        }
    }

    /// One line: what `body` writes, then a newline.
    @inline(__always)
    private func line(into out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        // The writer is moved into a local for the event (see JSONWriter).
        // take() and consume: moved out and back, not copied (retained) and released.
        var w = writer.take() ?? JSONWriter(capacity: 16384)
        w.reset()
        body(&w)
        out.append(contentsOf: w.bytes)
        out.append(0x0A)
        writer = consume w
    }

    private func renderFrame(_ d: FrameDissection, _ w: inout JSONWriter) {
        let f = d.frame
        // Enum names as fixed text: `rawValue` would be a string to check for escapes per frame.
        // The members every frame has are fixed text between values (no per-member calls).
        w.json("{\"type\":\"frame\",\"number\":")
        w.number(d.number)
        if let s = d.session {
            w.json(",\"session\":")
            w.number(s)
        }
        switch f.event {
        case .data(.readerToTag): w.json(",\"event\":\"data\",\"direction\":\"reader\"")
        case .data(.tagToReader): w.json(",\"event\":\"data\",\"direction\":\"tag\"")
        case .fieldOn: w.json(",\"event\":\"field-on\"")
        case .fieldOff: w.json(",\"event\":\"field-off\"")
        case .malformed(let reason): w.json(",\"event\":\"malformed\""); w.string("reason", reason)
        }
        switch f.technology {
        case .iso14443a: w.json(",\"technology\":\"14443a\"")
        case .iso14443b: w.json(",\"technology\":\"14443b\"")
        case .felica: w.json(",\"technology\":\"felica\"")
        case .iso15693: w.json(",\"technology\":\"15693\"")
        case .iclass: w.json(",\"technology\":\"iclass\"")
        }
        if let t = f.start {
            w.json(",\"start\":")
            w.number(Int(t.value))
            switch t.unit {
            case .nanoseconds: w.json(",\"time_unit\":\"ns\"")
            case .microseconds: w.json(",\"time_unit\":\"us\"")
            case .carrierCycles: w.json(",\"time_unit\":\"carrier\"")
            }
            if let (whole, tenth) = clock.microseconds(t) { w.decimal("time_us", whole, tenth) }
        }
        if let t = f.end { w.int("end", Int(t.value)) }
        if d.masked.isEmpty {
            w.hex("bytes", f.bytes)
        } else {
            // Card data: `**` for each masked byte, and where they are: start, end pairs.
            w.string("bytes", Hex.string(f.bytes[...], hiding: d.masked, separator: "", mask: "**"))
            w.intArray("masked", d.masked.flatMap { [$0.lowerBound, $0.upperBound] })
        }
        if let clear = d.decrypted { w.hex("decrypted", clear) }
        if f.lastByteBits != 8 { w.int("last_byte_bits", Int(f.lastByteBits)) }
        if f.crcStripped { w.bool("crc_stripped", true) }
        if let p = f.parityErrors, !p.isEmpty { w.intArray("parity_errors", p) }
        if let r = f.bitRate { w.int("bit_rate", r) }
        if let c = f.comment { w.string("comment", c) }
        w.string("layer", d.layer)
        w.string("summary", d.summary)
        switch d.crc {
        case .notExpected: break
        case .ok(.a): w.json(",\"crc\":\"ok\",\"crc_kind\":\"CRC_A\"")
        case .ok(.b): w.json(",\"crc\":\"ok\",\"crc_kind\":\"CRC_B\"")
        case .ok(.felica): w.json(",\"crc\":\"ok\",\"crc_kind\":\"CRC_F\"")
        case .ok(.iclass): w.json(",\"crc\":\"ok\",\"crc_kind\":\"CRC_iClass\"")
        case .mismatch(let k, let e, let found):
            w.string("crc", "bad"); w.string("crc_kind", k.rawValue)
            w.hex("crc_expected", e); w.hex("crc_found", found)
        case .stripped: w.string("crc", "stripped")
        case .unknown: w.string("crc", "unknown")
        }
        if let m = d.memory {
            w.json(",\"memory\":")
            memoryAccess(m, &w)
        }
        if let more = d.moreMemory {
            w.json(",\"more_memory\":[")
            for (i, m) in more.enumerated() {
                if i > 0 { w.json(",") }
                memoryAccess(m, &w)
            }
            w.json("]")
        }
        if let r = d.responseTo { w.int("response_to", r) }
        if let r = d.responseIn { w.int("response_in", r) }
        w.fields("fields", d.fields)
        w.diagnostics(d.diagnostics)
        w.endObject()
    }

    /// One run of tag memory a frame touched (docs/json-output.md).
    private func memoryAccess(_ m: MemoryAccess, _ w: inout JSONWriter) {
        w.json("{\"offset\":")
        w.number(Int(m.offset))
        w.json(",\"count\":")
        w.number(Int(m.count))
        if m.wrap > 0 {
            w.json(",\"wrap\":")
            w.number(Int(m.wrap))
        }
        if let service = m.service { w.string("service", Hex.value(service, digits: 4)) }
        w.json(m.write ? ",\"access\":\"write\"}" : ",\"access\":\"read\"}")
    }

    private func renderSession(_ s: SessionSummary, _ w: inout JSONWriter) {
        w.beginObject()
        w.string("type", "session")
        w.int("number", s.number)
        w.string("technology", s.technology.rawValue)
        w.int("first_frame", s.firstFrame)
        w.int("last_frame", s.lastFrame)
        w.string("headline", s.headline)
        w.fields("tag", s.tag)
        w.fields("memory", s.memory)
        w.diagnostics(s.diagnostics)
        w.endObject()
    }
}
