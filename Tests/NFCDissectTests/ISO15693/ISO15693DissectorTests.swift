import Testing
import NFCCapture
import NFCCore
import NFCTestInputs
@testable import NFCDissect

/// ISO 15693 frame builders: hex text, CRC_B (ISO/IEC 13239) appended unless `crc: false`.
func VR(_ hex: String, crc: Bool = true) -> Frame {
    let b = Hex.parse(hex) ?? []
    return Frame(.data(.readerToTag), technology: .iso15693, bytes: crc ? CRC.appending(.b, to: b) : b)
}

func VT(_ hex: String, crc: Bool = true) -> Frame {
    let b = Hex.parse(hex) ?? []
    return Frame(.data(.tagToReader), technology: .iso15693, bytes: crc ? CRC.appending(.b, to: b) : b)
}

/// UID E0 04 01 08 49 D0 DC 81 as sent on air (protocols.md §6.3).
let slix2 = "81 DC D0 49 08 01 04 E0"
let otherTag = "4D 3C 2B 1A 00 00 07 E0"
/// Inventory and Get System Information of an 80 × 4-byte ICODE SLIX2.
let slix2Activation: [Frame] = [
    VR("26 01 00"), VT("00 00 \(slix2)"),
    VR("22 2B \(slix2)"), VT("00 0F \(slix2) 00 00 4F 03 01"),
]
let fieldOff = Frame(.fieldOff, technology: .iso15693)

/// The article's CC and the Text record "Hello", written block by block and read back.
let formatAndWrite: [Frame] = slix2Activation + [
    VR("22 21 \(slix2) 00 E1 40 30 01"), VT("00"),
    VR("22 21 \(slix2) 01 03 0C D1 01"), VT("00"),
    VR("22 21 \(slix2) 02 08 54 02 65"), VT("00"),
    VR("22 21 \(slix2) 03 6E 48 65 6C"), VT("00"),
    VR("22 21 \(slix2) 04 6C 6F FE 00"), VT("00"),
    VR("22 23 \(slix2) 00 04"), VT("00 E1 40 30 01 03 0C D1 01 08 54 02 65 6E 48 65 6C 6C 6F FE 00"),
    fieldOff,
]

@Suite struct ISO15693DissectorTests {
    @Test func framesAreNamedAndAnswersReadInContext() {
        let d = frames(Dissector.dissect(slix2Activation))
        #expect(d.map(\.summary) == [
            "Inventory, 1 slot, no mask",
            "UID E0 04 01 08 49 D0 DC 81 (NXP Semiconductors, ICODE SLIX2), DSFID 0x00",
            "Get System Information (addressed)",
            "System information: DSFID 0x00, AFI 0x00, 80 blocks × 4 bytes, IC reference 0x01",
        ])
        #expect(d.allSatisfy { $0.crc == .ok(.b) && $0.diagnostics.isEmpty && $0.layer == "ISO15693" })
        #expect(d[1].responseTo == 1 && d[3].responseTo == 3)
        #expect(d[1].fields.first(key: "iso15693.uid.manufacturer")?.value == "0x04 (NXP Semiconductors)")
        #expect(d[3].fields.first(key: "iso15693.memory_size.blocks")?.value == "80 (sent as 0x4F = count − 1)")
        #expect(d[0].fields.first(key: "iso15693.flags.nb_slots")?.value == "1 slot")
        #expect(d[2].fields.first(key: "iso15693.flags.address")?.value == "set: UID follows")
    }

    // protocols.md §6.5: E1 = magic, 40 = version 1.0 and access, 30 = MLEN, 01 = MBREAD.
    @Test func theArticleCCIsExplainedAndTheNDEFMessageDecoded() throws {
        let text = try #require(sessions(Dissector.dissect(formatAndWrite, detail: .summary)).first)
        #expect(text.headline == "ICODE SLIX2, UID E0 04 01 08 49 D0 DC 81, 80 blocks × 4 bytes")
        #expect(SessionText.lines(text).contains("    40     CC1 version 1.0 (b8–b5), read access always (b4–b3), write access always (b2–b1)"))
        #expect(SessionText.lines(text).contains("    30     CC2 MLEN: 0x30 × 8 = 384-byte data area"))
        #expect(SessionText.lines(text).contains("    01     CC3 features: MBREAD (Read Multiple Blocks supported)"))
        #expect(SessionText.lines(text).contains("      record 1: Text (en) \"Hello\""))
        #expect(SessionText.lines(text).contains("    0  E1 40 30 01*  03 0C D1 01*  08 54 02 65*  6E 48 65 6C*"))
        // The article's CC claims more than an 80 × 4-byte tag holds.
        #expect(text.diagnostics.contains { $0.severity == .warning && $0.message.hasPrefix("CC MLEN 0x30 declares a 384-byte data area") })

        let full = try #require(sessions(Dissector.dissect(formatAndWrite)).first)
        #expect(full.memory.first(key: "t5t.cc.version")?.value.hasPrefix("1.0") == true)
        #expect(full.memory.first(key: "t5t.cc.write_access")?.value.hasPrefix("always") == true)
        #expect(full.memory.first(key: "t5t.cc.mlen")?.value.hasSuffix("384-byte data area") == true)
        #expect(full.memory.first(key: "t5t.cc.features")?.value == "0x01: MBREAD (Read Multiple Blocks supported)")
        #expect(full.memory.first(key: "ndef.record")?.value == "Text (en) \"Hello\"")
        #expect(full.memory.first(key: "memory.block")?.value == "E1 40 30 01 (written, read back)")
        #expect(full.tag.first(key: "tag.state")?.value == "Ready")
    }

    @Test func onlyAcknowledgedWritesRebuildMemory() throws {
        let events = Dissector.dissect(slix2Activation + [
            VR("22 24 \(slix2) 00 01 E1 40 30 01 03 00 FE 00"), VT("00"),     // Write Multiple Blocks 0–1
            VR("22 21 \(slix2) 05 AA AA AA AA"), VT("01 12"),               // refused: block locked
            VR("22 21 \(slix2) 06 BB BB BB BB"), VT("00", crc: false),      // answer without its CRC
            fieldOff,
        ], detail: .summary)
        let d = frames(events)
        #expect(d[5].summary == "OK, blocks 0–1 written")
        #expect(d[7].summary == "Error 0x12: block locked, its content cannot be changed")
        #expect(d[7].diagnostics.contains(Diagnostic(.warning, "Write Single Block 5 refused (error 0x12)", range: 1..<2)))
        #expect(d[9].diagnostics.contains { $0.message.hasPrefix("1 byte: too short to carry the 2-byte CRC_B") })
        let s = try #require(sessions(events).first)
        #expect(SessionText.lines(s).contains("memory: 2 of 80 blocks known, 2 written"))
        #expect(SessionText.lines(s).contains("    0  E1 40 30 01*  03 00 FE 00*"))
        #expect(SessionText.lines(s).contains("    byte 4: NDEF Message TLV, L=0"))
    }

    @Test func securityStatusMarksLockedBlocks() throws {
        let events = Dissector.dissect(slix2Activation + [
            VR("62 23 \(slix2) 01 01"), VT("00 01 4C 4F 43 4B 00 00 11 22 33"),   // option flag: status per block
            VR("22 2C \(slix2) 00 02"), VT("00 00 01 00"),
            VR("22 21 \(slix2) 01 01 02 03 04"), VT("01 12"),
            fieldOff,
        ], detail: .summary)
        let d = frames(events)
        #expect(d[4].summary == "Read Multiple Blocks 1–2, with security status (addressed)")
        #expect(d[5].summary == "Blocks 1–2: 2 × 4 bytes, locked 1")
        #expect(d[7].summary == "Security status of blocks 0–2: locked 1")
        #expect(d[8].diagnostics.contains(Diagnostic(.note, "block 1 is locked (security status seen earlier): expect error 0x12")))
        let s = try #require(sessions(events).first)
        #expect(SessionText.lines(s).contains("    1  4C 4F 43 4B#  00 11 22 33"))
        #expect(SessionText.lines(s).contains("block 0 (the Type 5 CC) was not read: no NDEF decoding"))
    }

    @Test func crcErrorsAreFlaggedAndCorruptAnswersNotApplied() throws {
        var badRequest = VR("22 20 \(slix2) 03")
        badRequest.bytes[badRequest.bytes.count - 1] ^= 0x5A
        var badAnswer = VT("00 00 11 22 33")
        badAnswer.bytes[badAnswer.bytes.count - 2] ^= 0x01
        let events = Dissector.dissect(slix2Activation + [badRequest, VR("22 20 \(slix2) 03"), badAnswer, fieldOff], detail: .summary)
        let d = frames(events)
        #expect(d[4].crc == .mismatch(.b, expected: [0x62, 0x80], found: [0x62, 0xDA]))
        #expect(d[4].diagnostics.contains(Diagnostic(.warning, "CRC_B mismatch, expected 62 80", range: 11..<13)))
        #expect(d[4].summary == "Read Single Block 3 (addressed)", "a bad CRC does not stop decoding")
        #expect(d[6].crc.isBad && d[6].summary == "Block 3: 00 11 22 33")
        let s = try #require(sessions(events).first)
        #expect(!SessionText.lines(s).contains { $0.hasPrefix("memory:") }, "the corrupt answer is not applied")
    }

    @Test func errorCodesAreWarningsWithTheirNames() {
        let d = frames(Dissector.dissect(slix2Activation + [
            VR("22 20 \(slix2) 50"), VT("01 10"),
            VR("22 D0 04 \(slix2)"), VT("01 01"),
        ]))
        #expect(d[4].diagnostics.contains(Diagnostic(.note, "blocks past 79 do not exist (Get System Information: 80 blocks): expect error 0x10")))
        #expect(d[4].fields.first(key: "iso15693.block")?.value == "80 (beyond the last block 79)")
        #expect(d[5].summary == "Error 0x10: block not available: it does not exist")
        #expect(d[5].fields.first(key: "iso15693.error")?.value == "0x10 (block not available: it does not exist)")
        #expect(d[5].worstSeverity == .warning)
        #expect(d[6].summary == "custom command 0xD0 for NXP Semiconductors (addressed)")
        #expect(d[7].diagnostics.contains(Diagnostic(.warning, "custom command 0xD0 for NXP Semiconductors refused (error 0x01)", range: 1..<2)))
    }

    @Test func addressedRequestsForAnotherUIDAreFlagged() {
        let d = frames(Dissector.dissect(slix2Activation + [VR("22 20 82 DC D0 49 08 01 04 E0 00")]))
        #expect(d[4].diagnostics == [Diagnostic(.warning, "addressed to E0 04 01 08 49 D0 DC 82, not to the inventoried VICC E0 04 01 08 49 D0 DC 81 (a VICC answers only its own UID)", range: 2..<10)])
    }

    @Test func aNewInventoryThatFindsAnotherVICCStartsANewSession() {
        let events = Dissector.dissect(slix2Activation + [
            VR("26 01 00"), VT("00 00 \(slix2)"),                      // the same VICC again: same session
            VR("22 02 \(slix2)"),
            VR("26 01 00"), VT("00 00 \(otherTag)"),                   // another VICC: new session
            VR("22 20 \(otherTag) 00"), VT("00 00 00 00 00"),
            fieldOff,
        ])
        let s = sessions(events)
        #expect(s.count == 2)
        #expect(s.map(\.firstFrame) == [1, 9] && s.map(\.lastFrame) == [8, 12])
        #expect(s[0].tag.first(key: "tag.state")?.value == "Quiet")
        #expect(s[1].headline == "Texas Instruments tag, UID E0 07 00 00 1A 2B 3C 4D")
        #expect(s[1].tag.first(key: "tag.memory_size")?.value == "block size 4 bytes (from the data length), number of blocks unknown")
        let d = frames(events)
        #expect(d[8].session == 2 && d[8].responseTo == 8 && d[7].session == 1)
        #expect(d[6].diagnostics.contains(Diagnostic(.note, "a VICC does not answer Stay Quiet; it stays quiet until Select, Reset to Ready or field off")))
        #expect(d[7].diagnostics.contains { $0.message.hasPrefix("the VICC is quiet") })
    }

    @Test func aDamagedInventoryAnswerStartsNoSession() {
        var damaged = VT("00 00 \(otherTag)")
        damaged.bytes[damaged.bytes.count - 1] ^= 0xFF
        let events = Dissector.dissect(slix2Activation + [VR("26 01 00"), damaged, fieldOff])
        #expect(sessions(events).count == 1)
        #expect(sessions(events).first?.tag.first(key: "tag.inventoried") == nil)
    }

    @Test func sixteenSlotInventoryCollectsUIDsAndTheReaderPicksOne() {
        let events = Dissector.dissect([
            VR("06 01 00"), VT("00 00 \(slix2)"), VT("00 00 \(otherTag)"),
            VR("22 25 \(otherTag)"), VT("00"),
            VR("12 20 00"), VT("00 01 02 03 04"),
            fieldOff,
        ])
        let d = frames(events)
        #expect(d[0].summary == "Inventory, 16 slots, no mask")
        #expect(d[1].responseTo == 1 && d[2].responseTo == 1)
        #expect(d[3].diagnostics.isEmpty, "the reader selects one of the VICCs its inventory found")
        #expect(d[4].summary == "OK, VICC selected")
        #expect(d[5].summary == "Read Single Block 0 (selected)" && d[5].diagnostics.isEmpty)
        let s = sessions(events)
        #expect(s.count == 1)
        #expect(s.first?.headline == "Texas Instruments tag, UID E0 07 00 00 1A 2B 3C 4D")
        #expect(s.first?.tag.first(key: "tag.inventoried")?.value == "E0 04 01 08 49 D0 DC 81")
        #expect(s.first?.tag.first(key: "tag.state")?.value == "Selected")
    }

    @Test func stateAndFlagRulesAreChecked() {
        let d = frames(Dissector.dissect(slix2Activation + [
            VR("12 20 00"),                      // select flag, nothing selected
            VR("32 20 \(slix2) 00"),             // select and address together
            VR("02 02"),                          // Stay Quiet without UID
            VR("26 20 00"),                       // inventory flag on a read
            VR("A2 2B \(slix2)"),                 // RFU flag
            VR("26 01 50 00"),                    // mask longer than 64 bits… and too short
        ]))
        #expect(d[4].diagnostics.contains(Diagnostic(.note, "select flag set, but no Select was acknowledged in this session")))
        #expect(d[5].diagnostics.contains { $0.message.hasPrefix("select and address flags both set") })
        #expect(d[6].diagnostics.contains { $0.message == "Stay Quiet must be addressed: without a UID no VICC acts on it" })
        #expect(d[7].diagnostics.contains { $0.message.hasPrefix("inventory flag set on Read Single Block") })
        #expect(d[8].diagnostics.contains(Diagnostic(.warning, "request flag b8 is RFU and set", range: 0..<1)))
        #expect(d[9].summary == "malformed Inventory")
        #expect(d[9].diagnostics.first?.message == "Inventory at byte 3: expected mask value (10 bytes for 80 bits), found 1 byte")
    }

    @Test func answersWithoutARequestOrToAMalformedOne() {
        let d = frames(Dissector.dissect([VT("00 00 \(slix2)"), VR("22 20 01"), VT("01 02")]))
        #expect(d[0].summary == "tag frame with no request before it" && d[0].worstSeverity == .warning)
        #expect(d[1].summary == "malformed Read Single Block" && d[1].worstSeverity == .error)
        #expect(d[2].summary == "answer to a malformed request" && d[2].responseTo == 2)
    }

    @Test func blockSizeFromGetSystemInformationOrFromTheAnswer() {
        let inferred = frames(Dissector.dissect([VR("22 23 \(slix2) 00 01"), VT("00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10")]))
        #expect(inferred[1].summary == "Blocks 0–1: 2 × 8 bytes")
        let mismatch = frames(Dissector.dissect(slix2Activation + [VR("22 20 \(slix2) 00"), VT("00 01 02 03 04 05 06 07 08")]))
        #expect(mismatch[5].summary == "Block 0: 01 02 03 04 05 06 07 08")
        #expect(mismatch[5].diagnostics.contains { $0.message.hasPrefix("the answer does not fit the block size from Get System Information") })
    }

    /// The text format carries ISO 15693 frames with their CRC or without it.
    @Test func textTracesCarryFramesWithAndWithoutCRC() throws {
        let text = """
            nfctrace 1
            @tech 15693
            0  field-on
            10  R  26 01 00 F6 0A
            20  T  00 00 81 DC D0 49 08 01 04 E0 crc=stripped
            30  R  22 20 81 DC D0 49 08 01 04 E0 00 crc=stripped
            40  T  00 E1 40 30 01 crc=stripped
            """
        let reader = try Capture.open(ByteInput.memory(Array(text.utf8)))
        var input: [Frame] = []
        while let f = try reader.next() { input.append(f) }
        let d = frames(Dissector.dissect(input))
        #expect(d.count == 5)
        #expect(d[1].crc == .ok(.b) && d[2].crc == .stripped && d[4].crc == .stripped)
        #expect(d[2].summary == "UID E0 04 01 08 49 D0 DC 81 (NXP Semiconductors, ICODE SLIX2), DSFID 0x00")
        #expect(d[4].summary == "Block 0: E1 40 30 01")
    }

    /// The one-line view (summary detail) says what the tree view says.
    @Test func bothDetailsAgreeOnSummariesAndDiagnostics() {
        let frames15693 = formatAndWrite + slix2Activation + [VR("22 20 \(slix2) 50"), VT("01 10"), VR("22 D0 04 \(slix2)"), VT("01 01")]
        let summary = Dissector.dissect(frames15693, detail: .summary)
        let full = Dissector.dissect(frames15693, detail: .full)
        #expect(frames(summary).map(\.summary) == frames(full).map(\.summary))
        #expect(frames(summary).map(\.diagnostics) == frames(full).map(\.diagnostics))
        #expect(sessions(summary).map(\.headline) == sessions(full).map(\.headline))
        #expect(sessions(summary).map(\.diagnostics) == sessions(full).map(\.diagnostics))
        #expect(frames(summary).allSatisfy { $0.fields.isEmpty } && frames(full).filter { $0.fields.isEmpty }.allSatisfy { $0.frame.event == .fieldOff })
    }

    /// Random and mutated frames never trap the dissector, in either detail.
    @Test func randomFramesNeverTrap() {
        let seed = TestSeed(0x1569_3001)
        var rng = seed.generator
        let seeds = formatAndWrite.compactMap { $0.bytes.isEmpty ? nil : $0 }
        for detail in [DissectionDetail.summary, .full] {
            let dissector = Dissector(detail: detail)
            var count = 0
            for i in 0..<20000 {
                var f: Frame
                if i % 3 == 0, let seed = seeds.randomElement(using: &rng) {
                    f = seed
                    let at = Int.random(in: 0..<f.bytes.count, using: &rng)
                    f.bytes[at] ^= UInt8.random(in: 1...255, using: &rng)
                    if Bool.random(using: &rng) { f.bytes = CRC.appending(.b, to: Array(f.bytes.dropLast(2))) }
                    if Bool.random(using: &rng) { f.bytes.removeLast(Int.random(in: 0...min(3, f.bytes.count), using: &rng)) }
                } else {
                    let bytes = (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    f = Frame(Bool.random(using: &rng) ? .data(.readerToTag) : .data(.tagToReader), technology: .iso15693,
                              bytes: Bool.random(using: &rng) ? CRC.appending(.b, to: bytes) : bytes, crcStripped: i % 7 == 0)
                }
                if i % 500 == 499 { f = Frame(.fieldOff, technology: .iso15693) }
                dissector.process(f) { _ in count += 1 }
            }
            dissector.finish { _ in count += 1 }
            #expect(count >= 20000, "\(detail), \(seed)")
        }
    }
}
