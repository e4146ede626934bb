import Testing
import NFCCore
@testable import NFCCapture

/// `convert --to nfclab` (issue 44): every frame object has every field nfc-laboratory's own
/// reader asks for (TraceStorageTask's readFrameEntry refuses a frame without one), and what
/// the export cannot hold is dropped or kept with a note, never made up.
@Suite struct NFCLaboratoryWriterTests {
    static let fields = ["sampleStart", "sampleEnd", "sampleRate", "timeStart", "timeEnd", "techType", "frameType",
                         "frameRate", "frameFlags", "framePhase", "dateTime", "frameData"]

    @Test func everyFieldOfTheLabsFrameIsWritten() throws {
        let t = { (us: Int64) in Timestamp(us, .microseconds) }
        let frames = [
            Frame(.fieldOn, start: t(0)),
            Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: t(100), end: t(180), bitRate: 106),
            Frame(.data(.tagToReader), bytes: [0x44, 0x00], start: t(200), end: t(380)),
            Frame(.data(.readerToTag), bytes: [0x60, 0x08, 0xBD, 0xF7], start: t(500), end: t(800), comment: "AUTH"),
            Frame(.malformed(reason: "x"), bytes: [0x01], start: t(900)),
        ]
        let out = ByteOutput.inMemory()
        let writer = NFCLaboratoryWriter(output: out)
        for f in frames { try writer.write(f) }
        try writer.finish()
        guard case .array(let objects)? = (try? JSONValue.parse(out.memory ?? []))?["frames"] else {
            Issue.record("no frame list in \(String(decoding: out.memory ?? [], as: UTF8.self))")
            return
        }
        #expect(objects.count == 4, "the malformed record is dropped")
        for o in objects {
            for field in Self.fields { #expect(o[field] != nil, "\(field) is missing in \(o)") }
        }
        // Carrier phase, selection (REQA and its answer), application.
        #expect(objects.map { $0["framePhase"]?.integer } == [0x0101, 0x0102, 0x0102, 0x0103])
        #expect(objects.map { $0["frameRate"]?.integer } == [0, 106_000, 0, 0])
        let (back, error, _) = try Fixtures.read(out.memory ?? [])
        #expect(error == nil)
        #expect(back.map(\.bitRate) == [nil, 106, nil, nil], "a rate of 0 is no rate")
        // The field event had no end: it gets its start, and that is said too.
        #expect(writer.losses.map(\.kind) == [.endTimes, .comments, .malformed])
        #expect(writer.losses.first { $0.kind == .comments }?.description == "frame comments: the lab keeps its own flags (nfc-laboratory: encrypted, …), no other comment (1 frame, first: frame 4)")
    }
}
