import Testing
import NFCCore
@testable import NFCDissect

/// FeliCa frames built with the codec, CRC_F appended unless told otherwise.
func reader(_ c: FeliCaCommand, crc: Bool = true) -> Frame {
    let p = c.encode()
    return Frame(.data(.readerToTag), technology: .felica, bytes: crc ? CRC.appending(.felica, to: p) : p, crcStripped: false)
}

func card(_ r: FeliCaResponse, crc: Bool = true) -> Frame {
    let p = r.encode()
    return Frame(.data(.tagToReader), technology: .felica, bytes: crc ? CRC.appending(.felica, to: p) : p)
}

func felicaHex(_ hex: String, fromCard: Bool = false, crc: Bool = true) -> Frame {
    let b = Hex.parse(hex) ?? []
    return Frame(.data(fromCard ? .tagToReader : .readerToTag), technology: .felica, bytes: crc ? CRC.appending(.felica, to: b) : b)
}

enum Cards {
    static let suica = FeliCaIDm(rawValue: 0x012E_50A3_1C9D_470B)
    static let suicaPMm = FeliCaPMm(rawValue: 0x0301_4B02_4F49_93FF)
    static let system0 = FeliCaIDm(rawValue: 0x0101_120C_773E_9015)
    static let system1 = system0.inSystem(1)
    static let liteS = FeliCaIDm(rawValue: 0x012E_3C88_9105_6D12)
    static let liteSPMm = FeliCaPMm(rawValue: 0x00F1_0000_0001_4300)

    static func poll(_ sc: UInt16, _ idm: FeliCaIDm, _ pmm: FeliCaPMm = suicaPMm, rc: UInt8 = 1) -> [Frame] {
        [reader(.polling(systemCode: sc, requestCode: rc, timeSlots: 0)), card(.polling(idm: idm, pmm: pmm, requestData: rc == 1 ? sc : nil))]
    }

    static func read(_ idm: FeliCaIDm, _ service: UInt16, _ blocks: [UInt16]) -> FeliCaCommand {
        .readWithoutEncryption(idm: idm, services: [FeliCaServiceCode(service)],
                               blocks: blocks.map { FeliCaBlockListElement(serviceOrder: 0, blockNumber: $0) })
    }
}

@Suite struct FeliCaDissectorTests {
    @Test func pollingIsNamedAndAnsweredInContext() {
        let events = Dissector.dissect(Cards.poll(0x0003, Cards.suica))
        let d = frames(events)
        #expect(d[0].summary == "Polling system 0003 (CJRC transit: Suica, PASMO, ICOCA …), RC 01 (system code requested), 1 time slot")
        #expect(d[1].summary == "IDm 01 2E 50 A3 1C 9D 47 0B, PMm 03 01 4B 02 4F 49 93 FF: FeliCa Standard (RC-S915), system code 0003")
        #expect(d.allSatisfy { $0.crc == .ok(.felica) && $0.diagnostics.isEmpty && $0.layer == "FeliCa" })
        #expect(d[1].responseTo == d[0].number && d[0].responseIn == d[1].number)
        #expect(d[1].fields.first(key: "felica.idm.system")?.value == "0 (upper nibble of byte 0)")
        #expect(d[1].fields.first(key: "felica.request_data")?.value == "system code 0003 (CJRC transit: Suica, PASMO, ICOCA …)")
        let s = sessions(events)
        #expect(s.map(\.headline) == ["FeliCa Standard (RC-S915), IDm 01 2E 50 A3 1C 9D 47 0B, system 0003 (CJRC transit: Suica, PASMO, ICOCA …)"])
    }

    @Test func lenIsCheckedAgainstTheFrame() {
        var bytes = FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 0, timeSlots: 0).encode()
        bytes[0] = 0x08
        let d = frames(Dissector.dissect([felicaHex(Hex.string(bytes))]))
        #expect(d[0].diagnostics.contains(Diagnostic(.warning, "LEN 0x08 says 8 bytes, the frame has 6 without CRC_F (LEN counts the CRC)", range: 0..<1)))
        #expect(d[0].summary.hasPrefix("Polling system FFFF"), "a wrong LEN does not stop decoding")
        bytes[0] = 0x05
        let short = frames(Dissector.dissect([felicaHex(Hex.string(bytes))]))
        #expect(short[0].diagnostics.first?.message == "LEN 0x05 says 5 bytes, the frame has 6 without CRC_F")
    }

    @Test func crcMismatchNamesTheExpectedValueAndDecodingGoesOn() {
        var f = Cards.poll(0x0003, Cards.suica)[1]
        f.bytes[f.bytes.count - 1] ^= 0xFF
        let d = frames(Dissector.dissect([Cards.poll(0x0003, Cards.suica)[0], f]))
        guard case .mismatch(.felica, let expected, _) = d[1].crc else { Issue.record("\(d[1].crc)"); return }
        #expect(d[1].diagnostics.contains(Diagnostic(.warning, "CRC_F mismatch, expected \(Hex.string(expected))", range: 20..<22)))
        #expect(d[1].summary.hasPrefix("IDm 01 2E 50 A3 1C 9D 47 0B"))
    }

    @Test func framesWithoutCRCAreDecodedToo() {
        var stripped = reader(.polling(systemCode: 0xFE00, requestCode: 0, timeSlots: 0), crc: false)
        stripped.crcStripped = true
        let unmarked = card(.polling(idm: Cards.suica, pmm: Cards.suicaPMm, requestData: nil), crc: false)
        let d = frames(Dissector.dissect([stripped, unmarked]))
        #expect(d[0].crc == .stripped && d[0].diagnostics.isEmpty)
        #expect(d[1].crc == .stripped, "LEN covers the whole frame, so there is no CRC_F in it")
        #expect(d[1].diagnostics == [Diagnostic(.note, "LEN covers the whole frame: captured without CRC_F")])
        #expect(d[1].summary.hasPrefix("IDm 01 2E 50 A3 1C 9D 47 0B"))
    }

    @Test func aSecondSystemOfTheSameCardIsASwitchNotANewSession() {
        let trace = Cards.poll(0x8E4B, Cards.system0) + [reader(Cards.read(Cards.system0, 0x100B, [0])),
                                                         card(.readWithoutEncryption(idm: Cards.system0, status: .success, blocks: [Array(repeating: 0x41, count: 16)]))]
            + Cards.poll(0xFE00, Cards.system1) + [reader(Cards.read(Cards.system1, 0x1A8B, [0]))]
        let events = Dissector.dissect(trace, detail: .summary)
        let d = frames(events)
        #expect(d[5].summary.hasSuffix(", system switch 8E4B (system 0) → FE00 (system 1)"))
        #expect(d[5].diagnostics.contains { $0.severity == .note && $0.message.hasPrefix("system switch: the card now answers as FE00 (system 1)") })
        #expect(d[6].diagnostics.isEmpty, "the reader uses the new IDm")
        let s = sessions(events)
        #expect(s.count == 1 && Set(d.compactMap(\.session)) == [s[0].number])
        #expect(s[0].headline == "FeliCa Standard (RC-S915), IDm 11 01 12 0C 77 3E 90 15, system FE00 (FeliCa common area), system switch 8E4B → FE00")
        let full = sessions(Dissector.dissect(trace, detail: .full))
        #expect(full[0].tag.first(key: "tag.system_switch")?.value
                == "8E4B (system 0) → FE00 (system 1), IDm 01 01 12 0C 77 3E 90 15 → 11 01 12 0C 77 3E 90 15")
        #expect(SessionText.lines(s[0]).contains("  system switch in frame 6: 8E4B (system 0) → FE00 (system 1)"))
    }

    @Test func commandsAddressingAnotherIDmAreFlagged() {
        let stale = Cards.poll(0x8E4B, Cards.system0) + Cards.poll(0xFE00, Cards.system1) + [reader(Cards.read(Cards.system0, 0x1A8B, [0]))]
        let d = frames(Dissector.dissect(stale))
        #expect(d[4].diagnostics == [Diagnostic(.warning, "IDm mismatch: addresses 01 01 12 0C 77 3E 90 15 (8E4B (system 0)), the card now answers as FE00 (system 1) with 11 01 12 0C 77 3E 90 15", range: 2..<10)])
        let stranger = Cards.poll(0x0003, Cards.suica) + [reader(Cards.read(Cards.liteS, 0x000B, [0]))]
        let e = frames(Dissector.dissect(stranger))
        #expect(e[2].diagnostics == [Diagnostic(.warning, "IDm mismatch: addresses 01 2E 3C 88 91 05 6D 12, the card in this session is 01 2E 50 A3 1C 9D 47 0B", range: 2..<10)])
        let answered = Cards.poll(0x0003, Cards.suica) + [reader(Cards.read(Cards.suica, 0x090F, [0])),
                                                          card(.readWithoutEncryption(idm: Cards.liteS, status: FeliCaStatusFlags(sf1: 0xFF, sf2: 0xA6), blocks: []))]
        let f = frames(Dissector.dissect(answered))
        #expect(f[3].diagnostics.contains(Diagnostic(.warning, "the answer carries IDm 01 2E 3C 88 91 05 6D 12, the command addressed 01 2E 50 A3 1C 9D 47 0B", range: 2..<10)))
    }

    @Test func anotherCardAnsweringAPollingStartsANewSession() {
        let trace = Cards.poll(0xFFFF, Cards.suica, rc: 0) + Cards.poll(0xFFFF, Cards.suica, rc: 0) + Cards.poll(0xFFFF, Cards.liteS, Cards.liteSPMm, rc: 0)
        let events = Dissector.dissect(trace)
        let s = sessions(events)
        #expect(s.count == 2)
        #expect(s[0].firstFrame == 1 && s[0].lastFrame == 5 && s[1].firstFrame == 6)
        #expect(s[1].headline == "FeliCa Lite-S (RC-S966), IDm 01 2E 3C 88 91 05 6D 12, system 0 (code not seen)")
        #expect(frames(events)[5].diagnostics.contains(Diagnostic(.note, "another card (IDm 01 2E 3C 88 91 05 6D 12) answered: new session")))
        // Events come in order: the first session's summary before the frame that began the next.
        let order = events.map { e -> String in
            switch e {
            case .frame(let f): return "f\(f.number)"
            case .session(let s): return "s\(s.number)"
            }
        }
        #expect(order == ["f1", "f2", "f3", "f4", "f5", "s1", "f6", "s2"])
    }

    @Test func aSecondCardInALaterTimeSlotKeepsTheSession() {
        let trace = [reader(.polling(systemCode: 0xFFFF, requestCode: 0, timeSlots: 3)),
                     card(.polling(idm: Cards.suica, pmm: Cards.suicaPMm, requestData: nil)),
                     card(.polling(idm: Cards.liteS, pmm: Cards.liteSPMm, requestData: nil))]
        let events = Dissector.dissect(trace)
        #expect(sessions(events).count == 1)
        let d = frames(events)
        #expect(d[2].responseTo == 1)
        #expect(d[2].diagnostics.contains { $0.message.hasPrefix("another card answered in a later time slot (IDm 01 2E 3C 88 91 05 6D 12)") })
    }

    @Test func statusFlagsAreWarningsWithTheirMeaningAndTarget() {
        let a8 = Cards.poll(0xFE00, Cards.system0) + [reader(Cards.read(Cards.system0, 0x1A8B, [20])),
                                                      card(.readWithoutEncryption(idm: Cards.system0, status: FeliCaStatusFlags(sf1: 0x01, sf2: 0xA8), blocks: []))]
        let events = Dissector.dissect(a8, detail: .summary)
        let d = frames(events)
        #expect(d[3].summary == "SF 01 A8: illegal block number (beyond the service's size)")
        #expect(d[3].diagnostics == [Diagnostic(.warning, "status 01 A8: illegal block number (beyond the service's size), list element 1 = 1A8B block 20", range: 10..<12)])
        #expect(SessionText.lines(sessions(events)[0]).contains("  refused: frame 4 SF 01 A8 (illegal block number (beyond the service's size))"))
        let a1 = Cards.poll(0xFE00, Cards.system0) + [
            reader(.readWithoutEncryption(idm: Cards.system0, services: [], blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)])),
            card(.readWithoutEncryption(idm: Cards.system0, status: FeliCaStatusFlags(sf1: 0xFF, sf2: 0xA1), blocks: []))]
        let e = frames(Dissector.dissect(a1))
        #expect(e[2].diagnostics == [Diagnostic(.warning, "0 services; a card takes 1…16: a card answers SF FF A1")])
        #expect(e[3].diagnostics == [Diagnostic(.warning, "status FF A1: illegal number of services or nodes", range: 10..<12)])
    }

    @Test func suicaHistoryIsDecodedInFramesAndSession() throws {
        let records = [
            SuicaHistoryRecord(terminalType: 0x16, processByte: 0x01, year: 2026, month: 1, day: 15, placeBytes: [0xE3, 0x0A, 0x1D, 0x08],
                               balance: 3792, sequenceNumber: 332),
            SuicaHistoryRecord(terminalType: 0x1F, processByte: 0x02, year: 2026, month: 1, day: 8, placeBytes: [0xE3, 0x0A, 0, 0],
                               balance: 4182, sequenceNumber: 331),
        ]
        let trace = Cards.poll(0x0003, Cards.suica) + [reader(Cards.read(Cards.suica, 0x090F, [0, 1])),
                                                       card(.readWithoutEncryption(idm: Cards.suica, status: .success, blocks: records.map(\.bytes)))]
        let text = Dissector.dissect(trace, detail: .summary)
        let d = frames(text)
        #expect(d[2].summary == "Read Without Encryption 090F (CJRC transit history): blocks 0, 1")
        #expect(d[3].summary == "OK, 2 blocks (090F: blocks 0, 1): history 2026-01-15 … 2026-01-08, balance 3792 yen")
        let notes = SessionText.lines(sessions(text)[0])
        #expect(notes.contains("  Suica/CJRC history, system 0 (0003), service 090F (2 records, newest first):"))
        #expect(notes.contains { $0.contains("2026-01-15  ticket gate") && $0.contains("3792 yen   -390  #332  line/station E3/0A → 1D/08") })
        let full = Dissector.dissect(trace, detail: .full)
        let block = try #require(frames(full)[3].fields.first(key: "felica.block_data"))
        #expect(block.range == 13..<29 && block.children.first(key: "suica.balance")?.value == "3792 yen")
        #expect(block.children.first(key: "suica.balance")?.range == 23..<25)
        let memory = sessions(full)[0].memory
        #expect(memory.first(key: "suica.change")?.value == "-390 yen")
    }

    @Test func shiftJISTextShowsBesideTheHex() throws {
        let block = Array("2024A1234".utf8) + [UInt8](repeating: 0, count: 7)
        let kana: [UInt8] = [0xD4, 0xCF, 0xC0, 0xDE, 0x20, 0xCA, 0xC5, 0xBA] + [UInt8](repeating: 0x20, count: 8)
        let trace = Cards.poll(0xFE00, Cards.system0) + [
            reader(Cards.read(Cards.system0, 0x1A8B, [0])), card(.readWithoutEncryption(idm: Cards.system0, status: .success, blocks: [block])),
            reader(Cards.read(Cards.system0, 0x1A8B, [1])), card(.readWithoutEncryption(idm: Cards.system0, status: .success, blocks: [kana])),
        ]
        let d = frames(Dissector.dissect(trace, detail: .full))
        #expect(d[3].summary == "OK, 1 block (1A8B: block 0): \"2024A1234\"")
        #expect(d[5].summary == "OK, 1 block (1A8B: block 1): \"ﾔﾏﾀﾞ ﾊﾅｺ\"")
        #expect(d[3].fields.first(key: "felica.block_data")?.value == "\(Hex.string(block))  \"2024A1234\"")
    }

    @Test func type3TagAIBAndNDEFComeFromTheNDEFBranchDecoders() throws {
        let message = try NDEFMessage([.uri("https://nfctrace.example/t3t")]).encode()
        let blocks = try Type3Memory.blocks(message: message, nmaxb: 13)
        let numbers = (0..<UInt16(blocks.count)).map { $0 }
        let trace = Cards.poll(0x12FC, Cards.liteS, Cards.liteSPMm) + [
            reader(Cards.read(Cards.liteS, 0x000B, numbers)), card(.readWithoutEncryption(idm: Cards.liteS, status: .success, blocks: blocks)),
        ]
        let events = Dissector.dissect(trace, detail: .summary)
        #expect(frames(events)[3].summary == "OK, \(blocks.count) blocks (000B: blocks 0–\(blocks.count - 1)): NDEF URI https://nfctrace.example/t3t")
        let notes = SessionText.lines(sessions(events)[0])
        #expect(notes.contains("    NDEF: URI https://nfctrace.example/t3t"))
        let full = sessions(Dissector.dissect(trace, detail: .full))[0]
        #expect(full.memory.first(key: "t3t.aib.ln")?.value == "\(message.count) bytes in \(blocks.count - 1) block\(blocks.count == 2 ? "" : "s")")
        #expect(full.memory.first(key: "ndef.record") != nil)
        #expect(full.diagnostics.isEmpty)
    }

    @Test func writesLandInTheSessionAsWritten() {
        let data = Array("NEW DATA 0123456".utf8)
        let write = FeliCaCommand.writeWithoutEncryption(idm: Cards.liteS, services: [.ndefWrite],
                                                         blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 5)], data: data)
        let trace = Cards.poll(0x88B4, Cards.liteS, Cards.liteSPMm) + [reader(write), card(.writeWithoutEncryption(idm: Cards.liteS, status: .success))]
        let events = Dissector.dissect(trace, detail: .summary)
        let d = frames(events)
        #expect(d[2].summary == "Write Without Encryption 0009 (NDEF / user blocks, write): block 5")
        #expect(d[3].summary == "OK, written (0009: block 5)")
        let notes = SessionText.lines(sessions(events)[0])
        #expect(notes.contains { $0.hasSuffix("5* \(Hex.string(data))") })
        #expect(notes.contains("    (* written in this session)"))
    }

    @Test func readsAndWritesCarryTheMemoryTheyTouchedRunByRun() throws {
        let block = [UInt8](repeating: 0x11, count: 16)
        func read(_ services: [UInt16], _ list: [(UInt8, UInt16)]) -> [Frame] {
            let command = FeliCaCommand.readWithoutEncryption(idm: Cards.suica, services: services.map { FeliCaServiceCode($0) },
                                                               blocks: list.map { FeliCaBlockListElement(serviceOrder: $0.0, blockNumber: $0.1) })
            return [reader(command), card(.readWithoutEncryption(idm: Cards.suica, status: .success, blocks: list.map { _ in block }))]
        }
        let trace = Cards.poll(0x0003, Cards.suica)
            + read([0x090F], [(0, 0), (0, 1), (0, 2)])                  // one run
            + read([0x090F, 0x008B], [(0, 3), (1, 0), (0, 4), (0, 6)])  // services mixed, a block skipped
        let events = Dissector.dissect(trace)
        let d = frames(events)
        #expect(d[3].memory == MemoryAccess(offset: 0, count: 48, write: false, service: 0x090F))
        #expect(d[3].moreMemory == nil)
        #expect(d[5].memory == MemoryAccess(offset: 48, count: 16, write: false, service: 0x090F))
        #expect(d[5].moreMemory == [MemoryAccess(offset: 0, count: 16, write: false, service: 0x008B),
                                    MemoryAccess(offset: 64, count: 16, write: false, service: 0x090F),
                                    MemoryAccess(offset: 96, count: 16, write: false, service: 0x090F)])
        var out: [UInt8] = []
        let json = JSONRenderer()
        for e in events { json.render(e, into: &out) }
        let line = try #require(String(decoding: out, as: UTF8.self).split(separator: "\n").first { $0.contains("\"number\":6,") })
        #expect(line.contains(#""memory":{"offset":48,"count":16,"service":"090F","access":"read"},"more_memory":[{"offset":0,"count":16,"service":"008B","access":"read"},{"offset":64,"#))
    }

    @Test func unknownCodesAndOutOfContextAnswersAreDiagnosed() {
        let unknown = frames(Dissector.dissect([felicaHex("04 5A 01 02")]))
        #expect(unknown[0].summary == "unknown command 0x5A, 2 bytes")
        #expect(unknown[0].diagnostics.contains(Diagnostic(.warning, "0x5A is no FeliCa command code in protocols.md §5.3", range: 1..<2)))
        let auth = frames(Dissector.dissect([reader(.other(code: FeliCaCode(0x10), idm: Cards.suica, parameters: [1, 0, 0, 1, 0x0F, 0x09] + Array(repeating: 0xAB, count: 8)))]))
        #expect(auth[0].summary == "Authentication1, 14 parameter bytes")
        let wrong = Cards.poll(0x0003, Cards.suica) + [reader(.requestResponse(idm: Cards.suica)), card(.resetMode(idm: Cards.suica, status: .success))]
        let d = frames(Dissector.dissect(wrong))
        #expect(d[3].diagnostics.contains(Diagnostic(.warning, "Reset Mode response does not answer Request Response (frame 3)", range: 1..<2)))
        let alone = frames(Dissector.dissect([card(.requestResponse(idm: Cards.suica, mode: 0))]))
        #expect(alone[0].diagnostics.first == Diagnostic(.warning, "no reader frame is waiting for an answer"))
        #expect(alone[0].summary == "mode 0 (no authentication)")
        let truncated = frames(Dissector.dissect(Cards.poll(0x0003, Cards.suica) + [reader(Cards.read(Cards.suica, 0x090F, [0])), felicaHex("0E 07 01 2E 50 A3 1C 9D 47 0B 00 00 01 41", fromCard: true)]))
        #expect(truncated[3].summary == "malformed answer to Read Without Encryption")
        #expect(truncated[3].worstSeverity == .error)
    }

    @Test func summaryAndFullDetailAgree() {
        let trace = Cards.poll(0x8E4B, Cards.system0) + Cards.poll(0xFE00, Cards.system1)
            + [reader(Cards.read(Cards.system1, 0x1A8B, [0, 1])),
               card(.readWithoutEncryption(idm: Cards.system1, status: .success, blocks: [Array(repeating: 0x31, count: 16), Array(repeating: 0, count: 16)])),
               Frame(.fieldOff, technology: .felica)]
        let a = frames(Dissector.dissect(trace, detail: .summary)), b = frames(Dissector.dissect(trace, detail: .full))
        #expect(a.map(\.summary) == b.map(\.summary) && a.map(\.diagnostics) == b.map(\.diagnostics))
        #expect(a.allSatisfy { $0.fields.isEmpty } && b.contains { !$0.fields.isEmpty })
    }

    /// Random and mutated frames, both directions: nothing traps, every frame gets a summary.
    @Test func dissectorSurvivesRandomFrames() {
        var rng = SplitMix64(seed: 0xFE11CA)
        let seeds: [[UInt8]] = [
            FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 1, timeSlots: 3).encode(),
            Cards.read(Cards.suica, 0x090F, [0, 1, 300]).encode(),
            FeliCaCommand.writeWithoutEncryption(idm: Cards.liteS, services: [.ndefWrite],
                                                 blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)], data: Array(repeating: 7, count: 16)).encode(),
            FeliCaResponse.polling(idm: Cards.suica, pmm: Cards.suicaPMm, requestData: 3).encode(),
            FeliCaResponse.readWithoutEncryption(idm: Cards.suica, status: .success, blocks: [Array(repeating: 0x16, count: 16)]).encode(),
            FeliCaResponse.searchServiceCode(idm: Cards.suica, result: .area(FeliCaServiceCode(0), end: FeliCaServiceCode(0xFFFE))).encode(),
        ]
        let d = Dissector(detail: .full)
        var count = 0
        for i in 0..<20_000 {
            var bytes: [UInt8]
            if i % 2 == 0, let seed = seeds.randomElement(using: &rng) {
                bytes = seed
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
                if Bool.random(using: &rng) { bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng))) }
            } else {
                bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if let first = bytes.indices.first, Bool.random(using: &rng) { bytes[first] = UInt8(truncatingIfNeeded: bytes.count) }
            }
            if Bool.random(using: &rng) { bytes = CRC.appending(.felica, to: bytes) }
            let event: Frame.Event = [.data(.readerToTag), .data(.tagToReader), .data(.tagToReader), .fieldOff][Int.random(in: 0..<4, using: &rng)]
            d.process(Frame(event, technology: .felica, bytes: bytes, crcStripped: Int.random(in: 0..<8, using: &rng) == 0)) { e in
                if case .frame(let f) = e { count += 1; #expect(!f.summary.isEmpty) }
            }
        }
        d.finish { _ in }
        #expect(count > 19_000)
    }
}
