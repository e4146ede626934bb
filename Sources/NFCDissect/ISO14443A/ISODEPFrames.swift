import NFCCore

/// ISO/IEC 14443-4 blocks, named by their PCB. Only used once an ATS was seen, never guessed
/// from a first byte (the Wireshark defect that mis-reads PWD_AUTH as an I-block).
enum ISODEPFrames {
    /// Describes a reader block; returns the block for pairing, or nil when the PCB is invalid.
    static func describeRequest(_ ctx: inout FrameContext) -> ISODEPBlock? {
        describe(&ctx, from: "reader")
    }

    static func describeResponse(to request: ISODEPBlock, _ ctx: inout FrameContext, session s: inout ISO14443ASession) {
        guard let block = describe(&ctx, from: "tag") else { return }
        if case .s(.deselect, _) = request, case .s(.deselect, _) = block {
            ctx.summary += ", tag deselected"
            s.halted = true
        }
        if case .s(.wtx, _) = block {
            // The tag asks for more time; the reader answers S(WTX), and the real answer follows.
            s.pending = (ctx.number, .isoDEP(block))
        }
    }

    private static func describe(_ ctx: inout FrameContext, from side: String) -> ISODEPBlock? {
        ctx.layer = "ISO14443-4"
        let split = CRCSplit(ctx.frame, expected: true, kind: .a)
        ctx.apply(split, key: "isodep.crc")
        var c = ByteCursor(split.payload)
        guard let pcb = try? c.readUInt8("PCB"), let block = ISODEPBlock(pcb: pcb) else {
            let first = split.payload.first.map(Hex.byte) ?? "(empty)"
            ctx.summary = "invalid ISO-DEP PCB \(first)"
            ctx.warn("\(first) is no valid I-, R- or S-block PCB (ISO/IEC 14443-4 §7.1.1)")
            return nil
        }
        var summary = block.name
        var pcbBits: [Field] = []
        switch block {
        case .i(let chaining, _, _, let n):
            pcbBits.append(Field("isodep.pcb.type", "Block type", "I-block", range: 0..<1))
            pcbBits.append(Field("isodep.pcb.chaining", "Chaining", chaining ? "more blocks follow" : "last block", range: 0..<1))
            pcbBits.append(Field("isodep.pcb.block_number", "Block number", "\(n)", range: 0..<1))
        case .r(let nak, _, let n):
            pcbBits.append(Field("isodep.pcb.type", "Block type", "R-block", range: 0..<1))
            pcbBits.append(Field("isodep.pcb.ack", "ACK/NAK", nak ? "NAK" : "ACK", range: 0..<1))
            pcbBits.append(Field("isodep.pcb.block_number", "Block number", "\(n)", range: 0..<1))
        case .s(let kind, _):
            pcbBits.append(Field("isodep.pcb.type", "Block type", "S-block \(kind.name)", range: 0..<1))
        }
        ctx.sink.add(Field("isodep.pcb", "PCB", Hex.byte(pcb), range: 0..<1, children: pcbBits))
        if block.cidFollows, let cid = try? c.readUInt8("CID") {
            ctx.sink.add(Field("isodep.cid", "CID", "\(cid & 0x0F) (power level \(cid >> 6))", range: 1..<2))
        }
        if block.nadFollows, let nad = try? c.readUInt8("NAD") {
            ctx.sink.add(Field("isodep.nad", "NAD", Hex.byte(nad), range: c.offset - 1..<c.offset))
        }
        let infStart = c.offset
        let inf = c.readRest()
        switch block {
        case .s(.wtx, _):
            if let wtxm = inf.first {
                summary += " WTXM \(wtxm & 0x3F)"
                ctx.sink.add(Field("isodep.wtxm", "WTXM", "\(wtxm & 0x3F)", range: infStart..<infStart + 1))
            } else {
                ctx.warn("S(WTX) needs its WTXM byte")
            }
        case .i:
            if !inf.isEmpty {
                summary += " INF \(inf.count) byte\(inf.count == 1 ? "" : "s")"
                ctx.sink.add(Field("isodep.inf", "INF", Hex.string(inf), range: infStart..<infStart + inf.count))
            }
        default:
            if !inf.isEmpty {
                ctx.sink.add(Field("isodep.inf", "INF", Hex.string(inf), range: infStart..<infStart + inf.count))
                ctx.note("\(block.name) carries no INF field, found \(inf.count) bytes")
            }
        }
        ctx.summary = summary
        return block
    }
}
