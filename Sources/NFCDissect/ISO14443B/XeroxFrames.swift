import NFCCore

/// Fuji Xerox memory chips on ISO 14443-B's air interface (`XeroxCommand`, `XeroxAnswer`): a
/// session is Xerox from its first wake-up on; its slot markers, ATTRIB and block commands are
/// then read as Xerox's, not as ISO 14443-3's they partly look like (`A5`/`B5` would be
/// Slot-MARKERs, `1D` an ATTRIB with another layout).
enum XeroxFrames {
    static let layer = "Fuji Xerox"

    /// The reader frame as a Xerox command: a wake-up with a right CRC_B anywhere, the rest only in
    /// a session a wake-up started (a slot marker is one bare byte, without CRC).
    static func command(_ frame: Frame, _ split: CRCSplit, _ s: ISO14443BSession) -> XeroxCommand? {
        if s.xerox, frame.bytes.count == 1, let c = try? XeroxCommand.decode(frame.bytes, framed: false) { return c }
        guard case .ok = split.status, let c = try? XeroxCommand.decode(split.payload, framed: true) else { return nil }
        switch c {
        case .wakeUp1, .wakeUp2: return c
        default: return s.xerox ? c : nil
        }
    }

    static func describe(_ command: XeroxCommand, _ ctx: inout FrameContext, _ s: inout ISO14443BSession, split: CRCSplit) {
        typealias L = XeroxCommand.Layout
        ctx.layer = layer
        s.xerox = true
        if case .slotMarker = command {
            ctx.crc = .notExpected
        } else {
            ctx.apply(split, field: .xerox.crc)
        }
        ctx.summary = command.name
        ctx.sink.add(Field(.xerox.command, command.name, range: L.code.range))
        switch command {
        case .wakeUp1(let p), .wakeUp2(let p):
            ctx.sink.add(Field(.xerox.wakeupParameters, Hex.string(p), range: L.wakeUpParameters.range))
        case .slotMarker(let ack, let slot):
            ctx.summary += ack ? ": the chip answered in this slot" : ": no chip in this slot"
            ctx.sink.add(Field(.xerox.slot, "\(slot)", range: L.code.range))
        case .attrib(let uid, let p):
            ctx.summary += " UID \(Hex.string(uid))"
            ctx.sink.add(Field(.xerox.uid, Hex.string(uid), range: L.attribUID.range))
            ctx.sink.add(Field(.xerox.attribParameters, Hex.string(p), range: L.attribParameters.range))
        case .password(let uid, let data):
            ctx.sink.add(Field(.xerox.uid, Hex.string(uid), range: L.uid.range))
            ctx.sink.add(Field(.xerox.password, Hex.string(data), range: L.password.range))
        case .read(let uid, let block, _):
            ctx.sink.add(Field(.xerox.uid, Hex.string(uid), range: L.uid.range))
            ctx.sink.add(Field(.xerox.block, "\(block)", range: L.block.range))
        case .write(let uid, let block, let data):
            ctx.sink.add(Field(.xerox.uid, Hex.string(uid), range: L.uid.range))
            ctx.sink.add(Field(.xerox.block, "\(block)", range: L.block.range))
            ctx.sink.add(Field(.xerox.data, Hex.string(data), range: L.data.range))
            ctx.summary += ": " + Hex.string(data)
            s.xeroxBlocks[block] = data
            ctx.memory = MemoryAccess(offset: Int(block) * data.count, count: data.count, write: true)
        }
        if let uid = command.uid, let known = s.xeroxUID, uid != known {
            ctx.warn("names UID \(Hex.string(uid)), the chip of this session answered \(Hex.string(known))", range: L.uid.range)
        }
    }

    /// A tag frame of a Xerox session: the answer to `command`, or the anticollision result the
    /// chip sends unprompted after the last slot marker.
    static func describeAnswer(to command: XeroxCommand?, _ ctx: inout FrameContext, _ s: inout ISO14443BSession) {
        typealias L = XeroxAnswer.Layout
        ctx.layer = layer
        let split = CRCSplit(ctx.frame, expected: true, kind: .b)
        ctx.apply(split, field: .xerox.crc)
        guard let answer = try? XeroxAnswer.decode(split.payload) else {
            ctx.summary = "Xerox answer, \(split.payload.count) bytes"
            ctx.sink.add(Field(.xerox.data, Hex.string(split.payload), range: split.payload.indices))
            return
        }
        switch answer {
        case .anticollision(let uid, let info):
            s.xeroxUID = uid
            ctx.summary = "Xerox chip UID \(Hex.string(uid))"
            ctx.sink.add(Field(.xerox.uid, Hex.string(uid), range: L.uid.range))
            ctx.sink.add(Field(.xerox.info, Hex.string(info), range: L.info.range))
        case .attribAccepted:
            ctx.summary = "ATTRIB accepted"
        case .accepted:
            ctx.summary = command.map { "\($0.name): accepted" } ?? "accepted"
            ctx.sink.add(Field(.xerox.status, "00: accepted", range: L.status.range))
        case .block(let data):
            ctx.summary = "block data " + Hex.string(data)
            ctx.sink.add(Field(.xerox.data, Hex.string(data), range: L.data.range))
            if case .read(_, let block, _)? = command {
                ctx.summary = "block \(block): " + Hex.string(data)
                s.xeroxBlocks[block] = data
                ctx.memory = MemoryAccess(offset: Int(block) * data.count, count: data.count, write: false)
            }
        }
    }
}
