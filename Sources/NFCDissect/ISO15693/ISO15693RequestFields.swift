import NFCCore

/// Describes an ISO 15693 request: flags with their inventory or non-inventory meaning, command,
/// UID, parameters, and what the session knows about them (block beyond the end, locked block,
/// VICC state, a UID other than the inventoried one).
enum ISO15693RequestFields {
    static func describe(_ r: ISO15693Request, _ ctx: inout FrameContext, session s: inout ISO15693Session) {
        let command = r.command
        ctx.summary = r.summary + suffix(r)
        ctx.sink.add(flagsField(r.flags))
        ctx.sink.add(Field(.iso15693.command, commandText(command)))
        switch command {
        case .custom(let code, let mfg, _):
            let known = ISO15693CustomCommand.name(code: code, manufacturer: mfg)
            ctx.sink.add(Field(.iso15693.manufacturer, "\(Hex.byte(mfg)) (\(ISO15693Session.manufacturerText(mfg)))"))
            if let known {
                ctx.note("\(known.name): \(ISO15693Session.manufacturerText(mfg)) custom command (name confidence \(known.confidence.rawValue))")
            } else {
                ctx.note("custom command \(Hex.byte(code)) is not known for \(ISO15693Session.manufacturerText(mfg)); parameters shown raw")
            }
            if let uid = s.uid, mfg != uid.manufacturerCode {
                ctx.warn("custom command for manufacturer \(Hex.byte(mfg)), but the VICC is made by \(ISO15693Session.manufacturerText(uid.manufacturerCode)): it answers with an error or not at all", range: ISO15693Request.Layout.manufacturer.range)
            }
        case .extendedGetSystemInformation(let info):
            ctx.sink.add(Field(.iso15693.infoRequest, Hex.byte(info)))
        case .rfu(let code, _):
            ctx.warn("command code \(Hex.byte(code)) is RFU in ISO/IEC 15693-3", range: ISO15693Request.Layout.command.range)
        case .proprietary:
            ctx.note("proprietary command (E0…FF): its layout is IC manufacturer specific; parameters shown raw")
        default:
            break
        }
        if let uid = r.uid, let range = r.uidRange {
            ctx.sink.add(uidField(uid, range: range))
            checkAddress(uid, &ctx, &s, range: range)
        }
        parameters(r, at: r.parametersOffset, &ctx, &s)
        checkFlags(r, &ctx, &s)
    }

    /// `0x21 Write Single Block`, `0xB2 Get Random Number (NXP custom)`, `0xD0 custom (unknown for NXP Semiconductors)`.
    static func commandText(_ c: ISO15693Command) -> String {
        switch c {
        case .custom(let code, let mfg, _):
            if let known = ISO15693CustomCommand.name(code: code, manufacturer: mfg) { return "\(Hex.byte(code)) \(known.name) (custom)" }
            return "\(Hex.byte(code)) custom (unknown for \(ISO15693Session.manufacturerText(mfg)))"
        case .proprietary(let code, _): return "\(Hex.byte(code)) proprietary"
        case .rfu(let code, _): return "\(Hex.byte(code)) RFU"
        default: return "\(Hex.byte(c.code)) \(c.name)"
        }
    }

    static func suffix(_ r: ISO15693Request) -> String {
        var s = ""
        if r.command.readsBlocks, r.flags.option { s += ", with security status" }
        if r.flags.address { s += " (addressed)" } else if r.flags.select { s += " (selected)" }
        return s
    }

    static func flagsField(_ f: ISO15693RequestFlags) -> Field {
        let r = ISO15693Request.Layout.flags.range
        var bits = [
            Field(.iso15693.flagsSubcarrier, f.twoSubcarriers ? "two (FSK)" : "one (ASK)", range: r),
            Field(.iso15693.flagsDataRate, f.highDataRate ? "high (26.48 kbit/s)" : "low (6.62 kbit/s)", range: r),
            Field(.iso15693.flagsInventory, f.inventory ? "set: b5–b6 are AFI and Nb_slots" : "clear: b5–b6 are select and address", range: r),
            Field(.iso15693.flagsProtocolExtension, f.protocolExtension ? "set" : "clear", range: r),
        ]
        if f.inventory {
            bits.append(Field(.iso15693.flagsAfi, f.afi ? "set: AFI byte present" : "clear: no AFI", range: r))
            bits.append(Field(.iso15693.flagsNbSlots, f.oneSlot ? "1 slot" : "16 slots", range: r))
        } else {
            bits.append(Field(.iso15693.flagsSelect, f.select ? "set: only the VICC in the Selected state answers" : "clear", range: r))
            bits.append(Field(.iso15693.flagsAddress, f.address ? "set: UID follows" : "clear: any VICC answers", range: r))
        }
        bits.append(Field(.iso15693.flagsOption, f.option ? "set" : "clear", range: r))
        bits.append(Field(.iso15693.flagsRfu, f.rfu ? "set" : "clear", range: r))
        return Field(.iso15693.flags, "\(Hex.byte(f.rawValue)): \(flagsText(f))", range: r, children: bits)
    }

    static func flagsText(_ f: ISO15693RequestFlags) -> String {
        var parts = [f.highDataRate ? "high data rate" : "low data rate"]
        if f.twoSubcarriers { parts.append("two sub-carriers") }
        if f.inventory {
            parts.append("inventory")
            parts.append(f.oneSlot ? "1 slot" : "16 slots")
            if f.afi { parts.append("AFI") }
        } else {
            if f.select { parts.append("selected") }
            parts.append(f.address ? "addressed" : "non-addressed")
        }
        if f.protocolExtension { parts.append("protocol extension") }
        if f.option { parts.append("option") }
        return parts.joined(separator: ", ")
    }

    static func uidField(_ uid: ISO15693UID, range: Range<Int>) -> Field {
        // In on-air order: serial (with the ICODE type bits), manufacturer code, E0.
        var children = [Field(.iso15693.uidOnAir, Hex.string(uid.onAir), range: range)]
        if let icode = uid.nxpICODEType {
            children.append(Field(.iso15693.uidIcode, icode, range: ISO15693UID.Layout.icodeType.range(at: range.lowerBound)))
        }
        children.append(Field(.iso15693.uidManufacturer, "\(Hex.byte(uid.manufacturerCode)) (\(ISO15693Session.manufacturerText(uid.manufacturerCode)))",
                              range: ISO15693UID.Layout.manufacturer.range(at: range.lowerBound)))
        var value = "\(uid) (\(ISO15693Session.manufacturerText(uid.manufacturerCode))"
        if let icode = uid.nxpICODEType { value += ", \(icode)" }
        value += ")"
        return Field(.iso15693.uid, value, range: range, children: children)
    }

    /// An addressed request for a VICC other than the session's.
    static func checkAddress(_ uid: ISO15693UID, _ ctx: inout FrameContext, _ s: inout ISO15693Session, range: Range<Int>) {
        guard let known = s.uid else {
            s.uid = uid
            return
        }
        guard uid != known else { return }
        if !s.conversed, s.inventoried.contains(uid) {
            s.uid = uid   // the reader picks one of the VICCs its inventory found
            return
        }
        let source = s.inventoried.contains(known) ? "the inventoried VICC" : "the session's VICC"
        ctx.warn("addressed to \(uid), not to \(source) \(known) (a VICC answers only its own UID)", range: range)
    }

    static func block(_ n: Int, _ s: ISO15693Session) -> String {
        guard let count = s.blockCount, n >= count else { return "\(n)" }
        return "\(n) (beyond the last block \(count - 1))"
    }

    static func parameters(_ r: ISO15693Request, at: Int, _ ctx: inout FrameContext, _ s: inout ISO15693Session) {
        let width = r.blockNumberWidth
        let countWidth = r.command.code >= 0x30 ? 2 : 1
        switch r.command {
        case .inventory(let afi, let length, let mask):
            var i = at
            if let afi {
                ctx.sink.add(Field(.iso15693.afi, Hex.byte(afi), range: i..<i + 1))
                i += 1
            }
            ctx.sink.add(Field(.iso15693.maskLength, "\(length) bits", range: i..<i + 1))
            if !mask.isEmpty {
                ctx.sink.add(Field(.iso15693.mask, "\(Hex.string(mask)) (LSB first)", range: i + 1..<i + 1 + mask.count))
            }
            let limit = r.flags.oneSlot ? 64 : 60
            if Int(length) > limit {
                ctx.warn("mask length \(length) exceeds \(limit) bits (\(r.flags.oneSlot ? "1 slot" : "16 slots")): no VICC answers", range: i..<i + 1)
            }
        case .writeAFI(let v):
            ctx.sink.add(Field(.iso15693.afi, Hex.byte(v), range: at..<at + 1))
            if s.afiLocked { ctx.note("the AFI was locked earlier in this session: expect an error") }
        case .writeDSFID(let v):
            ctx.sink.add(Field(.iso15693.dsfid, Hex.byte(v), range: at..<at + 1))
            if s.dsfidLocked { ctx.note("the DSFID was locked earlier in this session: expect an error") }
        case .security(_, let p), .custom(_, _, let p), .proprietary(_, let p), .rfu(_, let p):
            if !p.isEmpty { ctx.sink.add(Field(.iso15693.parameters, Hex.string(p), range: at..<at + p.count)) }
        default:
            guard let range = r.command.blockRange else { return }
            let label: FieldName = range.count == 1 && !isMultiple(r.command) ? "Block number" : "First block"
            ctx.sink.add(Field(.iso15693.block, label: label, block(range.first, s), range: at..<at + width))
            var i = at + width
            if isMultiple(r.command) {
                ctx.sink.add(Field(.iso15693.blockCount, "\(range.count) (sent as 0x\(Hex.value(range.count - 1, digits: 2 * countWidth)))", range: i..<i + countWidth))
                i += countWidth
            }
            if let written = r.command.writtenBlocks {
                let size = written.blocks.first?.count ?? 0
                ctx.sink.add(Field(.iso15693.data, "\(written.blocks.count) block\(written.blocks.count == 1 ? "" : "s") of \(size) bytes",
                                   range: i..<i + written.blocks.count * size,
                                   children: written.blocks.enumerated().map { k, b in
                                       Field(.iso15693.blockData, label: "Block \(written.first + k)", Hex.string(b), range: i + k * size..<i + (k + 1) * size)
                                   }))
                if let known = s.blockSize, known != size {
                    ctx.warn("\(size)-byte blocks, but Get System Information says blocks have \(known) bytes", range: i..<i + written.blocks.count * size)
                }
                for k in 0..<written.blocks.count where s.memory.isLocked(written.first + k) == true {
                    ctx.note("block \(written.first + k) is locked (security status seen earlier): expect error 0x12")
                }
                if r.flags.option { ctx.note("option flag: the VICC answers only after the reader's EOF") }
            }
            if let count = s.blockCount, range.first + range.count > count {
                ctx.note("blocks past \(count - 1) do not exist (Get System Information: \(count) blocks): expect error 0x10")
            }
        }
    }

    static func isMultiple(_ c: ISO15693Command) -> Bool {
        switch c {
        case .readMultipleBlocks, .writeMultipleBlocks, .getMultipleBlockSecurityStatus, .fastReadMultipleBlocks,
             .extendedReadMultipleBlocks, .extendedWriteMultipleBlocks, .extendedGetMultipleBlockSecurityStatus,
             .fastExtendedReadMultipleBlocks:
            return true
        default:
            return false
        }
    }

    /// Rules of ISO/IEC 15693-3 a reader can break with the flags, and the VICC state they meet.
    static func checkFlags(_ r: ISO15693Request, _ ctx: inout FrameContext, _ s: inout ISO15693Session) {
        let f = r.flags
        if f.rfu { ctx.warn("request flag b8 is RFU and set", range: ISO15693Request.Layout.flags.range) }
        switch r.command {
        case .inventory:
            if !f.inventory { ctx.warn("Inventory without the inventory flag: VICCs take b5–b6 as select/address", range: ISO15693Request.Layout.flags.range) }
            if s.state == .quiet { ctx.note("the VICC is quiet (Stay Quiet, frame \(s.stateFrame ?? 0)): it does not answer inventories") }
            return
        case .custom, .proprietary, .rfu:
            return
        case .stayQuiet, .select:
            if !f.address { ctx.warn("\(r.command.name) must be addressed: without a UID no VICC acts on it", range: ISO15693Request.Layout.flags.range) }
        default:
            if f.inventory { ctx.warn("inventory flag set on \(r.command.name): b5–b6 lose their select/address meaning", range: ISO15693Request.Layout.flags.range) }
        }
        if f.select && f.address { ctx.warn("select and address flags both set; a selected request must not be addressed", range: ISO15693Request.Layout.flags.range) }
        if f.select && s.state != .selected { ctx.note("select flag set, but no Select was acknowledged in this session") }
        if !f.address && !f.select && s.state == .quiet {
            ctx.note("the VICC is quiet (Stay Quiet, frame \(s.stateFrame ?? 0)): it answers addressed requests only")
        }
        if case .stayQuiet = r.command, r.uid == s.uid {
            // A VICC never answers Stay Quiet: its effect is taken for granted.
            s.state = .quiet
            s.stateFrame = ctx.number
            ctx.note("a VICC does not answer Stay Quiet; it stays quiet until Select, Reset to Ready or field off")
        }
    }
}
