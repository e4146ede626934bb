import NFCCore

/// The field events a trace does not hold, inferred from the ISO/IEC 14443-3 Type A state machine
/// (issue 44, point 7). A Proxmark3 tracelog records frames only: when its reader cycled the field
/// between two activations, the trace does not say so, and a replay that sends the second REQA
/// to a tag still HALTed (or a WUPA to one in READY) finds it silent where the recording shows it
/// answering. As long as a trace has shown no field event, the replay follows what state the
/// recorded exchanges left the tag in and cycles the field where the recorded answer needs it;
/// and an activation request the recorded tag did not answer while the target did means the card
/// was not in the field yet. Both are reported (`ReplayResult.inferredFieldCycles`, `cardAbsent`).
struct FieldInference {
    /// The trace has field events of its own: nothing is inferred.
    var sawFieldEvent = false
    var cycledBefore: [Int] = []
    var cardAbsent: [Int] = []

    /// ISO/IEC 14443-3 §6.3: the states a REQA or WUPA meets.
    enum TagState {
        case idle, ready, active, halt
    }

    private var state = TagState.idle
    /// The last reader frame, to read the tag's answer against.
    private var lastCommand: ISO14443ACommand?

    private var active: Bool { !sawFieldEvent }

    /// Whether the field must go off and on before `frame` for the recorded answer to come: REQA
    /// is answered in IDLE only, WUPA in IDLE and HALT (§6.3, Figure 7).
    func needsFieldCycle(before frame: Frame, answered: Bool) -> Bool {
        guard active, answered, frame.technology == .iso14443a, frame.lastByteBits == 7, let first = frame.bytes.first, frame.bytes.count == 1 else { return false }
        switch first {
        case ISO14443A.reqa: return state != .idle
        case ISO14443A.wupa: return state == .ready || state == .active
        default: return false
        }
    }

    /// Follows the state the recorded exchange leaves the tag in.
    mutating func saw(_ frame: Frame) {
        guard active, frame.technology == .iso14443a, case .data(let direction) = frame.event else { return }
        if direction == .readerToTag {
            lastCommand = try? ISO14443ACommand.decode(Array(frame.payloadDroppingValidCRC(.a)), lastByteBits: frame.lastByteBits)
            switch lastCommand {
            case .reqa?, .wupa?: state = .idle
            case .hlta?: state = .halt
            default: break
            }
            return
        }
        switch lastCommand {
        case .reqa?, .wupa?: state = .ready
        case .select?:
            // SAK: the UID is complete (ACTIVE) or another cascade level follows (READY).
            if let sak = frame.payload(ifValidCRC: .a)?.first { state = SAK(sak).uidIncomplete ? .ready : .active }
        default:
            if state == .ready || state == .idle { state = .active }
        }
    }

    /// An activation request the recorded tag left unanswered where the target answered: with no
    /// field events in the trace, the card was not in the field yet; the target is READY now.
    mutating func cardWasAbsent(_ p: Replayer.Pending) -> Bool {
        guard active, p.request.technology == .iso14443a, p.request.lastByteBits == 7, let first = p.request.bytes.first,
              first == ISO14443A.reqa || first == ISO14443A.wupa else { return false }
        cardAbsent.append(p.number)
        state = .ready
        return true
    }
}
