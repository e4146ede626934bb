/// IDm (Manufacture ID, NFCID2): 8 bytes, held as one big-endian integer so that comparing and
/// copying it costs nothing per frame. protocols.md §5.2.
public struct FeliCaIDm: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Nil unless `bytes` holds exactly 8 bytes.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 8 else { return nil }
        rawValue = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func read(_ c: inout ByteCursor, _ expected: @autoclosure () -> String = "8-byte IDm") throws(DecodeError) -> FeliCaIDm {
        FeliCaIDm(rawValue: try readUInt64(&c, expected()))
    }

    /// Eight bytes, big endian, read as one unit so that a short IDm or PMm reports where it starts.
    static func readUInt64(_ c: inout ByteCursor, _ expected: @autoclosure () -> String) throws(DecodeError) -> UInt64 {
        let range = try c.readRange(8, expected())
        return c.bytes[range].reduce(0) { $0 << 8 | UInt64($1) }
    }

    public var bytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: rawValue >> (56 - 8 * $0)) } }
    public var description: String { Hex.string(bytes) }

    /// Upper nibble of byte 0: the number of the system this IDm belongs to (systems are numbered
    /// in the order they were separated; system n answers Polling with this nibble set to n).
    public var systemNumber: Int { Int(rawValue >> 60) }

    /// The same card's IDm in system `n` (0…15).
    public func inSystem(_ n: Int) -> FeliCaIDm {
        FeliCaIDm(rawValue: rawValue & 0x0FFF_FFFF_FFFF_FFFF | UInt64(n & 0xF) << 60)
    }

    /// Whether `other` is the same card seen through another (or the same) system.
    public func isSameCard(as other: FeliCaIDm) -> Bool {
        rawValue & 0x0FFF_FFFF_FFFF_FFFF == other.rawValue & 0x0FFF_FFFF_FFFF_FFFF
    }

    /// Bytes 0–1 with the system nibble cleared: the manufacturer code Sony assigns.
    public var manufacturerCode: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 48) & 0x0FFF }
    /// Bytes 2–7: the card identification number.
    public var cardIdentificationNumber: [UInt8] { Array(bytes[2...]) }

    /// What bytes 0–1 say about how the IDm was made (NFC-DIG; PM3 `cmdhffelica.c`).
    public enum Kind: Sendable, Hashable {
        /// `01 FE`: NFC-DEP target, bytes 2–7 random.
        case nfcDEP
        /// `02 FE`: NFC Forum Type 3 Tag (emulated), bytes 2–7 random.
        case type3TagRandom
        /// `03 FE`: FeliCa Plug / Lite with the data format code (DFC) in bytes 2–3.
        case dataFormatCode(UInt16)
        /// `x4 FE`: random ID of system x (PM3).
        case randomID
        /// `05 FE`: unregistered mobile random ID.
        case mobileRandom
        /// Any other value: manufacturer code + card identification number.
        case manufactured
    }

    public var kind: Kind {
        let b0 = UInt8(truncatingIfNeeded: rawValue >> 56), b1 = UInt8(truncatingIfNeeded: rawValue >> 48)
        guard b1 == 0xFE else { return .manufactured }
        switch b0 {
        case 0x01: return .nfcDEP
        case 0x02: return .type3TagRandom
        case 0x03: return .dataFormatCode(UInt16(truncatingIfNeeded: rawValue >> 32))
        case 0x05: return .mobileRandom
        default: return b0 & 0x0F == 0x04 ? .randomID : .manufactured
        }
    }

    public var kindDescription: String {
        switch kind {
        case .nfcDEP: return "NFC-DEP target (random ID)"
        case .type3TagRandom: return "NFC Forum Type 3 Tag (random ID)"
        case .dataFormatCode(let dfc): return "FeliCa Plug / Lite, DFC \(Hex.value(dfc, digits: 4))"
        case .randomID: return "random ID of system \(systemNumber)"
        case .mobileRandom: return "unregistered mobile random ID"
        case .manufactured: return "manufacturer code \(Hex.value(manufacturerCode, digits: 4)), card number \(Hex.string(cardIdentificationNumber))"
        }
    }
}

/// PMm (Manufacture Parameter): IC code and maximum-response-time parameters. protocols.md §5.2.
public struct FeliCaPMm: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 8 else { return nil }
        rawValue = bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func read(_ c: inout ByteCursor) throws(DecodeError) -> FeliCaPMm {
        FeliCaPMm(rawValue: try FeliCaIDm.readUInt64(&c, "8-byte PMm"))
    }

    public var bytes: [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: rawValue >> (56 - 8 * $0)) } }
    public var description: String { Hex.string(bytes) }

    public func byte(_ i: Int) -> UInt8 { i >= 0 && i < 8 ? UInt8(truncatingIfNeeded: rawValue >> (56 - 8 * i)) : 0 }

    /// PMm[0]: ROM type.
    public var romType: UInt8 { byte(0) }
    /// PMm[1]: IC type.
    public var icType: UInt8 { byte(1) }

    /// The chip family PMm[1] names (nfcpy `tt3_sony.py` IC code maps).
    public enum Family: String, Sendable, Hashable {
        case standard = "FeliCa Standard"
        case mobile = "FeliCa Mobile"
        case lite = "FeliCa Lite"
        case liteS = "FeliCa Lite-S"
        case plug = "FeliCa Plug"
        case link = "FeliCa Link"
    }

    public var family: Family? { Self.ic(icType)?.family }
    /// `FeliCa Standard (RC-S915)`, `FeliCa Lite-S (RC-S966)`; nil for IC types no source lists.
    public var icName: String? { Self.ic(icType)?.name }

    static func ic(_ t: UInt8) -> (family: Family, name: String)? {
        switch t {
        case 0x00: return (.standard, "FeliCa Standard (RC-S830)")
        case 0x01: return (.standard, "FeliCa Standard (RC-S915)")
        case 0x02: return (.standard, "FeliCa Standard (RC-S919)")
        case 0x08: return (.standard, "FeliCa Standard (RC-S952)")
        case 0x09: return (.standard, "FeliCa Standard (RC-S953)")
        case 0x0B: return (.standard, "FeliCa Standard (IC 0B, newer Suica)")
        case 0x0C: return (.standard, "FeliCa Standard (RC-S954)")
        case 0x0D: return (.standard, "FeliCa Standard (RC-S960)")
        case 0x20: return (.standard, "FeliCa Standard (RC-S962)")
        case 0x32: return (.standard, "FeliCa Standard (RC-SA00/1, AES)")
        case 0x35: return (.standard, "FeliCa Standard (RC-SA00/2, AES)")
        case 0x06, 0x07: return (.mobile, "FeliCa Mobile 1.0")
        case 0x10...0x13: return (.mobile, "FeliCa Mobile 2.0")
        case 0x14...0x1F: return (.mobile, "FeliCa Mobile 3.0")
        case 0xF0: return (.lite, "FeliCa Lite (RC-S965)")
        case 0xF1: return (.liteS, "FeliCa Lite-S (RC-S966)")
        case 0xF2: return (.link, "FeliCa Link (RC-S730) in Lite-S mode")
        case 0xE0: return (.plug, "FeliCa Plug (RC-S926)")
        case 0xE1: return (.link, "FeliCa Link (RC-S730) in Plug mode")
        default: return nil
        }
    }

    /// Which command each maximum-response-time byte covers (nfcpy's use of PMm[2…6]; PM3
    /// `iso18.h`). NFC-DIG only names PMm[5] MRTI_CHECK and PMm[6] MRTI_UPDATE.
    public enum TimeoutParameter: Int, Sendable, CaseIterable {
        case requestService = 2
        case requestResponse = 3
        case authentication = 4
        case read = 5
        case write = 6

        public var name: String {
            switch self {
            case .requestService: return "Request Service"
            case .requestResponse: return "Request Response / Search Service Code / Request System Code"
            case .authentication: return "authentication"
            case .read: return "Read"
            case .write: return "Write"
            }
        }
    }

    /// Maximum response time in microseconds for `units` blocks (or nodes): T = Tt × ((B+1)·n + A + 1) × 4^E,
    /// Tt = 256 × 16 / fc ≈ 302.1 µs, with the byte read as E (bits 7–6), B (5–3), A (2–0).
    public func maximumResponseTime(_ parameter: TimeoutParameter, units: Int) -> Double {
        Self.responseTime(byte(parameter.rawValue), units: units)
    }

    public static func responseTime(_ mrt: UInt8, units: Int) -> Double {
        let a = Double(mrt & 7), b = Double(mrt >> 3 & 7), e = Int(mrt >> 6)
        let tt = 256.0 * 16.0 / 13.56
        return tt * ((b + 1) * Double(max(0, units)) + a + 1) * Double(1 << (2 * e))
    }
}
