import NFCCore

/// ISO/IEC 14443-A: activation (REQA … SAK, RATS/ATS), then Type 2 tag commands or ISO-DEP
/// blocks depending on what the activation said. One tag session at a time.
final class ISO14443ADissector: SessionDissector {
    let detail: DissectionDetail
    let counter: SessionCounter
    var session: ISO14443ASession?
    /// Keys tried on MIFARE Classic authentications: those that already fit in this capture
    /// first, then the given and built-in ones.
    let keys: KeyRing

    static let layer = "ISO14443-3A"

    init(detail: DissectionDetail, counter: SessionCounter, keys: KeyList = .defaults) {
        self.detail = detail
        self.counter = counter
        self.keys = KeyRing(keys)
    }

    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession? {
        guard direction == .tagToReader else { return readerFrame(&ctx) }
        tagFrame(&ctx)
        return nil
    }

    static func summary(of session: ISO14443ASession, detail: DissectionDetail) -> SessionSummary {
        ISO14443ASessionSummary.make(session, detail: detail)
    }

    private func startSession(at number: Int) {
        session = ISO14443ASession(number: counter.take(), frame: number)
        session?.isoDEP.revealCardData = keys.given.revealCardData
    }

    // MARK: reader frames

    /// Returns the summary of a session that this frame ended (a new activation).
    private func readerFrame(_ ctx: inout FrameContext) -> EndedSession? {
        let bytes = ctx.frame.bytes
        var ended: EndedSession? = nil
        let activation = ISO14443ACommand.recognises(bytes, lastByteBits: ctx.frame.lastByteBits)
        if activation, bytes.count == 1, bytes[0] == ISO14443A.reqa || bytes[0] == ISO14443A.wupa,
           session?.tagAnswered == true {
            ended = endSession()
        }
        if session == nil { startSession(at: ctx.number) }
        withSession { readerFrame(&ctx, activation: activation, &$0) }
        return ended
    }

    /// The first registered frame protocol that claims the frame describes it
    /// (`ISO14443AFrameProtocols.table`; Type 2 claims whatever is left).
    private func readerFrame(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession) {
        for p in ISO14443AFrameProtocols.table where p.claims(ctx.frame, activation: activation, in: s) {
            p.describeRequest(&ctx, activation: activation, &s, in: self)
            return
        }
    }

    /// REQA … SELECT, HLTA, RATS, PPS.
    func activationRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession) {
        let bytes = ctx.frame.bytes
        let expectsCRC = activation ? ISO14443ACommand.carriesCRC(bytes, lastByteBits: ctx.frame.lastByteBits) : true
        let split = CRCSplit(ctx.frame, expected: expectsCRC, kind: .a)
        do {
            let command = try ISO14443ACommand.decode(split.payload, lastByteBits: ctx.frame.lastByteBits)
            describeActivationCommand(command, split: split, &ctx, &s)
            s.pending = (ctx.number, .activation(command))
        } catch {
            ctx.apply(split, field: .iso14443a.crc)
            ctx.summary = "malformed ISO 14443-3 command"
            ctx.diagnostics.append(Diagnostic(.error, "ISO 14443-3 command \(error)"))
            s.pending = (ctx.number, .unknown)
        }
    }

    /// The CRC split and decoded ECP of a frame that is one (its CRC_A right or wrong), else nil.
    static func ecp(_ frame: Frame) -> (CRCSplit, AppleECP)? {
        let split = CRCSplit(frame, expected: true, kind: .a)
        switch split.status {
        case .ok, .mismatch: break
        default: return nil
        }
        guard let ecp = try? AppleECP.decode(split.payload) else { return nil }
        return (split, ecp)
    }

    static func decodesAsECP(_ frame: Frame) -> Bool { ecp(frame) != nil }

    /// Apple ECP, a reader broadcast no tag answers: named when it decodes (`6A` is no Type 2
    /// command), with a CRC_A error kept when its CRC is wrong (as the Proxmark3 names it).
    func describeECP(_ ctx: inout FrameContext) -> Bool {
        guard let (split, ecp) = Self.ecp(ctx.frame) else { return false }
        ctx.layer = "Apple ECP"
        ctx.apply(split, field: .ecp.crc)
        ctx.summary = ecp.summary
        typealias L = AppleECP.Layout
        ctx.sink.add(Field(.ecp.header, .byte(AppleECP.header), range: L.header.range))
        ctx.sink.add(Field(.ecp.version, "\(ecp.version)", range: L.version.range))
        if ecp.version == 1 {
            ctx.sink.add(Field(.ecp.tci, .hex(ecp.data), range: L.tci.range))
        } else if let config = ecp.configuration {
            ctx.sink.add(Field(.ecp.config, "\(Hex.byte(config)): " + (config & 0x40 != 0 ? "no user authentication needed" : "user authentication needed")
                               + ", \(config & 0x0F) data bytes", range: L.configuration.range))
            ctx.sink.add(Field(.ecp.terminalType, ecp.terminalTypeName ?? "", range: L.terminalType.range))
            ctx.sink.add(Field(.ecp.terminalSubtype, .byte(ecp.terminalSubtype ?? 0), range: L.terminalSubtype.range))
            ctx.sink.add(Field(.ecp.data, .hex(ecp.data), range: L.data(count: ecp.data.count).range))
        }
        ctx.note("a reader's broadcast for Apple devices: no tag answers it")
        return true
    }

    func classicRequest(_ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        let pending = MIFAREClassicFrames.describeRequest(&ctx, session: &s, keys: keys, uid: s.cryptoUID ?? 0)
        s.pending = (ctx.number, pending)
    }

    /// RATS `E0 xx` + CRC_A, only before an ATS (afterwards E0 is no valid PCB either).
    static func isRATS(_ frame: Frame, _ s: ISO14443ASession) -> Bool {
        frame.bytes.first == 0xE0 && s.ats == nil && frame.bytes.count == (frame.crcStripped ? 2 : 4)
    }

    /// PPS `Dx PPS0 [PPS1]` + CRC_A, only right after the ATS.
    static func isPPS(_ frame: Frame, _ s: ISO14443ASession) -> Bool {
        guard let first = frame.bytes.first, (0xD0...0xDF).contains(first), s.ats != nil else { return false }
        if case .activation(.rats)? = s.lastRequest { return true }
        return false
    }

    private func describeActivationCommand(_ command: ISO14443ACommand, split: CRCSplit, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        ctx.layer = "ISO14443-3A"
        ctx.sink.add(Field(.iso14443a.command, command.name))
        switch command {
        case .reqa, .wupa:
            ctx.summary = command.name
            if ctx.frame.lastByteBits == 8 { ctx.note("sent as a whole byte; REQA/WUPA are 7-bit short frames (the capture may not record bit counts)") }
            if command == .wupa { s.halted = false }
        case .shortFrame(let b):
            ctx.summary = command.name
            if let magic = MIFAREClassicFrames.magicShortFrame(b) {
                s.magicWakeUp = true
                ctx.summary += ": \(magic)"
                ctx.sink.add(Field(.iso14443a.shortFrame, .byte(b, note: magic)))
            } else {
                ctx.sink.add(Field(.iso14443a.shortFrame, Hex.byte(b)))
            }
        case .anticollision(let level, let nvb, let known):
            var w = TextWriter(capacity: 32)
            w.write(command.name)
            w.write(Self.levelNote(level))
            ctx.summary = w.string
            ctx.sink.add(Field(.iso14443a.sel, .byte(level.selCode, suffix: Self.levelNote(level))))
            // NVB 0x20 (nothing known yet) is the usual first ANTICOLLISION.
            let nvbNote = nvb.raw == 0x20 ? ": 2 bytes + 0 bits, 0 UID bits known"
                : ": \(nvb.byteCount) bytes + \(nvb.extraBits) bits, \(nvb.uidBitCount) UID bits known"
            ctx.sink.add(Field(.iso14443a.nvb, .byte(nvb.raw, suffix: nvbNote)))
            if !known.isEmpty {
                ctx.summary += ", \(nvb.uidBitCount) UID bits known"
                ctx.sink.add(Field(.iso14443a.uidBits, Hex.string(known), range: ISO14443ACommand.Layout.knownBits(known.count)))
            }
        case .select(let level, let uid):
            ctx.sink.add(Field(.iso14443a.sel, .byte(level.selCode, suffix: Self.levelNote(level))))
            ctx.sink.add(Field(.iso14443a.nvb, "70 (40 UID bits: SELECT)"))
            describeUIDLevel(uid, offset: ISO14443ACommand.Layout.uidLevel.offset, &ctx)
            var w = TextWriter(capacity: 40)
            w.write(command.name)
            w.write(" ")
            writeUIDLevel(uid, &w)
            ctx.summary = w.string
            if let answered = s.anticollisionAnswer, answered.bytes != uid.bytes {
                ctx.note("selects \(Hex.string(uid.bytes)), the tag answered ANTICOLLISION with \(Hex.string(answered.bytes))")
            }
        case .hlta:
            ctx.summary = "HLTA"
            s.halted = true
        case .rats(let fsdi, let cid):
            let fsd = ISO14443ACommand.frameSize(forIndex: fsdi)
            ctx.layer = "ISO14443-4"
            ctx.summary = "RATS FSDI \(fsdi) (FSD \(fsd) bytes), CID \(cid)"
            ctx.sink.add(Field(.iso14443a.ratsFsdi, "\(fsdi) → FSD \(fsd) bytes"))
            ctx.sink.add(Field(.iso14443a.ratsCid, "\(cid)"))
            if fsdi > 0x0C { ctx.warn("FSDI \(fsdi) is RFU", range: ISO14443ACommand.Layout.ratsParameter.range) }
        case .pps(let cid, let pps0, let pps1):
            ctx.layer = "ISO14443-4"
            ctx.summary = "PPS CID \(cid)"
            ctx.sink.add(Field(.iso14443a.ppsPps0, Hex.byte(pps0)))
            if let pps1 {
                // ISO/IEC 14443-4 §5.3: D = 2^DSI (card → reader) and 2^DRI (reader → card) times 106 kbit/s.
                let rates = "card → reader \(106 << Int(pps1 >> 2 & 3)) kbit/s, reader → card \(106 << Int(pps1 & 3)) kbit/s"
                ctx.summary += ", DSI \(pps1 >> 2 & 3) DRI \(pps1 & 3) (\(rates))"
                ctx.sink.add(Field(.iso14443a.ppsPps1, "\(Hex.byte(pps1)): DSI \(pps1 >> 2 & 3), DRI \(pps1 & 3): \(rates)"))
            }
        }
        ctx.apply(split, field: .iso14443a.crc)
    }

    /// ` (cascade level n)` as a literal.
    static func levelNote(_ level: CascadeLevel) -> String {
        switch level {
        case .one: return " (cascade level 1)"
        case .two: return " (cascade level 2)"
        case .three: return " (cascade level 3)"
        }
    }

    /// `7-byte UID`: literals, one per size.
    static func uidSizeText(_ size: ATQA.UIDSize) -> String {
        switch size {
        case .single: return "4-byte UID"
        case .double: return "7-byte UID"
        case .triple: return "10-byte UID"
        case .rfu: return "RFU UID size"
        }
    }

    func describeUIDLevel(_ uid: UIDLevelData, offset: Int, _ ctx: inout FrameContext) {
        if uid.hasCascadeTag {
            ctx.sink.add(Field(.iso14443a.ct, "88 (more cascade levels follow)", range: UIDLevelData.Layout.cascadeTag.range(at: offset)))
            ctx.sink.add(Field(.iso14443a.uidCln, .hex(uid.uidBytes), range: UIDLevelData.Layout.uidAfterCascadeTag.range(at: offset)))
        } else {
            ctx.sink.add(Field(.iso14443a.uidCln, .hex(uid.bytes), range: UIDLevelData.Layout.uid.range(at: offset)))
        }
        if uid.bccIsValid {
            ctx.sink.add(Field(.iso14443a.bcc, .byte(uid.bcc, suffix: " (correct)"), range: UIDLevelData.Layout.bcc.range(at: offset)))
        } else {
            ctx.sink.add(Field(.iso14443a.bcc, "\(Hex.byte(uid.bcc)) (wrong, expected \(Hex.byte(uid.expectedBCC)))", range: UIDLevelData.Layout.bcc.range(at: offset)))
            ctx.warn("BCC mismatch, expected \(Hex.byte(uid.expectedBCC))", range: UIDLevelData.Layout.bcc.range(at: offset))
        }
    }

    /// `CT 04 A2 2C, BCC ok` / `12 DE 5F 80, BCC WRONG`.
    func writeUIDLevel(_ uid: UIDLevelData, _ w: inout TextWriter) {
        if uid.hasCascadeTag {
            w.write("CT ")
            w.hexBytes(uid.uidSlice)
        } else {
            w.hexBytes(uid.bytes)
        }
        w.write(uid.bccIsValid ? ", BCC ok" : ", BCC WRONG")
    }

    // MARK: tag frames

    private func tagFrame(_ ctx: inout FrameContext) {
        if session == nil { startSession(at: ctx.number) }
        withSession { tagFrame(&ctx, &$0) }
    }

    private func tagFrame(_ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        if s.isoDEPActive, ISODEPFrames.describeFragment(&ctx) { return }
        guard let pending = s.pending else {
            if s.isoDEPActive, ISODEPFrames.describeUnrequested(&ctx, session: &s) {
                s.tagAnswered = true
                return
            }
            let split = CRCSplit(unknownFrame: ctx.frame, kind: .a)
            ctx.apply(split, field: .iso14443a.crc)
            ctx.summary = "tag frame with no request before it"
            ctx.warn("no reader frame is waiting for an answer")
            ctx.sink.add(Field(.iso14443a.data, Hex.string(split.payload), range: split.payload.indices))
            return
        }
        s.pending = nil
        s.tagAnswered = true
        ctx.responseTo = pending.frame
        switch pending.request {
        case .activation(let command):
            describeActivationAnswer(to: command, &ctx, &s)
        case .type2(let command):
            Type2Frames.describeResponse(to: command, &ctx, session: &s)
        case .isoDEP(let block):
            ISODEPFrames.describeResponse(to: block, &ctx, session: &s)
        case .classic(let expecting):
            MIFAREClassicFrames.describeResponse(expecting, &ctx, session: &s, keys: keys, uid: s.cryptoUID ?? 0)
        case .frameProtocol(let id):
            ISO14443AFrameProtocols.named(id)?.describeResponse(&ctx, &s, in: self)
        case .unknown:
            let split = CRCSplit(unknownFrame: ctx.frame, kind: .a)
            ctx.apply(split, field: .iso14443a.crc)
            ctx.summary = "answer to an unrecognised command"
            ctx.sink.add(Field(.iso14443a.data, Hex.string(split.payload), range: split.payload.indices))
        }
    }

    private func describeActivationAnswer(to command: ISO14443ACommand, _ ctx: inout FrameContext, _ s: inout ISO14443ASession) {
        ctx.layer = "ISO14443-3A"
        switch command {
        case .shortFrame(let b) where MIFAREClassicFrames.magicShortFrame(b) != nil && ctx.frame.lastByteBits == 4:
            ctx.layer = MIFAREClassicFrames.layer
            MIFAREClassicFrames.acknowledgement(ctx.frame, &ctx) { _ in }
        case .reqa, .wupa, .shortFrame:
            ctx.apply(CRCSplit(ctx.frame, expected: false, kind: .a), field: .iso14443a.crc)
            guard let atqa = try? ATQA.decode(ctx.frame.bytes) else {
                ctx.summary = "malformed ATQA"
                ctx.warn("ATQA must be 2 bytes, this answer has \(ctx.frame.bytes.count)")
                return
            }
            s.atqa = atqa
            let size = Self.uidSizeText(atqa.uidSize)
            var w = TextWriter(capacity: 40)
            w.write("ATQA ")
            w.hexValue(atqa.value, digits: 4)
            w.write(": ")
            w.write(size)
            if atqa.isType1Tag { w.write(", Type 1 Tag") }
            ctx.summary = w.string
            ctx.sink.add(Field(.iso14443a.atqa, .bigEndian(atqa.value), children: [
                Field(.iso14443a.atqaUidSize, size),
                Field(.iso14443a.atqaBitFrame, atqa.bitFrameIsValid ? "bit \(atqa.bitFrameAnticollision.trailingZeroBitCount + 1)" : "none (\(Hex.byte(atqa.bitFrameAnticollision)))"),
                Field(.iso14443a.atqaProprietary, .byte(atqa.proprietaryCoding)),
            ]))
            if !atqa.bitFrameIsValid && !atqa.isType1Tag { ctx.warn("ATQA b1…b5 must have exactly one bit set", range: ATQA.Layout.anticollision.range) }
            if atqa.rfuBitsSet { ctx.warn("ATQA RFU bits are set") }
            if atqa.uidSize == .rfu { ctx.warn("ATQA UID size 11 is RFU", range: ATQA.Layout.anticollision.range) }
        case .anticollision(let level, let nvb, _):
            ctx.apply(CRCSplit(ctx.frame, expected: false, kind: .a), field: .iso14443a.crc)
            if nvb.uidBitCount == 0, let uid = try? UIDLevelData.decode(ctx.frame.bytes) {
                describeUIDLevel(uid, offset: 0, &ctx)
                s.anticollisionAnswer = uid
                var w = TextWriter(capacity: 40)
                w.write("UID CL")
                w.decimal(level.rawValue)
                w.write(" ")
                writeUIDLevel(uid, &w)
                ctx.summary = w.string
                if uid.hasCascadeTag, level == .three { ctx.warn("cascade tag at cascade level 3; the UID has at most 10 bytes", range: UIDLevelData.Layout.cascadeTag.range) }
                if let size = s.atqa?.uidSize, level == .one, size == .single, uid.hasCascadeTag {
                    ctx.warn("cascade tag although ATQA announced a single-size UID", range: UIDLevelData.Layout.cascadeTag.range)
                }
            } else {
                ctx.summary = "UID CL\(level.rawValue) remaining bits (\(ctx.frame.bitCount) bits, bit-oriented anticollision)"
                ctx.sink.add(Field(.iso14443a.uidBits, label: "Remaining UID bits", Hex.string(ctx.frame.bytes), range: ctx.frame.bytes.indices))
            }
        case .select(let level, let uid):
            let split = CRCSplit(ctx.frame, expected: true, kind: .a)
            ctx.apply(split, field: .iso14443a.crc)
            guard let sak = try? SAK.decode(split.payload) else {
                ctx.summary = "malformed SAK"
                ctx.warn("SAK must be 1 byte + CRC_A, this answer has \(ctx.frame.bytes.count) bytes")
                return
            }
            describeSAK(sak, &ctx)
            if s.levels.count >= level.rawValue { s.levels.removeSubrange((level.rawValue - 1)...) }
            if s.levels.count == level.rawValue - 1 {
                s.levels.append(uid)
            } else {
                ctx.note("cascade level \(level.rawValue) selected before level \(s.levels.count + 1); the UID cannot be assembled")
            }
            s.sak = sak
            if sak.uidIncomplete {
                var w = TextWriter(capacity: 56)
                w.write("SAK ")
                w.hexByte(sak.raw)
                w.write(": UID not complete, cascade level ")
                w.decimal(level.rawValue + 1)
                w.write(" follows")
                ctx.summary = w.string
                if !uid.hasCascadeTag { ctx.warn("SAK says the UID is incomplete, but the selected level has no cascade tag") }
            } else {
                var w = TextWriter(capacity: 96)
                w.write("SAK ")
                w.hexByte(sak.raw)
                w.write(": ")
                if let uid = s.uid {
                    w.write("UID ")
                    w.hexBytes(uid)
                } else {
                    w.write("UID complete")
                }
                if let family = s.familyFromActivation {
                    w.write(", ")
                    w.write(family)
                }
                ctx.summary = w.string
                if uid.hasCascadeTag { ctx.warn("SAK says the UID is complete, but the selected level has a cascade tag") }
            }
        case .hlta:
            ctx.apply(CRCSplit(unknownFrame: ctx.frame, kind: .a), field: .iso14443a.crc)
            ctx.summary = "answer to HLTA"
            ctx.warn("a tag must not answer HLTA; the reader takes any answer as 'not acknowledged'")
        case .rats where Type2Acknowledgement.looksLike(ctx.frame.bytes, lastByteBits: ctx.frame.lastByteBits):
            // A Type 2 tag NAKs the RATS it does not know (issue 18): no ATS, no ISO-DEP.
            ctx.layer = "ISO14443-4"
            let nibble = ctx.frame.bytes[0] & 0x0F
            ctx.summary = "NAK \(Hex.value(nibble, digits: 1)) to RATS: the tag does not speak ISO-DEP"
        case .rats:
            ctx.layer = "ISO14443-4"
            let split = CRCSplit(ctx.frame, expected: true, kind: .a)
            ctx.apply(split, field: .iso14443a.crc)
            do {
                let ats = try ATS.decode(split.payload)
                s.ats = ats
                describeATS(ats, &ctx)
            } catch {
                ctx.summary = "malformed ATS"
                ctx.diagnostics.append(Diagnostic(.error, "ATS \(error)"))
            }
        case .pps:
            ctx.layer = "ISO14443-4"
            let split = CRCSplit(ctx.frame, expected: true, kind: .a)
            ctx.apply(split, field: .iso14443a.crc)
            if split.payload.count == 1, split.payload[0] & 0xF0 == 0xD0 {
                ctx.summary = "PPS response (PPSS \(Hex.byte(split.payload[0])))"
            } else {
                ctx.summary = "malformed PPS response"
                ctx.warn("PPS response must echo the PPSS byte")
            }
        }
    }

    private func describeSAK(_ sak: SAK, _ ctx: inout FrameContext) {
        var bits: [Field] = [
            Field(.iso14443a.sakCascade, sak.uidIncomplete ? "set: cascade level follows" : "clear: UID complete", range: SAK.layout.range),
        ]
        if !sak.uidIncomplete {
            bits.append(Field(.iso14443a.sakIso144434, sak.raw & 0x20 != 0 ? "supported" : "not supported", range: SAK.layout.range))
            bits.append(Field(.iso14443a.sakNfcDep, sak.raw & 0x40 != 0 ? "supported" : "not supported", range: SAK.layout.range))
            if sak.isType2Platform { bits.append(Field(.iso14443a.sakPlatform, "Type 2 Tag", range: SAK.layout.range)) }
            if let hint = sak.mifareClassicHint { bits.append(Field(.iso14443a.sakMifare, hint, range: SAK.layout.range)) }
        }
        if sak.raw & 0x02 != 0 { ctx.note("SAK b2 is RFU and set") }
        ctx.sink.add(Field(.iso14443a.sak, .byte(sak.raw), range: SAK.layout.range, children: bits))
    }

    private func describeATS(_ ats: ATS, _ ctx: inout FrameContext) {
        var parts = ["ATS FSCI \(ats.fsci) (FSC \(ats.fsc))"]
        let at = ats.ranges
        ctx.sink.add(Field(.iso14443a.atsTl, "\(ats.tl)", range: at.tl))
        if let t0 = ats.t0 {
            ctx.sink.add(Field(.iso14443a.atsT0, "\(Hex.byte(t0)): FSCI \(ats.fsci) → FSC \(ats.fsc) bytes", range: at.t0))
        }
        if let ta = ats.ta1 {
            let ds = ats.bitRatesTagToReader.map(String.init).joined(separator: "/")
            let dr = ats.bitRatesReaderToTag.map(String.init).joined(separator: "/")
            ctx.sink.add(Field(.iso14443a.atsTa1, "\(Hex.byte(ta)): tag→reader \(ds.isEmpty ? "106" : "106/" + ds), reader→tag \(dr.isEmpty ? "106" : "106/" + dr) kbit/s" + (ats.sameBitRateBothWays ? ", same both ways" : ""), range: at.ta1))
        }
        if let tb = ats.tb1 {
            ctx.sink.add(Field(.iso14443a.atsTb1, "\(Hex.byte(tb)): FWI \(ats.fwi) (FWT \(Int(ats.frameWaitingTimeMicroseconds)) µs), SFGI \(ats.sfgi)", range: at.tb1))
            parts.append("FWI \(ats.fwi)")
        }
        if let tc = ats.tc1 {
            ctx.sink.add(Field(.iso14443a.atsTc1, "\(Hex.byte(tc)): NAD \(ats.nadSupported ? "supported" : "not supported"), CID \(ats.cidSupported ? "supported" : "not supported")", range: at.tc1))
        }
        if !ats.historicalBytes.isEmpty {
            ctx.sink.add(Field(.iso14443a.atsHistorical, Hex.string(ats.historicalBytes), range: at.historicalBytes))
            parts.append("historical \(Hex.string(ats.historicalBytes))")
        }
        ctx.summary = parts.joined(separator: ", ")
    }
}
