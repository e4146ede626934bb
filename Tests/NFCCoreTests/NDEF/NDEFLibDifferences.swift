@testable import NFCCore

/// The documented differences between nfctrace and ndeflib (docs/ndef.md, "Differences from
/// ndeflib"), as rules over a message: each says when a comparison does not apply, never which
/// message.
enum Differences {
    /// nfctrace rules ndeflib does not have by design; their breaches do not count in the verdict.
    /// D1 `message.empty`: ndeflib takes zero bytes as a message of no records.
    /// D2 `message.bytes-after-me`: ndeflib ignores what follows the ME record.
    /// D3 the chunk rules: ndeflib only checks that the last record has no CF.
    static let discountedRules: Set<NDEFRule> = [.messageEmpty, .bytesAfterME, .chunkTNFNotUnchanged,
                                                  .chunkIDOnLaterChunk, .unchangedOutsideChunk]

    /// The difference that makes the strict verdicts incomparable for this message, if any.
    static func excludingVerdict(_ result: NDEFDecodeResult, bytes: [UInt8], line: Oracle.Line) -> String? {
        // D3: nfctrace reassembles chunks; ndeflib returns each chunk as a record and checks the
        // payload of a chunk whose type it knows as if it were whole. Chunked records of types
        // neither side reads are compared.
        if chunkedTypedRecord(result.records, bytes: bytes) { return "D3 chunked typed record" }
        // D4: ndeflib reads every record after the first in the first record's context.
        if contextDiffers(result.records) { return "D4 record context" }
        // D5: UTF-16 text without a BOM: nfctrace reads big-endian, ndeflib little-endian.
        if utf16WithoutBOM(result.records) != nil { return "D5 UTF-16 without BOM" }
        // D6: a 6-byte Signature payload is complete for nfctrace; ndeflib wants 7 bytes.
        if anyRecord(result.records, { $0.kind == .signature && $0.record.payload.count == 6 }) {
            return "D6 6-byte Signature"
        }
        // D7: P2P attribute lengths: nfctrace little-endian (Wi-Fi P2P), ndeflib big-endian.
        if anyRecord(result.records, { NDEFRecordKind.asciiLowercased($0.record.type) == Array("application/vnd.wfa.p2p".utf8) }) {
            return "D7 Wi-Fi P2P"
        }
        // D8: media-type and absolute-URI TYPEs: ndeflib classifies by pattern, nfctrace checks
        // RFC 2046 / RFC 3986 syntax; excluded where the two judge a TYPE differently.
        if typeSyntaxDiffers(result.records, judged: line.types) { return "D8 TYPE syntax" }
        return nil
    }

    // MARK: D3

    static func hasChunks(_ result: NDEFDecodeResult) -> Bool {
        anyRecord(result.records) { r in r.record.chunks.contains { $0.header.cf || $0.header.tnf == .unchanged } }
    }

    /// A record sent in chunks whose type either side reads with payload rules (any chunk's
    /// type, in any context ndeflib could give it).
    static func chunkedTypedRecord(_ records: [NDEFDecodedRecord], bytes: [UInt8]) -> Bool {
        let anyContext = ndeflibContexts.values.reduce(ndeflibGlobal) { $0.union($1) }
        return anyRecord(records) { r in
            guard r.record.isChunked || r.record.chunks.count > 1 else { return false }
            if r.kind?.hasPayloadRules ?? false { return true }
            return r.record.chunks.contains { c in
                let type = c.typeRange.upperBound <= bytes.count ? Array(bytes[c.typeRange]) : []
                return anyContext.contains(NDEFRecord(tnf: c.header.tnf, type: type).typeName)
            }
        }
    }

    // MARK: D4

    /// ndeflib's record classes by context (its `_known_types` registrations, ndeflib 0.3.3).
    static let ndeflibGlobal: Set<String> = [
        "urn:nfc:wkt:T", "urn:nfc:wkt:U", "urn:nfc:wkt:Sp", "urn:nfc:wkt:Hr", "urn:nfc:wkt:Hs", "urn:nfc:wkt:Hm",
        "urn:nfc:wkt:Hi", "urn:nfc:wkt:Di", "urn:nfc:wkt:Sig", "application/vnd.bluetooth.ep.oob",
        "application/vnd.bluetooth.le.oob", "application/vnd.wfa.wsc", "application/vnd.wfa.p2p",
    ]
    static let carriers: Set<String> = [
        "application/vnd.bluetooth.ep.oob", "application/vnd.bluetooth.le.oob", "application/vnd.wfa.wsc",
        "application/vnd.wfa.p2p", "urn:nfc:wkt:Di",
    ]
    static let ndeflibContexts: [String: Set<String>] = [
        "urn:nfc:wkt:Sp": ["urn:nfc:wkt:T", "urn:nfc:wkt:U", "urn:nfc:wkt:act", "urn:nfc:wkt:s", "urn:nfc:wkt:t"],
        "urn:nfc:wkt:Hr": carriers.union(["urn:nfc:wkt:ac", "urn:nfc:wkt:cr", "urn:nfc:wkt:Hc"]),
        "urn:nfc:wkt:Hs": carriers.union(["urn:nfc:wkt:ac", "urn:nfc:wkt:err"]),
        "urn:nfc:wkt:Hm": ["urn:nfc:wkt:ac"],
        "urn:nfc:wkt:Hi": ["urn:nfc:wkt:ac"],
    ]

    static func contextDiffers(_ records: [NDEFDecodedRecord]) -> Bool {
        let later = records.first.flatMap { ndeflibContexts[$0.record.typeName] } ?? ndeflibGlobal
        for (index, r) in records.enumerated() {
            if differs(r, ndeflibKnows: index == 0 ? ndeflibGlobal : later) { return true }
            if nestedDiffers(r) { return true }
        }
        return false
    }

    private static func nestedDiffers(_ r: NDEFDecodedRecord) -> Bool {
        let nested: [NDEFDecodedRecord]
        switch r.payload {
        case .smartPoster(let sp): nested = sp.records
        case .handover(let h): nested = h.message.records
        default: return false
        }
        let context = ndeflibContexts[r.record.typeName] ?? []
        return nested.contains { differs($0, ndeflibKnows: context) || nestedDiffers($0) }
    }

    private static func differs(_ r: NDEFDecodedRecord, ndeflibKnows: Set<String>) -> Bool {
        (r.kind?.hasPayloadRules ?? false) != ndeflibKnows.contains(r.record.typeName)
    }

    // MARK: D5

    static func utf16WithoutBOM(_ records: [NDEFDecodedRecord]) -> NDEFDecodedRecord? {
        var found: NDEFDecodedRecord?
        _ = anyRecord(records) { r in
            guard r.kind == .text, let status = r.record.payload.first, status & 0x80 != 0 else { return false }
            let text = r.record.payload.dropFirst(1 + Int(status & 0x3F))
            let bom = text.starts(with: [0xFE, 0xFF]) || text.starts(with: [0xFF, 0xFE])
            if text.count >= 2 && !bom { found = r; return true }
            return false
        }
        return found
    }

    // MARK: D8

    static func typeSyntaxDiffers(_ records: [NDEFDecodedRecord], judged: [String: Bool]) -> Bool {
        anyRecord(records) { r in
            var types: [(NDEFTypeNameFormat, [UInt8])] = [(r.record.tnf, r.record.type)]
            if case .handoverCarrier(let hc) = r.payload { types.append((hc.format, hc.carrierType)) }
            return types.contains { tnf, type in
                guard tnf == .media || tnf == .absoluteURI,
                      let theirs = judged[String(decoding: type, as: UTF8.self)] else { return false }
                return theirs != (NDEFTypeSyntax.breach(tnf: tnf, type: type) == nil)
            }
        }
    }

    // MARK: helpers

    /// Whether `predicate` holds for a record at any depth.
    static func anyRecord(_ records: [NDEFDecodedRecord], _ predicate: (NDEFDecodedRecord) -> Bool) -> Bool {
        for r in records {
            if predicate(r) { return true }
            switch r.payload {
            case .smartPoster(let sp): if anyRecord(sp.records, predicate) { return true }
            case .handover(let h): if anyRecord(h.message.records, predicate) { return true }
            default: break
            }
        }
        return false
    }

    /// nfctrace's records as ndeflib lists them: one per wire record (chunks separately).
    static func wireView(_ result: NDEFDecodeResult, bytes: [UInt8]) -> [Oracle.Record] {
        result.records.flatMap(\.record.chunks).map { c in
            let tnf = c.header.tnf
            let type = String(decoding: bytes[c.typeRange], as: UTF8.self)
            let name: String
            switch tnf {
            case .empty: name = ""
            case .wellKnown: name = "urn:nfc:wkt:" + type
            case .external: name = "urn:nfc:ext:" + type
            case .media, .absoluteURI: name = type
            case .unknown: name = "unknown"
            case .unchanged: name = "unchanged"
            case .reserved: name = "reserved"
            }
            return Oracle.Record(type: name, name: Hex.string(bytes[c.idRange], separator: "").lowercased(),
                                 payload: Hex.string(bytes[c.payloadRange], separator: "").lowercased())
        }
    }

    /// Compares what ndeflib read from a Text, URI or Smart Poster payload with nfctrace's reading.
    static func compareValue(_ r: NDEFDecodedRecord, _ value: [String: String?]) -> String? {
        func scalars(_ s: String?) -> [Unicode.Scalar] { s.map { Array($0.unicodeScalars) } ?? [] }
        if let text = value["text"] {
            guard case .text(let t) = r.payload else { return "ndeflib read Text, nfctrace \(r.payload)" }
            if scalars(t.text) != scalars(text) || t.language != (value["language"] ?? nil)
                || t.encoding.rawValue != (value["encoding"] ?? nil) {
                return "Text differs: nfctrace \(t), ndeflib \(value)"
            }
            return nil
        }
        if let iri = value["iri"] {
            switch r.payload {
            case .uri(let u):
                return scalars(u.uri) == scalars(iri) ? nil : "URI differs: nfctrace \(u.uri), ndeflib \(iri ?? "nil")"
            case .smartPoster(let sp):
                let action: String?
                switch sp.action {
                case .exec?: action = "exec"
                case .save?: action = "save"
                case .edit?: action = "edit"
                default: action = nil
                }
                if scalars(sp.uri?.uri) != scalars(iri) || action != (value["action"] ?? nil) {
                    return "Smart Poster differs: nfctrace \(sp.uri?.uri ?? "nil") \(action ?? "-"), ndeflib \(value)"
                }
                return nil
            default:
                return "ndeflib read a URI, nfctrace \(r.payload)"
            }
        }
        return nil
    }
}
