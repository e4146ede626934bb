import Testing
import NFCCore
@testable import NFCDissect

/// Issue 44, point 4: what real captures do that the headlines and warnings must not get wrong —
/// a tag that answered but was never selected, a capture that starts inside ISO-DEP, noise
/// fragments between blocks, an answer whose CRC is wrong, the family the answers prove.
@Suite struct RealCaptureQuirksTests {
    static let typeA: [Frame] = [R("26", bits: 7), T("04 00"), R("93 20"), T("08 12 34 56 78"), R("93 70 08 12 34 56 78", crc: true), T("20", crc: true),
                                 R("E0 80", crc: true), T("05 78 80 70 02", crc: true)]

    @Test func aTagThatAnsweredIsNotNoTag() {
        let answered = sessions(Dissector.dissect([R("52", bits: 7), T("44 03"), R("93 20"), T("88 04 6F 16 F5"), R("52", bits: 7)]))
        #expect(answered.first?.headline == "tag answered, not selected: ATQA 0344 (7-byte UID), UID CL1 04 6F 16 (more levels follow)", "\(answered.map(\.headline))")
        let silent = sessions(Dissector.dissect([R("52", bits: 7), R("52", bits: 7)]))
        #expect(silent.first?.headline == "no tag answered")
    }

    /// A capture that starts inside ISO-DEP (no RATS): the first block's number is the reader's
    /// current one, whatever it is.
    @Test func aCaptureThatStartsMidSessionHasNoBlockNumberWarning() {
        let d = frames(Dissector.dissect([R("03 00 B2 01 0C 00", crc: true), T("03 6A 83", crc: true), R("02 00 B2 02 0C 00", crc: true), T("02 6A 83", crc: true)]))
        #expect(d[0].summary == "READ RECORD record 1 of SFI 1", "\(d[0].summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
    }

    /// 6-bit and 3-bit fragments between blocks are noise, not I-blocks; the answer still pairs.
    @Test func fragmentsAreNoBlocks() {
        let d = frames(Dissector.dissect(Self.typeA + [R("02 00 B2 01 0C 00", crc: true), T("0B", bits: 6), R("05", bits: 3), T("02 6A 83", crc: true)]))
        #expect(d[9].summary == "fragment of 6 bits: no ISO-DEP block (noise, or a frame the capture cut)", "\(d[9].summary)")
        #expect(d[10].summary == "fragment of 3 bits: no ISO-DEP block (noise, or a frame the capture cut)")
        #expect(d[11].summary == "SW 6A83 record not found", "\(d[11].summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
    }

    /// A truncated answer with a wrong CRC: its last two bytes are no status word to call refused.
    @Test func aDamagedAnswerIsNotARefusal() {
        var cut = CRC.appending(.a, to: [0x02, 0x77, 0x0A, 0x82, 0x02, 0x00, 0x80, 0x94, 0x04, 0x08, 0x01, 0x01, 0x00, 0x90, 0x00])
        cut.removeLast(5)
        let gpo = R("02 80 A8 00 00 02 83 00 00", crc: true)
        let d = frames(Dissector.dissect(Self.typeA + [gpo, Frame(.data(.tagToReader), bytes: cut)]))
        #expect(d[9].summary.hasPrefix("damaged answer (CRC wrong)"), "\(d[9].summary)")
        #expect(!d[9].diagnostics.contains { $0.message.contains("refused") }, "\(d[9].diagnostics)")
    }

    /// Issue 44, point 8: in a Seos application `8E` is a secure-messaging MAC, not EMV's CVM list.
    @Test func tagNamesFollowTheApplication() {
        let answer = "85 03 11 22 33 8E 08 01 02 03 04 05 06 07 08 99 02 90 00 90 00"
        let seos = frames(Dissector.dissect(Self.typeA + [
            R("02 00 A4 04 00 0A A0 00 00 04 40 00 01 01 00 01 00", crc: true), T("02 90 00", crc: true),
            R("03 0C CB 3F FF 04 5C 02 FF 00 00", crc: true), T("03 " + answer, crc: true),
        ]))
        let names = seos[11].fields.first(key: "apdu.response_data")?.children.map(\.label) ?? []
        #expect(names.contains("8E cryptographic checksum (secure messaging MAC)"), "\(names)")
        #expect(!names.contains { $0.contains("CVM") })
        let emv = frames(Dissector.dissect(Self.typeA + [R("02 00 B2 01 0C 00", crc: true), T("02 70 04 8E 02 00 00 90 00", crc: true)]))
        #expect(emv[9].fields.first(key: "apdu.response_data")?.children.first?.children.first?.label.hasPrefix("8E CVM list") == true)
    }

    @Test func theFamilyTheAnswersProveHeadsTheSession() {
        let plus = sessions(Dissector.dissect(Self.typeA + [R("02 70 02 40 00", crc: true), T("02 90" + String(repeating: " 5A", count: 16), crc: true)]))
        #expect(plus.first?.headline.hasPrefix("MIFARE Plus (SL3), UID 08 12 34 56") == true, "\(plus.map(\.headline))")
        let emv = sessions(Dissector.dissect(Self.typeA + [R("02 00 A4 04 00 07 A0 00 00 00 04 10 10 00", crc: true), T("02 6F 09 84 07 A0 00 00 00 04 10 10 90 00", crc: true)]))
        #expect(emv.first?.headline == "EMV payment card (Mastercard), UID 08 12 34 56", "\(emv.map(\.headline))")
    }

    // MARK: point 5

    static func b(_ direction: Direction, _ hex: String, crc: Bool = true) -> Frame {
        let bytes = Hex.parse(hex) ?? []
        return Frame(.data(direction), technology: .iso14443b, bytes: crc ? CRC.appending(.b, to: bytes) : bytes)
    }

    /// ISO-DEP over Type B in a capture without the ATTRIB: an I-block with CID carrying an APDU
    /// is ISO-DEP, not SRx's AUTHENTICATE (0A).
    @Test func isoDEPOverTypeBIsInferred() {
        let events = Dissector.dissect([Self.b(.readerToTag, "0A 01 00 CA 9F 7F 00"), Self.b(.tagToReader, "0A 01 6A 88")])
        let d = frames(events)
        #expect(d[0].summary == "GET DATA", "\(d[0].summary)")
        #expect(d[0].diagnostics.contains { $0.message == "ISO-DEP inferred: no ATTRIB in the capture" })
        #expect(d[1].summary == "SW 6A88 referenced data or reference data not found", "\(d[1].summary)")
        #expect(sessions(events).first?.headline == "ISO 14443-B card, ISO-DEP (its activation is not in the capture)")
    }

    /// A 1-byte `x5` with no REQB that opened that slot, in a session that activated no ISO
    /// 14443-4 card, is a proprietary chip's command, and its answer is no "unexpected answer".
    @Test func proprietaryTypeBCommandsAreNotGuessed() {
        let d = frames(Dissector.dissect([Self.b(.readerToTag, "25"), Self.b(.tagToReader, "01 02 03 04")]))
        #expect(d[0].summary == "unknown proprietary command 0x25", "\(d[0].summary)")
        #expect(d[1].summary == "answer to an unknown proprietary command, 4 bytes", "\(d[1].summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
        // After a REQB with 4 slots it is the Slot-MARKER of slot 3.
        let slotted = frames(Dissector.dissect([Self.b(.readerToTag, "05 00 02"), Self.b(.readerToTag, "25")]))
        #expect(slotted[1].summary == "Slot-MARKER slot 3", "\(slotted[1].summary)")
    }

    /// Frames with a wrong CRC are named as far as they go, the CRC error kept.
    @Test func damagedFramesAreNamedBestEffort() {
        var attrib = CRC.appending(.b, to: Hex.parse("1D 56 64 73 F2 00 05 01 01") ?? [])
        attrib.removeSubrange(5..<8)
        let d = frames(Dissector.dissect([Frame(.data(.readerToTag), technology: .iso14443b, bytes: attrib)]))
        #expect(d[0].summary == "ATTRIB? (damaged: 8 bytes, CRC_B wrong)", "\(d[0].summary)")
        #expect(d[0].crc.isBad)
        let ecp = frames(Dissector.dissect([R("6A 02 C8 01 00 03 00 02 79 00 00 00 00 C2 D9")]))
        #expect(ecp[0].summary == "ECP2 transit, no user authentication, TCI 03 00 02" && ecp[0].crc.isBad, "\(ecp[0].summary)")
    }
}
