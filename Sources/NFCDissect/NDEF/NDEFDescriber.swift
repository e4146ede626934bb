import NFCCore

/// Turns a decoded NDEF message into fields (`ndef.message`, `ndef.record`, `ndef.record.tnf`,
/// `ndef.text.language`, `ndef.uri` …) with byte ranges, and its issues into diagnostics.
public enum NDEFDescriber {
    /// Fields with ranges in the message's own bytes.
    public static func describe(_ result: NDEFDecodeResult) -> FieldTree {
        describe(result, placing: { $0 })
    }

    /// Fields with message ranges passed through `place` (e.g. into a tag's memory image);
    /// `place` returns nil for ranges it cannot place.
    public static func describe(_ result: NDEFDecodeResult,
                                placing place: @escaping (Range<Int>) -> Range<Int>?) -> FieldTree {
        let builder = NDEFFieldBuilder(place: place)
        let diagnostics = result.issues.map { Diagnostic($0, range: place($0.offset..<($0.offset + 1))) }
        return FieldTree(fields: [builder.message(result)], diagnostics: diagnostics)
    }

    /// One line per record: `URI https://example.com`, `Text (en) "Hello"` …
    public static func summaries(_ result: NDEFDecodeResult) -> [String] {
        result.records.map(NDEFSummary.line)
    }
}

/// Builds the fields of one message; `place` maps message ranges to output ranges.
struct NDEFFieldBuilder {
    let place: (Range<Int>) -> Range<Int>?

    func message(_ result: NDEFDecodeResult) -> Field {
        var children = result.records.enumerated().map { record($0.element, index: $0.offset + 1) }
        if let unparsed = result.unparsedRange {
            children.append(Field(.ndef.unparsed, plural(unparsed.count, "byte"), range: place(unparsed)))
        }
        let whole = 0..<result.byteCount
        let lower = result.records.first?.record.range?.lowerBound ?? result.unparsedRange?.lowerBound ?? 0
        let upper = result.unparsedRange?.upperBound ?? result.records.last?.record.range?.upperBound ?? lower
        let span = result.byteCount == 0 || result.records.isEmpty && result.unparsedRange == nil ? whole : lower..<upper
        return Field(.ndef.message, plural(result.records.count, "record"), range: place(span), children: children)
    }

    /// Payload range (in payload bytes) of `r` placed in the output.
    func at(_ r: NDEFRecord, _ payloadRange: Range<Int>) -> Range<Int>? {
        r.messageRange(ofPayloadRange: payloadRange).flatMap(place)
    }

    /// Chunks of a record listed field by field before the rest are summed up in one.
    static let chunksShownInFull = 16

    func record(_ decoded: NDEFDecodedRecord, index: Int) -> Field {
        let r = decoded.record
        var children: [Field] = []
        if let first = r.chunks.first {
            children += layout(first, record: r, isFirstChunk: true)
        }
        let payloadRange = r.messageRange(ofPayloadRange: 0..<r.payload.count).flatMap(place)
        let payloadValue = r.chunks.count > 1
            ? "\(plural(r.payload.count, "byte")) in \(r.chunks.count) chunks"
            : plural(r.payload.count, "byte")
        var payloadChildren = NDEFPayloadFields(builder: self).fields(decoded)
        if payloadChildren.isEmpty && !r.payload.isEmpty {
            payloadChildren = [Field(.ndef.payloadBytes, hexValue(r.payload), range: payloadRange)]
        }
        children.append(Field(.ndef.recordPayload, payloadValue, range: payloadRange, children: payloadChildren))
        if r.chunks.count > 1 {
            func chunk(_ k: Int) -> Field {
                let c = r.chunks[k]
                return Field(.ndef.recordChunk, label: "Chunk \(k + 1)", "\(plural(c.payloadRange.count, "byte")), CF \(c.header.cf ? 1 : 0)",
                             range: place(c.range), children: layout(c, record: r, isFirstChunk: k == 0)
                               + [Field(.ndef.recordChunkPayload, plural(c.payloadRange.count, "byte"), range: place(c.payloadRange))])
            }
            // A field tree of a dozen fields a chunk: 262,000 one-byte chunks in a 1 MiB message
            // made 1 GB of fields and 160 MB of text (issue 51). The first chunks and the last
            // are shown in full, the ones between as one field.
            let shown = Self.chunksShownInFull
            var chunks: [Field]
            if r.chunks.count <= shown + 1 {
                chunks = r.chunks.indices.map(chunk)
            } else {
                chunks = (0..<shown).map(chunk)
                let between = r.chunks[shown..<(r.chunks.count - 1)]
                let bytes = between.reduce(0) { $0 + $1.payloadRange.count }
                let range = between.first.flatMap { a in between.last.map { b in a.range.lowerBound..<b.range.upperBound } }
                chunks.append(Field(.ndef.recordChunksMore, label: "Chunks \(shown + 1)–\(r.chunks.count - 1)",
                                    "\(between.count) chunks, \(plural(bytes, "byte")) of payload (not listed one by one)",
                                    range: range.flatMap(place)))
                chunks.append(chunk(r.chunks.count - 1))
            }
            children.append(Field(.ndef.recordChunks, "\(r.chunks.count)", range: r.range.flatMap(place), children: chunks))
        }
        return Field(.ndef.record, label: "Record \(index)", NDEFSummary.line(decoded), range: r.range.flatMap(place), children: children)
    }

    /// `1 (NFC Forum well-known type)`.
    func tnfText(_ tnf: NDEFTypeNameFormat) -> String {
        var w = TextWriter(capacity: 48)
        w.decimal(Int(tnf.rawValue))
        w.write(" (")
        w.write(tnf.name)
        w.write(")")
        return w.string
    }

    /// Header, lengths, TYPE and ID of one wire record.
    func layout(_ c: NDEFChunk, record r: NDEFRecord, isFirstChunk: Bool) -> [Field] {
        let h = c.header
        let headerRange = place(c.range.lowerBound..<(c.range.lowerBound + 1))
        var out = [
            Field(.ndef.recordHeader, .byte(h.byte, suffix: ": " + h.flagNames), range: headerRange, children: [
                Field(.ndef.recordMb, h.mb ? "1" : "0", range: headerRange),
                Field(.ndef.recordMe, h.me ? "1" : "0", range: headerRange),
                Field(.ndef.recordCf, h.cf ? "1" : "0", range: headerRange),
                Field(.ndef.recordSr, h.sr ? "1" : "0", range: headerRange),
                Field(.ndef.recordIl, h.il ? "1" : "0", range: headerRange),
            ]),
            Field(.ndef.recordTnf, tnfText(h.tnf), range: headerRange),
            Field(.ndef.recordTypeLength, String(c.typeRange.count),
                  range: place(c.typeLengthOffset..<(c.typeLengthOffset + 1))),
            Field(.ndef.recordPayloadLength, String(c.payloadRange.count), range: place(c.payloadLengthRange)),
        ]
        if let idLength = c.idLengthOffset {
            out.append(Field(.ndef.recordIdLength, "\(c.idRange.count)", range: place(idLength..<(idLength + 1))))
        }
        if !c.typeRange.isEmpty {
            out.append(Field(.ndef.recordType, isFirstChunk ? r.typeName : "(on a later chunk)", range: place(c.typeRange)))
        }
        if !c.idRange.isEmpty {
            out.append(Field(.ndef.recordId, isFirstChunk ? quoted(r.idText) : "(on a later chunk)", range: place(c.idRange)))
        }
        return out
    }
}
