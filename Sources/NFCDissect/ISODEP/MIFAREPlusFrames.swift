import NFCCore

/// MIFARE Plus SL0/SL3 commands inside ISO-DEP (`MIFAREPlus`): named with their block numbers
/// and keys, the answers' statuses named, what is encrypted or MACed labelled as such. A card is
/// read as a Plus when its ATS says so, or when the reader opens with a FIRST/FOLLOWING
/// AUTHENTICATE to a key block and the card is no DESFire by its ATQA/SAK.
enum MIFAREPlusFrames {
    static let layer = "MIFARE Plus"

    static func isPlusCommand(_ inf: [UInt8], _ s: some ISODEPCarrier) -> Bool {
        guard let code = inf.first, MIFAREPlus.name(code) != nil, !s.announcesDESFire else { return false }
        if s.isoDEP.mifarePlus || s.announcesMIFAREPlus { return true }
        // An authentication to a key block: `70 BNr LenCap PCDcap2…` or `76 BNr`.
        let keyBlockHigh: Set<UInt8> = [0x40, 0x80, 0x90, 0xA0, 0xC0]
        switch code {
        case MIFAREPlus.firstAuthenticate, MIFAREPlus.firstAuthenticateAlternate:
            return inf.count >= 4 && keyBlockHigh.contains(inf[2]) && inf.count == 4 + Int(inf[3])
        case MIFAREPlus.followingAuthenticate:
            return inf.count == 3 && keyBlockHigh.contains(inf[2])
        default:
            return false
        }
    }

    static func command(_ inf: [UInt8], _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        ctx.layer = layer
        if !s.isoDEP.mifarePlus, !s.announcesMIFAREPlus { ctx.note("MIFARE Plus inferred: an authentication to a key block, and no ATS said otherwise") }
        s.isoDEP.mifarePlus = true
        s.isoDEP.commandBytes = inf
        s.isoDEP.timeAsked = false
        s.isoDEP.command = nil
        let code = inf[0]
        let data = Array(inf.dropFirst())
        s.isoDEP.nativePlus = (code, data)
        ctx.summary = MIFAREPlus.summary(code: code, data: data)
        typealias L = MIFAREPlus.Layout
        func place(_ r: Range<Int>) -> Range<Int>? { placement.place(r.lowerBound + 1..<r.upperBound + 1) }
        var fields = [Field(.mfp.command, .named(MIFAREPlus.name(code) ?? Hex.byte(code), code: code), range: placement.place(0..<1))]
        var next = 0
        if let block = MIFAREPlus.littleEndian16(data, L.blockNumber), takesBlock(code) {
            fields.append(Field(.mfp.block, MIFAREPlus.blockName(block), range: place(L.blockNumber.range)))
            next = L.blockNumber.end
            let op = MIFAREPlus.BlockOperation(code: code)
            if op?.kind == .read, data.count >= L.count.end {
                fields.append(Field(.mfp.count, "\(data[L.count.offset])", range: place(L.count.range)))
                next = L.count.end
            } else if op?.hasDestination == true, let d = MIFAREPlus.littleEndian16(data, L.destination) {
                fields.append(Field(.mfp.destination, MIFAREPlus.blockName(d), range: place(L.destination.range)))
                next = L.destination.end
            } else if code == MIFAREPlus.firstAuthenticate || code == MIFAREPlus.firstAuthenticateAlternate, data.count >= L.lenCap.end {
                fields.append(Field(.mfp.lencap, "\(data[L.lenCap.offset])", range: place(L.lenCap.range)))
                next = L.lenCap.end
                if data.count > next { fields.append(Field(.mfp.pcdcap2, Hex.string(data[next...]), range: place(next..<data.count))) }
                next = data.count
            }
        }
        if data.count > next {
            let op = MIFAREPlus.BlockOperation(code: code)
            let macAtEnd = op?.macOnCommand == true && data.count - next >= L.macLength
            let end = macAtEnd ? data.count - L.macLength : data.count
            if end > next {
                let what: String
                switch code {
                case MIFAREPlus.authenticateContinue: what = "E(RndA ‖ RndB′), \(end - next) bytes"
                case MIFAREPlus.additionalFrame: what = Hex.string(data[next..<end])
                default: what = op.map { $0.plain ? Hex.string(data[next..<end]) : "\(end - next) bytes encrypted" } ?? Hex.string(data[next..<end])
                }
                fields.append(Field(.mfp.data, what, range: place(next..<end)))
            }
            if macAtEnd { fields.append(Field(.mfp.mac, "8 bytes (not checked: no session key)", range: place(end..<data.count))) }
        }
        APDUFrames.add(fields, placement, "MIFARE Plus command", inf.count, &ctx)
    }

    /// Commands whose data starts with a block number.
    static func takesBlock(_ code: UInt8) -> Bool {
        [MIFAREPlus.firstAuthenticate, MIFAREPlus.firstAuthenticateAlternate, MIFAREPlus.followingAuthenticate, 0x7A, 0xA8].contains(code)
            || MIFAREPlus.BlockOperation(code: code) != nil
    }

    static func response(_ inf: [UInt8], to command: (code: UInt8, data: [UInt8]), _ placement: APDUFrames.Placement, _ ctx: inout FrameContext, _ s: inout some ISODEPCarrier) {
        ctx.layer = layer
        s.isoDEP.recordAnswer(inf)
        let status = inf[0]
        let data = Array(inf.dropFirst())
        func place(_ r: Range<Int>) -> Range<Int>? { placement.place(r.lowerBound + 1..<r.upperBound + 1) }
        var fields = [Field(.mfp.status, .named(MIFAREPlus.statusName(status), code: status), range: placement.place(0..<1))]
        ctx.summary = MIFAREPlus.statusName(status)
        if status != MIFAREPlus.ok, status != MIFAREPlus.additionalFrame {
            ctx.note("\(MIFAREPlus.name(command.code) ?? "the command") refused: \(MIFAREPlus.statusName(status))")
        }
        if !data.isEmpty {
            let op = MIFAREPlus.BlockOperation(code: command.code)
            let mac = op?.macOnAnswer == true && data.count >= MIFAREPlus.Layout.macLength ? MIFAREPlus.Layout.macLength : 0
            let body = data.count - mac
            let what: String
            switch command.code {
            case MIFAREPlus.firstAuthenticate, MIFAREPlus.firstAuthenticateAlternate, MIFAREPlus.followingAuthenticate:
                what = "E(RndB), \(body) bytes"
                ctx.summary = "E(RndB) \(body) bytes, " + ctx.summary
            case MIFAREPlus.authenticateContinue:
                what = body >= 32 ? "E(TI ‖ RndA′ ‖ PDcap2 ‖ PCDcap2), \(body) bytes" : "E(RndA′), \(body) bytes"
                ctx.summary = "authenticated, " + what
            default:
                if let op, op.kind == .read {
                    what = op.plain ? Hex.string(data[..<body]) : "\(body) bytes encrypted"
                    ctx.summary = "\(body / MIFAREPlus.Layout.blockSize) block\(body == MIFAREPlus.Layout.blockSize ? "" : "s") \(op.plain ? "plain" : "encrypted")" + (mac > 0 ? " + MAC" : "") + ", " + ctx.summary
                } else {
                    what = Hex.string(data[..<body])
                    if mac > 0 { ctx.summary = "MAC, " + ctx.summary }
                }
            }
            if body > 0 { fields.append(Field(.mfp.responseData, what, range: place(0..<body))) }
            if mac > 0 { fields.append(Field(.mfp.mac, "8 bytes (not checked: no session key)", range: place(body..<data.count))) }
        }
        APDUFrames.add(fields, placement, "MIFARE Plus answer", inf.count, &ctx)
    }
}
