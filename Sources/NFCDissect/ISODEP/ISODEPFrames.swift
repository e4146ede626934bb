import NFCCore

/// ISO/IEC 14443-4 blocks (protocols-wave2.md §3.2–3.3): named by their PCB, block numbers
/// checked against rules A–E, chained I-blocks joined in each direction, and each whole command
/// and answer handed to the APDU layer. Only used once an ATS was seen, never guessed from a
/// first byte (the Wireshark defect that mis-reads PWD_AUTH as an I-block).
/// A tag session that carries ISO-DEP: ISO 14443-A after RATS, ISO 14443-B after ATTRIB.
protocol ISODEPCarrier {
    var isoDEP: ISODEPState { get set }
    var halted: Bool { get set }
    /// The CRC its frames carry (CRC_A or CRC_B).
    var crcKind: CRC.Kind { get }
    /// The FWI the card announced (ATS TB(1), ATQB protocol info), nil when unknown.
    var frameWaitingInteger: UInt8? { get }
    /// The activation named a DESFire (NXP's ATQA 0344 and SAK 20 on Type A).
    var announcesDESFire: Bool { get }
    /// The ATS named a MIFARE Plus (its historical bytes).
    var announcesMIFAREPlus: Bool { get }
    /// The tag asked for time (S(WTX)): the reader's answer to it pairs with that frame.
    mutating func awaitAnswer(frame: Int, block: ISODEPBlock)
    /// The capture holds the activation (ATS, ATTRIB answer), so block numbering starts at 0
    /// (rule A); without it the capture starts inside a conversation whose numbers it joins.
    var activationSeen: Bool { get }
}

enum ISODEPFrames {
    static let layer = "ISO14443-4"

    /// `C2` or `CA cid` with a right CRC_A: S(DESELECT), which no Type 2 or Classic command
    /// looks like, sent by a reader that still believes in an ISO-DEP session (the Proxmark3
    /// names it so in `hf_mfdes_sniff.trace`).
    static func isLoneDeselect(_ frame: Frame) -> Bool {
        guard let payload = frame.payload(ifValidCRC: .a), let first = payload.first,
              let block = ISODEPBlock(pcb: first), case .s(.deselect, let cid) = block else { return false }
        let cidByte = payload.dropFirst().first
        return payload.count == (cid ? 2 : 1) && (!cid || (cidByte ?? 0xFF) & 0x0F <= 14)
    }

    /// Whether a reader frame of a session without an ATS is ISO-DEP after all (issue 18: NFCGate
    /// and other captures start after activation): its CRC_A is right, it is an I-block whose INF
    /// is a command APDU, and either the SAK announced ISO 14443-4 or no activation was captured.
    /// A Type 2 or Classic command is never taken: their SAK says otherwise, and without one the
    /// APDU test rules them out (PWD_AUTH `1B` parses as an I-block, its 3-byte INF as no APDU).
    static func inferable(_ frame: Frame, _ s: ISO14443ASession) -> Bool {
        guard s.ats == nil, s.sak?.supportsISODEP == true || (s.sak == nil && s.atqa == nil) else { return false }
        return carriesAPDU(frame, crc: .a)
    }

    /// Whether a frame is an I-block, with a right CRC or none captured, whose INF is a command APDU.
    static func carriesAPDU(_ frame: Frame, crc: CRC.Kind) -> Bool {
        guard frame.lastByteBits == 8, let payload = frame.payload(ifValidCRC: crc), let f = try? ISODEPFrame.decode(Array(payload)),
              case .i = f.block, (try? CommandAPDU.decode(f.inf)) != nil else { return false }
        return true
    }

    /// A frame whose last byte is cut (6 bits, 3 bits…) inside ISO-DEP, where every block is whole
    /// bytes: noise, or a frame the sniffer cut. Named so, without block-number checks, and it
    /// leaves the request waiting for an answer alone; false for whole-byte frames.
    static func describeFragment(_ ctx: inout FrameContext) -> Bool {
        guard ctx.frame.lastByteBits != 8 else { return false }
        ctx.layer = layer
        ctx.summary = "fragment of \(ctx.frame.bitCount) bits: no ISO-DEP block (noise, or a frame the capture cut)"
        ctx.sink.add(Field(.isodep.fragment, Hex.string(ctx.frame.bytes), range: ctx.frame.bytes.indices))
        return true
    }

    /// A reader block; returns it for pairing, or nil when it is no valid block.
    static func describeRequest(_ ctx: inout FrameContext, session s: inout some ISODEPCarrier) -> ISODEPBlock? {
        guard let frame = decode(&ctx, crc: s.crcKind) else { return nil }
        var state = s.isoDEP
        switch frame.block {
        case .i(let chaining, _, _, let n):
            if !s.activationSeen, state.lastReaderBlockNumber == nil { state.readerBlockNumber = n }
            checkReaderNumber(n, &ctx, &state)
            state.lastReaderBlockNumber = n
            if let open = state.tagChain {
                // The reader goes on: the rest of the tag's answer is not in the capture, and the
                // next answer must not be joined to it.
                ctx.note("the tag's chained answer from frame \(open.firstFrame) (\(open.blocks) block\(open.blocks == 1 ? "" : "s")) has no last block in the capture")
                state.tagChain = nil
            }
            state.lastTagBlock = nil
            state.answerStartMissing = nil
            s.isoDEP = state
            information(frame, chaining: chaining, fromReader: true, &ctx, &s)
            return frame.block
        case .r(let nak, _, let n):
            if !s.activationSeen, state.lastReaderBlockNumber == nil { state.readerBlockNumber = n }
            if !nak { checkReaderNumber(n, &ctx, &state) }
            state.lastReaderBlockNumber = n
            if !nak, state.tagChain == nil, state.command != nil, state.lastTagBlock == nil {
                // An acknowledgement of a chained block that is not in the capture: the answer
                // that follows lacks its start.
                state.answerStartMissing = ctx.number
                ctx.note("the reader acknowledges a chained block of the tag's that is not in the capture")
            }
            ctx.summary = nak ? "R(NAK) \(n): the last block again, or are you there" : "R(ACK) \(n): the next chained block, please"
        case .s(.deselect, _):
            ctx.summary = "S(DESELECT)"
        case .s(.wtx, _):
            let m = frame.waitingTimeExtension?.multiplier ?? 0
            ctx.summary = "S(WTX) WTXM \(m): the reader grants \(m) × FWT"
        case .s(let kind, _):
            ctx.summary = "S(\(kind.name))"
        }
        s.isoDEP = state
        return frame.block
    }

    static func describeResponse(to request: ISODEPBlock, _ ctx: inout FrameContext, session s: inout some ISODEPCarrier) {
        guard let frame = decode(&ctx, crc: s.crcKind) else { return }
        switch frame.block {
        case .i(let chaining, _, _, let n):
            if let last = s.isoDEP.lastTagBlock, last.pcb == frame.block.pcb, last.inf == frame.inf {
                repeated(frame, last, after: request, &ctx)
                return
            }
            checkTagNumber(n, &ctx, &s)
            information(frame, chaining: chaining, fromReader: false, &ctx, &s)
            s.isoDEP.lastTagBlock = ISODEPState.TagBlock(frame: ctx.number, pcb: frame.block.pcb, inf: frame.inf, masked: ctx.masked, summary: ctx.summary)
        case .r(let nak, _, let n):
            if !nak { checkTagNumber(n, &ctx, &s) }
            ctx.summary = nak ? "R(NAK) \(n)" : "R(ACK) \(n): send the next chained block"
        case .s(.deselect, _):
            ctx.summary = "S(DESELECT)"
            if case .s(.deselect, _) = request {
                ctx.summary += ", tag deselected"
                s.halted = true
            }
        case .s(.wtx, _):
            let m = frame.waitingTimeExtension?.multiplier ?? 0
            ctx.summary = "S(WTX) WTXM \(m): the tag asks for \(m) × FWT"
            if let fwi = s.frameWaitingInteger {
                let fwt = (256.0 * 16 / 13.56) * Double(1 << Int(fwi))
                ctx.note("WTXM \(m) × FWT \(Int(fwt)) µs = \(Int(fwt * Double(m))) µs for this answer")
            }
            // The reader answers S(WTX); the real answer follows that.
            s.awaitAnswer(frame: ctx.number, block: frame.block)
            s.isoDEP.timeAsked = true
        case .s(let kind, _):
            ctx.summary = "S(\(kind.name))"
        }
    }

    /// The tag's last I-block once more: sent again after the reader's R(NAK) (ISO/IEC 14443-4
    /// §7.5.4, rule 11), or recorded twice. It is shown as the first copy was, masked the same,
    /// and is not part of the answer a second time.
    private static func repeated(_ frame: ISODEPFrame, _ last: ISODEPState.TagBlock, after request: ISODEPBlock, _ ctx: inout FrameContext) {
        ctx.masked = last.masked
        let infRange = frame.layout.inf(count: frame.inf.count)
        if ctx.sink.enabled, !frame.inf.isEmpty {
            let inf = ctx.hex(infRange)
            ctx.sink.add(Field(.isodep.inf, inf, range: infRange))
        }
        var why = "recorded twice"
        if case .r(true, _, _) = request { why = "sent again after R(NAK)" }
        ctx.summary = "I-block(\(frame.block.blockNumber ?? 0)) of frame \(last.frame) again (\(why)): \(last.summary)"
        ctx.note("the same block as frame \(last.frame): not part of the answer a second time")
    }

    /// A tag frame with no reader frame waiting for an answer, in a session that speaks ISO-DEP: the
    /// reader's block is missing from the capture (an R(ACK) between chained blocks, most often),
    /// or the tag's frame was recorded twice. Read as an answer all the same, so that a chain goes
    /// on and card data is found and masked; false when the frame is no ISO-DEP block.
    static func describeUnrequested(_ ctx: inout FrameContext, session s: inout some ISODEPCarrier) -> Bool {
        guard let payload = ctx.frame.payload(ifValidCRC: s.crcKind), let block = (try? ISODEPFrame.decode(Array(payload)))?.block else { return false }
        // A repeat of the last block says so itself (describeResponse).
        if case .i = block, s.isoDEP.lastTagBlock?.pcb != block.pcb {
            ctx.note(s.isoDEP.tagChain != nil ? "no reader block before this one in the capture: the reader's R(ACK) for the next chained block is missing"
                                              : "no reader block before this one in the capture: the command it answers is missing")
        }
        // The reader's missing block is taken for an R(ACK) of its current number.
        describeResponse(to: .r(nak: false, cidFollows: false, blockNumber: s.isoDEP.readerBlockNumber), &ctx, session: &s)
        return true
    }

    /// Decodes the block and adds PCB, CID, NAD and WTX fields; ranges from `ISODEPFrame.Layout`.
    private static func decode(_ ctx: inout FrameContext, crc: CRC.Kind) -> ISODEPFrame? {
        ctx.layer = layer
        let split = CRCSplit(ctx.frame, expected: true, kind: crc)
        ctx.apply(split, field: .isodep.crc)
        let frame: ISODEPFrame
        do {
            frame = try ISODEPFrame.decode(split.payload)
        } catch {
            let first = split.payload.first.map(Hex.byte) ?? "(empty)"
            ctx.summary = "invalid ISO-DEP block \(first)"
            ctx.warn("ISO-DEP block \(error)")
            ctx.sink.add(Field(.isodep.data, Hex.string(split.payload), range: split.payload.indices))
            return nil
        }
        let pcbRange = ISODEPFrame.Layout.pcb.range
        var bits: [Field] = []
        switch frame.block {
        case .i(let chaining, _, _, let n):
            bits.append(Field(.isodep.pcbType, "I-block", range: pcbRange))
            bits.append(Field(.isodep.pcbChaining, chaining ? "more blocks follow" : "last block", range: pcbRange))
            bits.append(Field(.isodep.pcbBlockNumber, "\(n)", range: pcbRange))
        case .r(let nak, _, let n):
            bits.append(Field(.isodep.pcbType, "R-block", range: pcbRange))
            bits.append(Field(.isodep.pcbAck, nak ? "NAK" : "ACK", range: pcbRange))
            bits.append(Field(.isodep.pcbBlockNumber, "\(n)", range: pcbRange))
        case .s(let kind, _):
            bits.append(Field(.isodep.pcbType, "S-block \(kind.name)", range: pcbRange))
        }
        ctx.sink.add(Field(.isodep.pcb, .byte(frame.block.pcb), range: pcbRange, children: bits))
        let layout = frame.layout
        if let f = layout.cid, let cid = frame.cid {
            ctx.sink.add(Field(.isodep.cid, "\(cid & 0x0F) (power level \(cid >> 6))", range: f.range))
        }
        if let f = layout.nad, let nad = frame.nad {
            ctx.sink.add(Field(.isodep.nad, .byte(nad), range: f.range))
        }
        switch frame.block {
        case .s(.wtx, _):
            if let w = frame.waitingTimeExtension {
                ctx.sink.add(Field(.isodep.wtxm, "\(w.multiplier)" + (w.powerLevel != 0 ? " (power level \(w.powerLevel))" : ""), range: layout.inf(count: 1)))
                if w.multiplier == 0 || w.multiplier > 59 { ctx.warn("WTXM \(w.multiplier) is outside 1–59 (ISO/IEC 14443-4 §7.3)", range: layout.inf(count: 1)) }
            } else {
                ctx.warn("S(WTX) needs its WTXM byte")
            }
        case .i:
            break
        default:
            if !frame.inf.isEmpty {
                ctx.sink.add(Field(.isodep.inf, label: "INF", Hex.string(frame.inf), range: layout.inf(count: frame.inf.count)))
                ctx.note("\(frame.block.name) carries no INF field, found \(frame.inf.count) bytes")
            }
        }
        return frame
    }

    /// A block number 0 where 1 was due, in a capture without CRCs: tools that record APDUs
    /// above the block layer write a PCB of their own (NFCGate puts `02` before every APDU), so
    /// the numbering is theirs, not the card's. Said once per session instead of a warning a frame.
    private static func isToolPCB(_ n: UInt8, expected: UInt8, _ ctx: inout FrameContext, _ state: inout ISODEPState) -> Bool {
        guard ctx.frame.crcStripped, n == 0, expected == 1 else { return false }
        if !state.toolPCBNoted {
            state.toolPCBNoted = true
            ctx.note("block numbers do not toggle in this capture without CRCs: the capturing tool wrote the PCB (NFCGate writes 02 before every APDU); numbering is not checked further")
        }
        return true
    }

    /// Rule B: the reader's I- and R(ACK)-blocks carry its current block number.
    private static func checkReaderNumber(_ n: UInt8, _ ctx: inout FrameContext, _ state: inout ISODEPState) {
        if n != state.readerBlockNumber, !isToolPCB(n, expected: state.readerBlockNumber, &ctx, &state) {
            ctx.warn("block number \(n), but the reader's current number is \(state.readerBlockNumber) (ISO/IEC 14443-4 §7.5.3, rules A–B)", range: ISODEPFrame.Layout.pcb.range)
        }
    }

    /// Rules C–E: the tag's I-block or R(ACK) carries the number of the reader block it answers;
    /// receiving it toggles the reader's number.
    private static func checkTagNumber(_ n: UInt8, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        guard let reader = s.isoDEP.lastReaderBlockNumber else { return }
        if n == reader {
            s.isoDEP.readerBlockNumber = reader ^ 1
        } else if !isToolPCB(n, expected: reader, &ctx, &s.isoDEP) {
            ctx.warn("block number \(n), but the reader's block had \(reader) (ISO/IEC 14443-4 §7.5.3, rules C–E)", range: ISODEPFrame.Layout.pcb.range)
        }
    }

    /// INF of an I-block: a part of a chain is kept; the last part (or a lone block) is a whole
    /// APDU, dissected in place when it came in one block, as a reassembled field otherwise.
    private static func information(_ frame: ISODEPFrame, chaining: Bool, fromReader: Bool, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        let infRange = frame.layout.inf(count: frame.inf.count)
        var chain = fromReader ? s.isoDEP.readerChain : s.isoDEP.tagChain
        if !fromReader, chain != nil, let last = s.isoDEP.lastTagBlock, ISODEPBlock(pcb: last.pcb)?.blockNumber == frame.block.blockNumber {
            // Block numbers toggle from part to part; the same number with other bytes means the
            // part between them is not in the capture.
            chain?.gap = "frame \(ctx.number) carries block number \(frame.block.blockNumber ?? 0) again with other bytes: a part of the answer is missing from the capture"
            ctx.warn(chain?.gap ?? "")
        }
        if !fromReader, chain == nil, let ack = s.isoDEP.answerStartMissing {
            s.isoDEP.answerStartMissing = nil
            chain = ISODEPState.Chain(firstFrame: ctx.number, gap: "the answer's first block is not in the capture (frame \(ack) acknowledges it)")
        }
        if chaining {
            var c = chain ?? ISODEPState.Chain(firstFrame: ctx.number)
            c.blocks += 1
            c.bytes += frame.inf
            if !fromReader { APDUFrames.maskChainedAnswer(c.bytes, block: c.bytes.count - frame.inf.count..<c.bytes.count, at: infRange.lowerBound, final: false, gap: c.gap, &ctx, s) }
            ctx.summary = "I-block(\(frame.block.blockNumber ?? 0)) chaining, INF \(frame.inf.count) bytes: part \(c.blocks) of \(fromReader ? "a command" : "an answer")"
            if ctx.sink.enabled {
                let inf = ctx.hex(infRange)
                ctx.sink.add(Field(.isodep.inf, label: "INF (chained part \(c.blocks))", inf, range: infRange))
            }
            if fromReader { s.isoDEP.readerChain = c } else { s.isoDEP.tagChain = c }
            return
        }
        let whole: [UInt8]
        let placement: APDUFrames.Placement
        let gap = chain?.gap
        if let c = chain, c.blocks > 0 {
            whole = c.bytes + frame.inf
            placement = .reassembled(frames: c.firstFrame...ctx.number, parts: c.blocks + 1, last: c.bytes.count..<whole.count, at: infRange.lowerBound)
            if !fromReader, whole.count >= ResponseAPDU.Layout.statusCount {
                APDUFrames.maskChainedAnswer(Array(whole.dropLast(ResponseAPDU.Layout.statusCount)), block: c.bytes.count..<whole.count, at: infRange.lowerBound, final: true, gap: c.gap, &ctx, s)
            }
            if ctx.sink.enabled {
                let inf = ctx.hex(infRange)
                ctx.sink.add(Field(.isodep.inf, label: "INF (last part)", inf, range: infRange))
            }
            chain = nil
        } else {
            whole = frame.inf
            placement = .inPlace(base: infRange.lowerBound)
        }
        if fromReader { s.isoDEP.readerChain = nil } else { s.isoDEP.tagChain = nil }
        if whole.isEmpty {
            ctx.summary = "I-block(\(frame.block.blockNumber ?? 0)), no INF"
            return
        }
        if fromReader {
            s.isoDEP.nativeDESFire = nil
            s.isoDEP.nativePlus = nil
            if MIFAREPlusFrames.isPlusCommand(whole, s) {
                MIFAREPlusFrames.command(whole, placement, &ctx, &s)
            } else if DESFireFrames.isNative(whole, s) {
                DESFireFrames.nativeCommand(whole, placement, &ctx, &s)
            } else {
                APDUFrames.command(whole, placement, &ctx, &s)
            }
        } else if let plus = s.isoDEP.nativePlus {
            s.isoDEP.nativePlus = nil
            MIFAREPlusFrames.response(whole, to: plus, placement, &ctx, &s)
        } else if let native = s.isoDEP.nativeDESFire {
            s.isoDEP.nativeDESFire = nil
            DESFireFrames.nativeResponse(whole, to: native, placement, &ctx, &s)
        } else {
            APDUFrames.response(whole, placement, gap: gap, &ctx, &s)
        }
    }
}
