import Testing
import NFCCore
import NFCTestInputs
@testable import NFCDissect

/// Frame builders: hex text, CRC_A appended on request.
func R(_ hex: String, bits: UInt8 = 8, crc: Bool = false) -> Frame {
    let b = Hex.parse(hex) ?? []
    return Frame(.data(.readerToTag), bytes: crc ? CRC.appending(.a, to: b) : b, lastByteBits: bits)
}

func T(_ hex: String, bits: UInt8 = 8, crc: Bool = false) -> Frame {
    let b = Hex.parse(hex) ?? []
    return Frame(.data(.tagToReader), bytes: crc ? CRC.appending(.a, to: b) : b, lastByteBits: bits)
}

/// Activation of the NTAG215 of the source article (UID 04 A2 2C 12 DE 5F 80).
let activation: [Frame] = [
    R("26", bits: 7), T("44 00"),
    R("93 20"), T("88 04 A2 2C 02"), R("93 70 88 04 A2 2C 02", crc: true), T("04", crc: true),
    R("95 20"), T("12 DE 5F 80 13"), R("95 70 12 DE 5F 80 13", crc: true), T("00", crc: true),
]

let getVersion: [Frame] = [R("60", crc: true), T("00 04 04 02 01 00 11 03", crc: true)]

func frames(_ events: [DissectionEvent]) -> [FrameDissection] {
    events.compactMap { if case .frame(let f) = $0 { return f } else { return nil } }
}

func sessions(_ events: [DissectionEvent]) -> [SessionSummary] {
    events.compactMap { if case .session(let s) = $0 { return s } else { return nil } }
}

@Suite struct DissectorTests {
    @Test func activationIsNamedAndTheUIDAssembled() {
        let d = frames(Dissector.dissect(activation))
        #expect(d.map(\.summary) == [
            "REQA", "ATQA 0044: 7-byte UID",
            "ANTICOLL (cascade level 1)", "UID CL1 CT 04 A2 2C, BCC ok", "SELECT CT 04 A2 2C, BCC ok",
            "SAK 0x04: UID not complete, cascade level 2 follows",
            "ANTICOLL-2 (cascade level 2)", "UID CL2 12 DE 5F 80, BCC ok", "SELECT-2 12 DE 5F 80, BCC ok",
            "SAK 0x00: UID 04 A2 2C 12 DE 5F 80, MIFARE Ultralight / NTAG family (Type 2 Tag)",
        ])
        #expect(d.allSatisfy { $0.diagnostics.isEmpty })
        #expect(d[4].crc == .ok(.a) && d[0].crc == .notExpected && d[3].crc == .notExpected)
    }

    @Test func badBCCIsFlagged() {
        let d = frames(Dissector.dissect([R("26", bits: 7), T("44 00"), R("93 20"), T("88 04 A2 2C 03")]))
        #expect(d[3].summary == "UID CL1 CT 04 A2 2C, BCC WRONG")
        #expect(d[3].diagnostics == [Diagnostic(.warning, "BCC mismatch, expected 0x02", range: 4..<5)])
    }

    @Test func crcMismatchShowsTheExpectedValue() {
        var f = R("30 03", crc: true)
        f.bytes[3] ^= 0xFF
        let d = frames(Dissector.dissect(activation + [f]))
        let last = d[d.count - 1]
        #expect(last.crc == .mismatch(.a, expected: [0x99, 0x9A], found: [0x99, 0x65]))
        #expect(last.diagnostics.contains(Diagnostic(.warning, "CRC_A mismatch, expected 99 9A", range: 2..<4)))
        #expect(last.summary == "READ page 0x03", "a bad CRC does not stop decoding")
    }

    @Test func pwdAuthIsNeverAnISODEPBlockBeforeAnATS() {
        let d = frames(Dissector.dissect(activation + [R("1B 12 34 56 78", crc: true), T("80 80", crc: true)]))
        #expect(d[10].layer == "Type 2 Tag")
        #expect(d[10].summary == "PWD_AUTH pwd 12 34 56 78")
        #expect(d[11].summary == "PACK 80 80, authenticated")
    }

    @Test func isoDEPBlocksOnlyAfterTheATS() {
        let iso: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 A4 04 00", crc: true), T("02 90 00", crc: true),
            R("C2", crc: true), T("C2", crc: true),
        ]
        let d = frames(Dissector.dissect(iso))
        #expect(d[6].summary == "RATS FSDI 8 (FSD 256 bytes), CID 0")
        #expect(d[7].summary == "ATS FSCI 5 (FSC 64), FWI 8, historical 80")
        // The INF of the I-blocks is an APDU and its answer (issue 20).
        #expect(d[8].layer == "ISO 7816-4" && d[8].summary == "SELECT by DF name")
        #expect(d[8].fields.first(key: "isodep.pcb")?.value == "0x02")
        #expect(d[9].summary == "SW 9000 success")
        #expect(d[10].summary == "S(DESELECT)")
        #expect(d[11].summary == "S(DESELECT), tag deselected")
    }

    // Issue 18: captures that start after activation (NFCGate's) or lost the RATS: an I-block
    // carrying an APDU, after an SAK announcing ISO-DEP or with no activation at all, is ISO-DEP,
    // said so in a note; a Type 2 command that parses as an I-block is not.
    @Test func isoDEPIsInferredWithoutARATS() {
        let apdus: [Frame] = [R("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00", crc: true), T("02 90 00", crc: true)]
        let afterSAK: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
        ] + apdus
        for (capture, first) in [(afterSAK, 6), (apdus, 0)] {
            let d = frames(Dissector.dissect(capture))
            #expect(d[first].summary == "SELECT NDEF Tag Application (mapping 2.0+)", "\(d.map(\.summary))")
            #expect(d[first].diagnostics.contains { $0.message == "ISO-DEP inferred: no RATS in the capture" })
            #expect(d[first + 1].summary == "NDEF Tag Application selected, SW 9000")
        }
        let ntag = frames(Dissector.dissect([R("1B 12 34 56 78", crc: true), T("80 80", crc: true)]))
        #expect(ntag[0].summary == "PWD_AUTH pwd 12 34 56 78")
        let type2 = frames(Dissector.dissect(activation + [R("02 00 A4 04 00 07 D2 76 00 00 85 01 01 00", crc: true)]))
        #expect(type2[10].layer != "Type 4 Tag" && !type2[10].summary.contains("SELECT"), "SAK 00 never turns into ISO-DEP")
    }

    // Issue 18: a Type 2 tag NAKs the RATS it does not know; that is no malformed ATS.
    @Test func ratsAnsweredWithANAK() {
        let d = frames(Dissector.dissect(activation + [R("E0 80", crc: true), T("00", bits: 4)]))
        #expect(d[11].summary == "NAK 0 to RATS: the tag does not speak ISO-DEP", "\(d[11].summary)")
        #expect(d[11].diagnostics.allSatisfy { $0.severity != .error })
    }

    // Issue 20: a card number in an APDU answer shows its first 6 and last 4 digits only, unless
    // the user asks (`dissect --show-secrets`).
    @Test func cardNumbersAreMaskedUnlessAskedFor() {
        let iso: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 B2 01 0C 00", crc: true), T("02 70 0A 5A 08 47 61 73 90 01 01 01 19 90 00", crc: true),
        ]
        let masked = frames(Dissector.dissect(iso))
        #expect(masked[8].summary == "READ RECORD record 1 of SFI 1")
        let pan = masked[9].fields.first(key: "apdu.response_data")?.children.first?.children.first
        #expect(pan?.label == "5A application PAN" && pan?.value == "476173••••••0119 (card number masked)", "\(String(describing: pan))")
        var keys = KeyList.defaults
        keys.revealCardData = true
        let shown = frames(Dissector.dissect(iso, keys: keys))
        #expect(shown[9].fields.first(key: "apdu.response_data")?.children.first?.children.first?.value == "47 61 73 90 01 01 01 19 (shown: --show-secrets)")
        // The hex hides the bytes of the hidden digits: PCB, 70 0A 5A 08, then 47 61 73 shown.
        #expect(masked[9].masked == [8..<11], "\(masked[9].masked)")
        #expect(shown[9].masked.isEmpty)
    }

    // Issue 20: each block of a chained answer is printed when it arrives, so each hides what it
    // carries of a card number, the value split between blocks included; the command's
    // blocks and the status word are left alone.
    @Test func cardNumbersAreMaskedInEveryBlockOfAChainedAnswer() {
        let record = "70 1B 57 0F 41 11 11 11 11 11 11 11 D2 81 22 01 00 00 0F 5F 20 07 54 45 53 54 2F 4D 45"
        let bytes = record.split(separator: " ").map { String($0) }
        let first = bytes[..<10].joined(separator: " "), second = bytes[10...].joined(separator: " ")
        let iso: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 B2 01 0C 00", crc: true), T("12 " + first, crc: true), R("A3", crc: true), T("03 " + second + " 90 00", crc: true),
        ]
        let d = frames(Dissector.dissect(iso))
        // Block 1 (PCB 12, then 70 1B 57 0F 41 11 11 11 11 11): the track 2 value is not whole yet,
        // so all of what arrived of it is hidden.
        #expect(d[9].masked == [5..<11], "\(d[9].masked)")
        #expect(d[9].fields.first(key: "isodep.inf")?.value == "70 1B 57 0F •• •• •• •• •• ••")
        // Block 2 (PCB 03, then 11 11 D2 81 22 01 00 00 0F | 5F 20 07 TEST/ME | 90 00): the value is
        // whole, so the last 4 digits (11 11), D and the expiry (D2 81 2·) show; the name is hidden whole.
        #expect(d[11].masked == [5..<10, 13..<20], "\(d[11].masked)")
        #expect(d[11].fields.first(key: "isodep.inf")?.value == "11 11 D2 81 •• •• •• •• •• 5F 20 07 •• •• •• •• •• •• •• 90 00")
        let tlv = d[11].fields.first(key: "apdu.reassembled")?.children.first(key: "apdu.response_data")?.children.first?.children.first
        #expect(tlv?.value == "411111••••••1111D2812•••••••• (card number masked)", "\(String(describing: d[11].fields))")
        var keys = KeyList.defaults
        keys.revealCardData = true
        let shown = frames(Dissector.dissect(iso, keys: keys))
        #expect(shown[9].masked.isEmpty && shown[11].masked.isEmpty)
    }

    // Issue 20, point 6: MIFARE Plus SL3 commands named from the ATS (Plus X) or, without it,
    // from the authentication to a key block; reads with their MACs, statuses named.
    @Test func mifarePlusCommandsAreNamed() {
        let activate = [R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true)]
        let e16 = String(repeating: " 5A", count: 16), e32 = String(repeating: " 5B", count: 32), mac = String(repeating: " 4D", count: 8)
        let session = [
            R("02 70 02 40 00", crc: true), T("02 90" + e16, crc: true),
            R("03 72" + e32, crc: true), T("03 90" + e32, crc: true),
            R("02 33 04 00 01" + mac, crc: true), T("02 90 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF" + mac, crc: true),
            R("03 76 03 40", crc: true), T("03 06", crc: true),
        ]
        for (ats, first) in [("0C 75 77 80 02 C1 05 2F 2F 01 BC D6", 8), ("05 78 80 70 02", 8)] {
            let d = frames(Dissector.dissect(activate + [R("E0 80", crc: true), T(ats, crc: true)] + session))
            #expect(d[first].summary == "FIRST AUTHENTICATE 4002 (sector 1 key A)", "\(d[first].summary)")
            #expect(d[first].layer == "MIFARE Plus")
            #expect(d[first].diagnostics.contains { $0.message.hasPrefix("MIFARE Plus inferred") } == (first == 8 && ats.hasPrefix("05")))
            #expect(d[first].fields.first(key: "mfp.lencap")?.range == 4..<5)
            #expect(d[first + 1].summary == "E(RndB) 16 bytes, OK")
            #expect(d[first + 2].summary == "AUTHENTICATE part 2")
            #expect(d[first + 3].summary == "authenticated, E(TI ‖ RndA′ ‖ PDcap2 ‖ PCDcap2), 32 bytes")
            #expect(d[first + 4].summary == "READ (plain, MAC on command, MAC on answer) block 4 (sector 1), 1 block", "\(d[first + 4].summary)")
            #expect(d[first + 4].fields.first(key: "mfp.mac")?.range == 5..<13)
            #expect(d[first + 5].summary == "1 block plain + MAC, OK", "\(d[first + 5].summary)")
            #expect(d[first + 5].fields.first(key: "mfp.response_data")?.value == "00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF")
            #expect(d[first + 6].summary == "FOLLOWING AUTHENTICATE 4003 (sector 1 key B)")
            #expect(d[first + 7].summary == "authentication error" && d[first + 7].diagnostics.contains { $0.message == "FOLLOWING AUTHENTICATE refused: authentication error" })
        }
        // A DESFire's AUTHENTICATE AES (AA) stays DESFire's.
        let desfire = [R("26", bits: 7), T("44 03"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
                       R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true), R("02 AA 00", crc: true)]
        #expect(frames(Dissector.dissect(desfire))[8].summary == "AUTHENTICATE AES key 0")
    }

    // Issue 20, point 1: PPS names the bit rates DSI and DRI ask for.
    @Test func ppsNamesItsBitRates() {
        let d = frames(Dissector.dissect(activation + [R("E0 80", crc: true), T("05 78 80 70 02", crc: true), R("D0 11 06", crc: true), T("D0", crc: true)]))
        #expect(d[12].summary == "PPS CID 0, DSI 1 DRI 2 (card → reader 212 kbit/s, reader → card 424 kbit/s)", "\(d[12].summary)")
    }

    // Issue 20, point 6: HID Seos's application and its own SELECT ADF named.
    @Test func seosIsNamed() {
        let d = frames(Dissector.dissect(activation + [
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 A4 04 00 0A A0 00 00 04 40 00 01 01 00 01 00", crc: true), T("02 90 00", crc: true),
            R("03 80 A5 04 00 13 06 11 2B 06 01 04 01 81 E4 38 01 01 02 01 18 01 01 02 02 00", crc: true), T("03 6A 82", crc: true),
            R("02 00 87 00 01 04 7C 02 81 00 00", crc: true),
        ]))
        #expect(d[12].summary == "SELECT by DF name A0000004400001010001 (HID Seos)", "\(d[12].summary)")
        #expect(d[14].summary == "SELECT ADF (Seos) P1 0x04 P2 0x00", "\(d[14].summary)")
        #expect(d[16].summary.hasPrefix("GENERAL AUTHENTICATE (odd INS)"), "\(d[16].summary)")
    }

    // Issue 20: `convert` overwrites what the views mask with 00; the CRC is made right again, and
    // the masked trace dissects to the same masked text.
    @Test func maskingOverwritesCardDataAndKeepsTheCRCRight() {
        let iso: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 B2 01 0C 00", crc: true), T("02 70 0A 5A 08 47 61 73 90 01 01 01 19 90 00", crc: true),
        ]
        let masking = CardDataMasking()
        var out: [Frame] = []
        for f in iso { masking.push(f) { out.append($0) } }
        #expect(out.count == iso.count - 1, "one frame held back")
        masking.finish { out.append($0) }
        #expect(out.count == iso.count && masking.maskedFrames == 1)
        #expect(Array(out[9].bytes.dropLast(2)) == [0x02, 0x70, 0x0A, 0x5A, 0x08, 0x47, 0x61, 0x73, 0, 0, 0, 0x01, 0x19, 0x90, 0x00])
        #expect(out[9].hasValidCRC() && out[9].comment == CardDataMasking.comment)
        #expect(Array(out[..<9]) == Array(iso[..<9]))
        let again = frames(Dissector.dissect(out))
        #expect(again[9].crc == .ok(.a) && again[9].masked == [8..<11])
        #expect(again[9].fields.first(key: "apdu.response_data")?.children.first?.children.first?.value == "476173••••••0119 (card number masked)")
    }

    // The masking starts dissecting at the first frame that may be ISO-DEP: a capture that starts
    // inside ISO-DEP (NFCGate) is masked from its first I-block, and a Type 2 tag's PWD_AUTH
    // (which reads as an I-block) after SAK 00 passes untouched, in order.
    @Test func maskingStartsWhereISODEPMayStart() {
        func run(_ frames: [Frame]) -> (out: [Frame], masked: Int) {
            let masking = CardDataMasking()
            var out: [Frame] = []
            for f in frames { masking.push(f) { out.append($0) } }
            masking.finish { out.append($0) }
            return (out, masking.maskedFrames)
        }
        let nfcgate = run([R("02 00 B2 01 0C 00", crc: true), T("02 70 0A 5A 08 47 61 73 90 01 01 01 19 90 00", crc: true)])
        #expect(nfcgate.masked == 1 && nfcgate.out.count == 2 && nfcgate.out[1].bytes[8] == 0)
        let ntag = activation + [R("1B 12 34 56 78", crc: true), T("80 80", crc: true), R("30 04", crc: true),
                                 T("02 70 0A 5A 08 47 61 73 90 01 01 01 19 90 00 00", crc: true)]
        let passed = run(ntag)
        #expect(passed.out == ntag && passed.masked == 0)
    }

    // Issue 20: the CDOL1 a record gives is what GENERATE AC's data is read against; the first
    // GENERATE AC sends CDOL1's values, P1 asks for the cryptogram.
    @Test func generateACIsReadAgainstTheRecordsCDOL1() {
        let iso: [Frame] = [
            R("26", bits: 7), T("04 00"), R("93 20"), T("01 02 03 04 04"), R("93 70 01 02 03 04 04", crc: true), T("20", crc: true),
            R("E0 80", crc: true), T("06 75 77 81 02 80", crc: true),
            R("02 00 B2 01 0C 00", crc: true), T("02 70 0B 8C 09 9F 02 06 9F 37 04 9F 6C 02 90 00", crc: true),
            R("03 80 AE 80 00 0C 00 00 00 00 02 50 12 34 56 78 80 80 00", crc: true), T("03 69 85", crc: true),
        ]
        let d = frames(Dissector.dissect(iso))
        #expect(d[10].summary.hasSuffix(": ARQC (go online)"), "\(d[10].summary)")
        let values = d[10].fields.first(key: "emv.dol_values")
        #expect(values?.label == "Values (CDOL1)")
        #expect(values?.children.map(\.value) == ["00 00 00 00 02 50", "12 34 56 78", "80 80: online PIN required, consumer device CVM performed"])
        #expect(values?.children.first?.range == 6..<12, "placed in the frame, after the PCB and the APDU header")
    }

    @Test func versionNamesTheModelAndDrivesTheMemoryMap() {
        let events = Dissector.dissect(activation + getVersion + [R("30 84", crc: true), T("00 05 00 00 00 00 00 00 00 00 00 00 00 00 00 00", crc: true)])
        let d = frames(events)
        #expect(d[11].summary == "VERSION NTAG215, 504 bytes user memory")
        #expect(d[13].summary == "DATA pages 0x84…0x00 (CFG1, PWD, PACK, UID/BCC), wrapped to page 0x00")
        let s = sessions(events)
        #expect(s.first?.headline == "NTAG215, UID 04 A2 2C 12 DE 5F 80")
    }

    // NTAG213/215/216 datasheet: READ of the last page wraps around to page 0.
    @Test func readWrapsAtTheLastPageOnceTheModelIsKnown() {
        let data = "00 00 00 00 04 A2 2C 02 12 DE 5F 80 13 48 00 00"
        let events = Dissector.dissect(activation + getVersion + [R("30 86", crc: true), T(data, crc: true)], detail: .summary)
        let d = frames(events)
        #expect(d[13].summary == "DATA pages 0x86…0x02 (PACK, UID/BCC, serial/lock bytes), wrapped to page 0x00")
        let summary = sessions(events).first
        #expect(summary.map(SessionText.lines)?.contains("      0x00  04 A2 2C 02  12 DE 5F 80") == true)
        #expect(summary.map(SessionText.lines)?.contains("      0x86  00 00 00 00") == true)
    }

    @Test func nakAndAckAreNamedAndWritesLandInMemory() {
        let events = Dissector.dissect(activation + getVersion + [
            R("1B FF FF FF FF", crc: true), T("00", bits: 4),
            R("A2 10 DE AD BE EF", crc: true), T("0A", bits: 4),
            R("30 F0", crc: true), T("00", bits: 4),
        ], detail: .summary)
        let d = frames(events)
        #expect(d[13].summary == "NAK 0: PWD_AUTH refused")
        #expect(d[15].summary == "ACK, page 0x10 written")
        #expect(d[15].crc == .notExpected)
        #expect(d[17].summary == "NAK 0: invalid argument (bad page or counter address, or refused)")
        #expect(d[16].diagnostics.contains(Diagnostic(.note, "page 0xF0 is beyond the last page 0x86 of the NTAG215; the tag answers NAK")))
        let full = sessions(Dissector.dissect(activation + getVersion + [R("A2 10 DE AD BE EF", crc: true), T("0A", bits: 4)]))
        let page = full.first?.memory.first(key: "memory.page")
        #expect(page?.label == "Page 0x10" && page?.value == "DE AD BE EF (written)")
        let s = sessions(events).first
        #expect(s?.headline == "NTAG215, UID 04 A2 2C 12 DE 5F 80, PWD_AUTH refused (PWD FF FF FF FF, NAK 0)")
        #expect(s.map(SessionText.lines)?.contains("      0x10  DE AD BE EF*") == true)
    }

    @Test func compatibilityWriteTakesItsDataPacketInContext() {
        let d = frames(Dissector.dissect(activation + [
            R("A0 05", crc: true), T("0A", bits: 4),
            R("01 02 03 04 00 00 00 00 00 00 00 00 00 00 00 00", crc: true), T("0A", bits: 4),
        ]))
        #expect(d[10].summary == "COMPATIBILITY_WRITE page 0x05 (part 1)")
        #expect(d[11].summary == "ACK, send the 16 data bytes next")
        #expect(d[12].summary == "COMPATIBILITY_WRITE data 01 02 03 04 (part 2)")
        #expect(d[13].summary == "ACK, page 0x05 written")
    }

    @Test func requestsAndAnswersArePaired() {
        let d = frames(Dissector.dissect(activation + [R("50 00", crc: true), R("52", bits: 7), T("44 00")]))
        #expect(d[1].responseTo == 1 && d[0].responseIn == 2)
        #expect(d[10].responseIn == nil, "nothing answers HLTA")
        #expect(d[12].responseTo == 12 && d[11].responseIn == 13)
    }

    @Test func sessionsEndAtFieldOffAndAtANewActivation() {
        let trace = [Frame(.fieldOn)] + activation + [Frame(.fieldOff), Frame(.fieldOn)] + activation + [R("26", bits: 7), R("26", bits: 7), T("44 00")]
        let events = Dissector.dissect(trace)
        let s = sessions(events)
        #expect(s.map(\.number) == [1, 2, 3])
        #expect(s.map(\.firstFrame) == [2, 14, 24])
        #expect(s[1].lastFrame == 23)
        // The summary of session 2 comes after its last frame and before the REQA that ends it.
        var order: [String] = []
        for e in events {
            switch e {
            case .frame(let f): order.append("f\(f.number)")
            case .session(let s): order.append("s\(s.number)")
            }
        }
        #expect(order.firstIndex(of: "s2") == order.firstIndex(of: "f23").map { $0 + 1 })
        #expect(order.firstIndex(of: "s1") == order.firstIndex(of: "f12").map { $0 + 1 })
    }

    @Test func unsolicitedAndUnknownFramesAreDiagnosed() {
        let d = frames(Dissector.dissect([T("44 00")] + activation + [R("77 01", crc: true), T("00 00 00", crc: true)]))
        #expect(d[0].summary == "tag frame with no request before it")
        #expect(d[11].summary == "unknown command 0x77")
        #expect(d[11].diagnostics.first?.severity == .warning)
        #expect(d[12].summary == "answer to an unrecognised command")
        #expect(d[12].crc == .ok(.a))
    }

    @Test func malformedRecordsAreShownNotDropped() {
        let d = frames(Dissector.dissect([Frame(.malformed(reason: "length field looks little-endian"), bytes: [0, 0xFE, 2, 0, 0x30, 0])]))
        #expect(d.count == 1)
        #expect(d[0].summary == "malformed record: length field looks little-endian")
        #expect(d[0].diagnostics.first?.severity == .error)
    }

    @Test func strippedCRCsAreNotChecked() {
        var f = R("30 03")
        f.crcStripped = true
        let d = frames(Dissector.dissect(activation + [f]))
        #expect(d[10].crc == .stripped && d[10].summary == "READ page 0x03")
    }

    // Issue 17: a summary carries fields and typed state, never pre-rendered lines. The tree and
    // JSON views get fields only; the compact view keeps the session, which the renderer lays out.
    @Test func summariesCarryStateNotText() {
        let trace = activation + getVersion + [R("30 04", crc: true), T("03 00 FE 00 00 00 00 00 00 00 00 00 00 00 00 00", crc: true)]
        let full = sessions(Dissector.dissect(trace, detail: .full))[0]
        #expect(full.content == nil)
        #expect(full.memory.first(key: "memory.region")?.value == "4 of 126 pages known")
        let compact = sessions(Dissector.dissect(trace, detail: .summary))[0]
        guard case .type2(let session, let layout)? = compact.content else {
            Issue.record("no Type 2 content in the compact summary")
            return
        }
        #expect(session.memory.knownPages == [4, 5, 6, 7])
        #expect(layout?.ndef != nil)
        #expect(compact.memory.isEmpty)
        #expect(SessionText.lines(compact).first == "memory (NTAG215 map): 4 pages known")
    }

    @Test func summaryDetailBuildsNoTrees() {
        let d = frames(Dissector.dissect(activation, detail: .summary))
        #expect(d.allSatisfy { $0.fields.isEmpty })
        let full = frames(Dissector.dissect(activation, detail: .full))
        #expect(full[4].fields.first(key: "iso14443a.bcc")?.value == "0x02 (correct)")
        #expect(full[4].fields.first(key: "iso14443a.crc")?.range == 7..<9)
        #expect(zip(d, full).allSatisfy { $0.summary == $1.summary })
    }

    @Test func dissectorSurvivesRandomFrames() {
        let seed = TestSeed(0xD155_EC01)
        var rng = seed.generator
        let dissector = Dissector(detail: .full)
        var count = 0
        for _ in 0..<30_000 {
            let n = Int.random(in: 0...20, using: &rng)
            var bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if Bool.random(using: &rng), let f = bytes.first { bytes[0] = [0x26, 0x52, 0x93, 0x95, 0x30, 0x3A, 0xA2, 0x1B, 0x60, 0xE0, 0x02, f].randomElement(using: &rng) ?? f }
            let event: Frame.Event
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: event = .fieldOff
            case 1: event = .malformed(reason: "x")
            case 2...5: event = .data(.readerToTag)
            default: event = .data(.tagToReader)
            }
            let frame = Frame(event, bytes: bytes, lastByteBits: UInt8.random(in: 1...8, using: &rng), crcStripped: Int.random(in: 0..<8, using: &rng) == 0)
            dissector.process(frame) { _ in count += 1 }
        }
        dissector.finish { _ in count += 1 }
        #expect(count >= 30_000, "\(seed)")
    }
}
