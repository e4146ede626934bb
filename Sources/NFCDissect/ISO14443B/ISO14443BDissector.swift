import NFCCore

/// What a Type B reader frame asked, so that the answer is read against it.
enum ISO14443BPending {
    case command(ISO14443BCommand)
    case srx(SRxCommand)
    case isoDEP(ISODEPBlock)
    case xerox(XeroxCommand)
    case unknown
}

/// One Type B card's conversation: its activation (ATQB, ATTRIB) or, for an ST SRx card, its
/// Chip_ID, UID and the blocks read and written; ISO-DEP once ATTRIB was answered.
struct ISO14443BSession: DissectorSession {
    var number: Int
    var firstFrame: Int
    var lastFrame: Int
    var atqb: ATQB?
    var attrib: ATTRIB?
    var attribAnswer: ATTRIBAnswer?
    var halted = false
    var isoDEP = ISODEPState()
    var pending: (frame: Int, request: ISO14443BPending)?
    /// ST SRx: the Chip_ID selected, the UID read, blocks by address as read (or written).
    var chipID: UInt8?
    var selected = false
    var uid: SRxUID?
    var blocks: [UInt8: [UInt8]] = [:]
    /// Blocks as first read before any write of the session: the card's starting state.
    var blocksAsFound: [UInt8: [UInt8]] = [:]
    var writtenBlocks = Set<UInt8>()
    var srxCompleted = false
    /// REQT opened an ASK C-ticket conversation: its opcodes are named from then on.
    var askCTS = false
    /// Slots the last REQB/WUPB opened: a Slot-MARKER beyond them is some other chip's command.
    var slots = 1
    /// A Fuji Xerox memory chip's session (a wake-up started it): its UID once it answered the
    /// anticollision, the blocks read or written.
    var xerox = false
    var xeroxUID: [UInt8]?
    var xeroxBlocks: [UInt8: [UInt8]] = [:]
    var tagAnswered = false
    var diagnostics: [Diagnostic] = []

    init(number: Int, frame: Int) {
        self.number = number
        firstFrame = frame
        lastFrame = frame
    }

    /// ATTRIB answered and the ATQB announced ISO 14443-4: blocks follow; or, in a capture that
    /// starts after the activation, a reader frame was an I-block carrying an APDU.
    var isoDEPActive: Bool { (attribAnswer != nil || isoDEPInferred) && !halted && atqb?.supportsISODEP != false }
    var isoDEPInferred = false
    /// ATTRIB answered by a card whose ATQB says it is not ISO 14443-4 (CryptoRF and others).
    var proprietaryActive: Bool { attribAnswer != nil && !halted && atqb?.supportsISODEP == false }
    /// The session went past polling: a new REQB/WUPB or INITIATE starts another.
    var conversed: Bool { attrib != nil || halted || selected || srxCompleted || xeroxUID != nil }
    var isSRx: Bool { chipID != nil || uid != nil || !blocks.isEmpty }
}

extension ISO14443BSession: ISODEPCarrier {
    var crcKind: CRC.Kind { .b }
    var frameWaitingInteger: UInt8? { atqb?.fwi }
    var announcesDESFire: Bool { false }
    var announcesMIFAREPlus: Bool { false }
    mutating func awaitAnswer(frame: Int, block: ISODEPBlock) { pending = (frame, .isoDEP(block)) }
    var activationSeen: Bool { attribAnswer != nil }
}

/// ISO/IEC 14443-3 Type B and what rides on it: REQB/WUPB with AFI and slots, Slot-MARKER,
/// ATQB (PUPI, application data, protocol info), ATTRIB and its answer, HLTB; ISO-DEP once
/// ATTRIB was answered (the same block, APDU, DESFire and EMV layers as over Type A); ST SRx
/// and ST25TB commands. CRC_B is checked on every frame.
///
/// Sessions: one starts with the first frame (or at the first REQB/WUPB/INITIATE after the
/// previous card went past polling: ATTRIB, HLTB, SELECT, COMPLETION) and ends at field off.
final class ISO14443BDissector: SessionDissector {
    let detail: DissectionDetail
    let counter: SessionCounter
    var session: ISO14443BSession?
    private let revealCardData: Bool

    static let layer = "ISO14443-3B"

    init(detail: DissectionDetail, counter: SessionCounter, revealCardData: Bool = false) {
        self.detail = detail
        self.counter = counter
        self.revealCardData = revealCardData
    }

    static func summary(of session: ISO14443BSession, detail: DissectionDetail) -> SessionSummary {
        ISO14443BSessionSummary.make(session)
    }

    private func startSession(at number: Int) {
        var s = ISO14443BSession(number: counter.take(), frame: number)
        s.isoDEP.revealCardData = revealCardData
        session = s
    }

    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession? {
        if direction == .readerToTag {
            // Decoded once here: it says whether the frame starts an activation, and what it asks.
            // The command is read without its last two bytes even when their CRC is wrong (it
            // is named, and the CRC flagged).
            let split = CRCSplit(ctx.frame, expected: true, kind: .b)
            let command = try? ISO14443BCommand.decode(split.payload)
            let srx = command == nil ? try? SRxCommand.decode(split.payload) : nil
            let ended = beginsActivation(command, srx, split) && session?.conversed == true ? endSession() : nil
            if session == nil { startSession(at: ctx.number) }
            withSession { readerFrame(&ctx, &$0, split: split, command: command, srx: srx) }
            return ended
        }
        if session == nil { startSession(at: ctx.number) }
        withSession { tagFrame(&ctx, &$0) }
        return nil
    }

    /// REQB/WUPB, INITIATE/PCALL16 or a Xerox chip's first wake-up that a card would take (its
    /// CRC not wrong).
    private func beginsActivation(_ command: ISO14443BCommand?, _ srx: SRxCommand?, _ split: CRCSplit) -> Bool {
        if case .mismatch = split.status { return false }
        if case .request? = command { return true }
        if case .wakeUp1? = try? XeroxCommand.decode(split.payload, framed: true) { return true }
        return srx == .initiate || srx == .pcall16
    }

    // MARK: reader frames

    private func readerFrame(_ ctx: inout FrameContext, _ s: inout ISO14443BSession, split: CRCSplit, command decoded: ISO14443BCommand?, srx: SRxCommand?) {
        if let xerox = XeroxFrames.command(ctx.frame, split, s) {
            XeroxFrames.describe(xerox, &ctx, &s, split: split)
            s.pending = (ctx.number, .xerox(xerox))
            return
        }
        var command = decoded
        // A Slot-MARKER only follows a REQB/WUPB that opened that many slots; in a session that
        // activated no ISO 14443-4 card the byte is some proprietary chip's command (Xerox memory
        // chips' and others'), not a Slot-MARKER.
        if case .slotMarker(let slot)? = command, slot > s.slots, s.attribAnswer == nil, !s.isoDEPInferred { command = nil }
        // Inside ISO-DEP, blocks; REQB/WUPB, Slot-MARKER and HLTB still reach the card there (no
        // PCB ends in 5, nor is 1D or 50 one). SRx codes 0A/0B would be I-blocks with a CID: blocks win.
        // A capture that starts after the activation (issue 44): an I-block carrying an APDU is
        // ISO-DEP, not the SRx or proprietary command its first byte would also be.
        if !s.isoDEPActive, s.atqb == nil, s.attrib == nil, !s.isSRx, ISODEPFrames.carriesAPDU(ctx.frame, crc: .b) {
            s.isoDEPInferred = true
            ctx.note("ISO-DEP inferred: no ATTRIB in the capture")
        }
        if s.isoDEPActive, ISODEPFrames.describeFragment(&ctx) { return }
        if s.isoDEPActive, command == nil || s.isoDEPInferred {
            if let block = ISODEPFrames.describeRequest(&ctx, session: &s) {
                s.pending = (ctx.number, .isoDEP(block))
            } else {
                s.pending = (ctx.number, .unknown)
            }
            return
        }
        ctx.apply(split, field: .iso14443b.crc)
        if case .mismatch = split.status { ctx.note("a card ignores a frame whose CRC_B is wrong: no answer is expected") }
        if let command {
            describe(command, &ctx, &s)
            s.pending = (ctx.number, .command(command))
        } else if let name = proprietaryName(split.payload, &s) {
            ctx.layer = name.layer
            ctx.summary = name.summary
            ctx.sink.add(Field(.iso14443b.proprietaryCommand, name.summary))
            if split.payload.count > 1 {
                ctx.sink.add(Field(.iso14443b.proprietaryData, Hex.string(split.payload.dropFirst()), range: 1..<split.payload.count))
            }
            s.pending = (ctx.number, .unknown)
        } else if let srx {
            describe(srx, &ctx, &s)
            s.pending = (ctx.number, .srx(srx))
        } else if case .mismatch = split.status, let code = split.payload.first ?? ctx.frame.bytes.first, let name = ISO14443BCommand.name(ofCode: code) {
            // Too damaged to decode: named by its first byte, the CRC error kept.
            ctx.summary = "\(name)? (damaged: \(ctx.frame.bytes.count) bytes, CRC_B wrong)"
            ctx.sink.add(Field(.iso14443b.data, Hex.string(split.payload), range: split.payload.indices))
            s.pending = (ctx.number, .unknown)
        } else if s.attribAnswer == nil, !s.isoDEPInferred, let code = split.payload.first {
            // No ISO 14443-4 card was activated: a proprietary chip's command, not a wrong guess.
            ctx.summary = "unknown proprietary command \(Hex.byte(code))"
            ctx.note("the session activated no ISO 14443-4 card: a proprietary chip's command" + (ISO14443BCommand.name(ofCode: code) == "Slot-MARKER" ? " (a Slot-MARKER only follows a REQB/WUPB that opened its slot)" : ""))
            ctx.sink.add(Field(.iso14443b.data, Hex.string(split.payload), range: split.payload.indices))
            s.pending = (ctx.number, .unknown)
        } else {
            ctx.summary = split.payload.first.map { "unknown command \(Hex.byte($0))" } ?? "empty frame"
            ctx.warn("no ISO 14443-B, ST SRx or (before ATTRIB) ISO-DEP command starts with this byte")
            ctx.sink.add(Field(.iso14443b.data, Hex.string(split.payload), range: split.payload.indices))
            s.pending = (ctx.number, .unknown)
        }
    }

    private func describe(_ command: ISO14443BCommand, _ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        typealias L = ISO14443BCommand.Layout
        ctx.sink.add(Field(.iso14443b.command, command.name, range: L.code.range))
        switch command {
        case .request(let afi, let param):
            let slots = ISO14443BCommand.slotCount(param: param)
            ctx.sink.add(Field(.iso14443b.afi, afi == 0 ? "00 (all families)" : Hex.byte(afi), range: L.afi.range))
            ctx.sink.add(Field(.iso14443b.slots, slots.map(String.init) ?? "RFU code \(param & 0x07)", range: L.param.range))
            ctx.sink.add(Field(.iso14443b.extendedAtqb, param & ISO14443BCommand.extendedATQBBit != 0 ? "supported by the reader" : "no", range: L.param.range))
            ctx.summary = "\(command.name) AFI \(Hex.byte(afi)), \(slots.map { "\($0) slot\($0 == 1 ? "" : "s")" } ?? "RFU slot code")"
            s.slots = slots ?? 1
            if slots == nil { ctx.warn("PARAM slot code \(param & 0x07) is RFU (ISO/IEC 14443-3: 0…4)", range: L.param.range) }
            if param & 0xE0 != 0 { ctx.warn("PARAM b6…b8 are RFU and must be 0", range: L.param.range) }
        case .slotMarker(let slot):
            ctx.summary = "Slot-MARKER slot \(slot)"
            ctx.sink.add(Field(.iso14443b.slot, "\(slot)", range: L.code.range))
        case .attrib(let a):
            s.attrib = a
            ctx.sink.add(Field(.iso14443b.pupi, Hex.string(a.pupi), range: L.pupi.range))
            ctx.sink.add(Field(.iso14443b.attribTr0, a.tr0 == 0 ? "default (64/fs)" : "code \(a.tr0)", range: L.param1.range))
            ctx.sink.add(Field(.iso14443b.attribTr1, a.tr1 == 0 ? "default (80/fs)" : "code \(a.tr1)", range: L.param1.range))
            ctx.sink.add(Field(.iso14443b.attribEof, a.suppressesEOF ? "suppressed" : "required", range: L.param1.range))
            ctx.sink.add(Field(.iso14443b.attribSof, a.suppressesSOF ? "suppressed" : "required", range: L.param1.range))
            ctx.sink.add(Field(.iso14443b.attribRateTagToReader, "\(a.tagToReaderRate) kbit/s", range: L.param2.range))
            ctx.sink.add(Field(.iso14443b.attribRateReaderToTag, "\(a.readerToTagRate) kbit/s", range: L.param2.range))
            ctx.sink.add(Field(.iso14443b.attribFsd, ISO14443B.frameSize(code: a.maximumFrameSizeCode).map { "\($0) bytes" } ?? "RFU code \(a.maximumFrameSizeCode)", range: L.param2.range))
            ctx.sink.add(Field(.iso14443b.attribProtocolType, a.protocolType & 0x01 != 0 ? "ISO/IEC 14443-4" : "not ISO/IEC 14443-4 (\(a.protocolType))", range: L.param3.range))
            ctx.sink.add(Field(.iso14443b.attribCid, "\(a.cid)", range: L.param4.range))
            if !a.higherLayer.isEmpty {
                ctx.sink.add(Field(.iso14443b.attribInf, Hex.string(a.higherLayer), range: L.higherLayerStart..<L.higherLayerStart + a.higherLayer.count))
            }
            ctx.summary = "ATTRIB PUPI \(Hex.string(a.pupi)), CID \(a.cid), FSD \(ISO14443B.frameSize(code: a.maximumFrameSizeCode).map(String.init) ?? "RFU")"
            if let pupi = s.atqb?.pupi, pupi != a.pupi { ctx.warn("ATTRIB names PUPI \(Hex.string(a.pupi)), the card of this session answered \(Hex.string(pupi))", range: L.pupi.range) }
        case .halt(let pupi):
            ctx.sink.add(Field(.iso14443b.pupi, Hex.string(pupi), range: L.pupi.range))
            ctx.summary = "HLTB PUPI \(Hex.string(pupi))"
        }
    }

    private func describe(_ command: SRxCommand, _ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        typealias L = SRxCommand.Layout
        ctx.layer = "ST SRx"
        ctx.sink.add(Field(.srx.command, command.name, range: L.code.range))
        switch command {
        case .initiate: ctx.summary = "INITIATE: every card answers its Chip_ID"
        case .pcall16: ctx.summary = "PCALL16: cards answer in one of 16 slots"
        case .slotMarker(let n): ctx.summary = "SLOT_MARKER slot \(n)"
        case .select(let id):
            ctx.sink.add(Field(.srx.chipId, Hex.byte(id), range: L.chipID.range))
            ctx.summary = "SELECT Chip_ID \(Hex.byte(id))"
        case .getUID: ctx.summary = "GET UID"
        case .readBlock(let a):
            ctx.sink.add(Field(.srx.block, blockName(a, s), range: L.address.range))
            ctx.summary = "READ_BLK \(blockName(a, s))"
        case .writeBlock(let a, let d):
            ctx.sink.add(Field(.srx.block, blockName(a, s), range: L.address.range))
            ctx.sink.add(Field(.srx.data, Hex.string(d), range: L.data.range))
            ctx.summary = "WRITE_BLK \(blockName(a, s)): \(Hex.string(d))"
            s.blocks[a] = d
            s.writtenBlocks.insert(a)
            ctx.memory = MemoryAccess(offset: Int(a) * d.count, count: d.count, write: true)
        case .completion:
            ctx.summary = "COMPLETION: the card stays silent until the field goes off"
            s.srxCompleted = true
        case .resetToInventory: ctx.summary = "RESET_TO_INVENTORY"
        case .authenticate(let r):
            ctx.sink.add(Field(.srx.random, Hex.string(r), range: L.random.range))
            ctx.summary = "AUTHENTICATE (anti-clone)"
        }
    }

    /// Commands of other Type B cards, by opcode only (the Proxmark3's names): CryptoRF after
    /// ATTRIB of a card that is not ISO 14443-4, ASK C-ticket after REQT, the Proxmark3's
    /// PING/PONG test frames.
    private func proprietaryName(_ payload: [UInt8], _ s: inout ISO14443BSession) -> (layer: String, summary: String)? {
        guard let code = payload.first else { return nil }
        if s.proprietaryActive, let name = ISO14443BProprietary.cryptoRF[code] { return ("CryptoRF", "CryptoRF \(name)") }
        if code == ISO14443BProprietary.askRequest { s.askCTS = true }
        if s.askCTS, let name = ISO14443BProprietary.askName(code) { return ("ASK C-ticket", "ASK CTS \(name)") }
        if let name = ISO14443BProprietary.proxmark3[code], payload.count == 1 { return ("Proxmark3", "\(name) (a Proxmark3 test frame)") }
        return nil
    }

    private func blockName(_ a: UInt8, _ s: ISO14443BSession) -> String {
        if a == SRxUID.systemBlock { return "255 (system: OTP lock bits)" }
        switch a {
        case 0...4: return "\(a) (resettable OTP)"
        case 5, 6: return "\(a) (count-down counter)"
        default: return "\(a)"
        }
    }

    // MARK: tag frames

    private func tagFrame(_ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        s.tagAnswered = true
        if s.isoDEPActive, ISODEPFrames.describeFragment(&ctx) { return }
        let pending = s.pending
        s.pending = nil
        if let p = pending { ctx.responseTo = p.frame }
        if case .isoDEP(let block)? = pending?.request {
            ISODEPFrames.describeResponse(to: block, &ctx, session: &s)
            return
        }
        if pending == nil, s.isoDEPActive, ISODEPFrames.describeUnrequested(&ctx, session: &s) { return }
        if s.xerox {
            if case .xerox(let command)? = pending?.request {
                XeroxFrames.describeAnswer(to: command, &ctx, &s)
            } else {
                XeroxFrames.describeAnswer(to: nil, &ctx, &s)
            }
            return
        }
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        ctx.apply(split, field: .iso14443b.crc)
        let payload = split.payload
        switch pending?.request {
        case .command(.request)?, .command(.slotMarker)?, nil:
            if let atqb = try? ATQB.decode(payload) {
                describe(atqb, &ctx, &s)
                return
            }
        case .command(.attrib)?:
            if let answer = try? ATTRIBAnswer.decode(payload) {
                describe(answer, &ctx, &s)
                return
            }
        case .command(.halt)?:
            if payload == [ISO14443B.haltAnswer] {
                ctx.sink.add(Field(.iso14443b.haltAnswer, "00: halted", range: ISO14443B.haltAnswerLayout.range))
                ctx.summary = "HLTB answer: card halted"
                s.halted = true
                return
            }
        case .srx(let command)?:
            if describeAnswer(to: command, payload, &ctx, &s) { return }
        case .isoDEP?, .unknown?, .xerox?:
            break
        }
        if case .unknown? = pending?.request, s.attribAnswer == nil, !s.isoDEPInferred {
            // The command was a proprietary chip's: its answer is as unknown, not unexpected.
            ctx.summary = "answer to an unknown proprietary command, \(payload.count) bytes"
            ctx.sink.add(Field(.iso14443b.data, Hex.string(payload), range: payload.indices))
            return
        }
        ctx.summary = pending == nil ? "answer without a request" : "unexpected answer"
        ctx.warn("\(payload.count) bytes that are no answer to the request before them")
        ctx.sink.add(Field(.iso14443b.data, Hex.string(payload), range: payload.indices))
    }

    private func describe(_ atqb: ATQB, _ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        typealias L = ATQB.Layout
        if let old = s.atqb?.pupi, old != atqb.pupi { ctx.note("another card (PUPI \(Hex.string(old)) answered before)") }
        s.atqb = atqb
        ctx.sink.add(Field(.iso14443b.atqb, "PUPI \(Hex.string(atqb.pupi))", range: L.code.range))
        ctx.sink.add(Field(.iso14443b.pupi, Hex.string(atqb.pupi), range: L.pupi.range))
        ctx.sink.add(Field(.iso14443b.afi, Hex.byte(atqb.afi), range: L.afi.range))
        ctx.sink.add(Field(.iso14443b.aidCrc, Hex.string(atqb.aidCRC), range: L.aidCRC.range))
        let apps = atqb.applicationCount
        ctx.sink.add(Field(.iso14443b.applications, "\(apps >> 4) for this AFI, \(apps & 0x0F) in all", range: L.applicationCount.range))
        let rates = atqb.bitRateCapability
        var rateText = rates & 0x77 == 0 ? "106 kbit/s only" : "up to " + [(0x40, "847"), (0x20, "424"), (0x10, "212")].filter { Int(rates) & $0.0 != 0 }.map(\.1).joined(separator: "/") + " kbit/s card → reader"
        if rates & 0x80 != 0 { rateText += ", same rate both ways" }
        ctx.sink.add(Field(.iso14443b.bitRates, rateText, range: L.bitRates.range))
        if rates & 0x08 != 0 { ctx.warn("bit rate capability b4 must be 0", range: L.bitRates.range) }
        let fsc = ISO14443B.frameSize(code: atqb.maximumFrameSizeCode)
        ctx.sink.add(Field(.iso14443b.fsc, fsc.map { "\($0) bytes" } ?? "RFU code \(atqb.maximumFrameSizeCode)", range: L.frameSizeAndType.range))
        ctx.sink.add(Field(.iso14443b.protocolType, atqb.supportsISODEP ? "ISO/IEC 14443-4" : "not ISO/IEC 14443-4", range: L.frameSizeAndType.range))
        let fwt = 256.0 * 16 / 13.56 * Double(1 << Int(min(atqb.fwi, 14)))
        ctx.sink.add(Field(.iso14443b.fwi, "\(atqb.fwi) (FWT \(Int(fwt)) µs)", range: L.fwiADCFO.range))
        ctx.sink.add(Field(.iso14443b.adc, atqb.adc == 1 ? "application data coded per ISO/IEC 14443-3 (AFI, CRC_B(AID), applications)" : "proprietary (\(atqb.adc))", range: L.fwiADCFO.range))
        ctx.sink.add(Field(.iso14443b.fo, "NAD \(atqb.supportsNAD ? "supported" : "not supported"), CID \(atqb.supportsCID ? "supported" : "not supported")", range: L.fwiADCFO.range))
        if let sfgi = atqb.sfgi { ctx.sink.add(Field(.iso14443b.sfgi, "\(sfgi)", range: L.sfgi.range)) }
        ctx.summary = "ATQB PUPI \(Hex.string(atqb.pupi)), \(atqb.supportsISODEP ? "ISO 14443-4" : "not ISO 14443-4"), FSC \(fsc.map(String.init) ?? "RFU"), FWI \(atqb.fwi)"
    }

    private func describe(_ answer: ATTRIBAnswer, _ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        s.attribAnswer = answer
        s.halted = false
        s.isoDEP = ISODEPState()
        s.isoDEP.revealCardData = revealCardData
        let r = ATTRIBAnswer.Layout.mbliCID.range
        ctx.sink.add(Field(.iso14443b.mbli, answer.mbli == 0 ? "0 (no buffer length given)" : "\(answer.mbli)", range: r))
        ctx.sink.add(Field(.iso14443b.cid, "\(answer.cid)", range: r))
        if !answer.higherLayer.isEmpty {
            let start = ATTRIBAnswer.Layout.higherLayerStart
            ctx.sink.add(Field(.iso14443b.attribAnswerInf, Hex.string(answer.higherLayer), range: start..<start + answer.higherLayer.count))
        }
        ctx.summary = "ATTRIB answer: CID \(answer.cid), MBLI \(answer.mbli); ISO-DEP follows"
        if let sent = s.attrib, sent.cid != answer.cid { ctx.warn("the card answers CID \(answer.cid), ATTRIB gave it \(sent.cid)", range: r) }
    }

    private func describeAnswer(to command: SRxCommand, _ payload: [UInt8], _ ctx: inout FrameContext, _ s: inout ISO14443BSession) -> Bool {
        guard let answer = try? SRxAnswer.decode(payload, answering: command) else { return false }
        typealias L = SRxAnswer.Layout
        ctx.layer = "ST SRx"
        switch (command, answer) {
        case (.select(let id), .chipID(let chip)):
            s.chipID = chip
            s.selected = true
            ctx.sink.add(Field(.srx.chipId, Hex.byte(chip), range: L.chipID.range))
            ctx.summary = "selected, Chip_ID \(Hex.byte(chip))"
            if chip != id { ctx.warn("SELECT asked for Chip_ID \(Hex.byte(id))", range: L.chipID.range) }
        case (_, .chipID(let chip)):
            s.chipID = chip
            ctx.sink.add(Field(.srx.chipId, Hex.byte(chip), range: L.chipID.range))
            ctx.summary = "Chip_ID \(Hex.byte(chip))"
        case (_, .uid(let uid)):
            s.uid = uid
            ctx.sink.add(Field(.srx.uid, Hex.string(uid.printed) + " (sent least significant byte first)", range: L.uid.range))
            if let model = uid.model {
                ctx.sink.add(Field(.srx.model, "\(model.name), \(model.blocks) blocks of 4 bytes", range: SRxUID.Layout.productCode.range))
                ctx.summary = "UID \(Hex.string(uid.printed)): \(model.name)"
            } else {
                ctx.summary = "UID \(Hex.string(uid.printed))"
                if !uid.isST { ctx.note("the UID does not start D0 02 (ST's manufacturer code)") }
            }
        case (.readBlock(let a), .block(let data)):
            s.blocks[a] = data
            if s.blocksAsFound[a] == nil, !s.writtenBlocks.contains(a) { s.blocksAsFound[a] = data }
            ctx.memory = MemoryAccess(offset: Int(a) * data.count, count: data.count, write: false)
            let value = data.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            ctx.sink.add(Field(.srx.data, Hex.string(data), range: L.block.range))
            if a == 5 || a == 6 { ctx.sink.add(Field(.srx.counter, "\(value)", range: L.block.range)) }
            ctx.summary = "block \(a): \(Hex.string(data))"
        case (_, .signature(let signature)):
            ctx.sink.add(Field(.srx.signature, Hex.string(signature), range: L.signature.range))
            ctx.summary = "AUTHENTICATE answer"
        case (_, .block):
            return false
        }
        return true
    }
}
