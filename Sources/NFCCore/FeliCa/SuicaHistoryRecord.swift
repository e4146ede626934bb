/// One 16-byte record of the CJRC (Suica, PASMO, ICOCA …) transit history, service `090F`,
/// newest first. protocols.md §5.10: community reverse engineering (felicalib wiki lineage:
/// metrodroid, ICHistoryReader, f2z); JR has not published it.
///
///     0 terminal  1 process  2 payment  3 entry/exit  4–5 date  6–9 place  10–11 balance (LE)
///     12 ?  13–14 sequence (BE)  15 region
public struct SuicaHistoryRecord: Sendable, Hashable {
    public var terminalType: UInt8
    /// Byte 1 as stored; see `processType` and `paidPartlyInCash`.
    public var processByte: UInt8
    public var paymentType: UInt8
    public var entryExitType: UInt8
    /// Bytes 4–5, big endian: year − 2000 (7 bits), month (4), day (5).
    public var dateRaw: UInt16
    /// Bytes 6–9: their meaning depends on the terminal (see `place`).
    public var placeBytes: [UInt8]
    /// Bytes 10–11, little endian: balance in yen after the transaction.
    public var balance: UInt16
    public var unknownByte: UInt8
    /// Bytes 13–14, big endian.
    public var sequenceNumber: UInt16
    public var regionByte: UInt8

    public init(terminalType: UInt8, processByte: UInt8, paymentType: UInt8 = 0, entryExitType: UInt8 = 0,
                year: Int, month: Int, day: Int, placeBytes: [UInt8], balance: UInt16, unknownByte: UInt8 = 0,
                sequenceNumber: UInt16, regionByte: UInt8 = 0) {
        self.terminalType = terminalType
        self.processByte = processByte
        self.paymentType = paymentType
        self.entryExitType = entryExitType
        self.dateRaw = UInt16(truncatingIfNeeded: ((year - 2000) & 0x7F) << 9 | (month & 0xF) << 5 | (day & 0x1F))
        self.placeBytes = Array((placeBytes + [0, 0, 0, 0]).prefix(4))
        self.balance = balance
        self.unknownByte = unknownByte
        self.sequenceNumber = sequenceNumber
        self.regionByte = regionByte
    }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> SuicaHistoryRecord {
        var c = ByteCursor(block)
        var r = SuicaHistoryRecord(terminalType: try c.readUInt8("terminal type"), processByte: try c.readUInt8("process type"),
                                   year: 2000, month: 0, day: 0, placeBytes: [], balance: 0, sequenceNumber: 0)
        r.paymentType = try c.readUInt8("payment type")
        r.entryExitType = try c.readUInt8("entry/exit type")
        r.dateRaw = try c.readUInt16BE("date (2 bytes, big endian)")
        r.placeBytes = try c.readBytes(4, "4 bytes of line/station, bus or shop codes")
        r.balance = try c.readUInt16LE("balance (2 bytes, little endian)")
        r.unknownByte = try c.readUInt8("byte 12")
        r.sequenceNumber = try c.readUInt16BE("sequence number (2 bytes, big endian)")
        r.regionByte = try c.readUInt8("region")
        try c.expectEnd("the 16-byte history record")
        return r
    }

    public var bytes: [UInt8] {
        [terminalType, processByte, paymentType, entryExitType, UInt8(dateRaw >> 8), UInt8(truncatingIfNeeded: dateRaw)]
            + placeBytes + [UInt8(truncatingIfNeeded: balance), UInt8(balance >> 8), unknownByte,
                            UInt8(sequenceNumber >> 8), UInt8(truncatingIfNeeded: sequenceNumber), regionByte]
    }

    /// An all-zero date marks an unused slot on a new card (metrodroid `extractDate`).
    public var isEmpty: Bool { dateRaw == 0 }

    // §9 #16 (DISAGREE): f2z takes `byte4 & 0xFE` as the year, a missing shift; metrodroid and
    // ICHistoryReader read the top 7 bits, which is what gives plausible years.
    public var year: Int { 2000 + Int(dateRaw >> 9) }
    public var month: Int { Int(dateRaw >> 5 & 0x0F) }
    public var day: Int { Int(dateRaw & 0x1F) }
    public var dateText: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    // §9 #17 (DISAGREE): ICHistoryReader splits byte 1 into b6..b0 (type) and b7 ("paid together
    // with cash or another card"); metrodroid names whole bytes and lists 84/85/C6/CB separately.
    // Its C6 and CB are 46 and 4B + b7 ("… with cash"), which supports the split; we take it.
    public var processType: UInt8 { processByte & 0x7F }
    public var paidPartlyInCash: Bool { processByte & 0x80 != 0 }

    public var entryRegion: Int { Int(regionByte >> 6) }
    public var exitRegion: Int { Int(regionByte >> 4 & 3) }

    /// What bytes 6–9 hold, chosen by terminal type (metrodroid `SuicaTrip.parse`, ICHistoryReader).
    public enum Place: Sendable, Hashable {
        /// Rail: entry line + station, exit line + station (exit `00 00` for entries, charges, tickets).
        case rail(entryLine: UInt8, entryStation: UInt8, exitLine: UInt8, exitStation: UInt8)
        /// Bus/tram terminal (`05`): operator/line code and stop code, both big endian.
        case bus(line: UInt16, stop: UInt16)
        /// Shops and vending (`C7`, `C8`): time of day (hh 5 bits, mm 6, ss/2 5) and terminal ID.
        case sale(hour: Int, minute: Int, second: Int, terminalID: UInt16)
    }

    public var place: Place {
        let p = placeBytes + [0, 0, 0, 0]
        let first = UInt16(p[0]) << 8 | UInt16(p[1]), second = UInt16(p[2]) << 8 | UInt16(p[3])
        switch terminalType {
        case 0x05: return .bus(line: first, stop: second)
        case 0xC7, 0xC8: return .sale(hour: Int(first >> 11), minute: Int(first >> 5 & 0x3F), second: Int(first & 0x1F) * 2, terminalID: second)
        default: return .rail(entryLine: p[0], entryStation: p[1], exitLine: p[2], exitStation: p[3])
        }
    }

    public var terminalName: String { SuicaCodes.terminal(terminalType) ?? "terminal \(Hex.byte(terminalType))" }
    public var processName: String {
        (SuicaCodes.process(processType) ?? "process \(Hex.byte(processType))") + (paidPartlyInCash ? " (part cash)" : "")
    }
}

/// Name tables of the CJRC history (felicalib wiki lineage: metrodroid `SuicaUtil.kt`,
/// ICHistoryReader `Defs.cs`, translated). Best effort: §5.10 rates them as such.
public enum SuicaCodes {
    public static func terminal(_ t: UInt8) -> String? {
        switch t {
        case 0x03: return "fare adjustment machine"
        case 0x04: return "portable terminal"
        case 0x05: return "bus/tram terminal"
        case 0x07, 0x08, 0x12: return "ticket machine"
        case 0x09: return "quick-charge machine"
        case 0x13: return "ticket machine (other)"
        case 0x14: return "station counter"
        case 0x15: return "commuter pass machine"
        case 0x16: return "ticket gate"
        case 0x17: return "simple ticket gate"
        case 0x18: return "station counter (reissue)"
        case 0x19, 0x1A: return "staffed gate terminal"
        case 0x1B: return "mobile phone / PaSoRi"
        case 0x1C: return "transfer fare adjustment"
        case 0x1D: return "transfer gate to other line"
        case 0x1F: return "deposit machine"
        case 0x20: return "counter terminal (Meitetsu)"
        case 0x21: return "fare adjustment machine"
        case 0x22: return "counter / simple gate / bus"
        case 0x23: return "Shinkansen gate"
        case 0x24: return "on-train ticket machine"
        case 0x46: return "VIEW ALTTE"
        case 0x48: return "point exchange machine"
        case 0xC7: return "shop terminal (POS)"
        case 0xC8: return "vending machine"
        default: return nil
        }
    }

    /// Process type b6..b0.
    public static func process(_ p: UInt8) -> String? {
        switch p {
        case 0x01: return "fare (gate exit)"
        case 0x02: return "charge"
        case 0x03: return "ticket purchase"
        case 0x04, 0x05: return "fare adjustment"
        case 0x06: return "counter exit"
        case 0x07: return "new issue"
        case 0x08: return "charge refund"
        case 0x0C, 0x0D, 0x0F: return "bus/tram fare"
        case 0x10, 0x11: return "reissue"
        case 0x13: return "fare (Shinkansen exit)"
        case 0x14: return "auto-charge at entry"
        case 0x15: return "auto-charge at exit"
        case 0x17: return "auto-charge (PiTaPa)"
        case 0x19, 0x1A, 0x1B: return "bus fare adjustment"
        case 0x1D: return "limousine bus"
        case 0x1F: return "charge (bus/counter)"
        case 0x23: return "ticket purchase (bus)"
        case 0x33: return "cancellation (refund)"
        case 0x46: return "purchase"
        case 0x48: return "point charge"
        case 0x49: return "charge (at a shop)"
        case 0x4A: return "purchase cancelled"
        case 0x4B: return "admission (at a shop)"
        default: return nil
        }
    }

    public static func payment(_ p: UInt8) -> String? {
        switch p {
        case 0x00: return "normal"
        case 0x02: return "VIEW card"
        case 0x0B: return "PiTaPa"
        case 0x0C: return "credit card"
        case 0x0D: return "PASMO / Passnet"
        case 0x13: return "nimoca quick charge"
        case 0x1E: return "nimoca SF refund"
        case 0x3F: return "Mobile Suica (credit card)"
        default: return nil
        }
    }

    public static func entryExit(_ e: UInt8) -> String? {
        switch e {
        case 0x00: return "normal (gate exit, or no gate: new issue, charge, purchase …)"
        case 0x01: return "entry (auto-charge)"
        case 0x02: return "entry and exit (stored value)"
        case 0x03: return "pass entry, fare-adjusted exit"
        case 0x04: return "stored-value entry, pass exit"
        case 0x05: return "transfer discount (rail)"
        case 0x0E: return "counter exit"
        case 0x0F: return "bus/tram fare"
        case 0x17: return "transfer discount (bus to rail)"
        case 0x1D: return "transfer discount (bus)"
        case 0x21: return "transfer fare adjustment"
        case 0x22: return "boarding outside the ticket's range"
        default: return nil
        }
    }

    /// Region codes of byte 15 (ICHistoryReader).
    public static func region(_ r: Int) -> String {
        switch r {
        case 0: return "JR / Kanto"
        case 1: return "Chubu"
        case 2: return "Kansai / Okinawa"
        default: return "other"
        }
    }
}
