/// EMV contactless as a dissector sees it (protocols-wave2.md §6): the proprietary-class
/// commands, the scheme AIDs, and the masking of card numbers.
public enum EMV {
    /// `2PAY.SYS.DDF01`, the contactless Proximity Payment System Environment; `1PAY…` the contact one.
    public static let ppse = Array("2PAY.SYS.DDF01".utf8)
    public static let pse = Array("1PAY.SYS.DDF01".utf8)

    /// Commands of CLA 80 (and 84 with secure messaging).
    public static let instructionNames: [UInt8: String] = [
        0xA8: "GET PROCESSING OPTIONS", 0xAE: "GENERATE AC", 0xCA: "GET DATA", 0x2A: "COMPUTE CRYPTOGRAPHIC CHECKSUM",
        0x1E: "APPLICATION BLOCK", 0x18: "APPLICATION UNBLOCK", 0x16: "CARD BLOCK", 0x24: "PIN CHANGE/UNBLOCK", 0xDA: "PUT DATA",
    ]

    /// Scheme AIDs (PM3 `aidlist.json` as the sheet lists them); the longest prefix names an AID.
    public static let schemes: [([UInt8], String)] = [
        ([0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10], "Visa credit/debit"), ([0xA0, 0x00, 0x00, 0x00, 0x03, 0x20, 0x10], "Visa Electron"),
        ([0xA0, 0x00, 0x00, 0x00, 0x03, 0x20, 0x20], "V PAY"), ([0xA0, 0x00, 0x00, 0x00, 0x03, 0x80, 0x10], "Visa Plus"),
        ([0xA0, 0x00, 0x00, 0x00, 0x04, 0x10, 0x10], "Mastercard"), ([0xA0, 0x00, 0x00, 0x00, 0x04, 0x30, 0x60], "Maestro"),
        ([0xA0, 0x00, 0x00, 0x00, 0x04, 0x60, 0x00], "Cirrus"), ([0xA0, 0x00, 0x00, 0x00, 0x25, 0x01], "American Express"),
        ([0xA0, 0x00, 0x00, 0x00, 0x65, 0x10, 0x10], "JCB"), ([0xA0, 0x00, 0x00, 0x01, 0x52, 0x30, 0x10], "Discover"),
        ([0xA0, 0x00, 0x00, 0x03, 0x24, 0x10, 0x10], "Diners / Discover ZIP"), ([0xA0, 0x00, 0x00, 0x03, 0x33, 0x01, 0x01, 0x01], "UnionPay debit"),
        ([0xA0, 0x00, 0x00, 0x03, 0x33, 0x01, 0x01, 0x02], "UnionPay credit"), ([0xA0, 0x00, 0x00, 0x03, 0x33, 0x01, 0x01, 0x03], "UnionPay quasi-credit"),
        ([0xA0, 0x00, 0x00, 0x02, 0x77, 0x10, 0x10], "Interac"), ([0xA0, 0x00, 0x00, 0x05, 0x24, 0x10, 0x10], "RuPay"),
        ([0xA0, 0x00, 0x00, 0x06, 0x58, 0x10, 0x10], "MIR"),
    ]

    public static func scheme(_ aid: [UInt8]) -> String? {
        schemes.filter { aid.starts(with: $0.0) }.max { $0.0.count < $1.0.count }?.1
    }

    /// A card number's digits with all but the first 6 and last 4 masked: `476173••••••0119`.
    /// Track 2 keeps its separator (`D`) and masks what follows it but the expiry date.
    public static func maskedDigits(_ bcd: [UInt8]) -> String {
        var digits = ""
        for b in bcd {
            for nibble in [b >> 4, b & 0x0F] where nibble != 0x0F {
                digits.append(nibble == 0x0D ? "D" : Character(String(nibble, radix: 16, uppercase: true)))
            }
        }
        let separator = digits.firstIndex(of: "D")
        let pan = separator.map { String(digits[..<$0]) } ?? digits
        var masked = pan.count > 10 ? String(pan.prefix(6)) + String(repeating: "•", count: pan.count - 10) + String(pan.suffix(4)) : String(repeating: "•", count: pan.count)
        if let separator {
            let rest = digits[digits.index(after: separator)...]
            masked += "D" + String(rest.prefix(4)) + String(repeating: "•", count: max(0, rest.count - 4))
        }
        return masked
    }

    /// What some EMV values mean, for the TLV tree: the AFL's entries and the cryptogram type.
    public static func describe(tag: UInt32, value: [UInt8]) -> String? {
        switch tag {
        case 0x94:
            // Application file locator: 4-byte entries, SFI << 3, first and last record, records
            // signed for offline data authentication (§6.1).
            guard !value.isEmpty, value.count % 4 == 0 else { return nil }
            return stride(from: 0, to: value.count, by: 4).map { i in
                "SFI \(value[i] >> 3) records \(value[i + 1])–\(value[i + 2]) (\(value[i + 3]) for offline authentication)"
            }.joined(separator: "; ")
        case 0x9F27:
            guard let b = value.first else { return nil }
            switch b >> 6 {
            case 0: return "AAC (declined)"
            case 1: return "TC (approved offline)"
            case 2: return "ARQC (go online)"
            default: return "RFU"
            }
        case 0x9F36:
            guard value.count == 2 else { return nil }
            return "\(Int(value[0]) << 8 | Int(value[1]))"
        default:
            return nil
        }
    }
}
