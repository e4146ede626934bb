import NFCCore

/// Tag sessions a frame ended: just before it (a new activation) or with it (field off). A
/// technology's dissector fills it beside the frame's dissection, which it returns on its own
/// (a struct holding both would be copied whole on the way out).
struct EndedSessions {
    var before: EndedSession? = nil
    var after: EndedSession? = nil
    /// The frame's `FrameContext.amends`, for the frame held back.
    var amends: (frame: Int, summary: String)? = nil
}

/// A tag session that has ended. Its summary (memory map, TLVs, NDEF) is built when asked for,
/// from a snapshot of the session, so that `nfctrace dissect` can build it on the thread that
/// renders while the next frames are dissected.
public struct EndedSession: Sendable {
    public let number: Int
    private let build: @Sendable () -> SessionSummary
    /// Boxed: a summary is a few hundred bytes, and an ended session travels by value in every
    /// pipeline event and beside every frame's dissection (inline, it made each of them that big).
    private indirect enum Built: Sendable { case summary(SessionSummary) }
    private var built: Built? = nil

    init(number: Int, build: @escaping @Sendable () -> SessionSummary) {
        self.number = number
        self.build = build
    }

    public func summary() -> SessionSummary {
        if case .summary(let s)? = built { return s }
        return build()
    }

    /// Builds the summary now (on this thread), so that `summary()` only hands it out.
    public mutating func buildNow() {
        if built == nil { built = .summary(build()) }
    }
}

/// A dissection event whose session summary may not be built yet.
public enum PendingEvent: Sendable {
    case frame(FrameDissection)
    case session(EndedSession)

    public func resolved() -> DissectionEvent {
        switch self {
        case .frame(let d): return .frame(d)
        case .session(let s): return .session(s.summary())
        }
    }

    /// Builds a session's summary now, on this thread; a frame is left as it is.
    public mutating func buildSummary() {
        // Matched without a binding first: binding a frame's payload would copy (retain and
        // release) all of it.
        guard case .session = self, case .session(var s) = self else { return }
        s.buildNow()
        self = .session(s)
    }
}

/// One technology's session-aware dissector.
protocol TechnologyDissector: AnyObject {
    /// `frame` is consumed: it moves into the dissection.
    func dissect(_ frame: consuming Frame, number: Int, ended: inout EndedSessions) -> FrameDissection
    /// The summary of the open session at the end of the capture (or on field off elsewhere).
    func endSession() -> EndedSession?
}

/// Numbers tag sessions across technologies.
final class SessionCounter {
    private var next = 1
    func take() -> Int {
        defer { next += 1 }
        return next
    }
}

/// Turns a frame stream into dissections and session summaries, frame by frame.
///
/// Memory stays bounded: per open tag session there is state (UID, model, rebuilt memory),
/// and one dissected frame is held back so that a request can name the frame that answered it.
public final class Dissector {
    public let detail: DissectionDetail
    /// Keys tried on MIFARE Classic authentications (`dissect --keys`, then the built-in ones).
    public let keys: KeyList
    private var frameNumber = 0
    private var held: FrameDissection?
    private let counter = SessionCounter()
    private var dissectors: [Technology: TechnologyDissector] = [:]
    private var lastTechnology: Technology = .iso14443a

    public init(detail: DissectionDetail = .full, keys: KeyList = .defaults) {
        self.detail = detail
        self.keys = keys
    }

    /// The last dissector used: captures rarely switch technology, so most frames skip the lookup.
    private var current: (technology: Technology, dissector: TechnologyDissector)?

    private func dissector(for technology: Technology) -> TechnologyDissector {
        if let c = current, c.technology == technology { return c.dissector }
        let d = existingOrNewDissector(for: technology)
        current = (technology, d)
        return d
    }

    private func existingOrNewDissector(for technology: Technology) -> TechnologyDissector {
        if let d = dissectors[technology] { return d }
        let d: TechnologyDissector
        switch technology {
        case .iso14443a: d = ISO14443ADissector(detail: detail, counter: counter, keys: keys)
        case .iso15693: d = ISO15693Dissector(detail: detail, counter: counter)
        case .felica: d = FeliCaDissector(detail: detail, counter: counter)
        case .iso14443b: d = ISO14443BDissector(detail: detail, counter: counter, revealCardData: keys.revealCardData)
        case .iclass: d = IClassDissector(detail: detail, counter: counter)
        }
        dissectors[technology] = d
        return d
    }

    /// Dissects one frame; `emit` receives every event that is complete.
    public func process(_ frame: consuming Frame, emit: (DissectionEvent) -> Void) {
        processPending(frame, emit: { emit($0.resolved()) })
    }

    /// Dissects one frame; session summaries are handed over unbuilt (`PendingEvent.resolved()`
    /// builds them, on any thread).
    public func processPending(_ frame: consuming Frame, emit: (consuming PendingEvent) -> Void) {
        frameNumber += 1
        var ended = EndedSessions()
        let dissection: FrameDissection
        let technology = frame.technology
        switch frame.event {
        case .fieldOn, .fieldOff:
            let fieldOff = frame.event == .fieldOff
            // Field events carry the trace's technology; they go to that dissector.
            lastTechnology = technology
            dissection = dissector(for: lastTechnology).dissect(frame, number: frameNumber, ended: &ended)
            if fieldOff {
                // Field loss ends every tag's session, whatever its technology.
                var summaries: [EndedSession] = ended.after.map { [$0] } ?? []
                for (t, d) in dissectors where t != lastTechnology {
                    if let s = d.endSession() { summaries.append(s) }
                }
                release(consume dissection, emit: emit)
                for s in summaries.sorted(by: { $0.number < $1.number }) { flushHeld(emit); emit(.session(s)) }
                return
            }
        case .data, .malformed:
            lastTechnology = technology
            dissection = dissector(for: technology).dissect(frame, number: frameNumber, ended: &ended)
        }
        if let amends = ended.amends, held?.number == amends.frame { held?.summary = amends.summary }
        if let before = ended.before {
            flushHeld(emit)
            emit(.session(before))
        }
        release(consume dissection, emit: emit)
        if let after = ended.after {
            flushHeld(emit)
            emit(.session(after))
        }
    }

    /// Emits the held frame (now that its successor is known) and holds `d`.
    private func release(_ d: consuming FrameDissection, emit: (consuming PendingEvent) -> Void) {
        // take(): the held dissection moves out instead of being copied (and retained) field by field.
        let (number, responseTo) = (d.number, d.responseTo)
        let previous = held.take()
        held = consume d
        if var h = consume previous {
            if responseTo == h.number { h.responseIn = number }
            emit(.frame(consume h))
        }
    }

    private func flushHeld(_ emit: (consuming PendingEvent) -> Void) {
        if let h = held.take() { emit(.frame(h)) }
    }

    /// Emits what is still held and the summaries of sessions open at the end of the capture.
    public func finish(emit: (DissectionEvent) -> Void) {
        finishPending(emit: { emit($0.resolved()) })
    }

    /// `finish(emit:)` with session summaries handed over unbuilt.
    public func finishPending(emit: (consuming PendingEvent) -> Void) {
        flushHeld(emit)
        var summaries: [EndedSession] = []
        for d in dissectors.values { if let s = d.endSession() { summaries.append(s) } }
        for s in summaries.sorted(by: { $0.number < $1.number }) { emit(.session(s)) }
    }

    /// Convenience for tests and small captures: dissects a whole frame list.
    public static func dissect(_ frames: [Frame], detail: DissectionDetail = .full, keys: KeyList = .defaults) -> [DissectionEvent] {
        let d = Dissector(detail: detail, keys: keys)
        var out: [DissectionEvent] = []
        for f in frames { d.process(f) { out.append($0) } }
        d.finish { out.append($0) }
        return out
    }
}
