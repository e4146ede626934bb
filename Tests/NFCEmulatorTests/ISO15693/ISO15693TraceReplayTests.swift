import Testing
import NFCCapture
import NFCCore
import NFCDissect
@testable import NFCEmulator

/// Replays each recorded session of the ISO 15693 traces in Traces/ against an emulated tag, as
/// the replayer will: every reader frame of the session goes to the tag, and the tag's answer must
/// be the recorded one byte for byte (or silence where the trace has none). A recorded answer
/// whose CRC is wrong was damaged on air: the tag must send its payload with the right CRC.
struct SessionReplay {
    let frames: [Frame]
    let sessions: [SessionSummary]

    init(trace name: String) throws {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        let reader = try Capture.open(path + "/Traces/" + name)
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        var sessions: [SessionSummary] = []
        let dissector = Dissector(detail: .summary)
        let collect: (DissectionEvent) -> Void = { if case .session(let s) = $0 { sessions.append(s) } }
        for f in frames { dissector.process(f, emit: collect) }
        dissector.finish(emit: collect)
        self.frames = frames
        self.sessions = sessions
    }

    /// The differences between the tag's answers and the session's recorded answers, and how many
    /// reader frames were compared. Frame numbers are the dissector's (1-based, field events included).
    func replay(_ session: SessionSummary, on tag: EmulatedTag) -> (compared: Int, differences: [String]) {
        var first = session.firstFrame
        // A session that starts with an answer (a new VICC found by an Inventory) starts with its request.
        while first > 1, frames[first - 1].isTagFrame { first -= 1 }
        var compared = 0
        var differences: [String] = []
        for n in first...session.lastFrame {
            let frame = frames[n - 1]
            switch frame.event {
            case .fieldOn: tag.fieldOn()
            case .fieldOff: tag.fieldOff()
            case .data(.readerToTag):
                compared += 1
                let got = tag.respond(to: frame)
                var expected: Frame? = nil
                if n < session.lastFrame, frames[n].isTagFrame { expected = frames[n] }
                if let e = expected, CRC.check(.b, e.bytes) != .ok, !e.crcStripped, e.bytes.count > 2 {
                    // Damaged on air: the VICC sent the payload with its correct CRC.
                    expected?.bytes = CRC.appending(.b, to: Array(e.bytes.dropLast(2)))
                }
                if got?.bytes != expected?.bytes {
                    differences.append("frame \(n) \(Hex.string(frame.bytes)): recorded \(expected.map { Hex.string($0.bytes) } ?? "silence"), emulated \(got.map { Hex.string($0.bytes) } ?? "silence")")
                }
            default:
                break
            }
        }
        return (compared, differences)
    }
}

@Suite struct ISO15693TraceReplayTests {
    @Test func formatAndWriteReplaysAgainstTheBuiltInST25DV04K() throws {
        let trace = try SessionReplay(trace: "iso15693-format-and-write.nfctrace")
        #expect(trace.sessions.count == 1)
        for session in trace.sessions {
            let tag = try #require(BuiltInTag.named("iso15693-st25dv04k")?.make().makeTag())
            let result = trace.replay(session, on: tag)
            #expect(result.compared == 8)
            #expect(result.differences == [])
            let st = try #require(tag as? ISO15693Tag)
            #expect(st.memory.block(0) == [0xE1, 0x40, 0x30, 0x01], "the CC the phone wrote")
        }
    }

    @Test func formatAndWriteReplaysAgainstItsOwnReconstruction() throws {
        let trace = try SessionReplay(trace: "iso15693-format-and-write.nfctrace")
        let session = try #require(trace.sessions.first)
        let reconstruction = try #require(session.reconstruction)
        let tag = try #require(TagDump(reconstruction: reconstruction).makeTag())
        #expect(trace.replay(session, on: tag).differences == [])
    }

    @Test func errorsTraceReplaysAgainstEachSessionsReconstruction() throws {
        let trace = try SessionReplay(trace: "iso15693-errors.nfctrace")
        #expect(trace.sessions.count == 2)
        var compared = 0
        for session in trace.sessions {
            let reconstruction = try #require(session.reconstruction)
            let tag = try #require(TagDump(reconstruction: reconstruction).makeTag())
            let result = trace.replay(session, on: tag)
            #expect(result.differences == [], "session \(session.number)")
            compared += result.compared
        }
        #expect(compared == 14, "12 requests to the SLIX2, the Inventory and the read of the Tag-it")
    }

    // The comparison can fail: the factory-fresh SLIX2 has no locked block 2.
    @Test func aDifferentTagDoesNotReplayTheErrorsTrace() throws {
        let trace = try SessionReplay(trace: "iso15693-errors.nfctrace")
        let session = try #require(trace.sessions.first)
        let tag = try #require(BuiltInTag.named("slix2")?.make().makeTag())
        let differences = trace.replay(session, on: tag).differences
        #expect(differences.count == 4, "security status and data of block 2, the write to it, block 3")
        #expect(differences.first?.contains("recorded 00 01 4C 4F 43 4B") == true)
    }

    @Test func errorsTraceReconstructsBothVICCs() throws {
        let trace = try SessionReplay(trace: "iso15693-errors.nfctrace")
        guard trace.sessions.count == 2, case .iso15693(let slix2)? = trace.sessions[0].reconstruction,
              case .iso15693(let tagIt)? = trace.sessions[1].reconstruction else {
            Issue.record("expected two ISO 15693 reconstructions")
            return
        }
        #expect(slix2.uid == ISO15693Dump.slix2UID && slix2.blockCount == 80 && slix2.blockSize == 4 && slix2.icReference == 0x01)
        #expect(slix2.blocks[2] == [0x4C, 0x4F, 0x43, 0x4B] && slix2.locks[2] == true)
        #expect(slix2.blocks[3] == [0x00, 0x11, 0x22, 0x33], "from the retry, not from the damaged answer")
        let slix2Dump = ISO15693Dump(reconstruction: slix2)
        #expect(slix2Dump.configuration.name == "ICODE SLIX2" && slix2Dump.configuration.systemInformationFlags == 0x0F)
        #expect(tagIt.uid == ISO15693UID(value: 0xE007_0000_1A2B_3C4D) && tagIt.blockCount == nil && tagIt.dsfid == 0x00)
        let tagItDump = ISO15693Dump(reconstruction: tagIt)
        #expect(tagItDump.configuration.blockCount == 256 && tagItDump.configuration.systemInformationFlags == 0x01)
        #expect(tagItDump.notes.contains { $0.contains("no Get System Information") })
        #expect(tagItDump.summary == "Texas Instruments ISO 15693 tag, UID E0 07 00 00 1A 2B 3C 4D, 256 blocks × 4 bytes")
    }
}
