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
