import NFCCore

/// One JSON object per line: `{"type":"frame",…}` for each frame and `{"type":"session",…}`
/// for each tag session. The schema is documented in docs/json-output.md; keys never depend
/// on content (unlike tshark's label-derived keys).
public final class JSONRenderer {
    public static let schemaVersion = 1
    private var clock = RelativeClock()
    private var w = JSONWriter()

    public init() {}

    public func render(_ event: DissectionEvent, into out: inout [UInt8]) {
        w.reset()
        switch event {
        case .frame(let d): renderFrame(d)
        case .session(let s): renderSession(s)
        }
        out.append(contentsOf: w.out)
        out.append(0x0A)
    }

    private func renderFrame(_ d: FrameDissection) {
        let f = d.frame
        w.beginObject()
        w.string("type", "frame")
        w.int("number", d.number)
        if let s = d.session { w.int("session", s) }
        switch f.event {
        case .data(.readerToTag): w.string("event", "data"); w.string("direction", "reader")
        case .data(.tagToReader): w.string("event", "data"); w.string("direction", "tag")
        case .fieldOn: w.string("event", "field-on")
        case .fieldOff: w.string("event", "field-off")
        case .malformed(let reason): w.string("event", "malformed"); w.string("reason", reason)
        }
        w.string("technology", f.technology.rawValue)
        if let t = f.start {
            w.int("start", Int(t.value))
            w.string("time_unit", t.unit.rawValue)
            if let (whole, tenth) = clock.microseconds(t) { w.decimal("time_us", whole, tenth) }
        }
        if let t = f.end { w.int("end", Int(t.value)) }
        w.hex("bytes", f.bytes)
        if f.lastByteBits != 8 { w.int("last_byte_bits", Int(f.lastByteBits)) }
        if f.crcStripped { w.bool("crc_stripped", true) }
        if let p = f.parityErrors, !p.isEmpty { w.intArray("parity_errors", p) }
        if let r = f.bitRate { w.int("bit_rate", r) }
        if let c = f.comment { w.string("comment", c) }
        w.string("layer", d.layer)
        w.string("summary", d.summary)
        switch d.crc {
        case .notExpected: break
        case .ok(let k): w.string("crc", "ok"); w.string("crc_kind", k.rawValue)
        case .mismatch(let k, let e, let found):
            w.string("crc", "bad"); w.string("crc_kind", k.rawValue)
            w.hex("crc_expected", e); w.hex("crc_found", found)
        case .stripped: w.string("crc", "stripped")
        case .unknown: w.string("crc", "unknown")
        }
        if let r = d.responseTo { w.int("response_to", r) }
        if let r = d.responseIn { w.int("response_in", r) }
        w.fields("fields", d.fields)
        w.diagnostics(d.diagnostics)
        w.endObject()
    }

    private func renderSession(_ s: SessionSummary) {
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

/// Writes JSON straight into one reusable byte buffer (no dictionaries, no per-object arrays).
struct JSONWriter {
    private(set) var out: [UInt8] = []
    private var needsComma = false

    init() { out.reserveCapacity(4096) }

    mutating func reset() {
        out.removeAll(keepingCapacity: true)
        needsComma = false
    }

    private mutating func key(_ k: StaticString) {
        // Keys are literals of this file: plain ASCII, copied without escaping.
        if needsComma { out.append(0x2C) }
        out.append(0x22)
        k.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(0x22)
        out.append(0x3A)
        needsComma = true
    }

    mutating func beginObject() {
        if needsComma { out.append(0x2C) }
        out.append(0x7B)
        needsComma = false
    }

    mutating func endObject() {
        out.append(0x7D)
        needsComma = true
    }

    mutating func string(_ k: StaticString, _ v: String) { key(k); JSONText.appendString(v, to: &out) }
    mutating func int(_ k: StaticString, _ v: Int) { key(k); Decimal.append(Int64(v), width: 0, into: &out) }
    mutating func bool(_ k: StaticString, _ v: Bool) { key(k); out.append(contentsOf: (v ? "true" : "false").utf8) }
    mutating func decimal(_ k: StaticString, _ whole: Int64, _ tenth: Int64) {
        key(k)
        Decimal.append(whole, width: 0, into: &out)
        out.append(0x2E)
        out.append(0x30 + UInt8(tenth))
    }
    mutating func hex(_ k: StaticString, _ bytes: [UInt8]) {
        key(k)
        out.append(0x22)
        Hex.append(bytes, separator: [], to: &out)
        out.append(0x22)
    }
    mutating func stringArray(_ k: StaticString, _ v: [String]) {
        key(k)
        out.append(0x5B)
        for (i, x) in v.enumerated() {
            if i > 0 { out.append(0x2C) }
            JSONText.appendString(x, to: &out)
        }
        out.append(0x5D)
    }

    mutating func intArray(_ k: StaticString, _ v: [Int]) {
        key(k)
        appendInts(v)
    }

    private mutating func appendInts(_ v: [Int]) {
        out.append(0x5B)
        for (i, x) in v.enumerated() {
            if i > 0 { out.append(0x2C) }
            Decimal.append(Int64(x), width: 0, into: &out)
        }
        out.append(0x5D)
    }

    mutating func fields(_ k: StaticString, _ fields: [Field]) {
        key(k)
        appendFields(fields)
    }

    private mutating func appendFields(_ fields: [Field]) {
        out.append(0x5B)
        needsComma = false
        for f in fields {
            beginObject()
            string("key", f.key)
            string("label", f.label)
            string("value", f.value)
            if let r = f.range {
                key("range")
                out.append(0x5B)
                Decimal.append(Int64(r.lowerBound), width: 0, into: &out)
                out.append(0x2C)
                Decimal.append(Int64(r.upperBound), width: 0, into: &out)
                out.append(0x5D)
            }
            if !f.children.isEmpty {
                key("children")
                appendFields(f.children)
            }
            endObject()
        }
        out.append(0x5D)
        needsComma = true
    }

    mutating func diagnostics(_ diags: [Diagnostic]) {
        key("diagnostics")
        out.append(0x5B)
        needsComma = false
        for d in diags {
            beginObject()
            string("severity", d.severity.rawValue)
            string("message", d.message)
            if let r = d.range { intArray("range", [r.lowerBound, r.upperBound]) }
            endObject()
        }
        out.append(0x5D)
        needsComma = true
    }
}
