import NFCCore

/// Deliberate NDEF breakage: lengths made inconsistent on purpose, flags that contradict the
/// chunk and message rules, malformed Text status bytes and URI codes inside valid framing.
enum NDEFBreakage {
    /// A payload that breaks its record type's rules while the record itself stays well framed.
    static func breakPayload(_ decoded: NDEFDecodedRecord, shape: NDEFShape, _ m: inout MutationContext) -> NDEFRecord {
        var record = decoded.record
        var p = record.payload
        switch decoded.payload {
        case .text:
            // Status byte: language length past the payload, zero, or the RFU bit set.
            let langLength = UInt8(clamping: max(0, p.count - 1))
            let status: UInt8 = m.random.pick(min(0x3F, langLength &+ UInt8(1 + m.random.below(3))), 0x3F, 0x00, 0x40 | (p.first ?? 0), 0xBF)
            if p.isEmpty { p = [status] } else { p[0] = status }
            if m.random.chance(20) { p = Array(p.prefix(1)) }
        case .uri:
            if p.isEmpty { p = [0x24] } else { p[0] = m.random.pick(0x24, 0x7F, 0xFF, m.random.byte()) }
            if m.random.chance(30) { p.append(m.random.pick(0x00, 0x0A, 0xC3, 0xFF)) }   // control char, invalid UTF-8
        case .smartPoster, .handover:
            // Outer record valid, nested message broken: the depth where naive readers trust lengths.
            let offset = decoded.record.typeText == "Sp" ? 0 : min(1, p.count)
            let nested = Array(p[offset...])
            p = Array(p[..<offset]) + (breakFraming(nested, &m) ?? m.mutatedField(nested, limit: 512))
        default:
            if p.isEmpty { p = [m.random.byte()] } else { p.removeLast(1 + m.random.below(p.count)) }
        }
        record.payload = p
        if m.random.chance(10) {
            // TNF Empty with content, or Unknown with a TYPE.
            record.tnf = m.random.pick(.empty, .unknown)
            if record.tnf == .unknown && record.type.isEmpty { record.type = [0x54] }
        }
        return record
    }

    /// The encoded message with its wire framing broken in one place.
    static func breakFraming(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        let result = NDEFMessage.decode(input, mode: .lenient)
        let chunks = result.records.flatMap(\.record.chunks)
        guard let chunk = m.random.element(chunks) else { return nil }
        var out = input
        let head = chunk.range.lowerBound
        switch m.random.weighted([20, 8, 22, 12, 6, 12, 8, 6, 6]) {
        case 0:
            out[head] ^= m.random.pick(0x80, 0x40, 0x20, 0x10, 0x08)   // MB, ME, CF, SR, IL
        case 1:
            out[head] = out[head] & 0xF8 | m.random.pick(0x06, 0x07, 0x00, 0x05)   // Unchanged, Reserved, Empty, Unknown
        case 2:
            // PAYLOAD_LENGTH past the end, short of it, or huge.
            let lengthRange = chunk.payloadLengthRange
            let last = lengthRange.upperBound - 1
            switch m.random.below(3) {
            case 0: out[last] = out[last] &+ UInt8(1 + m.random.below(4))
            case 1: out[last] = out[last] &- UInt8(1 + m.random.below(4))
            default: for i in lengthRange { out[i] = 0xFF }
            }
        case 3:
            out[chunk.typeLengthOffset] = m.random.chance(50) ? out[chunk.typeLengthOffset] &+ UInt8(1 + m.random.below(4)) : 0
        case 4:
            if let idLength = chunk.idLengthOffset { out[idLength] = out[idLength] &+ UInt8(1 + m.random.below(8)) }
            else { out[head] |= 0x08 }   // IL without an ID_LENGTH byte
        case 5:
            // Cut inside the last record.
            out.removeLast(1 + m.random.below(max(1, chunk.range.count)))
        case 6:
            out += m.random.chance(50) ? [0xD1, 0x01, 0x00, 0x54] : m.random.bytes(1 + m.random.below(4))   // after ME
        case 7:
            // SR cleared on a short record: the next 3 bytes are read as part of the length.
            out[head] &= ~0x10
        default:
            // A chunk sequence that never ends, or a middle chunk with a TYPE.
            out[head] = (out[head] | 0x20) & ~0x40
        }
        return out
    }
}
