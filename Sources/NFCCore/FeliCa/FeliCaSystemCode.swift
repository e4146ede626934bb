/// System codes (2 bytes, **big endian** everywhere: Polling, Request System Code, RD). §5.7.
public enum FeliCaSystemCode {
    public static let cjrc: UInt16 = 0x0003
    public static let commonArea: UInt16 = 0xFE00
    public static let nfcForumType3: UInt16 = 0x12FC
    public static let feliCaLite: UInt16 = 0x88B4
    public static let wildcard: UInt16 = 0xFFFF

    /// What a system code is used for, or nil for codes no consulted source lists (§9 #25: `8E4B`).
    public static func name(_ code: UInt16) -> String? {
        switch code {
        case 0x0003: return "CJRC transit: Suica, PASMO, ICOCA …"
        case 0xFE00: return "FeliCa common area"
        case 0x12FC: return "NFC Forum Type 3 Tag"
        case 0x88B4: return "FeliCa Lite / Lite-S"
        case 0xFE0F: return "Osaifu-Keitai container"
        case 0x957A: return "FeliCa Secure ID"
        case 0x8008: return "Octopus"
        case 0x8005: return "Shenzhen Tong"
        case 0x0102: return "EZ-Link (legacy)"
        case 0x86A7: return "Suica second system"
        case 0x927A: return "Hayakaken second system"
        case 0x8BDC: return "Rakuten Edy"
        case 0x04C7: return "nanaco"
        case 0x852B: return "WAON"
        case 0xFFFF: return "any system"
        default: return nil
        }
    }

    /// `FE00 (FeliCa common area)`, `8E4B (not in any consulted list)`.
    public static func describe(_ code: UInt16) -> String {
        "\(Hex.value(code, digits: 4)) (\(name(code) ?? "not in any consulted list"))"
    }

    /// Whether a Polling for `requested` selects a system with code `code`: `FF` in either byte of the
    /// request is a wildcard for that byte (nfcpy), `FFFF` selects any.
    public static func polling(_ requested: UInt16, matches code: UInt16) -> Bool {
        let hiOK = requested >> 8 == 0xFF || requested >> 8 == code >> 8
        let loOK = requested & 0xFF == 0xFF || requested & 0xFF == code & 0xFF
        return hiOK && loOK
    }
}
