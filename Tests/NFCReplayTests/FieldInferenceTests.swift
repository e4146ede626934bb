import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect
@testable import NFCEmulator
@testable import NFCReplay

/// Issue 44, point 7: a Proxmark3 tracelog has no field events; where the tag's state machine
/// needs a field cycle for the recorded answer, the replay infers one, and an activation the
/// recorded tag did not answer means the card was not in the field yet. Both said in the report.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: root + "/../shared/pm3-traces"), "../shared/pm3-traces is not beside this checkout"))
struct FieldInferenceTests {
    static func replayAgainstRebuilt(_ name: String) throws -> ReplayResult {
        let frames = try readTrace(root + "/../shared/pm3-traces/" + name)
        return try replayFrames(frames, keys: .defaults, against: nil, trace: name)
    }

    /// The HID SIO simulation: WUPA, ATQA, then WUPA again answered (READY ignores WUPA), three times.
    @Test func aWUPAInReadyGetsAFieldCycle() throws {
        let r = try Self.replayAgainstRebuilt("hf_mf_hid_sio_sim.trace")
        #expect(r.passed, "\(r.outcome)")
        #expect(r.inferredFieldCycles == [3, 5, 41], "\(r.inferredFieldCycles)")
        #expect(r.fieldCycles == 3)
        let text = ReplayReport.text([r])
        #expect(text.contains("field cycles inferred before frames 3, 5, 41 (the trace has no field events"), "\(text)")
        #expect(ReplayReport.object(r).contains(#""inferred_field_cycles":[3,5,41]"#))
    }

    /// The Visa phone: the first WUPA went unanswered (the phone was not in the field yet), the
    /// target answered it; the next WUPA then needs a field cycle.
    @Test func anUnansweredActivationIsTheCardAbsent() throws {
        let r = try Self.replayAgainstRebuilt("hf_visa_apple_ecp.trace")
        #expect(r.passed, "\(r.outcome)")
        #expect(r.cardAbsent == [2] && r.inferredFieldCycles == [4], "\(r.cardAbsent) \(r.inferredFieldCycles)")
        #expect(ReplayReport.text([r]).contains("card not in the field at frame 2"))
    }

    /// With field events in the trace nothing is inferred: a REQA to a halted tag diverges, as it
    /// should (the reader did not cycle the field).
    @Test func aTraceWithFieldEventsIsTakenAsItIs() throws {
        let frames = try readTrace(root + "/../shared/pm3-traces/hf_mf_hid_sio_sim.trace")
        let withField = [Frame(.fieldOn)] + frames
        let r = try replayFrames(withField, keys: .defaults, against: nil, trace: "with field")
        #expect(!r.passed && r.inferredFieldCycles.isEmpty)
    }
}
