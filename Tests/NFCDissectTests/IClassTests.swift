import Testing
import NFCCapture
import NFCCore
@testable import NFCDissect

/// iClass / PicoPass (issue 18, point 6): the codec round-trips, the CRC matches the
/// Proxmark3's vectors (reader frames over all but the opcode), and a read session is named
/// command by command with its blocks gathered.
@Suite struct IClassTests {
    @Test(arguments: [IClassCommand.actall, .identify, .select(csn: [1, 2, 3, 4, 5, 6, 7, 8]), .read(block: 5), .read4(block: 6),
                      .readCheck(block: 2, creditKey: false), .readCheck(block: 2, creditKey: true), .check(nr: [0, 0, 0, 0], mac: [1, 2, 3, 4]),
                      .update(block: 7, data: [1, 2, 3, 4, 5, 6, 7, 8], mac: nil), .update(block: 7, data: [1, 2, 3, 4, 5, 6, 7, 8], mac: [9, 9, 9, 9]),
                      .pageSelect(page: 1), .halt, .detect, .act])
    func commandsRoundTrip(_ command: IClassCommand) throws {
        #expect(try IClassCommand.decode(command.encode()) == command)
    }

    /// The Proxmark3's constants: READ(0), READ(1), READ(5) and a CSN's CRC.
    @Test func theCRCMatchesTheProxmark3() {
        #expect(IClass.frame(.read(block: 0)) == [0x0C, 0x00, 0x73, 0x33])
        #expect(IClass.frame(.read(block: 1)) == [0x0C, 0x01, 0xFA, 0x22])
        #expect(IClass.frame(.read(block: 5)) == [0x0C, 0x05, 0xDE, 0x64])
        #expect(CRC.bytes(.iclass, [0x42, 0x20, 0x71, 0x04, 0x08, 0x00, 0x12, 0xE0]) == [0x5F, 0x37])
        #expect(IClass.anticollisionCSN([0x42, 0x20, 0x71, 0x04, 0x08, 0x00, 0x12, 0xE0]) == [0x08, 0x24, 0x8E, 0x00, 0x01, 0x40, 0x02, 0x5C])
    }

    @Test func aReadSessionIsNamedAndGathered() throws {
        let reader = try Capture.open(GoldenTests.root + "/Traces/iclass-read.nfctrace")
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        let events = Dissector.dissect(frames)
        let f = NFCDissectTests.frames(events)
        #expect(f.allSatisfy { !$0.summary.contains("unknown") && !$0.crc.isBad })
        #expect(f.contains { $0.summary == "CHECK SUCCESS: the card's MAC (authenticated with Kd)" })
        #expect(f.filter { $0.crc == .ok(.iclass) }.count == 14)
        let s = try #require(sessions(events).first)
        #expect(s.headline == "iClass / PicoPass, CSN 42 20 71 04 08 00 12 E0, PicoPass 2K, authenticated with Kd (CHECK answered)")
        #expect(f.contains { $0.diagnostics.contains { $0.message.hasPrefix("HID credential block, 3DES-encrypted") } })
    }

    @Test func aWrongCRCIsFlagged() {
        let events = Dissector.dissect([Frame(.data(.readerToTag), technology: .iclass, bytes: [0x0C, 0x01, 0xFA, 0x23])])
        guard case .mismatch(.iclass, let expected, _) = NFCDissectTests.frames(events)[0].crc else { Issue.record("expected a CRC mismatch"); return }
        #expect(expected == [0xFA, 0x22])
    }

    /// Issue 44, point 5: a CHECK made with the AA1 default key is named, the card's MAC checked.
    @Test func theDefaultKeyIsNamedOnCheck() {
        func frame(_ d: Direction, _ bytes: [UInt8], crc: Bool = false) -> Frame {
            Frame(.data(d), technology: .iclass, bytes: crc ? CRC.appending(.iclass, to: bytes) : bytes)
        }
        let csn: [UInt8] = [0x96, 0x55, 0xA4, 0x00, 0xF8, 0xFF, 0x12, 0xE0]
        let epurse: [UInt8] = [0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let key = IClassCipher.diversifiedKey(csn: csn, masterKey: [0xAE, 0xA6, 0x84, 0xA6, 0xDA, 0xB2, 0x32, 0x78])
        let cardMAC = IClassCipher.cardMAC(key: key, epurse: epurse, nr: [0, 0, 0, 0])
        let events = Dissector.dissect([
            frame(.readerToTag, [0x0A]), frame(.readerToTag, [0x0C]), frame(.tagToReader, csn, crc: true),
            frame(.readerToTag, [0x81] + csn), frame(.tagToReader, csn, crc: true),
            frame(.readerToTag, [0x88, 0x02]), frame(.tagToReader, epurse),
            frame(.readerToTag, [0x05, 0x00, 0x00, 0x00, 0x00, 0x89, 0xCB, 0x98, 0x4B]), frame(.tagToReader, cardMAC),
        ])
        let d = frames(events)
        #expect(d[7].summary == "CHECK with the AA1 default key AEA684A6DAB23278", "\(d.map(\.summary))")
        #expect(d[8].summary.hasSuffix(", the AA1 default key"), "\(d[8].summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
        #expect(sessions(events).first?.headline.contains("the AA1 default key AEA684A6DAB23278") == true, "\(sessions(events).map(\.headline))")
    }
}
