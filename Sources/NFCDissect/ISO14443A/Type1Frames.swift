import NFCCore

/// NFC Forum Type 1 tags (Innovision/Broadcom Topaz) in ISO 14443-A frames: the registration
/// in `ISO14443AFrameProtocols.table`. A Type 1 tag answers REQA/WUPA with an ATQA whose
/// anticollision bits are all zero and proprietary coding 1100 (`ATQA.isType1Tag`; nfcpy's
/// udp `sense_tta` tests the same bits); it has no SELECT, the reader goes on with RID and the memory commands of
/// `Type1Command`, each carrying CRC_B.
enum Type1Frames: ISO14443AFrameProtocol {
    static let layer = "NFC Type 1"
    /// Type 1 memory ends at 16 segments of 128 bytes (RSEG's ADDS has 4 bits).
    static let memoryLimit = 16 * Type1Memory.segmentSize

    /// What a Type 1 session keeps: the header ROM, the UID, the memory the reader read or wrote,
    /// the command waiting for its answer.
    struct Session: SessionSlice {
        var header: Type1HeaderROM?
        /// UID0–3, from RID (the whole UID0–6 is block 0).
        var ridUID: [UInt8]?
        var memory = TagMemoryImage(bytes: [], known: [])
        var pending: Type1Command?
        var writes = 0
    }

    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool {
        !activation && s.sak == nil && (s.atqa?.isType1Tag == true || s.slices[Session.self] != nil)
    }

    // MARK: reader frames

    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        ctx.layer = layer
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        ctx.apply(split, field: .type1.crc)
        let command: Type1Command
        do {
            command = try Type1Command.decode(split.payload)
        } catch {
            ctx.summary = "malformed Type 1 command"
            ctx.diagnostics.append(Diagnostic(.error, "Type 1 command \(error)"))
            s.pending = (ctx.number, .unknown)
            return
        }
        ctx.summary = command.summary
        typealias L = Type1Command.Layout
        ctx.sink.add(Field(.type1.command, .named(command.code.name, code: command.code.rawValue), range: L.code.range))
        switch command {
        case .readIdentification, .readAll:
            break
        case .read(let a, _), .writeErase(let a, _, _), .writeNoErase(let a, _, _):
            ctx.sink.add(Field(.type1.add, .byte(a, suffix: ": " + Type1Command.addressText(a)), range: L.Short.address.range))
        case .readSegment(let segment, _):
            ctx.sink.add(Field(.type1.adds, "segment \(segment)", range: L.Long.address.range))
        case .read8(let b, _), .writeErase8(let b, _, _), .writeNoErase8(let b, _, _):
            ctx.sink.add(Field(.type1.add8, .byte(b, suffix: " (block)"), range: L.Long.address.range))
        }
        switch command {
        case .writeErase(let a, let d, _), .writeNoErase(let a, let d, _):
            ctx.sink.add(Field(.type1.data, .byte(d), range: L.Short.data.range))
            ctx.memory = MemoryAccess(offset: Type1Command.offset(ofAddress: a), count: 1, write: true)
        case .writeErase8(let b, let d, _), .writeNoErase8(let b, let d, _):
            ctx.sink.add(Field(.type1.data, .hex(d), range: L.Long.data.range))
            ctx.memory = MemoryAccess(offset: Int(b) * Type1Memory.blockSize, count: d.count, write: true)
        default:
            break
        }
        let uidLayout = command.code.isEightByte ? L.Long.uid : L.Short.uid
        if command.code == .rid {
            ctx.sink.add(Field(.type1.uid, "\(Hex.string(command.uid)) (ignored by RID)", range: uidLayout.range))
        } else {
            ctx.sink.add(Field(.type1.uid, .hex(command.uid), range: uidLayout.range))
        }
        s.slices.modify(Session.self) { t in
            if command.code != .rid, let known = t.ridUID, known != command.uid {
                ctx.warn("addressed to UID \(Hex.string(command.uid)), the tag answered RID with \(Hex.string(known)): the tag stays silent",
                         range: uidLayout.range)
            }
            t.pending = command
        }
        s.pending = (ctx.number, .frameProtocol(id))
    }

    // MARK: tag frames

    static func describeResponse(_ ctx: inout FrameContext, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        ctx.layer = layer
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        ctx.apply(split, field: .type1.crc)
        s.slices.modify(Session.self) { t in
            guard let command = t.pending else { return }
            t.pending = nil
            let response: Type1Response
            do {
                response = try Type1Response.decode(split.payload, to: command)
            } catch {
                ctx.summary = "malformed \(command.code.name) answer"
                ctx.diagnostics.append(Diagnostic(.error, "\(command.code.name) answer \(error)"))
                return
            }
            describe(response, to: command, &ctx, &t)
        }
    }

    private static func describe(_ response: Type1Response, to command: Type1Command, _ ctx: inout FrameContext, _ t: inout Session) {
        typealias L = Type1Response.Layout
        switch response {
        case .identification(let header, let uid), .all(let header, let uid):
            t.header = header
            ctx.sink.add(Field(.type1.hr0, .byte(header.hr0, suffix: headerText(header)), range: L.hr0.range))
            ctx.sink.add(Field(.type1.hr1, .byte(header.hr1), range: L.hr1.range))
            if case .identification = response {
                t.ridUID = uid
                ctx.sink.add(Field(.type1.uid, .hex(uid), range: L.ridUID.range))
                ctx.summary = "HR0 \(Hex.byte(header.hr0)) HR1 \(Hex.byte(header.hr1))" + (header.productName.map { " (\($0))" } ?? "")
                    + ", UID0–3 \(Hex.string(uid))"
                return
            }
            ctx.sink.add(Field(.type1.memory, .hex(uid), range: L.rallMemory.range))
            ctx.summary = "HR0 \(Hex.byte(header.hr0)) HR1 \(Hex.byte(header.hr1)), blocks 0–E (\(uid.count) bytes)"
        case .byte(let a, let d):
            ctx.sink.add(Field(.type1.add, .byte(a, suffix: ": " + Type1Command.addressText(a)), range: L.address.range))
            ctx.sink.add(Field(.type1.data, .byte(d), range: L.byteData.range))
            ctx.summary = "\(Type1Command.addressText(a)) = \(Hex.byte(d))"
        case .segment(let a, let d):
            ctx.sink.add(Field(.type1.adds, "segment \(a >> 4)", range: L.address.range))
            ctx.sink.add(Field(.type1.memory, label: "Segment", .hex(d), range: L.segmentData.range))
            ctx.summary = "segment \(a >> 4) (\(d.count) bytes)"
        case .block(let a, let d):
            ctx.sink.add(Field(.type1.add8, .byte(a, suffix: " (block)"), range: L.address.range))
            ctx.sink.add(Field(.type1.data, .hex(d), range: L.blockData.range))
            ctx.summary = "block \(Hex.byte(a)): \(Hex.string(d))"
        }
        if let expected = addressOf(command), let answered = addressOf(response), expected != answered {
            ctx.warn("the answer names address \(Hex.byte(answered)), the command \(Hex.byte(expected))", range: L.address.range)
        }
        switch command {
        case .writeErase(_, let d, _), .writeNoErase(_, let d, _):
            if case .byte(_, let stored) = response, stored != d, command.code == .writeErase {
                ctx.warn("WRITE-E of \(Hex.byte(d)) answered \(Hex.byte(stored)): the byte is locked or the write failed", range: L.byteData.range)
            }
            t.writes += 1
        case .writeErase8(_, let d, _), .writeNoErase8(_, let d, _):
            if case .block(_, let stored) = response, stored != d, command.code == .writeErase8 {
                ctx.warn("WRITE-E8 answered other data than it wrote: the block is locked or the write failed", range: L.blockData.range)
            }
            t.writes += 1
        default:
            break
        }
        if let (offset, bytes) = response.memoryContent {
            t.memory.store(bytes, at: offset, limit: memoryLimit)
            if !command.isWrite { ctx.memory = MemoryAccess(offset: offset, count: bytes.count, write: false) }
        }
    }

    private static func addressOf(_ command: Type1Command) -> UInt8? {
        switch command {
        case .read(let a, _), .writeErase(let a, _, _), .writeNoErase(let a, _, _): return a
        case .readSegment(let s, _): return s << 4
        case .read8(let b, _), .writeErase8(let b, _, _), .writeNoErase8(let b, _, _): return b
        case .readIdentification, .readAll: return nil
        }
    }

    private static func addressOf(_ response: Type1Response) -> UInt8? {
        switch response {
        case .byte(let a, _), .segment(let a, _), .block(let a, _): return a
        case .identification, .all: return nil
        }
    }

    /// `: NFC Forum Type 1, static memory (Topaz 96)`.
    static func headerText(_ header: Type1HeaderROM) -> String {
        var text = header.isNFCForum ? ": NFC Forum Type 1" : ": proprietary memory structure"
        text += header.isStaticOnly ? ", static memory" : ", dynamic memory"
        if let product = header.productName { text += " (\(product))" }
        return text
    }

    // MARK: summary

    static func summarise(_ s: ISO14443ASession, detail: DissectionDetail, into summary: inout ISO14443ASummaryParts) {
        guard let t = s.slices[Session.self] else { return }
        let product = t.header?.productName ?? "Type 1 Tag"
        summary.headline.append(product)
        summary.tag.append(Field(.tag.model, t.header.map { "\(product), HR0 \(Hex.byte($0.hr0)) HR1 \(Hex.byte($0.hr1))" } ?? product))
        let uid = t.memory.knownPrefix(Type1Memory.HeaderLayout.uid.width)
        if let uid {
            summary.headline.append("UID " + Hex.string(uid))
            summary.tag.append(Field(.tag.uid, .hex(uid)))
        } else if let four = t.ridUID {
            summary.headline.append("UID0–3 " + Hex.string(four))
            summary.tag.append(Field(.tag.uid, label: "UID0–UID3", .hex(four)))
        }
        if t.writes > 0 { summary.headline.append("\(t.writes) write\(t.writes == 1 ? "" : "s")") }
        guard t.memory.count > 0 else { return }
        summary.memory.append(memoryField(t.memory))
        let layout = Type1Memory.decode(t.memory)
        summary.diagnostics += layout.issues.map(Diagnostic.init)
        if let cc = layout.capabilityContainer {
            let range = Type1Memory.capabilityContainerRange
            summary.memory.append(Field(.type1.cc, .hex(cc.bytes), range: range, children: [
                Field(.type1.ccMagic, .byte(cc.magic, suffix: cc.isNDEF ? " (NDEF data present)" : " (not NDEF formatted)")),
                Field(.type1.ccVersion, .named(cc.versionText, code: cc.version)),
                Field(.type1.ccSize, .byte(cc.size, suffix: " → \(Type1Memory.memorySize(cc)) bytes")),
                Field(.type1.ccAccess, .byte(cc.access, suffix: cc.access == 0 ? ": read and write granted" : ": restricted")),
            ]))
        }
        if let area = layout.tlvArea {
            summary.memory.append(Field(.type1.dataArea, "bytes \(TagMemoryImage.describe(area.range))", range: area.range,
                                        children: TagTLVDescriber.fields(area, table: FieldSpec.type1.tlv)))
        }
    }

    /// The known blocks, one child per 8-byte block.
    private static func memoryField(_ image: TagMemoryImage) -> Field {
        var blocks: [Field] = []
        let count = (image.count + Type1Memory.blockSize - 1) / Type1Memory.blockSize
        for b in 0..<count {
            let range = b * Type1Memory.blockSize..<min(image.count, (b + 1) * Type1Memory.blockSize)
            guard image.firstUnknown(in: range) == nil else { continue }
            blocks.append(Field(.type1.block, label: FieldName("Block \(Hex.byte(UInt8(truncatingIfNeeded: b)))"),
                                .hex(image.bytes[range]), range: range))
        }
        return Field(.type1.memory, label: "Memory", "\(blocks.count) block\(blocks.count == 1 ? "" : "s") known", children: blocks)
    }
}

extension Type1Command {
    var isWrite: Bool {
        switch code {
        case .writeErase, .writeNoErase, .writeErase8, .writeNoErase8: return true
        default: return false
        }
    }
}
