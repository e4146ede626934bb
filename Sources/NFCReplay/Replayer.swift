import NFCCore
import NFCDissect

/// A field whose value differs between the recorded answer and the target's.
public struct FieldDifference: Sendable, Equatable {
    public var key: String
    public var label: String
    public var recorded: String?
    public var actual: String?
    /// The rule that accepted the difference (`file:line`), nil when none did.
    public var acceptedBy: String?
}

/// Where a replay first went wrong, with what is needed to understand it.
public struct ReplayDivergence: Sendable {
    /// Recorded frame number the divergence is about (the answer, or the unanswered request).
    public var frame: Int
    public var reason: String
    /// The recorded request, dissected in its session's context.
    public var request: FrameDissection
    /// The frame actually sent (after substitutions).
    public var sent: Frame
    /// The recorded answer and the target's, dissected in context (nil = silence).
    public var recorded: FrameDissection?
    public var actual: FrameDissection?
    public var differences: [FieldDifference]
    /// The exchanges just before, as recorded (oldest first).
    public var history: [FrameDissection]
}

/// A reader frame a target cannot put on air, and why.
public struct InexpressibleFrame: Sendable, Equatable {
    public var frame: Int
    public var bytes: [UInt8]
    public var reason: String
    public init(frame: Int, bytes: [UInt8], reason: String) {
        self.frame = frame
        self.bytes = bytes
        self.reason = reason
    }
}

public struct ReplayResult: Sendable {
    public enum Outcome: Sendable {
        case passed
        case diverged(ReplayDivergence)
        /// The trace could not be read (completely); exchanges before the damage were replayed.
        case unreadable(String)
        /// The target failed (socket error, …).
        case targetFailed(String)
        /// No target could be made for this trace (e.g. no session of it reconstructs a tag).
        case noTarget(String)
        /// Frames the target cannot send (a PC/SC reader without direct transmit and a PWD_AUTH,
        /// …), found before anything was sent: the trace was not replayed.
        case inexpressible([InexpressibleFrame])
    }

    public var trace: String
    public var target: String
    public var outcome: Outcome
    public var exchanges: Int
    /// Field cycles replayed (field-on/off or re-activation).
    public var fieldCycles: Int
    /// Differences accepted by rules, by rule (`file:line ignore KEY`) → count.
    public var accepted: [String: Int]
    public var seconds: Double
    /// In a trace without field events (a Proxmark3 tracelog): the frames before which the
    /// replay cycled the field because the tag's state machine needed it for the recorded answer
    /// (a REQA to a halted tag, a WUPA in READY), and the activation requests the recorded tag
    /// did not answer though the target did (the card was not in the field yet).
    public var inferredFieldCycles: [Int] = []
    public var cardAbsent: [Int] = []

    public init(trace: String, target: String, outcome: Outcome, exchanges: Int, fieldCycles: Int, accepted: [String: Int], seconds: Double) {
        self.trace = trace
        self.target = target
        self.outcome = outcome
        self.exchanges = exchanges
        self.fieldCycles = fieldCycles
        self.accepted = accepted
        self.seconds = seconds
    }

    public var passed: Bool {
        if case .passed = outcome { return true }
        return false
    }
}

/// Sends each recorded reader frame to a target in order and compares its answers with the
/// recorded ones: byte for byte first; where they differ, both sides are dissected in their
/// session's context and compared field by field against the rules.
public final class Replayer {
    public let target: ReplayTarget
    public let rules: ReplayRules
    /// Frames of the current field cycle kept for dissection on a difference; beyond this many
    /// the oldest are dropped (the context of very long sessions is then partial).
    public var windowLimit = 20_000
    public var historyLength = 6
    /// Sees what the replay did, as a new trace (`replay --record`): field events, the frames sent,
    /// the target's answers; for an exchange the reader did itself, the recorded answer with a
    /// comment saying so; for a response APDU, the I-blocks a card sends it in (chained within the
    /// reader's frame size, with the reader's R(ACK)s).
    public var onRecord: ((Frame) -> Void)?
    /// The recorded MIFARE Classic frames in clear, for targets that answer in clear.
    public var clearView = ClassicClearView()
    /// The reader's frame size (FSD) the last RATS of the trace announced, for `onRecord`.
    private var frameSize = 256

    struct Pending {
        var request: Frame
        var number: Int
        var sent: Frame
        var answer: Frame?
        /// The reader did this exchange itself (`TargetAnswer.byReader`).
        var byReader: String? = nil
        /// The card's answer in clear (`TargetAnswer.clear`).
        var clear: (bytes: [UInt8], lastByteBits: UInt8)? = nil
    }

    /// A command whose answer came back as a response APDU, while the recorded answer blocks
    /// arrive and are put together.
    struct APDUExchange {
        var pending: Pending
        var actual: [UInt8]
        var recorded: [UInt8] = []
    }

    private var recordedWindow: [Frame] = []
    /// Trace frame numbers of `recordedWindow`, so that reports name the frames as the trace does.
    private var recordedNumbers: [Int] = []
    private var actualWindow: [Frame] = []
    private var substitutions: [(from: [UInt8], to: [UInt8])] = []
    private var accepted: [String: Int] = [:]

    public init(target: ReplayTarget, rules: ReplayRules = ReplayRules()) {
        self.target = target
        self.rules = rules
    }

    /// Replays the frames `next` delivers (a capture reader's `next`), named `trace` in reports.
    public func replay(trace: String, next: () throws -> Frame?) -> ReplayResult {
        let clock = ContinuousClock()
        let started = clock.now
        recordedWindow.removeAll(keepingCapacity: true)
        recordedNumbers.removeAll(keepingCapacity: true)
        actualWindow.removeAll(keepingCapacity: true)
        substitutions.removeAll()
        accepted.removeAll()
        var exchanges = 0
        var cycles = 0
        var number = 0
        var pending: Pending?
        var apdu: APDUExchange?
        // A trace without field events (a Proxmark3 tracelog) says nothing of the field: what the
        // tag's state machine needs is inferred from it (`FieldInference`).
        var inference = FieldInference()
        var lookahead: Frame?
        func pull() throws -> Frame? {
            if let l = lookahead {
                lookahead = nil
                return l
            }
            return try next()
        }
        func peek() throws -> Frame? {
            if lookahead == nil { lookahead = try next() }
            return lookahead
        }
        var result = ReplayResult(trace: trace, target: target.name, outcome: .passed, exchanges: 0, fieldCycles: 0, accepted: [:], seconds: 0)
        func finish(_ outcome: ReplayResult.Outcome) -> ReplayResult {
            result.outcome = outcome
            result.exchanges = exchanges
            result.fieldCycles = cycles
            result.accepted = accepted
            let d = clock.now - started
            result.seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
            result.inferredFieldCycles = inference.cycledBefore
            result.cardAbsent = inference.cardAbsent
            return result
        }
        /// A recorded request left unanswered: the target must stay silent too, unless the trace
        /// cannot say the card was in the field.
        func silence(_ p: Pending) -> ReplayDivergence? {
            if p.answer != nil, inference.cardWasAbsent(p) { return nil }
            return checkSilence(p)
        }
        do {
            while let frame = try pull() {
                number += 1
                switch frame.event {
                case .fieldOn, .fieldOff:
                    inference.sawFieldEvent = true
                    if let p = pending, let divergence = silence(p) { return finish(.diverged(divergence)) }
                    if let a = apdu, let divergence = judge(a, recordedLast: nil, number: number) { return finish(.diverged(divergence)) }
                    pending = nil
                    apdu = nil
                    record(frame)
                    if frame.event == .fieldOn {
                        try target.fieldOn()
                    } else {
                        try target.fieldOff()
                        cycles += 1
                    }
                    resetWindows(keeping: frame, number: number)
                case .malformed:
                    append(recorded: frame, number: number, actual: nil)
                case .data(.readerToTag):
                    if let p = pending, let divergence = silence(p) { return finish(.diverged(divergence)) }
                    if inference.needsFieldCycle(before: frame, answered: try peek()?.direction == .tagToReader) {
                        // The reader must have cycled the field: the tag answered this request in
                        // the recording, and from the state the trace left it in it would not.
                        inference.cycledBefore.append(number)
                        for e in [Frame.Event.fieldOff, .fieldOn] {
                            record(Frame(e, technology: frame.technology))
                        }
                        try target.fieldOff()
                        try target.fieldOn()
                        cycles += 1
                    }
                    inference.saw(frame)
                    let sent = substitute(frame)
                    if onRecord != nil, frame.technology == .iso14443a, case .rats(let fsdi, _)? = try? ISO14443ACommand.decode(Array(frame.payloadDroppingValidCRC())) {
                        frameSize = ISO14443ACommand.frameSize(forIndex: fsdi)
                    }
                    let answer = try target.exchange(sent, number: number)
                    exchanges += 1
                    switch answer {
                    case .frame(let answer):
                        pending = Pending(request: frame, number: number, sent: sent, answer: answer)
                        record(sent)
                        if let answer { record(answer) }
                    case .byReader(let what):
                        pending = Pending(request: frame, number: number, sent: sent, answer: nil, byReader: what)
                        if apdu == nil { record(sent) }
                    case .clear(let bytes, let bits):
                        pending = Pending(request: frame, number: number, sent: sent, answer: nil, clear: (bytes, bits))
                        record(sent)
                        var f = Frame(.data(.tagToReader), technology: frame.technology, bytes: bytes, lastByteBits: bits)
                        f.comment = "in clear: the reader ran Crypto1"
                        record(f)
                    case .responseAPDU(let response):
                        if let a = apdu, let divergence = judge(a, recordedLast: nil, number: number) { return finish(.diverged(divergence)) }
                        pending = nil
                        apdu = APDUExchange(pending: Pending(request: frame, number: number, sent: sent, answer: nil), actual: response)
                        record(sent)
                        for f in Self.answerBlocks(response, to: sent, frameSize: frameSize) { record(f) }
                    }
                    append(recorded: frame, number: number, actual: sent)
                case .data(.tagToReader):
                    inference.saw(frame)
                    if var a = apdu, let block = Self.iBlock(frame) {
                        // A block of the answer to a command sent as an APDU.
                        pending = nil
                        a.recorded += block.frame.inf
                        if case .i(chaining: true, _, _, _) = block.frame.block {
                            apdu = a
                            append(recorded: frame, number: number, actual: nil)
                            continue
                        }
                        apdu = nil
                        if let divergence = judge(a, recordedLast: frame, number: number) { return finish(.diverged(divergence)) }
                        append(recorded: frame, number: number, actual: frame)
                        continue
                    }
                    if let what = pending?.byReader ?? (apdu != nil ? "ISO-DEP link blocks (WTX, …)" : nil) {
                        // The reader's own exchange: as recorded on both sides.
                        if apdu == nil {
                            var f = frame
                            f.comment = "done by the reader itself (\(what)); the recorded answer"
                            record(f)
                        }
                        pending = nil
                        accepted["the reader itself: " + what, default: 0] += 1
                        append(recorded: frame, number: number, actual: frame)
                        continue
                    }
                    guard let p = pending else {
                        append(recorded: frame, number: number, actual: nil)   // a tag frame nobody asked for: nothing to replay
                        continue
                    }
                    if let clear = p.clear {
                        pending = nil
                        if let divergence = judgeClear(p, clear, recorded: frame, number: number) { return finish(.diverged(divergence)) }
                        append(recorded: frame, number: number, actual: frame)
                        continue
                    }
                    pending = nil
                    if let a = p.answer, sameAnswer(frame, a) {
                        append(recorded: frame, number: number, actual: a)
                        continue
                    }
                    if let divergence = judge(p, recorded: frame, recordedNumber: number) { return finish(.diverged(divergence)) }
                    append(recorded: frame, number: number, actual: p.answer)
                }
            }
        } catch let e as ReplayTargetError {
            return finish(.targetFailed(e.description))
        } catch {
            if let p = pending, let divergence = silence(p) { return finish(.diverged(divergence)) }
            return finish(.unreadable("\(error)"))
        }
        if let p = pending, let divergence = silence(p) { return finish(.diverged(divergence)) }
        if let a = apdu, let divergence = judge(a, recordedLast: nil, number: number) { return finish(.diverged(divergence)) }
        return finish(.passed)
    }

    // MARK: fast path

    /// Byte-identical answers, allowing for a transport that drops CRCs.
    private func sameAnswer(_ recorded: Frame, _ actual: Frame) -> Bool {
        if recorded.bytes == actual.bytes { return true }
        guard !target.answersCarryCRC || actual.crcStripped, recorded.hasValidCRC() else { return false }
        return recorded.payloadDroppingValidCRC().elementsEqual(actual.bytes)
    }

    private func append(recorded: Frame, number: Int, actual: Frame?) {
        recordedWindow.append(recorded)
        recordedNumbers.append(number)
        if let actual { actualWindow.append(actual) }
        // Trimmed once it holds twice the limit, not at every frame: removing the oldest frame of
        // a full window moves all the others, which made long field cycles quadratic.
        if recordedWindow.count > 2 * windowLimit {
            recordedWindow.removeFirst(recordedWindow.count - windowLimit)
            recordedNumbers.removeFirst(recordedNumbers.count - windowLimit)
        }
        if actualWindow.count > 2 * windowLimit { actualWindow.removeFirst(actualWindow.count - windowLimit) }
    }

    private func resetWindows(keeping frame: Frame, number: Int) {
        recordedWindow.removeAll(keepingCapacity: true)
        recordedNumbers.removeAll(keepingCapacity: true)
        actualWindow.removeAll(keepingCapacity: true)
        recordedWindow.append(frame)
        recordedNumbers.append(number)
        actualWindow.append(frame)
    }

    /// Replaces learned substitutions (another tag's UID, IDm) in a reader frame, CRC recomputed.
    private func substitute(_ frame: Frame) -> Frame {
        guard !substitutions.isEmpty else { return frame }
        let hadCRC = frame.hasValidCRC()
        var body = Array(frame.payloadDroppingValidCRC())
        var changed = false
        for (from, to) in substitutions where !from.isEmpty && from.count == to.count && from != to {
            var i = 0
            while i + from.count <= body.count {
                if body[i..<i + from.count].elementsEqual(from) {
                    body.replaceSubrange(i..<i + from.count, with: to)
                    changed = true
                    i += from.count
                } else {
                    i += 1
                }
            }
        }
        guard changed else { return frame }
        var f = frame
        f.setPayload(body, crc: hadCRC)
        return f
    }

    private func record(_ frame: Frame) {
        guard let onRecord else { return }
        var f = frame
        f.start = Timestamp.now()
        f.end = nil
        onRecord(f)
    }

    // MARK: slow path

    /// The request was not answered in the recording: the target must stay silent too.
    private func checkSilence(_ p: Pending) -> ReplayDivergence? {
        if let clear = p.clear {
            // The card answered in clear where the recording has silence.
            let shown = Frame(.data(.tagToReader), technology: p.request.technology, bytes: clear.bytes, lastByteBits: clear.lastByteBits)
            let (rec, _) = dissectWindows(recordedLast: nil, actualLast: nil)
            return ReplayDivergence(frame: p.number, reason: "the tag stayed silent, the target answered",
                                    request: rec.request ?? FrameDissection(number: p.number, frame: p.request), sent: p.sent, recorded: nil,
                                    actual: FrameDissection(number: p.number, frame: shown, summary: "in clear: \(Hex.string(clear.bytes))"),
                                    differences: [], history: rec.history)
        }
        guard let answer = p.answer else { return nil }
        let (rec, act) = dissectWindows(recordedLast: nil, actualLast: answer)
        return ReplayDivergence(
            frame: p.number, reason: "the tag stayed silent, the target answered",
            request: rec.request ?? FrameDissection(number: p.number, frame: p.request),
            sent: p.sent, recorded: nil, actual: act, differences: [], history: rec.history)
    }

    /// Dissects both sides of a differing answer and decides with the rules.
    func judge(_ p: Pending, recorded: Frame, recordedNumber: Int) -> ReplayDivergence? {
        let (rec, act) = dissectWindows(recordedLast: recorded, actualLast: p.answer, lastNumber: recordedNumber)
        let recordedAnswer = rec.answer
        let request = rec.request ?? FrameDissection(number: p.number, frame: p.request)
        guard p.answer != nil, let recordedAnswer, let actual = act else {
            // A MIFARE Classic card stays silent when the reader's answer does not fit its key.
            let reason = request.fields.first(FieldSpec.mfc.authAr) != nil
                ? "the target refused the reader's {nR}{aR}: it does not hold the key the recorded card authenticated with"
                : "the tag answered, the target stayed silent"
            return ReplayDivergence(frame: recordedNumber, reason: reason, request: request,
                                    sent: p.sent, recorded: recordedAnswer, actual: nil, differences: [], history: rec.history)
        }
        var differences = Self.differences(recordedAnswer.fields, actual.fields)
        var unaccepted = false
        var substituted: [(Range<Int>, Range<Int>)] = []
        for i in differences.indices {
            if let rule = rules.rule(for: differences[i].key) {
                differences[i].acceptedBy = "\(rule.source) \(rule.verb.rawValue) \(rule.pattern)"
                if rule.verb == .substitute, let r = rangeOf(differences[i].key, in: recordedAnswer.fields),
                   let a = rangeOf(differences[i].key, in: actual.fields) {
                    substituted.append((r, a))
                }
            } else {
                unaccepted = true
            }
        }
        if differences.isEmpty, recordedAnswer.crc.isBad, !actual.crc.isBad {
            // The recorded answer was damaged on air (its CRC is wrong); the target's has the same
            // content with a right CRC. An emulator cannot reproduce radio errors.
            accepted["recorded answer with a wrong CRC (transmission error)", default: 0] += 1
            return nil
        }
        if differences.isEmpty {
            // The bytes differ, yet no field does: the CRC or the bit count.
            let reason = actual.crc.isBad ? "the target's answer has a wrong CRC" : "the answers differ in bytes no field describes"
            return ReplayDivergence(frame: recordedNumber, reason: reason, request: request, sent: p.sent,
                                    recorded: recordedAnswer, actual: actual, differences: [], history: rec.history)
        }
        if unaccepted || actual.crc.isBad {
            let shown = differences.filter { $0.acceptedBy == nil } + differences.filter { $0.acceptedBy != nil }
            var reason = actual.crc.isBad ? "the target's answer has a wrong CRC" : "the answers differ"
            if recordedAnswer.fields.first(FieldSpec.mfc.authNtEncrypted) != nil {
                // A nested nonce goes out encrypted under the sector key: another nonce or key shows here.
                reason = "the nested authentication's encrypted nonce differs: the target does not hold the key the recorded card encrypted it with"
            } else if recordedAnswer.fields.first(FieldSpec.ntag.authCipher) != nil {
                // ek(RndB) is a random number under the tag's key: only the recorded tag repeats it.
                reason = "the target's AUTHENTICATE challenge differs: RndB is random (and the key may differ); the recorded reader answer cannot fit it"
            } else if request.fields.first(FieldSpec.ntag.authData) != nil, actual.fields.first(FieldSpec.ntag.nak) != nil {
                reason = "the target refused the reader's ek(RndA ‖ RndB′): it does not hold the key the recorded tag authenticated with"
            }
            return ReplayDivergence(frame: recordedNumber, reason: reason,
                                    request: request, sent: p.sent, recorded: recordedAnswer, actual: actual,
                                    differences: shown, history: rec.history)
        }
        for d in differences { if let rule = d.acceptedBy { accepted[rule, default: 0] += 1 } }
        learn(substituted, recorded: recordedAnswer.frame.bytes, actual: actual.frame.bytes)
        return nil
    }

    /// From substituted fields, the recorded byte run and the target's that later reader frames swap.
    private func learn(_ ranges: [(Range<Int>, Range<Int>)], recorded: [UInt8], actual: [UInt8]) {
        guard let rLow = ranges.map(\.0.lowerBound).min(), let rHigh = ranges.map(\.0.upperBound).max(),
              let aLow = ranges.map(\.1.lowerBound).min(), let aHigh = ranges.map(\.1.upperBound).max(),
              rHigh <= recorded.count, aHigh <= actual.count, rHigh - rLow == aHigh - aLow else { return }
        substitutions.append((Array(recorded[rLow..<rHigh]), Array(actual[aLow..<aHigh])))
    }

    private func rangeOf(_ key: String, in fields: [Field]) -> Range<Int>? { fields.first(key: key)?.range }

    /// Dissects the current field cycle on both sides; returns the recorded request and answer,
    /// the target's answer, and the recorded exchanges before.
    func dissectWindows(recordedLast: Frame?, actualLast: Frame?, lastNumber: Int? = nil)
        -> (rec: (request: FrameDissection?, answer: FrameDissection?, history: [FrameDissection]), act: FrameDissection?) {
        let recordedFrames = Array(recordedWindow.suffix(windowLimit)) + (recordedLast.map { [$0] } ?? [])
        let numbers = Array(recordedNumbers.suffix(windowLimit)) + (lastNumber.map { [$0] } ?? [])
        // Window positions back to the trace's frame numbers.
        func absolute(_ n: Int?) -> Int? {
            guard let n, n >= 1, n <= numbers.count else { return nil }
            return numbers[n - 1]
        }
        let recorded = Dissector.dissect(recordedFrames, detail: .full).compactMap { e -> FrameDissection? in
            guard case .frame(var f) = e else { return nil }
            f.number = absolute(f.number) ?? f.number
            f.responseTo = absolute(f.responseTo)
            f.responseIn = absolute(f.responseIn)
            return f
        }
        var actual: FrameDissection? = nil
        if let a = actualLast {
            let window = Array(actualWindow.suffix(windowLimit))
            let events = Dissector.dissect(window + [a], detail: .full)
            for case .frame(let f) in events where f.number == window.count + 1 { actual = f }
        }
        var request: FrameDissection?
        var answer: FrameDissection?
        var history = recorded
        if recordedLast != nil {
            answer = history.popLast()
        }
        request = history.popLast()
        return ((request, answer, Array(history.suffix(historyLength))), actual)
    }

    /// Field-by-field comparison (CRC fields excepted: a different content has a different CRC).
    static func differences(_ recorded: [Field], _ actual: [Field]) -> [FieldDifference] {
        func flatten(_ fields: [Field], into out: inout [(key: String, label: String, value: String)]) {
            for f in fields {
                if !f.key.hasSuffix(".crc") { out.append((f.key, f.label, f.value)) }
                flatten(f.children, into: &out)
            }
        }
        var r: [(key: String, label: String, value: String)] = []
        var a: [(key: String, label: String, value: String)] = []
        flatten(recorded, into: &r)
        flatten(actual, into: &a)
        var out: [FieldDifference] = []
        var keys: [String] = []
        for k in r.map(\.key) + a.map(\.key) where !keys.contains(k) { keys.append(k) }
        for key in keys {
            let rv = r.filter { $0.key == key }
            let av = a.filter { $0.key == key }
            for i in 0..<max(rv.count, av.count) {
                let x = i < rv.count ? rv[i].value : nil
                let y = i < av.count ? av[i].value : nil
                if x != y {
                    out.append(FieldDifference(key: key, label: (i < rv.count ? rv[i].label : av[i].label), recorded: x, actual: y))
                }
            }
        }
        return out
    }
}
