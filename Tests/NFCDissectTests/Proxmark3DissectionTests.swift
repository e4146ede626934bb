import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// The real Proxmark3 traces in ../shared/pm3-traces: every frame named, CRCs checked,
/// the PWD_AUTH password shown.
@Suite(.enabled(if: GoldenTests.sharedAvailable, "../shared/pm3-traces is not beside this checkout"))
struct Proxmark3DissectionTests {
    func dissect(_ name: String) throws -> [DissectionEvent] {
        let reader = try Capture.open("\(GoldenTests.sharedTraces)/\(name)")
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return Dissector.dissect(frames)
    }

    @Test(arguments: GoldenTests.sharedNames)
    func everyFrameIsNamedAndEveryCRCChecked(name: String) throws {
        let d = frames(try dissect(name))
        #expect(!d.isEmpty)
        for f in d {
            let lowered = f.summary.lowercased()
            #expect(!lowered.contains("unknown") && !lowered.contains("unrecognised") && !lowered.contains("malformed") && !lowered.contains("no request"),
                    "frame \(f.number) is not named: \(f.summary)")
            #expect(!f.summary.isEmpty)
            #expect(f.diagnostics.filter { $0.severity >= .warning }.isEmpty, "frame \(f.number): \(f.diagnostics)")
            switch f.crc {
            case .ok, .notExpected: break
            default: Issue.record("frame \(f.number) CRC \(f.crc)")
            }
            // Every frame that carries a CRC_A on air had it checked.
            if f.frame.bytes.count >= 3, f.frame.bytes.count != 5 { #expect(f.crc == .ok(.a), "frame \(f.number) \(f.summary)") }
        }
    }

    @Test func passwordIsShown() throws {
        let events = try dissect("hf_14a_mfu.trace")
        let d = frames(events)
        #expect(d.contains { $0.summary == "PWD_AUTH pwd DA E5 57 96" })
        #expect(d.contains { $0.summary == "PACK AB DA, authenticated" })
        #expect(sessions(events).first?.headline == "MIFARE Ultralight / NTAG family (Type 2 Tag), UID 04 A8 1D 12 DE 5F 80, authenticated (PWD DA E5 57 96, PACK AB DA)")
    }

    @Test func isoDEPCardWithRATS() throws {
        let d = frames(try dissect("hf_14a_reader_7b_rats.trace"))
        #expect(d.last?.summary == "ATS FSCI 5 (FSC 64), FWI 8, historical 80")
        #expect(d.filter { $0.summary == "WUPA" }.count == 5)
    }
}
