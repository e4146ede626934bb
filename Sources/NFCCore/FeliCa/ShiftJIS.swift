/// A deliberately small Shift_JIS decoder for text found in FeliCa blocks (ID numbers, names in
/// kana). It decodes what it can decode correctly without a kanji table and refuses the rest:
///
/// - single bytes: ASCII `20`–`7E` (read as ASCII, as CP932 does; strict JIS X 0201 Roman has ¥ at
///   `5C` and ‾ at `7E`) and JIS X 0201 half-width katakana `A1`–`DF`;
/// - JIS X 0208 rows 1–2 (symbols, from a 188-entry table), row 3 (full-width digits and Latin),
///   rows 4–5 (hiragana, katakana), rows 6–7 (Greek, Cyrillic), computed.
///
/// Kanji (rows 16–84), box drawing (row 8), vendor rows (NEC row 13, `ED`–`EE`, `FA`–`FC`) and
/// control bytes make `decode` return nil, so that callers show hex instead of a wrong guess.
/// Rows 1–2 follow JIS X 0208 as Python's `shift_jis` codec maps it; CP932 differs at `8160`
/// (〜 vs ～), `8161`, `817C`, `8191`, `8192` and `81CA`.
public enum ShiftJIS {
    /// The text, or nil when any byte sequence is outside the covered set (or a control byte).
    public static func decode(_ bytes: some Collection<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var pendingLead: UInt8? = nil
        for b in bytes {
            if let lead = pendingLead {
                pendingLead = nil
                guard let s = doubleByte(lead, b) else { return nil }
                scalars.append(s)
                continue
            }
            switch b {
            case 0x20...0x7E:
                scalars.append(Unicode.Scalar(b))
            case 0xA1...0xDF:
                // JIS X 0201 katakana: U+FF61 (｡) … U+FF9F (ﾟ).
                guard let s = Unicode.Scalar(0xFF61 + UInt32(b - 0xA1)) else { return nil }
                scalars.append(s)
            case 0x81...0x9F, 0xE0...0xEF:
                pendingLead = b
            default:
                return nil
            }
        }
        guard pendingLead == nil else { return nil }
        return String(scalars)
    }

    /// Text a block most likely holds: trailing `00`, `20` and `FF` padding removed, at least two
    /// characters left, every byte covered. Nil otherwise (binary data, kanji, empty blocks).
    public static func text(inBlock block: [UInt8]) -> String? {
        var end = block.count
        while end > 0, let last = block.dropFirst(end - 1).first, last == 0x00 || last == 0x20 || last == 0xFF { end -= 1 }
        guard end >= 2, let text = decode(block.prefix(end)) else { return nil }
        return text.unicodeScalars.count >= 2 ? text : nil
    }

    /// JIS X 0208 row and cell (1-based) of a double-byte code; nil for invalid trail bytes.
    static func rowCell(_ lead: UInt8, _ trail: UInt8) -> (row: Int, cell: Int)? {
        guard (0x40...0xFC).contains(trail), trail != 0x7F else { return nil }
        let base = lead <= 0x9F ? Int(lead) - 0x81 : Int(lead) - 0xC1
        if trail >= 0x9F { return (base * 2 + 2, Int(trail) - 0x9E) }
        return (base * 2 + 1, Int(trail) - 0x3F - (trail >= 0x80 ? 1 : 0))
    }

    static func doubleByte(_ lead: UInt8, _ trail: UInt8) -> Unicode.Scalar? {
        guard let (row, cell) = rowCell(lead, trail), (1...94).contains(cell) else { return nil }
        let value: UInt32?
        switch row {
        case 1: value = symbols.dropFirst(cell - 1).first.map(UInt32.init)
        case 2: value = symbols.dropFirst(94 + cell - 1).first.map(UInt32.init)
        case 3:
            switch cell {
            case 16...25: value = 0xFF10 + UInt32(cell - 16)   // ０…９
            case 33...58: value = 0xFF21 + UInt32(cell - 33)   // Ａ…Ｚ
            case 65...90: value = 0xFF41 + UInt32(cell - 65)   // ａ…ｚ
            default: value = nil
            }
        case 4: value = cell <= 83 ? 0x3041 + UInt32(cell - 1) : nil   // ぁ…ん
        case 5: value = cell <= 86 ? 0x30A1 + UInt32(cell - 1) : nil   // ァ…ヶ
        case 6:
            // Greek: JIS leaves out U+03A2 (no capital final sigma) and U+03C2 (final sigma).
            switch cell {
            case 1...24: value = 0x0391 + UInt32(cell - 1) + (cell >= 18 ? 1 : 0)
            case 33...56: value = 0x03B1 + UInt32(cell - 33) + (cell >= 50 ? 1 : 0)
            default: value = nil
            }
        case 7:
            // Cyrillic: Ё/ё sit at cell 7/55, between Е and Ж.
            switch cell {
            case 7: value = 0x0401
            case 1...33: value = 0x0410 + UInt32(cell - 1) - (cell > 7 ? 1 : 0)
            case 55: value = 0x0451
            case 49...81: value = 0x0430 + UInt32(cell - 49) - (cell > 55 ? 1 : 0)
            default: value = nil
            }
        default: value = nil
        }
        guard let v = value, v != 0 else { return nil }
        return Unicode.Scalar(v)
    }

    /// JIS X 0208 rows 1 and 2, cell 1…94 each; 0 = unassigned.
    static let symbols: [UInt16] = [
        0x3000, 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0x30FB, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF01, 0x309B, 0x309C, 0x00B4, 0xFF40,
        0x00A8, 0xFF3E, 0xFFE3, 0xFF3F, 0x30FD, 0x30FE, 0x309D, 0x309E, 0x3003, 0x4EDD, 0x3005, 0x3006, 0x3007, 0x30FC,
        0x2015, 0x2010, 0xFF0F, 0xFF3C, 0x301C, 0x2016, 0xFF5C, 0x2026, 0x2025, 0x2018, 0x2019, 0x201C, 0x201D, 0xFF08,
        0xFF09, 0x3014, 0x3015, 0xFF3B, 0xFF3D, 0xFF5B, 0xFF5D, 0x3008, 0x3009, 0x300A, 0x300B, 0x300C, 0x300D, 0x300E,
        0x300F, 0x3010, 0x3011, 0xFF0B, 0x2212, 0x00B1, 0x00D7, 0x00F7, 0xFF1D, 0x2260, 0xFF1C, 0xFF1E, 0x2266, 0x2267,
        0x221E, 0x2234, 0x2642, 0x2640, 0x00B0, 0x2032, 0x2033, 0x2103, 0xFFE5, 0xFF04, 0x00A2, 0x00A3, 0xFF05, 0xFF03,
        0xFF06, 0xFF0A, 0xFF20, 0x00A7, 0x2606, 0x2605, 0x25CB, 0x25CF, 0x25CE, 0x25C7,
        // row 2
        0x25C6, 0x25A1, 0x25A0, 0x25B3, 0x25B2, 0x25BD, 0x25BC, 0x203B, 0x3012, 0x2192, 0x2190, 0x2191, 0x2193, 0x3013,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x2208, 0x220B, 0x2286, 0x2287, 0x2282, 0x2283, 0x222A, 0x2229,
        0, 0, 0, 0, 0, 0, 0, 0,
        0x2227, 0x2228, 0x00AC, 0x21D2, 0x21D4, 0x2200, 0x2203,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0x2220, 0x22A5, 0x2312, 0x2202, 0x2207, 0x2261, 0x2252, 0x226A, 0x226B, 0x221A, 0x223D, 0x221D, 0x2235, 0x222B,
        0x222C,
        0, 0, 0, 0, 0, 0, 0,
        0x212B, 0x2030, 0x266F, 0x266D, 0x266A, 0x2020, 0x2021, 0x00B6,
        0, 0, 0, 0,
        0x25EF,
    ]
}
