/// Reads the wire records of one message, checks the framing and chunk rules
/// (protocols.md §4.1–4.3), reassembles chunks and hands each record to its payload reader.
///
/// One pass, linear in the input: every length is checked against what remains before
/// anything is copied, so a hostile PAYLOAD_LENGTH costs nothing.
struct NDEFMessageDecoder {
    let bytes: [UInt8]
    let context: NDEFRecordKind.Context
    /// Nesting level: containers deeper than `maximumDepth` are shown, not opened.
    let depth: Int
    static let maximumDepth = 4
    /// False for `NDEFMessage.decodeFraming`: records are built, their payloads not read.
    var readsPayloads = true

    private var issues: [NDEFIssue] = []
    private var records: [NDEFDecodedRecord] = []

    init(bytes: [UInt8], context: NDEFRecordKind.Context, depth: Int) {
        self.bytes = bytes
        self.context = context
        self.depth = depth
    }

    /// A chunked record being reassembled.
    private struct Pending {
        var chunks: [NDEFChunk]
        var payload: [UInt8]
    }

    mutating func decode(mode: NDEFValidation, allowEmpty: Bool) -> NDEFDecodeResult {
        var cursor = ByteCursor(bytes)
        var pending: Pending?
        var wireIndex = 0
        var sawME = false
        var lastHeaderOffset: Int?
        var unparsed: Range<Int>?
        // The latest record read with SR and PAYLOAD_LENGTH 0: if framing breaks after it,
        // it may be a long record whose writer set SR by mistake.
        var shortZeroCandidate: NDEFChunk?
        var framingBroken = false

        while !cursor.isAtEnd && !sawME {
            let start = cursor.index
            let brokenBefore = framingBroken
            let chunk: NDEFChunk
            do throws(DecodeError) {
                chunk = try Self.readChunk(&cursor)
            } catch {
                issues.append(NDEFIssue(offset: error.offset, rule: .recordTruncated,
                                        message: "record at byte \(start): \(error.description)", tolerated: false))
                unparsed = start..<bytes.count
                framingBroken = true
                break
            }
            let header = chunk.header
            lastHeaderOffset = start
            if wireIndex == 0 && !header.mb {
                add(start, .mbMissing, "first record has no MB flag (header \(Hex.byte(header.byte)))")
            } else if wireIndex > 0 && header.mb {
                add(start, .mbRepeated, "record \(wireIndex) sets MB (header \(Hex.byte(header.byte)))")
                framingBroken = true
            }
            if checkTypeRules(chunk) { framingBroken = true }
            // Only a record before the first break can explain it.
            if header.sr && chunk.payloadRange.isEmpty && !brokenBefore { shortZeroCandidate = chunk }

            if var p = pending {
                // Drop the stored copy first, so that appending to `p` does not copy its arrays.
                pending = nil
                var chunk = chunk
                chunk.payloadOffset = p.payload.count
                // A middle or last chunk (NDEF 1.0 §3.3.1).
                if header.tnf != .unchanged {
                    add(start, .chunkTNFNotUnchanged, "chunk \(p.chunks.count) has TNF \(header.tnf.rawValue), not 6 (Unchanged)")
                }
                if header.il {
                    add(start, .chunkIDOnLaterChunk, "chunk \(p.chunks.count) sets IL")
                }
                p.chunks.append(chunk)
                p.payload.append(contentsOf: bytes[chunk.payloadRange])
                if header.cf && !header.me {
                    pending = p
                } else {
                    pending = nil
                    finish(chunks: p.chunks, payload: p.payload)
                }
            } else {
                if header.tnf == .unchanged {
                    add(start, .unchangedOutsideChunk, "TNF 6 (Unchanged) on a record that continues no chunked record")
                }
                if header.cf && !header.me {
                    pending = Pending(chunks: [chunk], payload: Array(bytes[chunk.payloadRange]))
                } else {
                    finish(chunks: [chunk], payload: Array(bytes[chunk.payloadRange]))
                }
            }
            if header.me {
                if header.cf {
                    add(start, .meOnChunk, "ME set on a chunk with CF: the chunked record never ends")
                }
                sawME = true
            }
            wireIndex += 1
        }

        if let p = pending {
            // The message stopped inside a chunked record: keep what arrived.
            finish(chunks: p.chunks, payload: p.payload)
        }
        if sawME && !cursor.isAtEnd {
            let rest = cursor.index..<bytes.count
            add(cursor.index, .bytesAfterME, "\(rest.count) byte\(rest.count == 1 ? "" : "s") after the record with ME")
            unparsed = rest
            framingBroken = true
        } else if !sawME && unparsed == nil {
            if let last = lastHeaderOffset {
                add(last, .meMissing, "the message ends after this record, which has no ME flag")
                framingBroken = true
            } else if !allowEmpty {
                add(0, .messageEmpty, "no record (0 bytes)")
            }
        }
        if framingBroken, let candidate = shortZeroCandidate { explainShortRecord(candidate) }
        return NDEFDecodeResult(records: records, issues: issues, mode: mode, byteCount: bytes.count,
                                unparsedRange: unparsed)
    }

    /// Reads one wire record's header, lengths and field ranges; throws on truncation.
    static func readChunk(_ cursor: inout ByteCursor) throws(DecodeError) -> NDEFChunk {
        let start = cursor.index
        let header = NDEFHeader(byte: try cursor.readUInt8("record header"))
        let typeLengthOffset = cursor.index
        let typeLength = Int(try cursor.readUInt8("TYPE_LENGTH"))
        let lengthStart = cursor.index
        let payloadLength = header.sr
            ? Int(try cursor.readUInt8("PAYLOAD_LENGTH (1 byte, SR set)"))
            : Int(try cursor.readUInt32BE("PAYLOAD_LENGTH (4 bytes, SR clear)"))
        let payloadLengthRange = lengthStart..<cursor.index
        var idLengthOffset: Int?
        var idLength = 0
        if header.il {
            idLengthOffset = cursor.index
            idLength = Int(try cursor.readUInt8("ID_LENGTH"))
        }
        let typeRange = try cursor.readRange(typeLength, "TYPE of \(typeLength) bytes")
        let idRange = try cursor.readRange(idLength, "ID of \(idLength) bytes")
        let payloadRange = try cursor.readRange(payloadLength, "PAYLOAD of \(payloadLength) bytes")
        return NDEFChunk(header: header, range: start..<cursor.index, typeLengthOffset: typeLengthOffset,
                         payloadLengthRange: payloadLengthRange, idLengthOffset: idLengthOffset,
                         typeRange: typeRange, idRange: idRange, payloadRange: payloadRange)
    }

    /// TNF against TYPE/ID/PAYLOAD lengths (protocols.md §4.2). Returns whether a framing rule broke.
    private mutating func checkTypeRules(_ chunk: NDEFChunk) -> Bool {
        let at = chunk.range.lowerBound
        let tnf = chunk.header.tnf
        let typeLength = chunk.typeRange.count
        var broken = false
        switch tnf {
        case .reserved:
            add(at, .tnfReserved, "TNF 7 is reserved")
            broken = true
        case .empty:
            if typeLength != 0 || chunk.idRange.count != 0 || chunk.payloadRange.count != 0 {
                add(at, .emptyRecordNotEmpty, "TNF 0 (Empty) with TYPE_LENGTH \(typeLength), ID_LENGTH "
                    + "\(chunk.idRange.count), PAYLOAD_LENGTH \(chunk.payloadRange.count)")
                broken = true
            }
        case .unknown, .unchanged:
            if typeLength != 0 {
                add(chunk.typeLengthOffset, .typeForbidden, "TNF \(tnf.rawValue) with TYPE_LENGTH \(typeLength)")
                broken = true
            }
        case .wellKnown, .media, .absoluteURI, .external:
            if typeLength == 0 {
                add(chunk.typeLengthOffset, .typeMissing, "TNF \(tnf.rawValue) with TYPE_LENGTH 0")
                broken = true
            } else if let bad = bytes[chunk.typeRange].firstIndex(where: { $0 >= 0x80 }) {
                add(bad, .typeNotASCII, "TYPE byte \(Hex.byte(bytes[bad])) is not US-ASCII")
            } else if let rule = NDEFTypeSyntax.breach(tnf: tnf, type: Array(bytes[chunk.typeRange])) {
                add(chunk.typeRange.lowerBound, rule, "TYPE \"\(UnicodeText.lossyUTF8(bytes, chunk.typeRange))\" is not "
                    + (tnf == .media ? "a media type" : "an absolute URI"))
            }
        }
        return broken
    }

    /// Adds the SR explanation when the candidate's PAYLOAD_LENGTH, read as 4 bytes, frames a
    /// record that fits: the usual sign of a long record written with SR set.
    private mutating func explainShortRecord(_ chunk: NDEFChunk) {
        var cursor = ByteCursor(bytes, range: chunk.payloadLengthRange.lowerBound..<bytes.count, origin: 0)
        guard let length = try? cursor.readUInt32BE("4-byte PAYLOAD_LENGTH"), length >= 256 else { return }
        var end = cursor.index + chunk.typeRange.count + Int(length)
        if chunk.header.il {
            guard let idLength = try? cursor.readUInt8("ID_LENGTH") else { return }
            end += 1 + Int(idLength)
        }
        guard end <= bytes.count else { return }
        add(chunk.payloadLengthRange.lowerBound, .srLongPayload,
            "SR is set, but PAYLOAD_LENGTH reads as the 4-byte value \(length), which frames the record to byte \(end): "
            + "a long record written with SR (decoded as SR says)")
    }

    private mutating func add(_ offset: Int, _ rule: NDEFRule, _ message: String, tolerated: Bool = true) {
        issues.append(NDEFIssue(offset: offset, rule: rule, message: message, tolerated: tolerated))
    }

    /// Builds the record from its chunks and reads its payload in this decoder's context.
    private mutating func finish(chunks: [NDEFChunk], payload: [UInt8]) {
        guard let first = chunks.first else { return }
        let tnf = first.header.tnf
        let record = NDEFRecord(tnf: tnf, type: Array(bytes[first.typeRange]), id: Array(bytes[first.idRange]),
                                payload: payload, chunks: chunks)
        guard readsPayloads else {
            records.append(NDEFDecodedRecord(record: record, kind: nil, payload: .bytes))
            return
        }
        let kind = NDEFRecordKind.recognize(tnf: tnf, type: record.type, in: context)
        var payloadIssues: [NDEFIssue] = []
        let value = NDEFPayload.read(record, kind: kind, depth: depth, issues: &payloadIssues)
        for var issue in payloadIssues {
            // Payload readers report payload offsets (nested messages come relocated already).
            issue.offset = record.messageOffset(ofPayloadByte: issue.offset) ?? record.payloadEndOffset
            issues.append(issue)
        }
        records.append(NDEFDecodedRecord(record: record, kind: kind, payload: value))
    }
}
