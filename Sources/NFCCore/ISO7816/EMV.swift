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
        var masked = ""
        for n in cardNumberNibbles(bcd) where n.value != 0x0F {
            masked.append(!n.shown ? "•" : n.value == 0x0D ? "D" : Character(String(n.value, radix: 16, uppercase: true)))
        }
        return masked
    }

    /// The bytes of a secret value (tags of `BERTLVTags.secret`, offsets in the value) that output
    /// hides: of a card number (`5A`, `57`, `9F6B`) every byte that holds a digit `maskedDigits`
    /// masks, of other cardholder data all of it.
    public static func hiddenBytes(tag: UInt32, value: [UInt8]) -> [Range<Int>] {
        guard cardNumberTags.contains(tag) else { return value.isEmpty ? [] : [value.indices] }
        var ranges: [Range<Int>] = []
        let nibbles = cardNumberNibbles(value)
        for i in value.indices where !nibbles[2 * i].shown || !nibbles[2 * i + 1].shown {
            if let last = ranges.last, last.upperBound == i { ranges[ranges.count - 1] = last.lowerBound..<i + 1 } else { ranges.append(i..<i + 1) }
        }
        return ranges
    }

    /// Tags whose value is a card number in BCD (PAN, track 2 equivalent data, and track 2 data of
    /// Mastercard's magstripe mode).
    public static let cardNumberTags: Set<UInt32> = [0x5A, 0x57, 0x9F6B]

    /// Each nibble of a card number and whether output shows it: the PAN's first 6 and last 4
    /// digits, track 2's separator `D` and the 4 digits of the expiry date after it, and the `F`
    /// padding; a PAN of 10 digits or fewer is hidden whole.
    static func cardNumberNibbles(_ bcd: [UInt8]) -> [(value: UInt8, shown: Bool)] {
        var nibbles: [(value: UInt8, shown: Bool)] = []
        nibbles.reserveCapacity(2 * bcd.count)
        for b in bcd { nibbles += [(b >> 4, false), (b & 0x0F, false)] }
        let digitIndices = nibbles.indices.filter { nibbles[$0].value != 0x0F }
        let separator = digitIndices.firstIndex { nibbles[$0].value == 0x0D }
        let pan = digitIndices[..<(separator ?? digitIndices.endIndex)]
        if pan.count > 10 {
            for i in pan.prefix(6) + pan.suffix(4) { nibbles[i].shown = true }
        }
        if let separator {
            for i in digitIndices[separator...].prefix(5) { nibbles[i].shown = true }
        }
        for i in nibbles.indices where nibbles[i].value == 0x0F { nibbles[i].shown = true }
        return nibbles
    }

    /// One entry of a data object list (PDOL `9F38`, CDOL1 `8C`, CDOL2 `8D`, DDOL `9F49`): a tag
    /// and the length of the value the terminal sends for it (protocols-wave2.md §6.1).
    public struct DataObjectListEntry: Sendable, Hashable {
        public var tag: UInt32
        public var length: Int
        public var tagHex: String
        public init(tag: UInt32, length: Int, tagHex: String) {
            self.tag = tag
            self.length = length
            self.tagHex = tagHex
        }
    }

    /// The entries of a data object list: tags without values, each followed by a one-byte
    /// length. Nil when the list is damaged.
    public static func dataObjectList(_ bytes: [UInt8]) -> [DataObjectListEntry]? {
        var out: [DataObjectListEntry] = []
        var i = 0
        while i < bytes.count {
            guard case .success(let t) = BERTLV.readTag(bytes, at: i, end: bytes.count), t.next < bytes.count else { return nil }
            out.append(DataObjectListEntry(tag: t.tag, length: Int(bytes[t.next]), tagHex: Hex.value(t.tag, digits: 2 * (t.next - i))))
            i = t.next + 1
        }
        return out
    }

    /// Where each entry's value sits in the values a terminal sent for `list`, in order; nil when
    /// the values are not exactly as long as the list asks.
    public static func values(_ data: [UInt8], for list: [DataObjectListEntry]) -> [(entry: DataObjectListEntry, range: Range<Int>)]? {
        var at = 0
        var out: [(entry: DataObjectListEntry, range: Range<Int>)] = []
        for e in list {
            out.append((e, at..<at + e.length))
            at += e.length
        }
        return at == data.count ? out : nil
    }

    /// The bits a qualifier sets, named (byte, bit 8…1, name).
    typealias BitNames = [(byte: Int, bit: Int, name: String)]

    /// Terminal transaction qualifiers `9F66` (the Proxmark3's `EMV_TTQ`, protocols-wave2.md §6.3).
    static let ttqBits: BitNames = [
        (1, 8, "MSD"), (1, 7, "VSDC"), (1, 6, "qVSDC"), (1, 5, "EMV contact chip"), (1, 4, "offline-only reader"),
        (1, 3, "online PIN"), (1, 2, "signature"), (1, 1, "offline data authentication for online authorizations"),
        (2, 8, "online cryptogram required"), (2, 7, "CVM required"), (2, 6, "contact chip offline PIN"),
        (3, 8, "issuer update processing"), (3, 7, "consumer device CVM"),
    ]

    /// Card transaction qualifiers `9F6C` (EMV Contactless Book C-3 Annex A.2, as the Proxmark3's
    /// `EMV_CTQ` names them).
    static let ctqBits: BitNames = [
        (1, 8, "online PIN required"), (1, 7, "signature required"),
        (1, 6, "go online if offline data authentication fails and the reader is online capable"),
        (1, 5, "switch interface if offline data authentication fails"), (1, 4, "go online if the application expired"),
        (1, 3, "switch interface for cash transactions"), (1, 2, "switch interface for cashback transactions"),
        (2, 8, "consumer device CVM performed"), (2, 7, "card supports issuer update processing at the POS"),
    ]

    static func bits(_ value: [UInt8], _ names: BitNames) -> String {
        let set = names.filter { value.count >= $0.byte && value[$0.byte - 1] >> ($0.bit - 1) & 1 == 1 }.map(\.name)
        return set.isEmpty ? "none set" : set.joined(separator: ", ")
    }

    /// GENERATE AC's P1: the cryptogram asked for (b8b7) and whether CDA is (b5).
    public static func generateACRequest(p1: UInt8) -> String {
        let kind = ["AAC (decline)", "TC (approve offline)", "ARQC (go online)", "RFU"][Int(p1 >> 6)]
        return kind + (p1 & 0x10 != 0 ? ", CDA signature requested" : "")
    }

    /// What some EMV values mean, for the TLV tree: the AFL's entries, the cryptogram type, the
    /// qualifiers' bits, a data object list's entries.
    public static func describe(tag: UInt32, value: [UInt8]) -> String? {
        switch tag {
        case 0x9F66:
            return value.count == 4 ? bits(value, ttqBits) : nil
        case 0x9F6C:
            return value.count == 2 ? bits(value, ctqBits) : nil
        case 0x9F38, 0x8C, 0x8D, 0x9F49:
            guard let list = dataObjectList(value), !list.isEmpty else { return nil }
            return list.map { e in e.tagHex + (BERTLVTags.name(e.tag).map { " (\($0))" } ?? "") + " \(e.length)" }.joined(separator: ", ")
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
