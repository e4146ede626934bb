import Foundation
import Testing
import NFCCapture
import NFCCore
@testable import NFCDissect

/// ISO 14443-B (issue 18, point 5): the codec round-trips, the Proxmark3's 14443-B trace and
/// its listing dissect with WUPB/ATQB named and CRC_B checked, ISO-DEP rides on ATTRIB, ST SRx
/// cards are read into a block map, and Type B frames in a LINKTYPE_ISO_14443 pcap are known by
/// their CRC.
@Suite struct ISO14443BTests {
    static func dissect(_ path: String, technology: Technology? = nil) throws -> [DissectionEvent] {
        let reader = try Capture.open(path, options: CaptureReadOptions(technology: technology))
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return Dissector.dissect(frames)
    }

    @Test(arguments: [
        ISO14443BCommand.request(afi: 0x00, param: 0x08), .request(afi: 0x21, param: 0x14), .slotMarker(slot: 2), .slotMarker(slot: 16),
        .attrib(ATTRIB(pupi: [1, 2, 3, 4], param1: 0x00, param2: 0x08, param3: 0x01, param4: 0x03, higherLayer: [0x90, 0x60])),
        .halt(pupi: [0x82, 0x0D, 0xE1, 0x74]),
    ])
    func commandsRoundTrip(_ command: ISO14443BCommand) throws {
        #expect(try ISO14443BCommand.decode(command.encode()) == command)
    }

    @Test(arguments: [SRxCommand.initiate, .pcall16, .slotMarker(slot: 3), .select(chipID: 0x5A), .getUID, .readBlock(address: 255),
                      .writeBlock(address: 7, data: [1, 2, 3, 4]), .completion, .resetToInventory, .authenticate(random: [1, 2, 3, 4, 5, 6])])
    func srxCommandsRoundTrip(_ command: SRxCommand) throws {
        #expect(try SRxCommand.decode(command.encode()) == command)
    }

    @Test func malformedCommandsAreDecodeErrors() {
        #expect(throws: DecodeError.self) { try ISO14443BCommand.decode([0x05, 0x00]) }               // PARAM missing
        #expect(throws: DecodeError.self) { try ISO14443BCommand.decode([0x1D, 1, 2, 3, 4, 0, 8]) }   // Param 3 and 4 missing
        #expect(throws: DecodeError.self) { try ISO14443BCommand.decode([0x50, 1, 2, 3, 4, 5]) }      // HLTB too long
        #expect(throws: DecodeError.self) { try SRxCommand.decode([0x06, 0x02]) }
        #expect(throws: DecodeError.self) { try ATQB.decode([0x50, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0x81]) }  // protocol info cut
    }

    /// The worked example of `hf_14b_reader.trace`: every ATQB field decoded.
    @Test func theATQBOfTheProxmark3TraceIsDecoded() throws {
        let atqb = try ATQB.decode([0x50, 0x82, 0x0D, 0xE1, 0x74, 0x20, 0x38, 0x19, 0x22, 0x00, 0x21, 0x85])
        #expect(atqb.pupi == [0x82, 0x0D, 0xE1, 0x74] && atqb.afi == 0x20 && atqb.applicationCount == 0x22)
        #expect(ISO14443B.frameSize(code: atqb.maximumFrameSizeCode) == 32 && atqb.supportsISODEP)
        #expect(atqb.fwi == 8 && atqb.adc == 1 && atqb.supportsCID && !atqb.supportsNAD)
    }

    /// The Proxmark3's trace and the listing made from it: WUPB and ATQB named, CRC_B right.
    @Test(.enabled(if: GoldenTests.sharedAvailable, "../shared is not beside this checkout"),
          arguments: ["pm3-traces/hf_14b_reader.trace", "captures/proxmark3-listings/hf_14b_reader.txt"])
    func proxmark3TypeBTrace(path: String) throws {
        let events = try Self.dissect(GoldenTests.root + "/../shared/" + path, technology: path.hasSuffix(".trace") ? .iso14443b : nil)
        let f = frames(events)
        #expect(f.count == 2)
        #expect(f[0].summary == "WUPB AFI 0x00, 1 slot")
        #expect(f[1].summary == "ATQB PUPI 82 0D E1 74, ISO 14443-4, FSC 32, FWI 8")
        #expect(f.allSatisfy { $0.crc == .ok(.b) })
        #expect(f[1].responseTo == 1)
        #expect(sessions(events).first?.headline == "ISO 14443-B card, PUPI 82 0D E1 74")
    }

    @Test func aWrongCRCBIsFlagged() {
        var bytes: [UInt8] = [0x05, 0x00, 0x08] + CRC.bytes(.b, [0x05, 0x00, 0x08])
        bytes[4] ^= 0xFF
        let events = Dissector.dissect([Frame(.data(.readerToTag), technology: .iso14443b, bytes: bytes)])
        let d = frames(events)[0]
        guard case .mismatch(.b, _, _) = d.crc else { Issue.record("expected a CRC_B mismatch, got \(d.crc)"); return }
        #expect(d.summary == "WUPB AFI 0x00, 1 slot", "named all the same")
        #expect(d.diagnostics.contains { $0.message.hasPrefix("CRC_B mismatch") })
    }

    /// ATTRIB answered: the blocks after it are ISO-DEP, the APDUs inside read a Type 4 NDEF file.
    @Test func isoDEPOverTypeB() throws {
        let events = try Self.dissect(GoldenTests.root + "/Traces/iso14443b-type4-read.nfctrace")
        let f = frames(events)
        #expect(f.contains { $0.summary == "ATTRIB answer: CID 0, MBLI 0; ISO-DEP follows" })
        #expect(f.contains { $0.summary.hasPrefix("SELECT NDEF Tag Application") })
        #expect(f.allSatisfy { !$0.summary.contains("unknown") && !$0.summary.contains("invalid") })
        let s = sessions(events)
        #expect(s.first?.headline == "ISO 14443-B card, PUPI 3E 2A 91 07, ISO-DEP (CID 0), NFC Forum Type 4 Tag (mapping 2.0)")
        #expect(s.first?.memory.description.contains("URI https://example.com") == true)
    }

    @Test func anSRI512IsReadIntoItsBlocks() throws {
        let events = try Self.dissect(GoldenTests.root + "/Traces/sri512-read.nfctrace")
        let s = try #require(sessions(events).first)
        #expect(s.headline == "SRI512, UID D0 02 18 A1 B2 C3 D4 E5")
        #expect(s.memory.first?.value.description == "17 (1 written)")
        #expect(frames(events).contains { $0.summary == "READ_BLK 255 (system: OTP lock bits)" })
    }

    /// In a 264 pcap the CRC tells Type B from Type A; `--tech` still wins.
    @Test func typeBInALinktype264PcapIsKnownByItsCRC() throws {
        let b = try Capture.open(GoldenTests.root + "/Traces/sri512-read.pcap")
        var techs = Set<Technology>()
        while let f = try b.next() { if case .data = f.event { techs.insert(f.technology) } }
        #expect(techs == [.iso14443b])
        let a = try Capture.open(GoldenTests.root + "/Traces/ntag215-password-read.pcap")
        techs = []
        while let f = try a.next() { if case .data = f.event { techs.insert(f.technology) } }
        #expect(techs == [.iso14443a])
        let forced = try Capture.open(GoldenTests.root + "/Traces/sri512-read.pcap", options: CaptureReadOptions(technology: .iso14443a))
        while let f = try forced.next() { #expect(f.technology == .iso14443a) }
    }

    /// The Proxmark3's other Type B cards, by opcode: CryptoRF after ATTRIB of a card that is not
    /// ISO 14443-4, ASK C-ticket after REQT, the Proxmark3's own PING.
    @Test func otherTypeBCardsAreNamedByOpcode() {
        func frame(_ direction: Direction, _ payload: [UInt8]) -> Frame {
            Frame(.data(direction), technology: .iso14443b, bytes: CRC.appending(.b, to: payload))
        }
        let pupi: [UInt8] = [1, 2, 3, 4]
        let notISODEP = ATQB(pupi: pupi, applicationData: [0, 0, 0, 0], protocolInfo: [0x00, 0x80, 0x70])
        let crypto = NFCDissectTests.frames(Dissector.dissect([
            frame(.readerToTag, ISO14443BCommand.request(afi: 0, param: 0).encode()), frame(.tagToReader, notISODEP.encode()),
            frame(.readerToTag, ISO14443BCommand.attrib(ATTRIB(pupi: pupi, param3: 0x00)).encode()), frame(.tagToReader, [0x00]),
            frame(.readerToTag, [0x12, 0x00, 0x10]),
        ]))
        #expect(crypto.last?.summary == "CryptoRF READ USER ZONE")
        let ask = NFCDissectTests.frames(Dissector.dissect([frame(.readerToTag, [0x10]), frame(.readerToTag, [0x0F]), frame(.readerToTag, [0x63])]))
        #expect(ask.map(\.summary) == ["ASK CTS REQT", "ASK CTS IDENTIFY", "ASK CTS READ(3)"])
        let ping = NFCDissectTests.frames(Dissector.dissect([frame(.readerToTag, [0xBA])]))
        #expect(ping.first?.summary == "PING (a Proxmark3 test frame)")
    }
}
