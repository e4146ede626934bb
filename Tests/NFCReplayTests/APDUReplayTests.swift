import Testing
import NFCCore
import NFCDissect
import NFCEmulator
@testable import NFCReplay

/// A reader that works at the APDU level, as a PC/SC reader does (issue 21, point 4): it
/// activates the card itself, runs the ISO-DEP link itself and gives whole response APDUs. Its
/// card is the emulator's PC/SC front end over the tag rebuilt from the trace, so the replayer's
/// APDU path runs here without pcscd; `tamper` changes what the card answered.
final class APDUReader: ReplayTarget {
    let card: PCSCContactlessCard
    var chained: [UInt8] = []
    var tamper: ([UInt8]) -> [UInt8] = { $0 }

    init(_ tag: EmulatedTag) { card = PCSCContactlessCard(tag: tag)! }

    var name: String { "APDU reader" }
    var answersCarryCRC: Bool { true }
    func fieldOn() {
        card.powerOff()
        card.powerOn()
    }
    func fieldOff() { card.powerOff() }
    func transmit(_ frame: Frame) -> Frame? { nil }

    func exchange(_ frame: Frame, number: Int) -> TargetAnswer {
        let payload = Array(frame.payloadDroppingValidCRC())
        if ISO14443ACommand.recognises(payload, lastByteBits: frame.lastByteBits) || payload.first == ISO14443A.rats { return .byReader("activation") }
        guard let block = try? ISODEPFrame.decode(payload), case .i(let chaining, _, _, _) = block.block else { return .byReader("ISO-DEP link") }
        chained += block.inf
        if chaining { return .byReader("ISO-DEP chaining") }
        defer { chained = [] }
        return .responseAPDU(tamper(card.transmit(chained)))
    }
}

@Suite struct APDUReplayTests {
    func reader(for frames: [Frame]) throws -> APDUReader {
        var i = 0
        let rebuilt = try #require(try TraceTag.field(next: {
            defer { i += 1 }
            return i < frames.count ? frames[i] : nil
        }))
        return APDUReader(rebuilt.field)
    }

    /// Responses compared whole, whatever the card's chaining and WTX (EMV) or the reader's own
    /// chaining and field cycles (Type 4 write): the link's exchanges are counted, not compared.
    @Test(arguments: ["emv-test-card-nfcpy", "type4-ndef-nfcpy"])
    func responseAPDUsAgainstRecordedBlocks(name: String) throws {
        let frames = try readTrace(root + "/Traces/\(name).nfctrace")
        let result = replay(frames, against: try reader(for: frames), name: name)
        #expect(result.passed, "\(ReplayReport.text(result))")
        #expect(result.accepted["the reader itself: activation", default: 0] > 0, "\(result.accepted)")
    }

    /// A response that differs in one byte of a chained answer: the divergence is at the recorded
    /// last block, and the target's answer is shown whole in its place, judged field by field.
    @Test func aDifferentResponseIsADivergenceAtTheLastBlock() throws {
        let frames = try readTrace(root + "/Traces/emv-test-card-nfcpy.nfctrace")
        let target = try reader(for: frames)
        target.tamper = { r in
            guard r.count > 300 else { return r }
            var t = r
            t[t.count - 3] ^= 0xFF   // the last data byte before SW1 SW2
            return t
        }
        let result = replay(frames, against: target, name: "emv")
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence: \(ReplayReport.text(result))")
            return
        }
        // Frame 13 is the first block of the chained SELECT answer, 15 its last.
        #expect(d.frame == 15 && d.reason == "the answers differ", "\(ReplayReport.text(result))")
        #expect((d.actual?.frame.bytes.count ?? 0) > 300, "the whole answer in one block")
        #expect(!d.differences.isEmpty)
    }

    /// The recording of an APDU-level replay holds the card's answers as a card sends them:
    /// chained within the reader's frame size (FSD 256), each block acknowledged.
    @Test func recordingChainsLongAnswers() throws {
        let frames = try readTrace(root + "/Traces/emv-test-card-nfcpy.nfctrace")
        var recorded: [Frame] = []
        let replayer = Replayer(target: try reader(for: frames))
        replayer.onRecord = { recorded.append($0) }
        var i = 0
        let result = replayer.replay(trace: "emv") {
            defer { i += 1 }
            return i < frames.count ? frames[i] : nil
        }
        #expect(result.passed)
        #expect(recorded.allSatisfy { $0.bytes.count <= 256 }, "\(recorded.map(\.bytes.count))")
        let events = Dissector.dissect(recorded, detail: .full)
        let summaries = events.compactMap { e -> String? in if case .frame(let f) = e { return f.summary } else { return nil } }
        #expect(summaries.contains { $0.hasPrefix("R(ACK)") } && summaries.contains { $0.contains("chaining") }, "\(summaries)")
        #expect(!summaries.contains { $0.contains("unknown") }, "\(summaries)")
    }
}

/// A reader that runs Crypto1 itself answers MIFARE Classic commands in clear (issue 21): the
/// replayer compares those with the recorded answers as the dissector decrypted them (here frames
/// in clear, so the recorded bytes themselves), the CRC aside, and 4-bit ACK/NAK by their nibble.
@Suite struct ClearAnswerTests {
    final class ClearReader: ReplayTarget {
        var answers: [[UInt8]]
        init(_ answers: [[UInt8]]) { self.answers = answers }
        var name: String { "clear reader" }
        var answersCarryCRC: Bool { false }
        func fieldOn() {}
        func fieldOff() {}
        func transmit(_ frame: Frame) -> Frame? { nil }
        func exchange(_ frame: Frame, number: Int) -> TargetAnswer {
            let a = answers.removeFirst()
            return .clear(a, lastByteBits: a.count == 1 ? 4 : 8)
        }
    }

    let block: [UInt8] = Array(0..<16)
    var frames: [Frame] {
        [Frame(.fieldOn),
         Frame(.data(.readerToTag), bytes: CRC.appending(.a, to: [0x30, 0x04])),
         Frame(.data(.tagToReader), bytes: CRC.appending(.a, to: block)),
         Frame(.data(.readerToTag), bytes: CRC.appending(.a, to: [0xA0, 0x04])),
         Frame(.data(.tagToReader), bytes: [0x0A], lastByteBits: 4)]
    }

    @Test func equalInClearPasses() {
        let result = replay(frames, against: ClearReader([block, [0x0A]]))
        #expect(result.passed, "\(ReplayReport.text(result))")
    }

    @Test func differentDataIsADivergence() {
        var other = block
        other[5] ^= 0xFF
        let result = replay(frames, against: ClearReader([other, [0x0A]]))
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence: \(ReplayReport.text(result))")
            return
        }
        #expect(d.frame == 3 && d.reason.hasPrefix("the card's answer in clear differs"), "\(d.reason)")
        #expect(d.actual?.summary == "in clear: " + Hex.string(other))
    }

    @Test func aNAKForAnACKIsADivergence() {
        let result = replay(frames, against: ClearReader([block, [0x04]]))
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence: \(ReplayReport.text(result))")
            return
        }
        #expect(d.frame == 5, "\(d.reason)")
    }
}

/// The trace's timing a reader's timeouts are set from (`replay --against libnfc`).
@Suite struct RecordedTimingTests {
    @Test func answerDelaysAndTheWaitsOfUnansweredFrames() {
        func at(_ µs: Int64) -> Timestamp { Timestamp(µs, .microseconds) }
        let frames = [Frame(.fieldOn, start: at(0)),
                      Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7, start: at(100)),
                      Frame(.data(.tagToReader), bytes: [0x44, 0x00], start: at(600)),
                      Frame(.data(.readerToTag), bytes: [0x50, 0x00], start: at(2_000)),
                      Frame(.data(.readerToTag), bytes: [0x52], lastByteBits: 7, start: at(10_000)),
                      Frame(.fieldOff, start: at(20_000)),
                      Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7)]
        let delays = RecordedTiming.answerDelays(frames)
        #expect(delays.count == 2, "\(delays)")
        #expect(abs((delays[2] ?? 0) - 0.000_5) < 1e-9, "answered after 500 µs")
        #expect(abs((delays[4] ?? 0) - 0.008) < 1e-9, "HLTA unanswered: the reader waited 8 ms")
        #expect(delays[5] == nil && delays[7] == nil, "the field went; no time")
    }
}

/// A command the recorded card left unanswered, answered through an APDU-level reader: a
/// divergence at the command, said as silence against an answer.
@Suite struct APDUSilenceTests {
    final class AlwaysAnswers: ReplayTarget {
        var name: String { "APDU reader" }
        var answersCarryCRC: Bool { true }
        func fieldOn() {}
        func fieldOff() {}
        func transmit(_ frame: Frame) -> Frame? { nil }
        func exchange(_ frame: Frame, number: Int) -> TargetAnswer { .responseAPDU([0x90, 0x00]) }
    }

    @Test func anAnswerWhereTheCardWasSilent() {
        let select = ISODEPFrame(.i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 0), inf: [0x00, 0xA4, 0x04, 0x00, 0x02, 0xE1, 0x03])
        let frames = [Frame(.fieldOn), Frame(.data(.readerToTag), bytes: CRC.appending(.a, to: select.encode())), Frame(.fieldOff)]
        let result = replay(frames, against: AlwaysAnswers())
        guard case .diverged(let d) = result.outcome else {
            Issue.record("expected a divergence: \(ReplayReport.text(result))")
            return
        }
        #expect(d.frame == 2 && d.reason == "the tag stayed silent, the target answered", "\(d.frame) \(d.reason)")
    }
}
