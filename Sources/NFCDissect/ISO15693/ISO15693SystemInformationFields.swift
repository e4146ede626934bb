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
        var at = ISO15693Response.Layout.uid.end
        if let v = info.dsfid {
            ctx.sink.add(Field(.iso15693.dsfid, Hex.byte(v), range: at..<at + 1))
            parts.append("DSFID \(Hex.byte(v))")
            at += 1
        }
        if let v = info.afi {
            ctx.sink.add(Field(.iso15693.afi, "\(Hex.byte(v))" + (v == 0 ? " (all families)" : ""), range: at..<at + 1))
            parts.append("AFI \(Hex.byte(v))")
            at += 1
        }
        if let m = info.memorySize {
            let countBytes = m.wideCount ? 2 : 1
            let count = m.blockCount - 1
            ctx.sink.add(Field(.iso15693.memorySize, "\(m.blockCount) blocks × \(m.blockSize) bytes = \(m.byteCount) bytes",
                               range: at..<at + countBytes + 1, children: [
                Field(.iso15693.memorySizeBlocks, "\(m.blockCount) (sent as 0x\(Hex.value(count, digits: 2 * countBytes)) = count − 1)",
                      range: at..<at + countBytes),
                Field(.iso15693.memorySizeBlockSize, "\(m.blockSize) bytes (b5–b1 sent as \(Hex.byte(UInt8(m.blockSize - 1))) = size − 1)",
                      range: at + countBytes..<at + countBytes + 1),
            ]))
            if m.rfuBits != 0 { ctx.note("block-size byte sets RFU bits b8–b6 (\(Hex.byte(m.rfuBits)))", range: at + countBytes..<at + countBytes + 1) }
            parts.append("\(m.blockCount) blocks × \(m.blockSize) bytes")
            at += countBytes + 1
        }
        if let v = info.icReference {
            ctx.sink.add(Field(.iso15693.icReference, Hex.byte(v), range: at..<at + 1))
            parts.append("IC reference \(Hex.byte(v))")
            at += 1
        }
        if let list = info.commandList {
            ctx.sink.add(Field(.iso15693.commandList, Hex.string(list), range: at..<at + 4))
            at += 4
        }
        if let csi = info.csiInformation {
            ctx.sink.add(Field(.iso15693.csi, Hex.string(csi), range: at..<at + csi.count))
            at += csi.count
        }
        if !info.trailing.isEmpty {
            ctx.sink.add(Field(.iso15693.trailing, Hex.string(info.trailing), range: at..<at + info.trailing.count))
            ctx.warn("\(info.trailing.count) byte\(info.trailing.count == 1 ? "" : "s") after the fields the information flags announce", range: at..<at + info.trailing.count)
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
