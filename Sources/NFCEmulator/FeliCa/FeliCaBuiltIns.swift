import NFCCore

/// Ready-made FeliCa cards for `emulate --model`: the cards of the FeliCa traces in Traces/
/// (scripts/make-felica-traces.py), so that replaying a trace against its built-in gives the
/// recorded answers byte for byte.
extension FeliCaDump {
    static let builtIns: [BuiltInTag] = [
        BuiltInTag(name: "felica-lite-s", description: "FeliCa Lite-S formatted as a Type 3 Tag (88B4 + 12FC), NDEF URI record") {
            TagDump(liteS())
        },
        BuiltInTag(name: "suica", description: "transit card, system 0003: 20 history records in 090F, card info 008B") {
            TagDump(suica())
        },
        BuiltInTag(name: "felica-two-systems", description: "FeliCa Standard with systems 8E4B and FE00 (student number in 1A8B)") {
            TagDump(twoSystems())
        },
    ]

    /// PMm of FeliCa Standard RC-S915 (IC 01) with the response-time bytes the traces use.
    static let standardPMm = FeliCaPMm(rawValue: 0x0301_4B02_4F49_93FF)

    /// PMm of the built-in Lite-S: IC code `00 F1` (Lite-S, RC-S966, what nfcpy goes by) but
    /// read and write response-time bytes [5], [6] of `83` instead of the chip's `01` and `43`.
    /// nfcpy waits 302 µs × ((B+1)·n + A + 1) × 4^E (§5.2): with the chip's bytes 0.9 ms for a
    /// one-block Read, which a loaded machine often misses over UDP; with `83` 24 ms (n = 1) to
    /// 39 ms (n = 4). The card of `felica-errors` (emulate --from-trace) keeps the chip's PMm.
    public static let liteSBuiltInPMm = FeliCaPMm(rawValue: 0x00F1_0000_0083_8300)

    /// The Lite-S of `felica-errors` session 1 (with `liteSBuiltInPMm` unless told otherwise): its
    /// IDm, an AIB (version 1.0, Nbr 4, Nbw 1, Nmaxb 13, read/write) and one URI record.
    public static func liteS(pmm: FeliCaPMm = liteSBuiltInPMm) -> FeliCaDump {
        var m = FeliCaLiteSMemory(idm: FeliCaIDm(rawValue: 0x012E_3C88_9105_6D12), pmm: pmm)
        let message = (try? NDEFMessage([NDEFRecord.uri("https://nfctrace.example/felica/lite-s")]).encode()) ?? []
        try? m.formatNDEF(message: message)
        return FeliCaDump(memory: .liteS(m))
    }

    /// A Suica (CJRC system 0003) whose newest 12 history records are those of `suica-history`;
    /// 8 older ones complete the 20 a CJRC card keeps (§5.4), with balances that chain into them.
    public static func suica() -> FeliCaDump {
        var system = FeliCaCardSystem(code: FeliCaSystemCode.cjrc, idm: FeliCaIDm(rawValue: 0x012E_50A3_1C9D_470B), pmm: standardPMm,
                                      nodes: [FeliCaCardSystem.rootArea])
        let records = suicaRecords()
        // Card information: balance in bytes 11–12, little endian (ICHistoryReader, §5.4).
        let balance = records.first?.balance ?? 0
        let cardInfo = [UInt8](repeating: 0, count: 11) + [UInt8(truncatingIfNeeded: balance), UInt8(balance >> 8)] + [0, 0, 0]
        system.addService(FeliCaServiceCode(0x008B), keyVersion: 0x0010, blocks: [cardInfo])
        system.addService(.cjrcHistory, keyVersion: 0x0010, blocks: records.map(\.bytes))
        return FeliCaDump(memory: .standard([system]))
    }

    /// Newest first, as the card keeps them (block 0 = newest).
    static func suicaRecords() -> [SuicaHistoryRecord] {
        func rail(_ t: UInt8, _ p: UInt8, _ d: (Int, Int, Int), _ place: [UInt8], _ balance: UInt16, _ seq: UInt16,
                  entryExit: UInt8 = 0) -> SuicaHistoryRecord {
            SuicaHistoryRecord(terminalType: t, processByte: p, entryExitType: entryExit, year: d.0, month: d.1, day: d.2,
                               placeBytes: place, balance: balance, sequenceNumber: seq)
        }
        // Shops and vending machines: time of day (hh 5 bits, mm 6, ss/2 5) and terminal ID (§5.10).
        func sale(_ h: UInt16, _ m: UInt16, _ s: UInt16, _ terminal: UInt16) -> [UInt8] {
            let time = h << 11 | m << 5 | s / 2
            return [UInt8(time >> 8), UInt8(time & 0xFF), UInt8(terminal >> 8), UInt8(terminal & 0xFF)]
        }
        let chronological = [
            // Older records, not in the trace: the balance before the trace's first record is 2000.
            rail(0x07, 0x02, (2025, 11, 1), [0xE3, 0x0A, 0x00, 0x00], 3000, 0x0139),
            rail(0x16, 0x01, (2025, 11, 3), [0xE3, 0x0A, 0xE3, 0x14], 2800, 0x013A),
            rail(0x16, 0x01, (2025, 11, 3), [0xE3, 0x14, 0xE3, 0x0A], 2600, 0x013B),
            rail(0xC8, 0x46, (2025, 11, 10), sale(8, 15, 20, 0x3A11), 2450, 0x013C),
            rail(0x16, 0x01, (2025, 11, 14), [0xE3, 0x0A, 0x02, 0x05], 2220, 0x013D),
            rail(0x16, 0x01, (2025, 11, 14), [0x02, 0x05, 0xE3, 0x0A], 1990, 0x013E),
            rail(0x1F, 0x02, (2025, 11, 20), [0xE3, 0x0A, 0x00, 0x00], 2990, 0x013F),
            rail(0xC7, 0x46, (2025, 11, 25), sale(19, 2, 44, 0x1B07), 2000, 0x0140),
            // The twelve records of suica-history (scripts/make-felica-traces.py `suica_records`).
            rail(0x07, 0x02, (2025, 11, 28), [0xE3, 0x0A, 0x00, 0x00], 5000, 0x0141),
            rail(0x16, 0x01, (2025, 11, 28), [0xE3, 0x0A, 0xE3, 0x14], 4800, 0x0142),
            rail(0x16, 0x01, (2025, 11, 29), [0xE3, 0x14, 0xE3, 0x0A], 4600, 0x0143),
            rail(0x05, 0x0F, (2025, 12, 3), [0x0A, 0x21, 0x00, 0x43], 4390, 0x0144, entryExit: 0x0F),
            rail(0xC8, 0x46, (2025, 12, 3), sale(18, 42, 10, 0x3A11), 4230, 0x0145),
            rail(0x16, 0x01, (2025, 12, 15), [0x02, 0x05, 0x24, 0x1C], 3760, 0x0146),
            rail(0x16, 0x01, (2025, 12, 15), [0x24, 0x1C, 0x02, 0x05], 3290, 0x0147),
            rail(0xC7, 0x46, (2025, 12, 20), sale(12, 5, 32, 0x1B07), 2642, 0x0148),
            rail(0x1F, 0x02, (2026, 1, 8), [0xE3, 0x0A, 0x00, 0x00], 4642, 0x0149),
            rail(0x16, 0x01, (2026, 1, 9), [0xE3, 0x0A, 0xE3, 0x21], 4412, 0x014A),
            rail(0x16, 0x01, (2026, 1, 12), [0xE3, 0x21, 0xE3, 0x0A], 4182, 0x014B),
            rail(0x16, 0x01, (2026, 1, 15), [0xE3, 0x0A, 0x1D, 0x08], 3792, 0x014C),
        ]
        return chronological.reversed()
    }

    /// The card of `felica-system-switch`: system 0 `8E4B` (member number in `100B`) and system 1
    /// `FE00` (student number in `1A8B`), one IDm apart in the system nibble. Both texts are
    /// ASCII, whose Shift_JIS bytes are the same.
    public static func twoSystems() -> FeliCaDump {
        let idm = FeliCaIDm(rawValue: 0x0101_120C_773E_9015)
        var first = FeliCaCardSystem(code: 0x8E4B, idm: idm, pmm: standardPMm, nodes: [FeliCaCardSystem.rootArea])
        first.addService(FeliCaServiceCode(0x100B), blocks: [Array("M-0042731".utf8)])
        var second = FeliCaCardSystem(code: FeliCaSystemCode.commonArea, idm: idm.inSystem(1), pmm: standardPMm,
                                      nodes: [FeliCaCardSystem.rootArea])
        second.addService(FeliCaServiceCode(0x1A8B), blocks: [Array("2024B0815".utf8)])
        return FeliCaDump(memory: .standard([first, second]))
    }
}
