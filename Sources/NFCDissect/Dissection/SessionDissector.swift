import NFCCore

/// The part of a technology's session the shared frame loop needs.
protocol DissectorSession: Sendable {
    var number: Int { get }
    var lastFrame: Int { get set }
}

/// A technology dissector that follows one tag session at a time. The frame loop is the same for
/// all of them: field on/off and malformed records are named here, data frames go to
/// `dataFrame`, and field off ends the session.
protocol SessionDissector: TechnologyDissector, SendableMetatype {
    associatedtype Session: DissectorSession
    static var layer: String { get }
    var detail: DissectionDetail { get }
    var session: Session? { get set }
    /// A reader or tag frame in the context of the session. Returns the summary of a session
    /// that this frame ended before it (a new activation, another card answering).
    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession?
    /// The summary of an ended session, built later (on the rendering thread).
    static func summary(of session: Session, detail: DissectionDetail) -> SessionSummary
    /// The session's last changes as it ends (FeliCa notes a command left unanswered); nothing
    /// by default.
    static func closing(_ session: inout Session)
}

extension SessionDissector {
    static func closing(_ session: inout Session) {}

    /// Records `number` as the open session's last frame; returns the session's number. The
    /// write goes through `session`'s modify accessor, in place: the session is not copied.
    func sessionSaw(frame number: Int) -> Int? {
        session?.lastFrame = number
        return session?.number
    }

    func endSession() -> EndedSession? {
        guard var s = session.take() else { return nil }
        Self.closing(&s)
        let detail = self.detail
        return EndedSession(number: s.number) { [s] in Self.summary(of: s, detail: detail) }
    }

    /// Runs `body` on the open session in place (`session!` as inout), so that the session is
    /// neither copied nor moved per frame. Nil when no session is open. The access is exclusive
    /// while `body` runs: `body` works on its argument and must not read or write `session`
    /// itself (that would trap), nor end or start a session; do that before or after.
    @inline(__always)
    func withSession<R>(_ body: (inout Session) -> R) -> R? {
        guard session != nil else { return nil }
        return body(&session!)
    }

    func dissect(_ frame: consuming Frame, number: Int, ended: inout EndedSessions) -> FrameDissection {
        var ctx = FrameContext(frame, number: number, detail: detail, layer: Self.layer)
        switch ctx.frame.event {
        case .fieldOn:
            ctx.layer = "RF"
            ctx.summary = "field on"
        case .fieldOff:
            ctx.layer = "RF"
            ctx.summary = "field off"
            let dissection = ctx.finish(session: sessionSaw(frame: number))
            ended.after = endSession()
            return dissection
        case .malformed(let reason):
            ctx.layer = "capture"
            ctx.summary = "malformed record: \(reason)"
            ctx.diagnostics.append(Diagnostic(.error, "malformed record: \(reason)"))
            ctx.sink.add(Field(.capture.record, Hex.string(ctx.frame.bytes), range: ctx.frame.bytes.indices))
        case .data(let direction):
            ended.before = dataFrame(&ctx, direction: direction)
            ended.amends = ctx.amends
        }
        return ctx.finish(session: sessionSaw(frame: number))
    }
}
