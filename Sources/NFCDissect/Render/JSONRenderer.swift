import NFCCore

/// One JSON object per line: `{"type":"frame",…}` for each frame and `{"type":"session",…}`
/// for each tag session. The schema is documented in docs/json-output.md; keys never depend
/// on content (unlike tshark's label-derived keys).
public final class JSONRenderer {
    public static let schemaVersion = 1
    private var clock = RelativeClock()

    public init() {}

    public func render(_ event: DissectionEvent, into out: inout [UInt8]) {
        switch event {
        case .frame(let d): renderFrame(d, into: &out)
        case .session(let s): renderSession(s, into: &out)
        }
        out.append(0x0A)
    }

    private func renderFrame(_ d: FrameDissection, into out: inout [UInt8]) {
        let f = d.frame
        var w = JSONObjectWriter(capacity: 512)
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
            if let (whole, tenth) = clock.microseconds(t) { w.raw("time_us", "\(whole).\(tenth)") }
        }
        if let t = f.end { w.int("end", Int(t.value)) }
        w.string("bytes", Hex.string(f.bytes, separator: ""))
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
            w.string("crc_expected", Hex.string(e, separator: "")); w.string("crc_found", Hex.string(found, separator: ""))
        case .stripped: w.string("crc", "stripped")
        case .unknown: w.string("crc", "unknown")
        }
        if let r = d.responseTo { w.int("response_to", r) }
        if let r = d.responseIn { w.int("response_in", r) }
        w.fields("fields", d.fields)
        w.diagnostics(d.diagnostics)
        out.append(contentsOf: w.close())
    }

    private func renderSession(_ s: SessionSummary, into out: inout [UInt8]) {
        var w = JSONObjectWriter(capacity: 1024)
        w.string("type", "session")
        w.int("number", s.number)
        w.string("technology", s.technology.rawValue)
        w.int("first_frame", s.firstFrame)
        w.int("last_frame", s.lastFrame)
        w.string("headline", s.headline)
        w.fields("tag", s.tag)
        w.fields("memory", s.memory)
        w.diagnostics(s.diagnostics)
        out.append(contentsOf: w.close())
    }
}

/// Builds one JSON object into a byte buffer (no intermediate dictionaries).
struct JSONObjectWriter {
    private var first = true
    private(set) var out: [UInt8]

    init(capacity: Int = 256) {
        out = []
        out.reserveCapacity(capacity)
        out.append(0x7B)
    }

    private mutating func key(_ k: String) {
        if !first { out.append(0x2C) }
        first = false
        JSONText.appendString(k, to: &out)
        out.append(0x3A)
    }

    mutating func string(_ k: String, _ v: String) { key(k); JSONText.appendString(v, to: &out) }
    mutating func int(_ k: String, _ v: Int) { key(k); out.append(contentsOf: String(v).utf8) }
    mutating func raw(_ k: String, _ v: String) { key(k); out.append(contentsOf: v.utf8) }
    mutating func bool(_ k: String, _ v: Bool) { key(k); out.append(contentsOf: (v ? "true" : "false").utf8) }
    mutating func intArray(_ k: String, _ v: [Int]) {
        key(k)
        out.append(0x5B)
        for (i, x) in v.enumerated() {
            if i > 0 { out.append(0x2C) }
            out.append(contentsOf: String(x).utf8)
        }
        out.append(0x5D)
    }

    mutating func fields(_ k: String, _ fields: [Field]) {
        key(k)
        JSONText.appendFields(fields, to: &out)
    }

    mutating func diagnostics(_ diags: [Diagnostic]) {
        key("diagnostics")
        out.append(0x5B)
        for (i, d) in diags.enumerated() {
            if i > 0 { out.append(0x2C) }
            var o = JSONObjectWriter(capacity: 64)
            o.string("severity", d.severity.rawValue)
            o.string("message", d.message)
            if let r = d.range { o.intArray("range", [r.lowerBound, r.upperBound]) }
            out.append(contentsOf: o.close())
        }
        out.append(0x5D)
    }

    mutating func close() -> [UInt8] {
        out.append(0x7D)
        return out
    }
}

enum JSONText {
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30])
                Hex.appendByte(b, to: &out)
            default: out.append(b)
            }
        }
        out.append(0x22)
    }

    static func appendFields(_ fields: [Field], to out: inout [UInt8]) {
        out.append(0x5B)
        for (i, f) in fields.enumerated() {
            if i > 0 { out.append(0x2C) }
            var o = JSONObjectWriter(capacity: 96)
            o.string("key", f.key)
            o.string("label", f.label)
            o.string("value", f.value)
            if let r = f.range { o.intArray("range", [r.lowerBound, r.upperBound]) }
            if !f.children.isEmpty { o.fields("children", f.children) }
            out.append(contentsOf: o.close())
        }
        out.append(0x5D)
    }
}
