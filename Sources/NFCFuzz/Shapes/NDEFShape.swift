import NFCCore

/// NDEF messages: records decoded with `NDEFMessage.decode`, mutated as typed values (Text,
/// URI, Smart Poster, handover …) or as a record list, encoded with `NDEFMessage.encode`.
/// Breakage happens at two depths: inside a payload (the framing stays valid, so decoders of
/// the record type are reached) and in the wire framing (flags, lengths, chunks, cuts).
public struct NDEFShape: ShapeMutator {
    /// Nested messages (Smart Posters, handovers) are mutated down to this depth.
    static let maximumNesting = 3

    /// The NDEF message shape; it has no settings.
    public init() {}

    /// NDEF magic: record headers (MB/ME/SR/IL flag combinations), well-known types (`T`, `U`,
    /// `Sp`, `Hs`, `ac` …), URI prefixes and MIME types.
    public var dictionary: [[UInt8]] { Self.magic }

    static let magic: [[UInt8]] = [
        [0xD1, 0x01], [0x91, 0x01], [0x51, 0x01], [0x11, 0x01], [0xD0, 0x00, 0x00], [0xC1, 0x01, 0x00, 0x00],
        [0xD2], [0xD4], [0xD5, 0x00], [0xB1], [0x36, 0x00], [0x19, 0x01],
        [0x54], [0x55], [0x53, 0x70], [0x61, 0x63, 0x74], [0x48, 0x73], [0x48, 0x72], [0x48, 0x63], [0x61, 0x63],
        [0x44, 0x69], [0x53, 0x69, 0x67], [0x02, 0x65, 0x6E], [0x82, 0x65, 0x6E], [0x3F], [0x55, 0x04], [0x55, 0x23],
        [0x12], [0x13], [0x03], [0xFE],
        Array("android.com:pkg".utf8), Array("text/vcard".utf8), Array("application/vnd.wfa.wsc".utf8),
        Array("application/vnd.bluetooth.ep.oob".utf8), Array("https://".utf8), [0x10, 0x4A, 0x00, 0x01, 0x10], [0x10, 0x0E],
    ]

    /// Messages built with NFCCore's record builders: Text, URI, Smart Poster, vCard, Android
    /// application records and mixed messages.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x4E44_4546)
        var out: [[UInt8]] = []
        let fixed: [[NDEFRecord]] = [
            [(try? .text("Hello, world")) ?? .empty],
            [.uri("https://www.nfctrace.dev/")],
            [(try? .smartPoster(uri: "https://example.com", titles: [NDEFText("Example"), NDEFText("Beispiel", language: "de")],
                                action: .exec)) ?? .empty],
            [.uri("tel:+15551234"), (try? .text("call me", language: "en", encoding: .utf16)) ?? .empty, .androidApplication("com.example")],
            [.vCard("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nEND:VCARD\r\n")],
            [.empty],
            [.mime("text/plain", payload: [UInt8](repeating: 0x41, count: 300))],
        ]
        for records in fixed { if let b = try? NDEFMessage(records).encode() { out.append(b) } }
        if let chunked = try? NDEFMessage([(try? .text(String(repeating: "chunk ", count: 8))) ?? .empty]).encode(chunkSize: 10) {
            out.append(chunked)
        }
        for depth in [0, 2] { out.append(encode([NDEFRecordGenerator.handover(&r, depth: depth)]) ?? []) }
        out.append(encode([NDEFRecordGenerator.carrier(&r), NDEFRecordGenerator.deviceOrSignature(&r)]) ?? [])
        return out.filter { !$0.isEmpty }
    }

    /// A random well-formed message from the record generator, sometimes encoded in chunks.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        encode(NDEFRecordGenerator.message(&m.random), chunkSize: m.random.chance(10) ? 1 + m.random.below(40) : nil) ?? [0xD0, 0x00, 0x00]
    }

    /// Whether the strict decoder accepts the message and it has at least one record.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        let result = NDEFMessage.decode(input, mode: .strict)
        return result.isValid && !result.records.isEmpty
    }

    /// Records of an input whose framing decodes (lenient: payload issues allowed).
    static func decodedRecords(_ input: [UInt8]) -> [NDEFDecodedRecord]? {
        let result = NDEFMessage.decode(input, mode: .lenient)
        guard result.isValid, !result.records.isEmpty else { return nil }
        return result.records
    }

    func encode(_ records: [NDEFRecord], chunkSize: Int? = nil) -> [UInt8]? {
        try? NDEFMessage(records).encode(chunkSize: chunkSize)
    }

    /// Decodes the message and makes one change to its records (a typed payload field, a record
    /// added, removed or moved, TNF and TYPE, an ID, nesting in a Smart Poster or handover), then
    /// encodes it: the framing stays valid.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        mutateMessage(input, depth: 0, &m)
    }

    /// One structural change to the message in `input` (nested messages recurse with `depth`).
    func mutateMessage(_ input: [UInt8], depth: Int, _ m: inout MutationContext) -> [UInt8]? {
        guard let decoded = Self.decodedRecords(input) else { return nil }
        return mutate(records: decoded, depth: depth, &m)
    }

    /// One structural change to decoded records (nested ones come decoded in their container's
    /// context, so that `ac` in a handover is read as an Alternative Carrier, not an unknown type).
    func mutate(records decoded: [NDEFDecodedRecord], depth: Int, _ m: inout MutationContext) -> [UInt8]? {
        guard !decoded.isEmpty else { return nil }
        var records = decoded.map(\.record)
        var chunkSize: Int? = nil
        let i = m.random.below(records.count)
        switch m.random.weighted([30, 14, 7, 5, 5, 8, 6, 8, 4, 3]) {
        case 0: records[i] = mutatePayload(decoded[i], depth: depth, &m)
        case 1: records.insert(NDEFRecordGenerator.record(&m.random, depth: depth), at: m.random.below(records.count + 1))
        case 2: if records.count > 1 { records.remove(at: i) } else { records[i] = NDEFRecordGenerator.record(&m.random, depth: depth) }
        case 3: records.insert(records[i], at: m.random.below(records.count + 1))
        case 4: records.shuffle(using: &m.random)
        case 5: retype(&records[i], &m.random)
        case 6:
            // Records IDs are free-form; an Empty record must not have one (breakage does that).
            guard records[i].tnf != .empty else { records[i] = NDEFRecordGenerator.record(&m.random, depth: depth); break }
            records[i].id = m.random.chance(30) ? [] : m.mutatedField(records[i].id.isEmpty ? Array("id".utf8) : records[i].id, limit: 255)
        case 7: chunkSize = 1 + m.random.below(max(1, records[i].payload.count))   // chunk sequences
        case 8:
            // Wrap the message into a Smart Poster or a handover: readers must recurse.
            let nested = encode(records) ?? []
            let type = m.random.pick("Sp", "Hs", "Hm")
            records = [NDEFRecord(tnf: .wellKnown, type: Array(type.utf8), payload: type == "Sp" ? nested : [0x13] + nested)]
        default:
            records[i] = NDEFRecordGenerator.record(&m.random, depth: depth)
        }
        return encode(records, chunkSize: chunkSize)
    }

    /// A new payload for `decoded`, mutated through its typed value where nfctrace reads one.
    func mutatePayload(_ decoded: NDEFDecodedRecord, depth: Int, _ m: inout MutationContext) -> NDEFRecord {
        var record = decoded.record
        let limit = max(16, min(1024, m.maxSize / 2))
        switch decoded.payload {
        case .text(var text):
            switch m.random.below(4) {
            case 0: text.text = FuzzValues.text(&m.random)
            case 1: text.language = FuzzValues.language(&m.random)
            case 2: text.encoding = text.encoding == .utf8 ? .utf16 : .utf8
            default: text.text = String(decoding: m.mutatedField(Array(text.text.utf8), limit: limit), as: UTF8.self)
            }
            if let payload = try? text.encode() { record.payload = payload }
        case .uri(var uri):
            if m.random.bool() { uri.code = m.random.chance(85) ? UInt8(m.random.below(NDEFURI.prefixes.count)) : m.random.byte() }
            else { uri.rest = m.random.chance(50) ? FuzzValues.uri(&m.random) : String(decoding: m.mutatedField(Array(uri.rest.utf8), limit: limit), as: UTF8.self) }
            record.payload = uri.encode()
        case .smartPoster(let poster) where depth < Self.maximumNesting && poster.message.isValid:
            record.payload = mutate(records: poster.records, depth: depth + 1, &m) ?? record.payload
        case .handover(let handover) where depth < Self.maximumNesting && handover.message.isValid:
            let version = m.random.chance(20) ? m.random.pick(0x10, 0x12, 0x13, 0x14) : handover.version
            let nested = mutate(records: handover.message.records, depth: depth + 1, &m) ?? Array(record.payload.dropFirst())
            record.payload = [version] + nested
        default:
            // Payloads with rules of their own (handover carriers, signatures, Wi-Fi …) are
            // replaced by a fresh record; free-form ones (media, external, unknown) get bytes.
            if decoded.kind?.hasPayloadRules == true || decoded.kind == .empty { return NDEFRecordGenerator.record(&m.random, depth: depth) }
            record.payload = m.mutatedField(record.payload, limit: limit)
        }
        return record
    }

    /// A different TNF and TYPE whose payload has no rules of its own, so the record stays valid
    /// (TYPE names that promise a payload layout are the breakage path's business).
    func retype(_ record: inout NDEFRecord, _ r: inout FuzzRandom) {
        switch r.below(4) {
        case 0: record.tnf = .media; record.type = Array(r.pick("text/plain", "image/png", "application/octet-stream", "TEXT/Plain").utf8)
        case 1: record.tnf = .external; record.type = Array(r.pick("example.com:t", "nfctrace.dev:fuzz", "a:b").utf8)
        case 2: record.tnf = .absoluteURI; record.type = Array(r.pick("https://example.com/t", "urn:x:y").utf8)
        default: record.tnf = .unknown; record.type = []
        }
    }

    /// Breaks the message on purpose: inside a payload (the framing stays valid) or in the framing
    /// itself (MB/ME/CF/SR/IL flags, lengths, chunks, a cut).
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let decoded = Self.decodedRecords(input) else { return nil }
        if m.random.bool() {
            // Payload-level: valid framing around a malformed payload.
            var records = decoded.map(\.record)
            let i = m.random.below(records.count)
            records[i] = NDEFBreakage.breakPayload(decoded[i], shape: self, &m)
            return encode(records)
        }
        return NDEFBreakage.breakFraming(input, &m)
    }

    /// Records of an input whose framing decodes, payloads unread: a crossover moves whole
    /// records, so reading every payload of both parents (most of what `decode` costs) would be
    /// wasted, on half of libFuzzer's mutations (it alternates the custom mutator and crossover).
    static func framedRecords(_ input: [UInt8]) -> [NDEFRecord]? {
        let result = NDEFMessage.decodeFraming(input, mode: .lenient)
        guard result.isValid, !result.records.isEmpty else { return nil }
        return result.records.map(\.record)
    }

    /// Records from the front of one message and the back of the other, at most 8, framed again;
    /// nil when either framing does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let ra = Self.framedRecords(a), let rb = Self.framedRecords(b) else { return nil }
        let records = Array(ra.prefix(1 + m.random.below(ra.count))) + Array(rb.suffix(1 + m.random.below(rb.count)))
        return encode(Array(records.prefix(8)))
    }
}
