import NFCCore

/// ISO/IEC 15693 (NFC-V): requests and answers decoded through the NFCCore codec, each answer
/// in the context of its request; one session per VICC conversation.
///
/// Session rules (docs/iso15693.md): a session starts with the first frame after field on (or at
/// the start of the capture) and ends at field off. An Inventory answer that brings a UID other
/// than the session's, after the reader has sent non-inventory requests, ends the session just
/// before that answer and starts the next one with it. Inventory answers before any conversation
/// (16-slot anticollision) only collect UIDs; the first addressed request picks the session's VICC.
final class ISO15693Dissector: SessionDissector {
    let detail: DissectionDetail
    let counter: SessionCounter
    var session: ISO15693Session?

    static let layer = "ISO15693"

    init(detail: DissectionDetail, counter: SessionCounter) {
        self.detail = detail
        self.counter = counter
    }

    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession? {
        guard direction == .tagToReader else { readerFrame(&ctx); return nil }
        return tagFrame(&ctx)
    }

    static func summary(of session: ISO15693Session, detail: DissectionDetail) -> SessionSummary {
        ISO15693SessionSummary.make(session, detail: detail)
    }

    private func startSession(at number: Int) {
        session = ISO15693Session(number: counter.take(), frame: number)
    }

    // MARK: reader frames

    private func readerFrame(_ ctx: inout FrameContext) {
        if session == nil { startSession(at: ctx.number) }
        withSession { readerFrame(&ctx, &$0) }
    }

    private func readerFrame(_ ctx: inout FrameContext, _ s: inout ISO15693Session) {
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        ctx.apply(split, field: .iso15693.crc)
        switch split.status {
        case .mismatch: ctx.note("a VICC ignores a request whose CRC is wrong (ISO/IEC 15693-3): no answer is expected")
        case .unknown: ctx.warn("\(ctx.frame.bytes.count) byte\(ctx.frame.bytes.count == 1 ? "" : "s"): too short to carry the 2-byte CRC_B")
        default: break
        }
        do {
            let request = try ISO15693Request.decode(split.payload)
            ISO15693RequestFields.describe(request, &ctx, session: &s)
            s.pending = (ctx.number, request)
            if case .inventory = request.command {} else { s.conversed = true }
        } catch {
            s.pending = (ctx.number, nil)
            s.conversed = true
            let name = split.payload.dropFirst().first.map(commandName) ?? "request"
            ctx.summary = "malformed \(name)"
            ctx.diagnostics.append(Diagnostic(.error, "\(name) \(error)", range: error.offset..<min(split.payload.count, error.offset + 1)))
            ctx.sink.add(Field(.iso15693.data, Hex.string(split.payload), range: split.payload.indices))
        }
    }

    private func commandName(_ code: UInt8) -> String {
        if case .defined(let known) = ISO15693CommandCode.range(of: code) { return known.name }
        return "command \(Hex.byte(code))"
    }

    // MARK: tag frames

    /// Returns the summary of a session this answer ended (an Inventory found another VICC).
    private func tagFrame(_ ctx: inout FrameContext) -> EndedSession? {
        if session == nil { startSession(at: ctx.number) }
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        guard let pending = session?.pending else {
            ctx.apply(split, field: .iso15693.crc)
            ctx.sink.add(Field(.iso15693.data, Hex.string(split.payload), range: split.payload.indices))
            ctx.summary = "tag frame with no request before it"
            ctx.warn("no reader frame is waiting for an answer")
            return nil
        }
        guard let request = pending.request else {
            session?.pending = nil
            ctx.responseTo = pending.frame
            ctx.apply(split, field: .iso15693.crc)
            ctx.sink.add(Field(.iso15693.data, Hex.string(split.payload), range: split.payload.indices))
            ctx.summary = "answer to a malformed request"
            return nil
        }
        var ended: EndedSession? = nil
        // Only an answer the reader accepts (CRC correct or not captured) can show a new VICC.
        let accepted: Bool
        switch split.status {
        case .ok, .stripped: accepted = true
        default: accepted = false
        }
        if accepted, case .inventory = request.command, session?.conversed == true, let known = session?.uid,
           let answer = try? ISO15693Response.decode(split.payload, answering: request),
           case .inventory(_, let found) = answer.body, found != known {
            ended = endSession()
            startSession(at: ctx.number)
            session?.pending = pending
        }
        withSession { s in
            ctx.responseTo = pending.frame
            // Every VICC in a 16-slot inventory answers in its own slot: the request stays open.
            if case .inventory = request.command {} else { s.pending = nil }
            ISO15693ResponseFields.describe(request: request, requestFrame: pending.frame, split: split, &ctx, session: &s)
        }
        return ended
    }
}
