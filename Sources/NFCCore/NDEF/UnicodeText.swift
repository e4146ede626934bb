/// Strict UTF-8 and UTF-16 decoding of untrusted payload text, with the offset of the first
/// invalid byte so the issue can point at it.
enum UnicodeText {
    /// Decodes `bytes[range]` as UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
    /// U+10FFFF). Returns the text, or the offset of the first byte that is not valid UTF-8.
    static func utf8(_ bytes: [UInt8], _ range: Range<Int>) -> Result<String, InvalidText> {
        var i = range.lowerBound
        let end = min(range.upperBound, bytes.count)
        while i < end {
            let b0 = bytes[i]
            if b0 < 0x80 { i += 1; continue }
            let need: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; upper = 0x9F   // would be a surrogate
            case 0xF0: need = 3; lower = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; upper = 0x8F   // past U+10FFFF
            default: return .failure(InvalidText(offset: i))
            }
            for k in 1...need {
                guard i + k < end else { return .failure(InvalidText(offset: i)) }
                let b = bytes[i + k]
                let (lo, hi) = k == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
                guard b >= lo && b <= hi else { return .failure(InvalidText(offset: i)) }
            }
            i += need + 1
        }
        return .success(String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self))
    }

    /// Decodes `bytes[range]` as UTF-16. A BOM (`FE FF` or `FF FE`) sets the byte order and is
    /// not part of the text; without one the text is big-endian (Unicode §3.10, protocols.md §4.4).
    static func utf16(_ bytes: [UInt8], _ range: Range<Int>) -> Result<String, InvalidText> {
        var lower = max(0, range.lowerBound)
        let end = min(range.upperBound, bytes.count)
        var bigEndian = true
        if end - lower >= 2 {
            if bytes[lower] == 0xFE && bytes[lower + 1] == 0xFF { lower += 2 }
            else if bytes[lower] == 0xFF && bytes[lower + 1] == 0xFE { bigEndian = false; lower += 2 }
        }
        guard lower <= end, (end - lower) % 2 == 0 else { return .failure(InvalidText(offset: max(lower, end - 1))) }
        var units: [UInt16] = []
        units.reserveCapacity((end - lower) / 2)
        var i = lower
        while i + 1 < end {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        // Every high surrogate needs a low one right after it; a low one never stands alone.
        var k = 0
        while k < units.count {
            let u = units[k]
            if (0xD800...0xDBFF).contains(u) {
                guard k + 1 < units.count, (0xDC00...0xDFFF).contains(units[k + 1]) else {
                    return .failure(InvalidText(offset: lower + 2 * k))
                }
                k += 2
            } else if (0xDC00...0xDFFF).contains(u) {
                return .failure(InvalidText(offset: lower + 2 * k))
            } else {
                k += 1
            }
        }
        return .success(String(decoding: units, as: UTF16.self))
    }

    /// Text for display whatever the bytes: invalid sequences become U+FFFD.
    static func lossyUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }

    /// UTF-16 for display (BOM honoured, big-endian without one; bad units become U+FFFD).
    static func lossyUTF16(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        let r = range.clamped(to: 0..<bytes.count)
        var i = r.lowerBound
        var bigEndian = true
        if r.count >= 2 && bytes[i] == 0xFF && bytes[i + 1] == 0xFE { bigEndian = false; i += 2 }
        else if r.count >= 2 && bytes[i] == 0xFE && bytes[i + 1] == 0xFF { i += 2 }
        var units: [UInt16] = []
        while i + 1 < r.upperBound {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        if i < r.upperBound { units.append(0xFFFD) }
        return String(decoding: units, as: UTF16.self)
    }

    /// Offset of the first byte ≥ 0x80, if any.
    static func firstNonASCII(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        bytes[range.clamped(to: 0..<bytes.count)].firstIndex(where: { $0 >= 0x80 })
    }

    /// Big-endian UTF-16 with a BOM, so that readers assuming either byte order get it right.
    static func encodeUTF16(_ text: String) -> [UInt8] {
        var out: [UInt8] = [0xFE, 0xFF]
        for u in text.utf16 { out.append(UInt8(u >> 8)); out.append(UInt8(truncatingIfNeeded: u)) }
        return out
    }
}

/// Where text stopped being valid in its encoding.
struct InvalidText: Error, Sendable {
    var offset: Int
}
