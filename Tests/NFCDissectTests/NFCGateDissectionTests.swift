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
}
