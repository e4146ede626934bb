import NFCCore

/// ISO/IEC 7816-4 APDUs inside ISO-DEP (protocols-wave2.md §3.4–3.5): the command's header,
/// Lc, data and Le with their meanings, the answer's status word, and data that is BER-TLV as a
/// tree. Byte ranges come from `CommandAPDU.Layout` and the TLV parser, placed at the INF of the
/// block that carried the APDU; an APDU joined from chained blocks is one reassembled field
/// whose children have no frame ranges.
enum APDUFrames {
    static let layer = "ISO 7816-4"

    enum Placement {
        /// The APDU is the INF of this block, which starts at `base`.
        case inPlace(base: Int)
        /// Joined from chained blocks; this frame's block carries `last` of the APDU's bytes, from
        /// frame offset `at`.
        case reassembled(frames: ClosedRange<Int>, parts: Int, last: Range<Int>, at: Int)

        func place(_ r: Range<Int>) -> Range<Int>? {
            if case .inPlace(let base) = self { return r.lowerBound + base..<r.upperBound + base }
            return nil
        }

        /// The part of `r` (APDU offsets) that this frame carries, in frame offsets.
        func inThisFrame(_ r: Range<Int>) -> Range<Int>? {
            switch self {
            case .inPlace: return place(r)
            case .reassembled(_, _, let last, let at):
                let part = r.clamped(to: last)
                return part.isEmpty ? nil : part.lowerBound - last.lowerBound + at..<part.upperBound - last.lowerBound + at
            }
        }
    }

    // MARK: commands

    static func command(_ bytes: [UInt8], _ placement: Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        ctx.layer = layer
        s.isoDEP.commandBytes = bytes
        s.isoDEP.timeAsked = false
        let apdu: CommandAPDU
        do {
            apdu = try CommandAPDU.decode(bytes)
        } catch {
            ctx.summary = "malformed command APDU"
            ctx.diagnostics.append(Diagnostic(.error, "command APDU \(error)"))
            add([Field(.apdu.data, Hex.string(bytes), range: placement.place(bytes.indices))], placement, "Command APDU", bytes.count, &ctx)
            s.isoDEP.command = nil
            return
        }
        s.isoDEP.command = (ctx.number, apdu)
        if apdu.ins == ISO7816Instruction.select, apdu.p1 == 0x04, EMV.isPaymentApplication(apdu.data) { s.isoDEP.application.paymentNamed = true }
        ctx.summary = apdu.summary
        var fields = headerFields(apdu, placement)
        if let selected = s.isoDEP.application.selectedApplication, Seos.application(selected) != nil,
           let name = Seos.instructionName(cla: apdu.cla, ins: apdu.ins) {
            ctx.summary = name + " P1 \(Hex.byte(apdu.p1)) P2 \(Hex.byte(apdu.p2))"
            fields[1] = Field(.apdu.ins, .named(name, code: apdu.ins), range: placement.place(CommandAPDU.Layout.ins.range))
        }
        let layout = apdu.layout
        if let lc = layout.lc {
            fields.append(Field(.apdu.lc, "\(apdu.data.count)" + (apdu.extended ? " (extended)" : ""), range: placement.place(lc.range)))
        }
        if let d = layout.data {
            fields.append(Field(.apdu.data, dataText(apdu), range: placement.place(d.range)))
        }
        if let le = layout.le, let n = apdu.le {
            fields.append(Field(.apdu.le, "\(n)" + (n == 256 && !apdu.extended || n == 65536 ? " (as many as there are)" : ""), range: placement.place(le.range)))
        }
        Type4Frames.command(apdu, &ctx, &s)
        DESFireFrames.command(apdu, placement, &ctx, &s, fields: &fields)
        EMVFrames.command(apdu, placement, &ctx, &s, fields: &fields)
        add(fields, placement, "Command APDU", bytes.count, &ctx)
    }

    static func headerFields(_ apdu: CommandAPDU, _ placement: Placement) -> [Field] {
        typealias L = CommandAPDU.Layout
        var claText = Hex.byte(apdu.cla)
        if apdu.cla == 0xFF {
            claText += ": PC/SC reader pseudo-APDU"
        } else if apdu.isInterindustry {
            var parts = ["interindustry"]
            if apdu.chainsCommand { parts.append("command chaining: more commands follow") }
            if apdu.secureMessaging != 0 { parts.append("secure messaging \(apdu.secureMessaging)") }
            if apdu.logicalChannel != 0 { parts.append("logical channel \(apdu.logicalChannel)") }
            claText += ": " + parts.joined(separator: ", ")
        } else {
            claText += ": proprietary"
        }
        var fields = [
            Field(.apdu.cla, claText, range: placement.place(L.cla.range)),
            Field(.apdu.ins, .named(ISO7816Instruction.name(apdu.ins, cla: apdu.cla), code: apdu.ins), range: placement.place(L.ins.range)),
        ]
        var p1 = Hex.byte(apdu.p1), p2 = Hex.byte(apdu.p2)
        switch apdu.isInterindustry ? apdu.ins : nil {
        case ISO7816Instruction.select:
            p1 += ": " + ISO7816Instruction.selectTarget(p1: apdu.p1)
            p2 += ": " + ISO7816Instruction.selectOptions(p2: apdu.p2)
        case ISO7816Instruction.readBinary, ISO7816Instruction.updateBinary, ISO7816Instruction.writeBinary:
            if let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2) {
                if let sfi {
                    p1 += ": short EF \(sfi)"
                    p2 += ": offset \(offset)"
                } else {
                    p1 += ": offset \(offset) (P1P2)"
                }
            }
        case ISO7816Instruction.readRecord, ISO7816Instruction.updateRecord:
            p1 += ": record \(apdu.p1)"
            p2 += apdu.p2 >> 3 == 0 ? ": current EF" : ": SFI \(apdu.p2 >> 3)" + (apdu.p2 & 0x07 == 0x04 ? ", record number in P1" : "")
        case ISO7816Instruction.getData:
            p1 = Hex.string([apdu.p1, apdu.p2], separator: "") + ": tag" + (BERTLVTags.name(UInt32(apdu.p1) << 8 | UInt32(apdu.p2)).map { " (\($0))" } ?? "")
        case ISO7816Instruction.verify:
            p2 += ": reference data \(apdu.p2 & 0x1F)"
        default:
            break
        }
        fields.append(Field(.apdu.p1, p1, range: placement.place(L.p1.range)))
        fields.append(Field(.apdu.p2, p2, range: placement.place(L.p2.range)))
        return fields
    }

    /// The data of a command: an AID or file id by name where known, else hex.
    static func dataText(_ apdu: CommandAPDU) -> String {
        let hex = Hex.string(apdu.data)
        guard apdu.ins == ISO7816Instruction.select else { return hex }
        if apdu.data == Type4Tag.ndefApplication { return hex + " (NFC Forum NDEF Tag Application, mapping 2.0+)" }
        if apdu.data == Type4Tag.ndefApplicationV1 { return hex + " (NFC Forum NDEF Tag Application, mapping 1.0)" }
        if (try? Type4Command.fileID(apdu.data)) == Type4Tag.ccFile { return hex + " (Type 4 CC file)" }
        if apdu.data.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return hex + " (\"\(String(decoding: apdu.data, as: UTF8.self))\")" }
        if let app = KnownApplications.name(apdu.data) { return hex + " (\(app))" }
        return hex
    }

    // MARK: answers

    /// `gap`: why the bytes joined from chained blocks cannot be trusted (a part is missing).
    static func response(_ bytes: [UInt8], _ placement: Placement, gap: String? = nil, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        ctx.layer = layer
        let command = s.isoDEP.command
        s.isoDEP.command = nil
        s.isoDEP.recordAnswer(bytes)
        let response: ResponseAPDU
        do {
            response = try ResponseAPDU.decode(bytes)
        } catch {
            ctx.summary = "malformed response APDU"
            ctx.diagnostics.append(Diagnostic(.error, "response APDU \(error)"))
            let hidden = failsClosed(s, command: command?.apdu) ? failClosed(bytes, why: "the answer is shorter than a status word", cutAtStart: gap != nil, placement, &ctx) : []
            add([Field(.apdu.data, Hex.string(bytes[...], hiding: hidden), range: placement.place(bytes.indices))], placement, "Response APDU", bytes.count, &ctx)
            return
        }
        let sw = response.status
        var fields: [Field] = []
        if !response.data.isEmpty {
            let dataRange = placement.place(ResponseAPDU.Layout.data(count: response.data.count))
            let why = gap ?? (ctx.crc.isBad ? "its CRC is wrong" : nil) ?? uncertainty(response.data, command: command?.apdu)
            if let why, failsClosed(s, command: command?.apdu) {
                // No tree: a value read along a wrong structure would show what the tags hide.
                let hidden = failClosed(response.data, why: why, cutAtStart: gap != nil || command == nil, placement, &ctx)
                fields.append(Field(.apdu.responseData, "\(response.data.count) bytes", range: dataRange, children: [
                    Field(.apdu.bytes, Hex.string(response.data[...], hiding: hidden), range: dataRange)]))
            } else {
                fields.append(Field(.apdu.responseData, "\(response.data.count) bytes", range: dataRange,
                                    children: dataFields(response.data, command: command?.apdu, placement, reveal: s.isoDEP.revealCardData,
                                                         context: tagContext(s), masked: &ctx.masked)))
            }
        }
        fields.append(Field(.apdu.sw, "\(sw): \(sw.meaning)", range: placement.place(ResponseAPDU.Layout.status(count: response.data.count))))
        ctx.summary = (response.data.isEmpty ? "" : "\(response.data.count) bytes, ") + "SW \(sw) \(sw.meaning)"
        if ctx.crc.isBad {
            // A frame cut or hit by noise: its last two bytes need not be a status word.
            ctx.summary = "damaged answer (CRC wrong): \(bytes.count) bytes, the last two \(Hex.string([sw.sw1, sw.sw2])) need not be its status"
        } else if !sw.isSuccess, sw.sw1 != 0x61, sw.sw1 != 0x62, sw.sw1 != 0x63, sw != StatusWord(DESFire.statusSW1, DESFire.additionalFrame) { ctx.note("\(command.map { ISO7816Instruction.name($0.apdu.ins, cla: $0.apdu.cla) } ?? "the command") refused: \(sw.meaning)") }
        if let command {
            Type4Frames.response(to: command.apdu, response, &ctx, &s, fields: &fields, placement)
            DESFireFrames.response(to: command.apdu, response, &ctx, &s, fields: &fields)
        }
        EMVFrames.response(to: command?.apdu, response, &s)
        add(fields, placement, "Response APDU", bytes.count, &ctx)
    }

    /// Why answer data (all of it, or as far as it has arrived) cannot be read with certainty: its
    /// command is not in the capture, it is no BER-TLV, or it does not start with the template
    /// the command's answer starts with (its first block is missing); nil when it can.
    static func uncertainty(_ data: [UInt8], command: CommandAPDU?) -> String? {
        guard let command else { return "the command it answers is not in the capture" }
        guard isTLVAnswer(command) else { return nil }
        if !BERTLV.prefixParses(data) { return "its data is no BER-TLV" }
        if !EMV.startsAsAnswer(to: command, data) { return "it does not start as an answer to \(ISO7816Instruction.name(command.ins, cla: command.cla)) does" }
        return nil
    }

    /// Whether answers to `command` are BER-TLV when they parse (every command but a READ BINARY).
    static func isTLVAnswer(_ command: CommandAPDU?) -> Bool {
        !(command.map { [ISO7816Instruction.readBinary, ISO7816Instruction.readBinaryOddINS].contains($0.ins) } ?? false)
    }

    /// Whether card data the answers of this session may hold, when they cannot be parsed with
    /// certainty, is masked failing closed: the card runs a payment application (PPSE, PSE or a
    /// scheme's AID was selected or asked for), or no application was selected by name at all
    /// and it is no Type 4 Tag, DESFire or MIFARE Plus. `--show-secrets` turns it off.
    static func failsClosed(_ s: some ISODEPCarrier, command: CommandAPDU?) -> Bool {
        let app = s.isoDEP.application
        guard !s.isoDEP.revealCardData, !s.isoDEP.mifarePlus, command?.cla != DESFire.wrappedClass else { return false }
        if app.paymentNamed { return true }
        if let selected = app.selectedApplication { return EMV.isPaymentApplication(selected) }
        return !app.type4 && app.desfireFiles.isEmpty && !s.announcesDESFire
    }

    /// Masking that fails closed on `data` (an answer's data): the runs that could be card data
    /// (`EMV.possibleCardData`) are hidden where this frame carries them; the frame says so.
    /// Returns the hidden ranges in `data`'s offsets.
    static func failClosed(_ data: [UInt8], why: String, cutAtStart: Bool, _ placement: Placement, _ ctx: inout FrameContext) -> [Range<Int>] {
        let hidden = EMV.possibleCardData(in: data, cutAtStart: cutAtStart)
        guard !hidden.isEmpty else { return [] }
        for r in hidden {
            if let placed = placement.inThisFrame(r) { ctx.masked.append(placed) }
        }
        ctx.note("card data could not be read with certainty (\(why)): every run that could be a card number or cardholder data is masked")
        return hidden
    }

    /// Answer data: a BER-TLV tree when it parses whole as one (FCI, records, GET DATA), the
    /// bytes otherwise.
    /// How the session's answers name their tags: by ISO/IEC 7816-4 secure messaging in a Seos
    /// application (its `8E` is a MAC), by EMV's data elements otherwise.
    static func tagContext(_ s: some ISODEPCarrier) -> BERTLVTags.Context {
        s.isoDEP.application.selectedApplication.flatMap(Seos.application) != nil ? .secureMessaging : .payment
    }

    static func dataFields(_ data: [UInt8], command: CommandAPDU?, _ placement: Placement, reveal: Bool, context: BERTLVTags.Context = .payment,
                           masked: inout [Range<Int>]) -> [Field] {
        let binary = command.map { [ISO7816Instruction.readBinary, ISO7816Instruction.readBinaryOddINS].contains($0.ins) } ?? false
        if !binary {
            let (objects, error) = BERTLV.parse(data)
            if error == nil, !objects.isEmpty, objects.allSatisfy({ $0.error == nil }) {
                return tlvFields(objects, parent: nil, placement, reveal: reveal, context: context, masked: &masked)
            }
        }
        return [Field(.apdu.bytes, Hex.string(data), range: placement.place(data.indices))]
    }

    static func tlvFields(_ objects: [BERTLV], parent: UInt32?, _ placement: Placement, reveal: Bool, context: BERTLVTags.Context,
                          masked: inout [Range<Int>]) -> [Field] {
        var out: [Field] = []
        for o in objects {
            let name = BERTLVTags.name(o.tag, parent: parent, context: context)
            let label = FieldName(o.tagHex + (name.map { " " + $0 } ?? ""))
            let value: String
            if let children = o.children {
                value = "\(children.count) object\(children.count == 1 ? "" : "s")"
            } else if reveal, BERTLVTags.secret.contains(o.tag) {
                value = Hex.string(o.value) + " (shown: --show-secrets)"
            } else if BERTLVTags.secret.contains(o.tag) {
                value = EMV.cardNumberTags.contains(o.tag) ? EMV.maskedDigits(o.value) + " (card number masked)" : "\(o.value.count) bytes (masked: cardholder data)"
                for hidden in EMV.hiddenBytes(tag: o.tag, value: o.value) {
                    if let r = placement.place(hidden.lowerBound + o.valueRange.lowerBound..<hidden.upperBound + o.valueRange.lowerBound) { masked.append(r) }
                }
            } else if context == .payment, let meaning = EMV.describe(tag: o.tag, value: o.value) {
                value = Hex.string(o.value) + ": " + meaning
            } else if o.value.count >= 3, o.value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                value = Hex.string(o.value) + " (\"\(String(decoding: o.value, as: UTF8.self))\")"
            } else {
                value = Hex.string(o.value)
            }
            let children = o.children.map { tlvFields($0, parent: o.tag, placement, reveal: reveal, context: context, masked: &masked) } ?? []
            out.append(Field(.apdu.tlv, label: label, value, range: placement.place(o.tagRange.lowerBound..<o.valueRange.upperBound), children: children))
        }
        return out
    }

    /// Card data in one block of a chained answer. Each block is dissected (and printed) when it
    /// arrives, before the answer is whole, so it hides what it carries of the secret values that
    /// the answer's data so far announces (`data`, of which this block is `block`): a value that is
    /// whole as `EMV.hiddenBytes` says, one still arriving whole. A READ BINARY answer or a native
    /// DESFire one is file data, not BER-TLV.
    ///
    /// When the answer so far cannot be read with certainty (`gap`: a part is missing; its command
    /// is not in the capture; it is no BER-TLV as far as it goes) in a session whose answers fail
    /// closed, every run in the block that could be card data is hidden instead; `final` says
    /// whether this block ends the answer (a run at the end of another may go on in the next).
    static func maskChainedAnswer(_ data: [UInt8], block: Range<Int>, at infStart: Int, final: Bool, gap: String?, _ ctx: inout FrameContext, _ s: some ISODEPCarrier) {
        guard !s.isoDEP.revealCardData, s.isoDEP.nativeDESFire == nil, isTLVAnswer(s.isoDEP.command?.apdu) || failsClosed(s, command: s.isoDEP.command?.apdu) else { return }
        let command = s.isoDEP.command?.apdu
        if let why = gap ?? uncertainty(data, command: command), failsClosed(s, command: command) {
            let hidden = EMV.possibleCardData(in: data, cutAtStart: gap != nil || command == nil, cutAtEnd: !final)
            let before = ctx.masked.count
            for h in hidden {
                let inBlock = h.clamped(to: block)
                if !inBlock.isEmpty { ctx.masked.append(inBlock.lowerBound - block.lowerBound + infStart..<inBlock.upperBound - block.lowerBound + infStart) }
            }
            if ctx.masked.count > before {
                ctx.note("card data could not be read with certainty (\(why)): every run that could be a card number or cardholder data is masked")
            }
            return
        }
        guard isTLVAnswer(command) else { return }
        for (tag, range) in BERTLV.values(of: BERTLVTags.secret, inPrefix: data) {
            let hidden = range.upperBound <= data.count ? EMV.hiddenBytes(tag: tag, value: Array(data[range])).map { $0.lowerBound + range.lowerBound..<$0.upperBound + range.lowerBound } : [range]
            for h in hidden {
                let inBlock = h.clamped(to: block)
                if !inBlock.isEmpty { ctx.masked.append(inBlock.lowerBound - block.lowerBound + infStart..<inBlock.upperBound - block.lowerBound + infStart) }
            }
        }
    }

    /// In place the fields go in as they are; reassembled, under one field without a frame range.
    static func add(_ fields: [Field], _ placement: Placement, _ what: String, _ count: Int, _ ctx: inout FrameContext) {
        switch placement {
        case .inPlace:
            ctx.sink.add(contentsOf: fields)
        case .reassembled(let frames, let parts, _, _):
            ctx.sink.add(Field(.apdu.reassembled, label: FieldName("\(what) (reassembled from \(parts) blocks, frames \(frames.lowerBound)–\(frames.upperBound))"),
                               "\(count) bytes", children: fields))
        }
    }
}
