import NFCCore

/// Describes a VICC's answer in the context of its request, and applies what it proves to the
/// session: acknowledged writes and reads rebuild the memory, Get System Information gives the
/// block size, Select and Reset to Ready move the VICC state.
enum ISO15693ResponseFields {
    static func describe(request r: ISO15693Request, requestFrame: Int, split: CRCSplit, _ ctx: inout FrameContext,
                         session s: inout ISO15693Session) {
        ctx.apply(split, field: .iso15693.crc)
        let trusted: Bool
        switch split.status {
        case .ok, .stripped:
            trusted = true
        case .mismatch:
            trusted = false
            ctx.note("the reader discards an answer whose CRC is wrong; it is not applied to the rebuilt memory")
        case .unknown, .notExpected:
            trusted = false
            ctx.warn("\(ctx.frame.bytes.count) byte\(ctx.frame.bytes.count == 1 ? "" : "s"): too short to carry the 2-byte CRC_B; not applied to the rebuilt memory")
        }
        let command = r.command
        let size = command.readsBlocks ? s.blockSize : nil
        var response: ISO15693Response
        do {
            response = try ISO15693Response.decode(split.payload, answering: r, blockSize: size)
        } catch {
            guard size != nil, let inferred = try? ISO15693Response.decode(split.payload, answering: r) else {
                ctx.summary = "malformed answer to \(command.name)"
                ctx.diagnostics.append(Diagnostic(.error, "answer to \(command.name) \(error)",
                                                  range: error.offset..<max(error.offset + 1, split.payload.count)))
                ctx.sink.add(Field(.iso15693.data, Hex.string(split.payload), range: split.payload.indices))
                return
            }
            ctx.warn("the answer does not fit the block size from Get System Information (\(error)); read with the size its length gives")
            response = inferred
        }
        ctx.sink.add(flagsField(response.flags))
        if response.flags.rfuBits != 0 { ctx.note("response flags set RFU bits \(Hex.byte(response.flags.rfuBits))") }

        switch response.body {
        case .error(let code):
            ctx.summary = "Error \(Hex.byte(code.rawValue)): \(code.meaning)"
            ctx.sink.add(Field(.iso15693.error, "\(Hex.byte(code.rawValue)) (\(code.meaning))"))
            ctx.warn("\(target(r)) refused (error \(Hex.byte(code.rawValue)))", range: ISO15693Response.Layout.errorCode.range)
        case .done:
            ctx.summary = trusted ? applyDone(r, requestFrame: requestFrame, &ctx, &s) : "OK"
            if case .stayQuiet = command { ctx.warn("a VICC must not answer Stay Quiet") }
        case .inventory(let dsfid, let uid):
            ctx.summary = "UID \(uid) (\(ISO15693Session.manufacturerText(uid.manufacturerCode))\(uid.nxpICODEType.map { ", \($0)" } ?? "")), DSFID \(Hex.byte(dsfid))"
            ctx.sink.add(Field(.iso15693.dsfid, Hex.byte(dsfid), range: ISO15693Response.Layout.dsfid.range))
            ctx.sink.add(ISO15693RequestFields.uidField(uid, range: ISO15693Response.Layout.uid.range))
            if !uid.hasE0Prefix { ctx.warn("UID starts with \(Hex.byte(uid.prefix)), not E0 (ISO/IEC 15693-3 §4.1)", range: ISO15693UID.Layout.prefix.range(at: ISO15693Response.Layout.uid.offset)) }
            guard trusted else { return }
            s.noteInventoried(uid)
            if s.uid == nil || !s.conversed && s.inventoried.count == 1 { s.uid = uid }
            if s.uid == uid { s.dsfid = dsfid }
            if s.state == .quiet, s.uid == uid { ctx.warn("the VICC answered an inventory although it was put to Stay Quiet") }
        case .blocks(let first, let blocks):
            describeBlocks(first: first, blocks, r, &ctx, &s, trusted: trusted)
        case .systemInformation(let info):
            ISO15693SystemInformationFields.describe(info, frame: ctx.number, &ctx, &s, trusted: trusted)
        case .securityStatus(let first, let status):
            let locked = status.enumerated().filter { $0.element & 0x01 != 0 }.map { String(first + $0.offset) }
            ctx.summary = "Security status of block\(status.count == 1 ? " \(first)" : "s \(first)–\(first + status.count - 1)"): "
                + (locked.isEmpty ? "none locked" : "locked \(locked.joined(separator: ", "))")
            ctx.sink.add(Field(.iso15693.securityStatus, Hex.string(status), range: ISO15693Response.Layout.data(status.count),
                               children: status.enumerated().map { k, v in
                                   Field(.iso15693.blockStatus, label: "Block \(first + k)", "\(Hex.byte(v)) (\(v & 1 != 0 ? "locked" : "not locked"))", range: ISO15693Response.Layout.dataByte(k))
                               }))
            if trusted { for (k, v) in status.enumerated() { s.memory.setLocked(block: first + k, v & 1 != 0, frame: ctx.number) } }
        case .data(let data):
            ctx.summary = data.isEmpty ? "answer to \(command.name): flags only" : "answer to \(command.name): \(data.count) byte\(data.count == 1 ? "" : "s")"
            if !data.isEmpty { ctx.sink.add(Field(.iso15693.data, Hex.string(data), range: ISO15693Response.Layout.data(data.count))) }
            if case .stayQuiet = command { ctx.warn("a VICC must not answer Stay Quiet") }
            // NXP READ SIGNATURE (protocols.md §6.4): the 32-byte originality signature, kept for emulation.
            if trusted, case .custom(0xBD, 0x04, _) = command, data.count == 32 { s.signature = data }
        }
    }

    /// `Write Single Block 2`, `Read Multiple Blocks 0–4`, `Get Random Number`.
    static func target(_ r: ISO15693Request) -> String {
        guard let range = r.command.blockRange else {
            if case .custom = r.command { return r.summary }
            return r.command.name
        }
        return range.count == 1 ? "\(r.command.name) \(range.first)" : "\(r.command.name) \(range.first)–\(range.first + range.count - 1)"
    }

    static func flagsField(_ f: ISO15693ResponseFlags) -> Field {
        Field(.iso15693.responseFlags, "\(Hex.byte(f.rawValue)): \(f.error ? "error" : "no error")" + (f.protocolExtension ? ", protocol extension" : ""), children: [
                Field(.iso15693.responseFlagsError, f.error ? "set: an error code follows" : "clear"),
                Field(.iso15693.responseFlagsExtension, f.protocolExtension ? "set" : "clear"),
              ])
    }

    /// What an acknowledged (flags-only) answer does to the session; returns the summary.
    static func applyDone(_ r: ISO15693Request, requestFrame: Int, _ ctx: inout FrameContext, _ s: inout ISO15693Session) -> String {
        if let written = r.command.writtenBlocks {
            for (k, data) in written.blocks.enumerated() {
                s.memory.storeWrite(block: written.first + k, data: Array(data), frame: requestFrame)
            }
            if let size = written.blocks.first?.count {
                ctx.memory = MemoryAccess(offset: written.first * size, count: written.blocks.count * size, write: true)
            }
            if s.blockSize == nil, let size = written.blocks.first?.count {
                s.blockSize = size
                s.blockSizeInferred = true
            }
            let n = written.blocks.count
            return n == 1 ? "OK, block \(written.first) written" : "OK, blocks \(written.first)–\(written.first + n - 1) written"
        }
        switch r.command {
        case .lockBlock(let b), .extendedLockBlock(let b):
            s.memory.setLocked(block: Int(b), true, frame: ctx.number)
            return "OK, block \(b) locked"
        case .select:
            s.state = .selected
            s.stateFrame = requestFrame
            return "OK, VICC selected"
        case .resetToReady:
            s.state = .ready
            s.stateFrame = requestFrame
            return "OK, VICC back to Ready"
        case .writeAFI(let v):
            s.afi = v
            return "OK, AFI \(Hex.byte(v)) written"
        case .writeDSFID(let v):
            s.dsfid = v
            return "OK, DSFID \(Hex.byte(v)) written"
        case .lockAFI:
            s.afiLocked = true
            return "OK, AFI locked"
        case .lockDSFID:
            s.dsfidLocked = true
            return "OK, DSFID locked"
        default:
            return "OK"
        }
    }

    static func describeBlocks(first: Int, _ blocks: [ISO15693Block], _ r: ISO15693Request, _ ctx: inout FrameContext,
                               _ s: inout ISO15693Session, trusted: Bool) {
        let size = blocks.first?.data.count ?? 0
        let last = first + blocks.count - 1
        if blocks.count == 1, let b = blocks.first {
            ctx.summary = "Block \(first): \(Hex.string(b.data))" + (b.isLocked == true ? " (locked)" : "")
        } else {
            ctx.summary = "Blocks \(first)–\(last): \(blocks.count) × \(size) bytes"
            let locked = blocks.enumerated().filter { $0.element.isLocked == true }.map { String(first + $0.offset) }
            if !locked.isEmpty { ctx.summary += ", locked \(locked.joined(separator: ", "))" }
        }
        if ctx.sink.enabled {
            let per = size + (r.flags.option ? 1 : 0)
            let children = blocks.enumerated().map { k, b -> Field in
                let start = ISO15693Response.Layout.data(k * per).upperBound
                var sub: [Field] = []
                if let st = b.securityStatus {
                    sub.append(Field(.iso15693.blockStatus, "\(Hex.byte(st)) (\(st & 1 != 0 ? "locked" : "not locked"))", range: start..<start + 1))
                    sub.append(Field(.iso15693.blockBytes, Hex.string(b.data), range: start + 1..<start + 1 + b.data.count))
                }
                return Field(.iso15693.blockData, label: "Block \(first + k)", Hex.string(b.data), range: start..<start + per, children: sub)
            }
            ctx.sink.add(Field(.iso15693.blocks, "\(blocks.count) × \(size) bytes" + (r.flags.option ? " with security status" : ""),
                               range: ISO15693Response.Layout.data(blocks.count * per), children: children))
        }
        guard trusted else { return }
        if s.blockSize == nil {
            s.blockSize = size
            s.blockSizeInferred = true
        }
        ctx.memory = MemoryAccess(offset: first * size, count: blocks.count * size, write: false)
        for (k, b) in blocks.enumerated() {
            if let wrote = s.memory.storeRead(block: first + k, data: b.data, securityStatus: b.securityStatus, frame: ctx.number) {
                ctx.warn("block \(first + k) reads back \(Hex.string(b.data)), but \(Hex.string(wrote)) was written")
            }
        }
    }
}
