import NFCCore

/// Get System Information answers, field by field in the order their information flags announce
/// them, and what they tell the session (UID, DSFID, AFI, memory size, IC reference).
enum ISO15693SystemInformationFields {
    static func describe(_ info: ISO15693SystemInformation, frame: Int, _ ctx: inout FrameContext,
                         _ s: inout ISO15693Session, trusted: Bool) {
        var parts: [String] = []
        ctx.sink.add(Field(.iso15693.infoFlags,
                           "\(Hex.byte(info.infoFlags)): " + (info.flagNames.isEmpty ? "none" : info.flagNames.joined(separator: ", "))))
        ctx.sink.add(ISO15693RequestFields.uidField(info.uid, range: ISO15693Response.Layout.uid.range))
        // Every range from the codec's layout of the fields these flags announce.
        let f = info.fields
        if let v = info.dsfid, let l = f.dsfid {
            ctx.sink.add(Field(.iso15693.dsfid, Hex.byte(v), range: l.range))
            parts.append("DSFID \(Hex.byte(v))")
        }
        if let v = info.afi, let l = f.afi {
            ctx.sink.add(Field(.iso15693.afi, "\(Hex.byte(v))" + (v == 0 ? " (all families)" : ""), range: l.range))
            parts.append("AFI \(Hex.byte(v))")
        }
        if let m = info.memorySize, let countField = f.blockCount, let sizeField = f.blockSize, let whole = f.memorySize {
            let count = m.blockCount - 1
            ctx.sink.add(Field(.iso15693.memorySize, "\(m.blockCount) blocks × \(m.blockSize) bytes = \(m.byteCount) bytes",
                               range: whole, children: [
                Field(.iso15693.memorySizeBlocks, "\(m.blockCount) (sent as 0x\(Hex.value(count, digits: 2 * countField.width)) = count − 1)",
                      range: countField.range),
                Field(.iso15693.memorySizeBlockSize, "\(m.blockSize) bytes (b5–b1 sent as \(Hex.byte(UInt8(m.blockSize - 1))) = size − 1)",
                      range: sizeField.range),
            ]))
            if m.rfuBits != 0 { ctx.note("block-size byte sets RFU bits b8–b6 (\(Hex.byte(m.rfuBits)))", range: sizeField.range) }
            parts.append("\(m.blockCount) blocks × \(m.blockSize) bytes")
        }
        if let v = info.icReference, let l = f.icReference {
            ctx.sink.add(Field(.iso15693.icReference, Hex.byte(v), range: l.range))
            parts.append("IC reference \(Hex.byte(v))")
        }
        if let list = info.commandList, let l = f.commandList {
            ctx.sink.add(Field(.iso15693.commandList, Hex.string(list), range: l.range))
        }
        var rest = f.rest
        if let csi = info.csiInformation {
            ctx.sink.add(Field(.iso15693.csi, Hex.string(csi), range: rest..<rest + csi.count))
            rest += csi.count
        }
        if !info.trailing.isEmpty {
            let trailing = rest..<rest + info.trailing.count
            ctx.sink.add(Field(.iso15693.trailing, Hex.string(info.trailing), range: trailing))
            ctx.warn("\(info.trailing.count) byte\(info.trailing.count == 1 ? "" : "s") after the fields the information flags announce", range: trailing)
        }
        if info.infoFlags & ISO15693SystemInformation.memorySizeFlag == 0 {
            ctx.note("no memory size: block reads are split by their length")
        }
        ctx.summary = "System information: " + (parts.isEmpty ? "UID only" : parts.joined(separator: ", "))
        guard trusted else { return }
        if let known = s.uid, known != info.uid {
            ctx.warn("system information of \(info.uid), but the session's VICC is \(known)", range: ISO15693Response.Layout.uid.range)
        } else {
            s.uid = info.uid
        }
        s.systemInformation = info
        s.systemInformationFrame = frame
        if let v = info.dsfid { s.dsfid = v }
        if let v = info.afi { s.afi = v }
        if let v = info.icReference { s.icReference = v }
        if let m = info.memorySize {
            if let size = s.blockSize, s.blockSizeInferred, size != m.blockSize {
                ctx.warn("blocks seen earlier had \(size) bytes, Get System Information says \(m.blockSize)")
            }
            s.blockSize = m.blockSize
            s.blockSizeInferred = false
            s.blockCount = m.blockCount
        }
    }
}
