import NFCCore

/// FeliCa (JIS X 6319-4) and NFC Forum Type 3 Tag frames: LEN and CRC_F checked, commands and
/// answers decoded in context, one card per session.
///
/// Session rules: a session ends at field off, or when a Polling is answered by another card
/// (its IDm differs beyond the system nibble) after a card answered. A Polling answered by the
/// same card with another system number is a **system switch** inside the session: from then on
/// the card answers with that system's IDm, and commands still using the old one are flagged.
final class FeliCaDissector: SessionDissector {
    let detail: DissectionDetail
    let counter: SessionCounter
    var session: FeliCaSession?

    static let layer = "FeliCa"

    init(detail: DissectionDetail, counter: SessionCounter) {
        self.detail = detail
        self.counter = counter
    }

    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession? {
        guard direction == .tagToReader else { readerFrame(&ctx); return nil }
        return cardFrame(&ctx)
    }

    static func summary(of session: FeliCaSession, detail: DissectionDetail) -> SessionSummary {
        FeliCaSessionSummary.make(session, detail: detail)
    }

    static func closing(_ session: inout FeliCaSession) {
        session.noteUnanswered(session.pending)
    }

    // MARK: LEN and CRC_F

    /// Splits off CRC_F and checks LEN; returns the payload (`LEN code …`).
    static func payload(_ ctx: inout FrameContext) -> [UInt8] {
        var frame = ctx.frame
        // A frame whose LEN covers all of it has no room for CRC_F: it was captured without one
        // (phone APIs, logs) even if the capture did not say so. Only when the last two bytes are
        // not a valid CRC_F, so that a LEN that wrongly counts the CRC is still caught below.
        if !frame.crcStripped, let len = frame.bytes.first, Int(len) == frame.bytes.count, !frame.hasValidCRC(.felica) {
            frame.crcStripped = true
            ctx.note("LEN covers the whole frame: captured without CRC_F")
        }
        let split = CRCSplit(frame, expected: true, kind: .felica)
        ctx.apply(split, field: .felica.crc)
        let payload = split.payload
        switch FeliCaLength.check(payload) {
        case .ok:
            ctx.sink.add(Field(.felica.len, "\(Hex.byte(UInt8(truncatingIfNeeded: payload.count))) (\(payload.count) bytes)"))
        case .mismatch(let declared, let actual):
            var text = "LEN \(Hex.byte(UInt8(truncatingIfNeeded: declared))) says \(declared) bytes, the frame has \(actual) without CRC_F"
            if declared == actual + 2 && split.range != nil { text += " (LEN counts the CRC)" }
            ctx.warn(text, range: FeliCaCommand.Layout.length.range)
            ctx.sink.add(Field(.felica.len, "\(Hex.byte(UInt8(truncatingIfNeeded: declared))) (wrong: the frame has \(actual) bytes)"))
        case .empty:
            ctx.warn("empty frame")
        }
        return payload
    }

    // MARK: reader frames

    private func readerFrame(_ ctx: inout FrameContext) {
        if session == nil { session = FeliCaSession(number: counter.take(), frame: ctx.number) }
        withSession { readerFrame(&ctx, &$0) }
    }

    private func readerFrame(_ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        let payload = Self.payload(&ctx)
        s.noteUnanswered(s.pending)
        do {
            let command = try FeliCaCommand.decode(payload, checkingLength: false)
            s.pending = FeliCaPending(frame: ctx.number, command: command)
            FeliCaCommandFrames.describe(command, &ctx, &s)
        } catch {
            s.pending = FeliCaPending(frame: ctx.number, command: nil)
            let code = payload.dropFirst().first.map { FeliCaCode($0) }
            ctx.summary = code.map { "malformed \($0.name)" } ?? "malformed FeliCa frame"
            ctx.diagnostics.append(Diagnostic(.error, "\(code?.name ?? "frame") \(error)"))
            ctx.sink.add(Field(.felica.data, hexValue(payload), range: payload.indices))
        }
    }

    // MARK: card frames

    /// Returns the summary of a session this frame ended (a Polling answered by another card).
    private func cardFrame(_ ctx: inout FrameContext) -> EndedSession? {
        if session == nil { session = FeliCaSession(number: counter.take(), frame: ctx.number) }
        let payload = Self.payload(&ctx)
        guard let pending = session?.pending else {
            ctx.warn("no reader frame is waiting for an answer")
            describeAlone(payload, &ctx)
            return nil
        }
        ctx.responseTo = pending.frame
        var response: FeliCaResponse
        do {
            response = try FeliCaResponse.decode(payload, answering: pending.command, checkingLength: false)
        } catch {
            guard let alone = try? FeliCaResponse.decode(payload, checkingLength: false) else {
                let name = pending.command.map { "answer to \($0.code.name)" } ?? "answer"
                ctx.summary = "malformed \(name)"
                ctx.diagnostics.append(Diagnostic(.error, "\(name) \(error)"))
                ctx.sink.add(Field(.felica.data, hexValue(payload), range: payload.indices))
                finishAnswer(pending)
                return nil
            }
            if let c = pending.command { ctx.warn("\(alone.code.name) does not answer \(c.code.name) (frame \(pending.frame))", range: FeliCaCommand.Layout.code.range) }
            response = alone
        }
        if case .polling(let idm, let pmm, let rd) = response {
            return pollingAnswer(idm: idm, pmm: pmm, requestData: rd, pending: pending, &ctx)
        }
        withSession { s in
            s.cardAnswered = true
            FeliCaResponseFrames.describe(response, to: pending.command, &ctx, &s)
            s.pending = Self.afterAnswer(pending)
        }
        return nil
    }

    /// One answer consumed: Polling waits for one per time slot, other commands for one.
    static func afterAnswer(_ pending: FeliCaPending) -> FeliCaPending? {
        var p = pending
        p.answers += 1
        if case .polling(_, _, let tsn)? = p.command, p.answers < FeliCaCommand.slotCount(timeSlots: tsn) { return p }
        return nil
    }

    private func finishAnswer(_ pending: FeliCaPending) {
        session?.pending = Self.afterAnswer(pending)
    }

    private func describeAlone(_ payload: [UInt8], _ ctx: inout FrameContext) {
        if let r = try? FeliCaResponse.decode(payload, checkingLength: false) {
            if case .polling(let idm, let pmm, let rd) = r {
                ctx.summary = "IDm \(idm), PMm \(pmm)" + (rd.map { ", RD \(Hex.value($0, digits: 4))" } ?? "")
                return
            }
            withSession { FeliCaResponseFrames.describe(r, to: nil, &ctx, &$0) }
            if ctx.summary.isEmpty { ctx.summary = r.code.name }
            return
        }
        ctx.summary = "card frame that is no FeliCa answer"
        ctx.sink.add(Field(.felica.data, hexValue(payload), range: payload.indices))
    }

    /// Polling answers decide the session's card, its current system and system switches.
    private func pollingAnswer(idm: FeliCaIDm, pmm: FeliCaPMm, requestData rd: UInt16?, pending: FeliCaPending,
                               _ ctx: inout FrameContext) -> EndedSession? {
        var ended: EndedSession? = nil
        var polledCode: UInt16? = nil
        var requestCode: UInt8 = 0
        if case .polling(let sc, let rc, _)? = pending.command {
            polledCode = sc
            requestCode = rc
        }
        let laterSlot = pending.answers > 0
        if let current = session?.idm, session?.cardAnswered == true, !idm.isSameCard(as: current), !laterSlot {
            ended = endSession()
            session = FeliCaSession(number: counter.take(), frame: ctx.number)
            ctx.note("another card (IDm \(idm)) answered: new session")
        }
        withSession { pollingAnswer(idm: idm, pmm: pmm, requestData: rd, pending: pending, polledCode: polledCode,
                                    requestCode: requestCode, laterSlot: laterSlot, &ctx, &$0) }
        return ended
    }

    private func pollingAnswer(idm: FeliCaIDm, pmm: FeliCaPMm, requestData rd: UInt16?, pending: FeliCaPending, polledCode: UInt16?,
                               requestCode: UInt8, laterSlot: Bool, _ ctx: inout FrameContext, _ s: inout FeliCaSession) {
        s.pending = Self.afterAnswer(pending)
        if laterSlot, let current = s.idm, !idm.isSameCard(as: current) {
            describePollingAnswer(idm: idm, pmm: pmm, rd: rd, requestCode: requestCode, &ctx)
            ctx.warn("another card answered in a later time slot (IDm \(idm)); this session stays with \(current)")
            return
        }
        s.cardAnswered = true
        s.pmm = pmm
        // The system code: RD when RC 01 asked for it, else the polled code when it has no wildcard.
        var code: UInt16? = nil
        if requestCode == 0x01, let rd { code = rd } else if let sc = polledCode, sc >> 8 != 0xFF, sc & 0xFF != 0xFF { code = sc }
        let before = s.system
        s.idm = idm
        s.idmFromPolling = true
        s.currentSystem = idm.systemNumber
        let now = s.noteSystem(number: idm.systemNumber, code: code, idm: idm, frame: ctx.number)
        describePollingAnswer(idm: idm, pmm: pmm, rd: rd, requestCode: requestCode, &ctx)
        if let before, before.number != now.number {
            s.switches.append(FeliCaSystemSwitch(frame: ctx.number, from: before, to: now))
            ctx.summary += ", system switch \(before.label) → \(now.label)"
            ctx.note("system switch: the card now answers as \(now.label) with IDm \(idm); commands must use it")
        } else if let sc = polledCode, let code = now.code, !FeliCaSystemCode.polling(sc, matches: code) {
            ctx.warn("the card answers a Polling for \(Hex.value(sc, digits: 4)) with system code \(Hex.value(code, digits: 4))")
        }
        if requestCode == 0x02, let rd { s.communicationPerformance = rd }
        if requestCode == 0x00 && rd != nil { ctx.warn("request data although the Polling asked for none (RC 00)", range: FeliCaResponse.Layout.requestData.range) }
        if (requestCode == 0x01 || requestCode == 0x02) && rd == nil {
            ctx.note("no request data although RC \(Hex.value(requestCode, digits: 2)) asked for it", range: FeliCaCommand.Layout.length.range)
        }
        return
    }

    private func describePollingAnswer(idm: FeliCaIDm, pmm: FeliCaPMm, rd: UInt16?, requestCode: UInt8, _ ctx: inout FrameContext) {
        ctx.summary = "IDm \(idm), PMm \(pmm)" + (pmm.icName.map { ": \($0)" } ?? "")
        if requestCode == 0x01, let rd { ctx.summary += ", system code \(Hex.value(rd, digits: 4))" }
        ctx.sink.add(Field(.felica.code, "0x01 (Polling response)"))
        ctx.sink.add(Field(.felica.idm, idm.description, children: [
            Field(.felica.idmSystem, "\(idm.systemNumber) (upper nibble of byte 0)"),
            Field(.felica.idmKind, idm.kindDescription),
        ]))
        guard ctx.sink.enabled else { return }
        var pmmFields = [
            Field(.felica.pmmRom, Hex.byte(pmm.romType), range: FeliCaResponse.Layout.pmmByte(0)),
            Field(.felica.pmmIc, "\(Hex.byte(pmm.icType)) (\(pmm.icName ?? "not in nfcpy's IC code tables"))", range: FeliCaResponse.Layout.pmmByte(1)),
        ]
        for p in FeliCaPMm.TimeoutParameter.allCases {
            let b = pmm.byte(p.rawValue)
            let one = pmm.maximumResponseTime(p, units: 1)
            pmmFields.append(Field(.felica.pmmMrt, label: "MRT \(p.name)",
                                   "\(Hex.byte(b)): E \(b >> 6), B \(b >> 3 & 7), A \(b & 7) → \(Self.milliseconds(one)) for 1 unit",
                                   range: FeliCaResponse.Layout.pmmByte(p.rawValue)))
        }
        pmmFields.append(Field(.felica.pmmPad2, Hex.byte(pmm.byte(7)), range: FeliCaResponse.Layout.pmmByte(7)))
        ctx.sink.add(Field(.felica.pmm, pmm.description, children: pmmFields))
        if let rd {
            let meaning: String
            switch requestCode {
            case 0x01: meaning = "system code " + FeliCaSystemCode.describe(rd)
            case 0x02: meaning = "communication performance \(Hex.value(rd, digits: 4))"
            default: meaning = Hex.value(rd, digits: 4)
            }
            ctx.sink.add(Field(.felica.requestData, meaning))
        }
    }

    static func milliseconds(_ us: Double) -> String {
        let tenths = Int((us / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
