import Testing
import NFCCore
@testable import NFCCapture

/// The writers' notes: one per kind in the order the kinds first happened, counted, worded from
/// the format's row of `FormatLimits`.
@Suite struct LossLedgerTests {
    @Test func oneEntryPerKindInTheOrderTheyHappened() {
        var ledger = LossLedger(.proxmark3)
        ledger.record(.metadata, frame: nil, count: 2)
        ledger.record(.fieldEvents, frame: 1)
        ledger.record(.parity, frame: 3)
        ledger.record(.fieldEvents, frame: 9)
        #expect(ledger.losses.map(\.kind) == [.metadata, .fieldEvents, .parity])
        #expect(ledger.losses.map(\.description) == [
            "trace metadata: a .trace has no header (2 entries)",
            "field on/off events: a .trace has none: dropped (2 events, first: frame 1)",
            "parity bits: a .trace holds 14443-A parity only and has no \"unknown\": unknown parity is written as zero bits, which read back as unknown where they would be errors, and as right parity elsewhere (1 frame, first: frame 3)",
        ])
        // A kind the format's row leaves out says so.
        var text = LossLedger(.nfctrace)
        text.record(.parity, frame: 5)
        #expect(text.losses.first?.detail == FormatLimits.undocumented)
    }

    @Test func kindsAreCountedInTheirOwnPlace() {
        #expect(FrameLoss.Kind.allCases.enumerated().allSatisfy { $0.offset == $0.element.index })
    }

    /// A 7-bit REQA or 4-bit ACK has no parity bit: "unknown" and "none wrong" are the same.
    @Test func aShortByteHasNoParityToLose() {
        let unknown = Frame(.data(.readerToTag), bytes: [0x26], lastByteBits: 7)
        var none = unknown
        none.parityErrors = []
        #expect(LossLedger.sameParity(unknown, none))
        var whole = Frame(.data(.readerToTag), bytes: [0x30, 0x04])
        let known = { () -> Frame in var f = whole; f.parityErrors = []; return f }()
        #expect(!LossLedger.sameParity(whole, known))
        whole.parityErrors = [1]
        #expect(!LossLedger.sameParity(whole, known))
    }
}
