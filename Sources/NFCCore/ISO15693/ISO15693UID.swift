/// The 64-bit UID of an ISO/IEC 15693 VICC (protocols.md §6.3): `E0` ‖ IC manufacturer code ‖
/// 48-bit serial, written MSB first (`E0 04 01 08 49 D0 DC 81`) but sent LSB first on air
/// (`81 DC D0 49 08 01 04 E0`).
public struct ISO15693UID: Sendable, Hashable, CustomStringConvertible {
    /// The UID as a number: bits 64…1, so `value >> 56` is the `E0` byte.
    public var value: UInt64

    public init(value: UInt64) { self.value = value }

    /// Where its parts sit in the 8 bytes on air (LSB first): the serial number, of which NXP
    /// keeps the ICODE type in bytes 4–5, the IC manufacturer code, then `E0` (ISO/IEC 15693-3 §4.1).
    public enum Layout {
        public static let all = FieldLayout(0, 8, "UID (8 bytes, LSB first)")
        public static let icodeType = FieldLayout(4, 2, "ICODE type bits")
        public static let manufacturer = FieldLayout(6, 1, "IC manufacturer code")
        public static let prefix = FieldLayout(7, 1, "E0")
    }

    /// From 8 bytes MSB first (`E0 04 …`); nil for any other length.
    public init?(msbFirst bytes: some Collection<UInt8>) {
        guard bytes.count == 8 else { return nil }
        value = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// From the 8 bytes as sent on air (LSB first); nil for any other length.
    public init?(onAir bytes: some Collection<UInt8>) {
        guard bytes.count == 8 else { return nil }
        value = bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// MSB first, as people write it.
    public var bytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
    /// LSB first, as sent in requests and answers.
    public var onAir: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    public var description: String { Hex.string(bytes) }

    /// The most significant byte, `E0` in every ISO/IEC 15693 UID.
    public var prefix: UInt8 { UInt8(truncatingIfNeeded: value >> 56) }
    public var hasE0Prefix: Bool { prefix == 0xE0 }
    /// ISO/IEC 7816-6 IC manufacturer code (the byte after `E0`).
    public var manufacturerCode: UInt8 { UInt8(truncatingIfNeeded: value >> 48) }
    /// The byte after the manufacturer code: NXP and ST put their IC family there.
    public var icIdentifier: UInt8 { UInt8(truncatingIfNeeded: value >> 40) }

    public var manufacturerName: String? { ISO15693UID.manufacturerName(manufacturerCode) }

    /// The ICODE family an NXP UID suggests, or nil. A hint only (confidence S, DISAGREE in
    /// protocols.md §6.3): byte 3 (MSB first) `01` = SLI family; then PM3's reading of bits
    /// 36/35 (`0x10`/`0x08` of byte 4): `00` SLI, `10` SLIX, `08` SLIX2, `18` ICODE DNA / NTAG 5
    /// (PM3's own comment table puts SLIX and SLIX2 on different bits than its code).
    public var nxpICODEType: String? {
        guard manufacturerCode == 0x04 else { return nil }
        let bits = UInt8(truncatingIfNeeded: value >> 32) & 0x18
        switch (icIdentifier, bits) {
        case (0x01, 0x00): return "ICODE SLI"
        case (0x01, 0x10): return "ICODE SLIX"
        case (0x01, 0x08): return "ICODE SLIX2"
        case (0x01, 0x18): return "ICODE DNA / NTAG 5"
        case (0x02, 0x10): return "ICODE SLIX-S"
        case (0x02, _): return "ICODE SLI-S"
        case (0x03, 0x10): return "ICODE SLIX-L"
        case (0x03, _): return "ICODE SLI-L"
        default: return nil
        }
    }

    /// ISO/IEC 7816-6 IC manufacturer registry, as listed in the Proxmark3 client
    /// (`client/src/cmdhf15.c`, `uidmapping`); protocols.md §6.3 checks the common ones.
    public static func manufacturerName(_ code: UInt8) -> String? {
        switch code {
        case 0x01: return "Motorola"
        case 0x02: return "STMicroelectronics"
        case 0x03: return "Hitachi"
        case 0x04: return "NXP Semiconductors"
        case 0x05: return "Infineon Technologies"
        case 0x06: return "Cylink"
        case 0x07: return "Texas Instruments"
        case 0x08: return "Fujitsu"
        case 0x09: return "Matsushita Electronics"
        case 0x0A: return "NEC"
        case 0x0B: return "Oki Electric"
        case 0x0C: return "Toshiba"
        case 0x0D: return "Mitsubishi Electric"
        case 0x0E: return "Samsung Electronics"
        case 0x0F: return "Hynix"
        case 0x10: return "LG Semiconductors"
        case 0x11: return "Emosyn-EM Microelectronics"
        case 0x12: return "INSIDE Technology"   // PM3 also lists HID Corporation under 0x12
        case 0x13: return "ORGA Kartensysteme"
        case 0x14: return "Sharp"
        case 0x15: return "Atmel"
        case 0x16: return "EM Microelectronic-Marin"
        case 0x17: return "KSW Microtec"
        case 0x18: return "ZMD"
        case 0x19: return "Xicor"
        case 0x1A: return "Sony"
        case 0x1B: return "Malaysia Microelectronic Solutions"
        case 0x1C: return "Emosyn"
        case 0x1D: return "Shanghai Fudan Microelectronics"
        case 0x1E: return "Magellan Technology"
        case 0x1F: return "Melexis"
        case 0x20: return "Renesas Technology"
        case 0x21: return "TAGSYS"
        case 0x22: return "Transcore"
        case 0x23: return "Shanghai Belling"
        case 0x24: return "Masktech"
        case 0x25: return "Innovision Research and Technology"
        case 0x26: return "Hitachi ULSI Systems"
        case 0x27: return "Cypak"
        case 0x28: return "Ricoh"
        case 0x29: return "ASK"
        case 0x2A: return "Unicore Microsystems"
        case 0x2B: return "Dallas Semiconductor / Maxim"
        case 0x2C: return "Impinj"
        case 0x2D: return "RightPlug Alliance"
        case 0x2E: return "Broadcom"
        case 0x2F: return "MStar Semiconductor"
        case 0x30: return "BeeDar Technology"
        case 0x31: return "RFIDsec"
        case 0x32: return "Schweizer Electronic"
        case 0x33: return "AMIC Technology"
        case 0x34: return "Mikron"
        case 0x35: return "Fraunhofer IPMS"
        case 0x36: return "IDS Microchip"
        case 0x37: return "Kovio"
        case 0x38: return "HMT Microelectronic"
        case 0x39: return "Silicon Craft Technology"
        case 0x3A: return "Advanced Film Device"
        case 0x3B: return "Nitecrest"
        case 0x3C: return "Verayo"
        case 0x3D: return "HID Global"
        case 0x3E: return "Productivity Engineering"
        case 0x3F: return "austriamicrosystems"
        case 0x40: return "Gemalto"
        case 0x41: return "Renesas Electronics"
        case 0x42: return "3Alogics"
        case 0x43: return "Top TroniQ Asia"
        case 0x44: return "Gentag"
        default: return nil
        }
    }
}
