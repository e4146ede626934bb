import Testing
@testable import NFCCore

/// Records built by hand from protocols.md §5.10, values computed on paper.
@Suite struct SuicaHistoryTests {
    @Test func railTripAtAGate() throws {
        // 16 gate, 01 fare, 00 normal, 02 entry+exit; 328F = 0011001 0100 01111 → 2025-04-15;
        // E3 0A → E3 14; balance E8 03 = 1000 yen; sequence 00 2A = 42.
        let r = try SuicaHistoryRecord.decode(Hex.parse("16 01 00 02 32 8F E3 0A E3 14 E8 03 00 00 2A 00")!)
        #expect(r.terminalName == "ticket gate" && r.processName == "fare (gate exit)")
        #expect(r.paymentType == 0 && SuicaCodes.entryExit(r.entryExitType) == "entry and exit (stored value)")
        #expect(r.year == 2025 && r.month == 4 && r.day == 15 && r.dateText == "2025-04-15")
        #expect(r.place == .rail(entryLine: 0xE3, entryStation: 0x0A, exitLine: 0xE3, exitStation: 0x14))
        #expect(r.balance == 1000 && r.sequenceNumber == 42 && r.entryRegion == 0 && r.exitRegion == 0)
        #expect(!r.isEmpty)
    }

    // §9 #16: f2z would read the year as 0x32 & 0xFE = 50; the 7-bit field gives 25.
    @Test func yearIsTheTopSevenBits() throws {
        let r = try SuicaHistoryRecord.decode(Hex.parse("16 01 00 02 33 21 00 00 00 00 00 00 00 00 00 00")!)
        #expect(r.year == 2025 && r.month == 9 && r.day == 1)
        let y2026 = try SuicaHistoryRecord.decode(Hex.parse("16 01 00 02 34 3F 00 00 00 00 00 00 00 00 00 00")!)
        #expect(y2026.dateText == "2026-01-31")
    }

    @Test func shopPurchaseHasATimeAndTerminal() throws {
        // 12:34:56 → 12 << 11 | 34 << 5 | 28 = 645C; terminal 12 34; C6 = 46 purchase + b7 (part cash).
        let r = try SuicaHistoryRecord.decode(Hex.parse("C7 C6 00 00 32 8F 64 5C 12 34 20 03 00 00 2B 00")!)
        #expect(r.terminalName == "shop terminal (POS)")
        #expect(r.processType == 0x46 && r.paidPartlyInCash && r.processName == "purchase (part cash)")
        #expect(r.place == .sale(hour: 12, minute: 34, second: 56, terminalID: 0x1234))
        #expect(r.balance == 800)
    }

    @Test func busRideHasLineAndStop() throws {
        let r = try SuicaHistoryRecord.decode(Hex.parse("05 0F 00 0F 32 90 01 23 04 56 D2 02 00 00 2C 40")!)
        #expect(r.place == .bus(line: 0x0123, stop: 0x0456))
        #expect(r.processName == "bus/tram fare" && r.dateText == "2025-04-16" && r.balance == 722)
        #expect(r.entryRegion == 1 && SuicaCodes.region(r.entryRegion) == "Chubu")
    }

    @Test func recordsEncodeBackAndEmptySlotsAreSeen() throws {
        let made = SuicaHistoryRecord(terminalType: 0x16, processByte: 0x01, entryExitType: 0x02, year: 2026, month: 2, day: 3,
                                      placeBytes: [0xE3, 0x0A, 0xE3, 0x14], balance: 1234, sequenceNumber: 300, regionByte: 0x00)
        #expect(try SuicaHistoryRecord.decode(made.bytes) == made)
        #expect(made.dateText == "2026-02-03" && made.bytes.count == 16)
        #expect(try SuicaHistoryRecord.decode([UInt8](repeating: 0, count: 16)).isEmpty)
        #expect(throws: DecodeError(offset: 10, expected: "balance (2 bytes, little endian)", found: "1 byte")) {
            try SuicaHistoryRecord.decode(Array(made.bytes.prefix(11)))
        }
        #expect(SuicaHistoryRecord(terminalType: 0x99, processByte: 0x7E, year: 2025, month: 1, day: 1, placeBytes: [],
                                   balance: 0, sequenceNumber: 0).terminalName == "terminal 0x99")
    }
}
