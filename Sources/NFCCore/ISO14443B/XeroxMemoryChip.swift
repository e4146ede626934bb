/// Fuji Xerox memory chips (the chips of printer consumables): ISO 14443-B's air interface with a
/// protocol of their own. Two wake-up frames, 32 rounds of slot markers that each tell two bits
/// of the 8-byte UID, an unprompted anticollision answer, then an ATTRIB and READ/WRITE/PASSWORD
/// commands that name the UID. Framed frames carry CRC_B (payloads here exclude it); the slot
/// markers are bare bytes. Source: the Proxmark3's `hf xerox` reader (armsrc/iso14443b.c,
/// client/src/cmdhfxerox.c) and the real traces in its issues #2275 and #3315 (facts only).
public enum XeroxCommand: Sendable, Hashable {
    /// `0D p1 p2`: the first wake-up (PM3 sends `0D 37 21`).
    case wakeUp1(parameters: [UInt8])
    /// `5D p1 p2`: the second, about 9 ms later.
    case wakeUp2(parameters: [UInt8])
    /// `A1 + 2·slot` (NAK) or `B1 + 2·slot` (ACK), slots 0–3, one bare byte.
    case slotMarker(ack: Bool, slot: Int)
    /// `1D UID(8) p(4)`.
    case attrib(uid: [UInt8], parameters: [UInt8])
    /// `02 38 UID(8) data(5)`.
    case password(uid: [UInt8], data: [UInt8])
    /// `02 30 UID(8) block` (blocks under 12) or `02 20 UID(8) block` (extended, 12 and up).
    case read(uid: [UInt8], block: UInt8, extended: Bool)
    /// `02 31 UID(8) block data(4)`.
    case write(uid: [UInt8], block: UInt8, data: [UInt8])

    public enum Code {
        public static let wakeUp1: UInt8 = 0x0D
        public static let wakeUp2: UInt8 = 0x5D
        public static let attrib: UInt8 = 0x1D
        public static let prefix: UInt8 = 0x02
        public static let password: UInt8 = 0x38
        public static let read: UInt8 = 0x30
        public static let extendedRead: UInt8 = 0x20
        public static let write: UInt8 = 0x31
    }

    public enum Layout {
        public static let code = FieldLayout(0, 1, "command code")
        public static let wakeUpParameters = FieldLayout(1, 2, "wake-up parameters")
        public static let attribUID = FieldLayout(1, 8, "UID (8 bytes)")
        public static let attribParameters = FieldLayout(9, 4, "ATTRIB parameters")
        public static let subcode = FieldLayout(1, 1, "command")
        public static let uid = FieldLayout(2, 8, "UID (8 bytes)")
        public static let block = FieldLayout(10, 1, "block")
        public static let password = FieldLayout(10, 5, "password data")
        public static let data = FieldLayout(11, 4, "block data (4 bytes)")
    }

    /// `payload` is the frame without its CRC_B when `framed`, the bare byte of a slot marker when not.
    public static func decode(_ payload: [UInt8], framed: Bool) throws(DecodeError) -> XeroxCommand {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        if !framed {
            guard (0xA1...0xA7).contains(code) || (0xB1...0xB7).contains(code), code & 1 == 1 else {
                throw DecodeError(offset: 0, expected: "a Xerox slot marker (A1, A3, A5, A7, B1, B3, B5, B7)", found: Hex.byte(code))
            }
            try c.expectEnd("a Xerox slot marker (one byte)")
            return .slotMarker(ack: code & 0xF0 == 0xB0, slot: Int((code & 0x0F) >> 1))
        }
        switch code {
        case Code.wakeUp1, Code.wakeUp2:
            let p = try c.readBytes(Layout.wakeUpParameters)
            try c.expectEnd("a Xerox wake-up (\(Hex.byte(code)) and two bytes)")
            return code == Code.wakeUp1 ? .wakeUp1(parameters: p) : .wakeUp2(parameters: p)
        case Code.attrib:
            let uid = try c.readBytes(Layout.attribUID)
            let p = try c.readBytes(Layout.attribParameters)
            try c.expectEnd("a Xerox ATTRIB (1D, UID, 4 bytes)")
            return .attrib(uid: uid, parameters: p)
        case Code.prefix:
            let sub = try c.readUInt8(Layout.subcode)
            let uid = try c.readBytes(Layout.uid)
            switch sub {
            case Code.password:
                let data = try c.readBytes(Layout.password)
                try c.expectEnd("a Xerox PASSWORD")
                return .password(uid: uid, data: data)
            case Code.read, Code.extendedRead:
                let block = try c.readUInt8(Layout.block)
                try c.expectEnd("a Xerox READ")
                return .read(uid: uid, block: block, extended: sub == Code.extendedRead)
            case Code.write:
                let block = try c.readUInt8(Layout.block)
                let data = try c.readBytes(Layout.data)
                try c.expectEnd("a Xerox WRITE")
                return .write(uid: uid, block: block, data: data)
            default:
                throw DecodeError(offset: Layout.subcode.offset, expected: "a Xerox command (38 PASSWORD, 30/20 READ, 31 WRITE)", found: Hex.byte(sub))
            }
        default:
            throw DecodeError(offset: 0, expected: "a Xerox command (0D, 5D, 1D or 02)", found: Hex.byte(code))
        }
    }

    public var name: String {
        switch self {
        case .wakeUp1: return "Xerox WUP1"
        case .wakeUp2: return "Xerox WUP2"
        case .slotMarker(let ack, let slot): return "Xerox slot marker \(ack ? "ACK" : "NAK") slot \(slot)"
        case .attrib: return "Xerox ATTRIB"
        case .password: return "Xerox PASSWORD"
        case .read(_, let block, let extended): return "Xerox READ\(extended ? " (extended)" : "") block \(block)"
        case .write(_, let block, _): return "Xerox WRITE block \(block)"
        }
    }

    public var uid: [UInt8]? {
        switch self {
        case .attrib(let u, _), .password(let u, _), .read(let u, _, _), .write(let u, _, _): return u
        default: return nil
        }
    }
}

/// What a Xerox chip answers: the anticollision result (`50 UID(8) 7 bytes`), the ATTRIB's `00`,
/// `02 00` for a write or password accepted, `02 D(4)` for a block read.
public enum XeroxAnswer: Sendable, Hashable {
    case anticollision(uid: [UInt8], info: [UInt8])
    case attribAccepted
    case accepted
    case block([UInt8])

    public enum Layout {
        public static let code = FieldLayout(0, 1, "answer code")
        public static let uid = FieldLayout(1, 8, "UID (8 bytes)")
        public static let info = FieldLayout(9, 7, "chip information")
        public static let status = FieldLayout(1, 1, "status")
        public static let data = FieldLayout(1, 4, "block data (4 bytes)")
    }

    public static let anticollisionCode: UInt8 = 0x50

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> XeroxAnswer {
        var c = ByteCursor(payload)
        let code = try c.readUInt8(Layout.code)
        switch (code, payload.count) {
        case (anticollisionCode, 16):
            let uid = try c.readBytes(Layout.uid)
            return .anticollision(uid: uid, info: try c.readBytes(Layout.info))
        case (0x00, 1):
            return .attribAccepted
        case (XeroxCommand.Code.prefix, 2) where payload[1] == 0x00:
            return .accepted
        case (XeroxCommand.Code.prefix, 5):
            return .block(try c.readBytes(Layout.data))
        default:
            throw DecodeError(offset: 0, expected: "a Xerox answer (50 + 15 bytes, 00, 02 00 or 02 + 4 bytes)", found: "\(payload.count) bytes starting \(Hex.byte(code))")
        }
    }
}
