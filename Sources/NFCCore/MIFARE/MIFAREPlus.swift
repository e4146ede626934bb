/// MIFARE Plus in security level 0 (personalisation) and 3 (AES): native commands sent as the
/// INF of ISO-DEP I-blocks, `CMD params…` answered by `STATUS data…`. NXP's datasheet is under
/// NDA; the codes, layouts and names here are those of NXP's public Reader Library (phalMfpEVx)
/// and the Proxmark3's `hf mfp` client and trace annotation, which agree. What is encrypted or
/// MACed is named as such, not opened.
public enum MIFAREPlus {
    /// ATS historical bytes of MIFARE Plus S, X and SE (the Proxmark3's and the Flipper's test):
    /// `C1 05 2F 2F …`.
    public static let historicalBytesPrefix: [UInt8] = [0xC1, 0x05, 0x2F, 0x2F]

    public static let ok: UInt8 = 0x90
    public static let additionalFrame: UInt8 = 0xAF

    public static let firstAuthenticate: UInt8 = 0x70
    public static let firstAuthenticateAlternate: UInt8 = 0x73
    public static let followingAuthenticate: UInt8 = 0x76
    public static let authenticateContinue: UInt8 = 0x72

    public static let commandNames: [UInt8: String] = [
        0x70: "FIRST AUTHENTICATE", 0x73: "FIRST AUTHENTICATE (EV1 alternate)", 0x76: "FOLLOWING AUTHENTICATE",
        0x72: "AUTHENTICATE part 2", 0x74: "AUTHENTICATE part 3", 0x78: "RESET AUTHENTICATION", 0x7A: "SECTOR SWITCH AUTHENTICATE",
        0x7C: "AUTHENTICATE PDC",
        0xA8: "WRITE PERSO", 0xAA: "COMMIT PERSO",
        0x60: "GET VERSION", 0xAF: "ADDITIONAL FRAME", 0x3C: "READ SIGNATURE", 0xC8: "COMMIT READER ID",
        0xF0: "PREPARE PROXIMITY CHECK", 0xF2: "PROXIMITY CHECK", 0xFD: "VERIFY PROXIMITY CHECK",
        0xA4: "SELECT VIRTUAL CARD", 0x42: "VIRTUAL CARD SUPPORT", 0x4B: "VIRTUAL CARD SUPPORT LAST", 0x48: "DESELECT VIRTUAL CARD",
        0x40: "PERSONALIZE UID USAGE", 0x44: "SET CONFIGURATION SL1",
    ]

    public static let statusNames: [UInt8: String] = [
        0x90: "OK", 0xAF: "additional frame", 0x05: "transaction MAC error", 0x06: "authentication error",
        0x07: "command overflow (too many reads or writes in the session)", 0x08: "invalid MAC", 0x09: "invalid block number",
        0x0A: "extension error (no such block)", 0x0B: "invalid command or not allowed in this state", 0x0C: "format or length error",
        0x0D: "not supported", 0x0F: "general failure",
    ]

    /// Reads (`30`–`37`), writes (`A0`–`A3`) and value operations (`B0`–`B9`, `C2`/`C3`): the
    /// bits of the code say what is encrypted and where a MAC goes.
    public struct BlockOperation: Sendable, Equatable {
        public enum Kind: String, Sendable {
            case read = "READ", write = "WRITE", increment = "INCREMENT", decrement = "DECREMENT", transfer = "TRANSFER"
            case incrementTransfer = "INCREMENT, TRANSFER", decrementTransfer = "DECREMENT, TRANSFER", restore = "RESTORE"
        }
        public var kind: Kind
        /// Data travels in plain (reads and writes); value operations' values are always encrypted.
        public var plain: Bool
        public var macOnCommand: Bool
        public var macOnAnswer: Bool

        public init?(code: UInt8) {
            switch code {
            case 0x30...0x37:
                // b0: MAC on the answer; b1: plain; b2: no MAC on the command.
                self.init(kind: .read, plain: code & 0x02 != 0, macOnCommand: code & 0x04 == 0, macOnAnswer: code & 0x01 != 0)
            case 0xA0...0xA3:
                // A write is always MACed; b0: MAC on the answer; b1: plain.
                self.init(kind: .write, plain: code & 0x02 != 0, macOnCommand: true, macOnAnswer: code & 0x01 != 0)
            case 0xB0...0xB9, 0xC2, 0xC3:
                let kinds: [UInt8: Kind] = [0xB0: .increment, 0xB2: .decrement, 0xB4: .transfer, 0xB6: .incrementTransfer, 0xB8: .decrementTransfer, 0xC2: .restore]
                guard let k = kinds[code & 0xFE] else { return nil }
                self.init(kind: k, plain: false, macOnCommand: true, macOnAnswer: code & 0x01 != 0)
            default:
                return nil
            }
        }

        init(kind: Kind, plain: Bool, macOnCommand: Bool, macOnAnswer: Bool) {
            self.kind = kind
            self.plain = plain
            self.macOnCommand = macOnCommand
            self.macOnAnswer = macOnAnswer
        }

        /// `READ plain, MAC on command, MAC on answer`.
        public var name: String {
            var parts: [String] = []
            if kind == .read || kind == .write { parts.append(plain ? "plain" : "encrypted") }
            if kind == .read { parts.append(macOnCommand ? "MAC on command" : "no MAC on command") }
            parts.append(macOnAnswer ? "MAC on answer" : "no MAC on answer")
            return kind.rawValue + " (" + parts.joined(separator: ", ") + ")"
        }

        /// Whether the command names a second block (the transfer's destination).
        public var hasDestination: Bool { kind == .incrementTransfer || kind == .decrementTransfer }
    }

    public static func name(_ code: UInt8) -> String? { commandNames[code] ?? BlockOperation(code: code)?.name }
    public static func statusName(_ status: UInt8) -> String { statusNames[status] ?? "status \(Hex.byte(status))" }

    /// Where parameters sit in a command's data (the bytes after the code).
    public enum Layout {
        public static let blockNumber = FieldLayout(0, 2, "2-byte block number, LSB first")
        /// Reads: how many blocks (`Ext`); first authentication: the length of PCDcap2 (`LenCap`).
        public static let count = FieldLayout(2, 1, "block count")
        public static let lenCap = FieldLayout(2, 1, "LenCap")
        public static let destination = FieldLayout(2, 2, "2-byte destination block number, LSB first")
        public static let macLength = 8
        public static let blockSize = 16
    }

    public static func littleEndian16(_ data: [UInt8], _ f: FieldLayout) -> Int? {
        data.count >= f.end ? Int(data[f.offset]) | Int(data[f.offset + 1]) << 8 : nil
    }

    /// The name of a block number: sector keys `4000 + 2·sector` (A) and `+1` (B), the card's
    /// keys and configuration blocks (NXP Reader Library `phalMfpEVx.h`, the Proxmark3's `hf mfp`).
    public static func blockName(_ n: Int) -> String {
        let named: [Int: String] = [
            0x9000: "card master key", 0x9001: "card configuration key", 0x9002: "level 2 switch key", 0x9003: "level 3 switch key",
            0x9004: "SL1 card authentication key", 0x9006: "level 3 sector switch key", 0x9007: "level 1/3 mix sector switch key",
            0xA000: "select virtual card key", 0xA001: "proximity check key", 0xA080: "VC polling ENC key", 0xA081: "VC polling MAC key",
            0xB000: "MFP configuration block", 0xB001: "installation identifier", 0xB003: "field configuration block",
            0xC000: "transaction MAC key", 0xC001: "transaction MAC configuration key",
        ]
        if let name = named[n] { return "\(Hex.value(n, digits: 4)) (\(name))" }
        if (0x4000...0x404F).contains(n) { return "\(Hex.value(n, digits: 4)) (sector \((n - 0x4000) / 2) key \(n & 1 == 0 ? "A" : "B"))" }
        if (0x8000...0x8003).contains(n) { return "\(Hex.value(n, digits: 4)) (originality key)" }
        if n < 0x100 { return "block \(n) (sector \(n < 128 ? n / 4 : 32 + (n - 128) / 16))" }
        return Hex.value(n, digits: 4)
    }

    /// `READ (plain, …) block 4, 1 block`, `FIRST AUTHENTICATE 4002 (sector 1 key A)`.
    public static func summary(code: UInt8, data: [UInt8]) -> String {
        var s = name(code) ?? "command \(Hex.byte(code))"
        guard let block = littleEndian16(data, Layout.blockNumber) else { return s }
        switch code {
        case firstAuthenticate, firstAuthenticateAlternate, followingAuthenticate, 0x7A, 0xA8:
            s += " " + blockName(block)
        default:
            guard let op = BlockOperation(code: code) else { return s }
            s += " " + blockName(block)
            if op.kind == .read, data.count >= Layout.count.end { s += ", \(data[Layout.count.offset]) block\(data[Layout.count.offset] == 1 ? "" : "s")" }
            if op.hasDestination, let d = littleEndian16(data, Layout.destination) { s += " to " + blockName(d) }
        }
        return s
    }
}
