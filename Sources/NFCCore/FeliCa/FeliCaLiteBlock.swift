/// Block names of FeliCa Lite / Lite-S (service `000B` read, `0009` write). protocols.md §5.9
/// (nfcpy `tt3_sony.py`, FZ `felica.h`).
public enum FeliCaLiteBlock {
    public static let reg: UInt16 = 0x0E
    public static let rc: UInt16 = 0x80
    public static let mac: UInt16 = 0x81
    public static let id: UInt16 = 0x82
    public static let dID: UInt16 = 0x83
    public static let serC: UInt16 = 0x84
    public static let sysC: UInt16 = 0x85
    public static let ckv: UInt16 = 0x86
    public static let ck: UInt16 = 0x87
    public static let mc: UInt16 = 0x88
    public static let wcnt: UInt16 = 0x90
    public static let macA: UInt16 = 0x91
    public static let state: UInt16 = 0x92
    public static let crcCheck: UInt16 = 0xA0

    /// Every block of a FeliCa Lite-S, in the order Flipper's `.nfc` files list them (§5.9, §7.3):
    /// S_PAD0…13, REG, RC … MC, WCNT, MAC_A, STATE, CRC_CHECK — 28 blocks.
    public static let liteSBlocks: [UInt16] = Array(0x00...0x0E) + Array(0x80...0x88) + Array(0x90...0x92) + [0xA0]

    /// User blocks S_PAD0…13 and REG, the ones the MC bit maps cover.
    public static func isUserBlock(_ block: UInt16) -> Bool { block <= reg }

    /// `S_PAD3`, `REG`, `D_ID` …; nil for block numbers the chips do not have.
    public static func name(_ block: UInt16) -> String? {
        switch block {
        case 0x00...0x0D: return "S_PAD\(block)"
        case 0x0E: return "REG"
        case 0x80: return "RC"
        case 0x81: return "MAC"
        case 0x82: return "ID"
        case 0x83: return "D_ID"
        case 0x84: return "SER_C"
        case 0x85: return "SYS_C"
        case 0x86: return "CKV"
        case 0x87: return "CK"
        case 0x88: return "MC"
        case 0x90: return "WCNT"
        case 0x91: return "MAC_A"
        case 0x92: return "STATE"
        case 0xA0: return "CRC_CHECK"
        default: return nil
        }
    }

    /// What the system blocks hold, where a reader of a trace can check it at a glance.
    public static func describe(_ block: UInt16, data: [UInt8]) -> String? {
        guard data.count == 16 else { return nil }
        switch block {
        case 0x0E: return "subtraction register A \(Hex.string(data[0..<4])), B \(Hex.string(data[4..<8])), C \(Hex.string(data[8..<16]))"
        case 0x82: return "IDd \(Hex.string(data[0..<8])), DFC \(Hex.string(data[8..<10]))"
        case 0x83: return "IDm \(Hex.string(data[0..<8])), PMm \(Hex.string(data[8..<16]))"
        case 0x84: return "service code \(Hex.string(data[0..<2]))"
        case 0x85: return "system code \(Hex.string(data[0..<2]))"
        case 0x86: return "card key version \(Hex.string(data[0..<2]))"
        case 0x88:
            // MC[3] bit 0: NDEF support, i.e. the tag also answers Polling for 12FC (nfcpy format()).
            return "memory configuration: S_PAD write bits \(Hex.string(data[0..<2])), system blocks "
                + (data[2] == 0xFF ? "writable" : "read-only") + ", NDEF " + (data[3] & 1 == 1 ? "on" : "off")
        case 0x90: return "write counter \(Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16)"
        default: return nil
        }
    }
}
