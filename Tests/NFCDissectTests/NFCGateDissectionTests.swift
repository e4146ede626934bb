import Testing
import NFCCapture
import NFCCore
@testable import NFCDissect

/// An NFCGate export (Traces/nfcgate-type4-read.pcapng): no RATS, no CRCs, NFCGate's own PCB
/// `02` on every APDU. ISO-DEP is inferred, every APDU named, the Type 4 NDEF rebuilt, and the
/// tool's fixed block number said once, not warned about on every frame.
@Suite struct NFCGateDissectionTests {
    @Test func anNFCGateExportDissects() throws {
        let reader = try Capture.open(GoldenTests.root + "/Traces/nfcgate-type4-read.pcapng")
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        let events = Dissector.dissect(frames)
        let f = NFCDissectTests.frames(events)
        #expect(f.count == 12)
        #expect(f.allSatisfy { !$0.summary.contains("unknown") && !$0.diagnostics.contains { $0.severity == .warning } })
        let notes = f.flatMap(\.diagnostics).filter { $0.message.hasPrefix("block numbers do not toggle") }
        #expect(notes.count == 1)
        #expect(sessions(events).first?.headline.contains("NFC Forum Type 4 Tag") == true)
    }

    /// Issue 44, point 5: NFCGate writes its PCB 02 before every payload, whatever the tag speaks;
    /// for an NTAG (SAK 00) and a FeliCa card (NFC-F listen parameters) the reader removes it and
    /// the frames are read as what they are, not as "unknown command 0x02".
    @Test(arguments: [("nfcgate-ntag215-read.pcapng", Technology.iso14443a, ["GET_VERSION", "VERSION NTAG215", "READ page 0x03", "DATA pages 0x03…0x06"]),
                      ("nfcgate-felica-read.pcapng", .felica, ["Polling system FFFF", "IDm 01 2E 4C D8 A3 16 52 BA", "Read Without Encryption 000B", "OK, 1 block"])])
    func theToolsPCBGoesWhereTheTagSpeaksNoISODEP(_ name: String, _ technology: Technology, _ names: [String]) throws {
        let reader = try Capture.open(GoldenTests.root + "/Traces/" + name)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        #expect(frames.allSatisfy { $0.technology == technology && $0.bytes.first != 0x02 })
        #expect(frames.first?.comment?.contains("NFCGate's own PCB 02 before every payload removed") == true, "\(frames.first?.comment ?? "")")
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(zip(d, names).allSatisfy { $0.0.summary.hasPrefix($0.1) }, "\(d.map(\.summary))")
        #expect(d.allSatisfy { !$0.summary.lowercased().contains("unknown") })
    }
}
