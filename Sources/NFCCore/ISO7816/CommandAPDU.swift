/// An ISO/IEC 7816-4 command APDU (protocols-wave2.md §3.4): header `CLA INS P1 P2`, then by
/// case nothing (1), Le (2), Lc and data (3), or Lc, data and Le (4); short (one-byte Lc/Le) or
/// extended (`00` then two-byte Lc/Le). Where Lc, data and Le sit follows from the case:
/// `Layout` computes it, decode and encode read it.
public struct CommandAPDU: Sendable, Hashable {
    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    public var data: [UInt8]
    /// The answer length asked for (`00` means 256, `0000` 65536); nil when the APDU has no Le.
    public var le: Int?
    /// Extended Lc/Le (three or two bytes) instead of one.
    public var extended: Bool

    public init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil, extended: Bool = false) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
        self.extended = extended || data.count > 255 || (le ?? 0) > 256
    }

    public enum Case: String, Sendable, Hashable {
        case one = "1", two = "2", three = "3", four = "4"
    }

    public var apduCase: Case {
        switch (data.isEmpty, le == nil) {
        case (true, true): return .one
        case (true, false): return .two
        case (false, true): return .three
        case (false, false): return .four
        }
    }

    /// Where the header, Lc, data and Le sit.
    public struct Layout: Sendable, Hashable {
        public static let cla = FieldLayout(0, 1, "CLA")
        public static let ins = FieldLayout(1, 1, "INS")
        public static let p1 = FieldLayout(2, 1, "P1")
        public static let p2 = FieldLayout(3, 1, "P2")
        public let lc: FieldLayout?
        public let data: FieldLayout?
        public let le: FieldLayout?

        public init(dataCount: Int, hasLe: Bool, extended: Bool) {
            var at = Self.p2.end
            if dataCount > 0 {
                lc = FieldLayout(at, extended ? 3 : 1, extended ? "extended Lc (00 and 2 bytes)" : "Lc")
                at += extended ? 3 : 1
                data = FieldLayout(at, dataCount, "\(dataCount) data bytes (Lc)")
                at += dataCount
            } else {
                lc = nil
                data = nil
            }
            // Extended Le after extended Lc is two bytes; alone it is 00 and two bytes.
            le = hasLe ? FieldLayout(at, extended ? (dataCount > 0 ? 2 : 3) : 1, extended ? "extended Le" : "Le") : nil
        }
    }

    public var layout: Layout { Layout(dataCount: data.count, hasLe: le != nil, extended: extended) }

    /// ISO/IEC 7816-3 §12.1.3: the case follows from the length and the byte after the header.
    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> CommandAPDU {
        var c = ByteCursor(bytes)
        let cla = try c.readUInt8(Layout.cla.expected)
        let ins = try c.readUInt8(Layout.ins.expected)
        let p1 = try c.readUInt8(Layout.p1.expected)
        let p2 = try c.readUInt8(Layout.p2.expected)
        let n = bytes.count
        guard n > 4 else { return CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2) }
        let b5 = Int(bytes[4])
        if n == 5 { return CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, le: b5 == 0 ? 256 : b5) }
        if b5 != 0 {
            // Short Lc: exactly Lc data bytes, then nothing or one Le byte.
            guard n == 5 + b5 || n == 6 + b5 else {
                throw DecodeError(offset: 4, expected: "Lc \(b5) data bytes and at most one Le byte (short APDU)", found: "\(n - 5) bytes after Lc")
            }
            let data = Array(bytes[5..<5 + b5])
            let le = n == 6 + b5 ? (bytes[n - 1] == 0 ? 256 : Int(bytes[n - 1])) : nil
            return CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, data: data, le: le)
        }
        guard n >= 7 else { throw DecodeError(offset: 5, expected: "extended Lc or Le (00 and 2 bytes)", found: "\(n - 5) byte\(n - 5 == 1 ? "" : "s")") }
        let word = Int(bytes[5]) << 8 | Int(bytes[6])
        if n == 7 { return CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, le: word == 0 ? 65536 : word, extended: true) }
        guard word > 0, n == 7 + word || n == 9 + word else {
            throw DecodeError(offset: 4, expected: "extended Lc \(word) data bytes and at most a 2-byte Le", found: "\(n - 7) bytes after Lc")
        }
        let data = Array(bytes[7..<7 + word])
        var le: Int? = nil
        if n == 9 + word {
            let l = Int(bytes[n - 2]) << 8 | Int(bytes[n - 1])
            le = l == 0 ? 65536 : l
        }
        return CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, data: data, le: le, extended: true)
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        w.put(cla, Layout.cla)
        w.put(ins, Layout.ins)
        w.put(p1, Layout.p1)
        w.put(p2, Layout.p2)
        let layout = self.layout
        if let f = layout.lc, let d = layout.data {
            w.put(extended ? [0, UInt8(truncatingIfNeeded: data.count >> 8), UInt8(truncatingIfNeeded: data.count)] : [UInt8(truncatingIfNeeded: data.count)], f)
            w.put(data, d)
        }
        if let f = layout.le, let le {
            let v = le >= (extended ? 65536 : 256) ? 0 : le
            switch f.width {
            case 1: w.put(UInt8(truncatingIfNeeded: v), f)
            case 2: w.put([UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)], f)
            default: w.put([0, UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)], f)
            }
        }
        return w.bytes
    }

    // MARK: CLA

    /// CLA `00`–`0F` and `1x`: the interindustry class of ISO/IEC 7816-4 §5.4.1.
    public var isInterindustry: Bool { cla & 0xE0 == 0x00 }
    /// b5: more commands of a chain follow (interindustry classes).
    public var chainsCommand: Bool { isInterindustry && cla & 0x10 != 0 }
    /// b4b3: secure messaging (interindustry classes).
    public var secureMessaging: UInt8 { isInterindustry ? (cla >> 2) & 0x03 : 0 }
    /// b2b1: logical channel (interindustry classes).
    public var logicalChannel: UInt8 { isInterindustry ? cla & 0x03 : 0 }

    /// `SELECT by DF name A0000000031010`, `READ BINARY offset 0, 15 bytes`.
    public var summary: String {
        var s = ISO7816Instruction.name(ins, cla: cla)
        switch ins {
        case ISO7816Instruction.select:
            s += " " + ISO7816Instruction.selectTarget(p1: p1)
            if !data.isEmpty { s += " " + Hex.string(data, separator: "") }
            if p1 == 0x04, data.count >= 5, data.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { s += " (\"\(String(decoding: data, as: UTF8.self))\")" }
            if p1 == 0x04, let app = KnownApplications.name(data) { s += " (\(app))" }
        case ISO7816Instruction.readBinary, ISO7816Instruction.updateBinary:
            if let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: p1, p2: p2) {
                s += sfi.map { " SFI \($0)" } ?? ""
                s += " offset \(offset)"
            }
            if ins == ISO7816Instruction.readBinary, let le { s += ", \(le) bytes" } else if !data.isEmpty { s += ", \(data.count) bytes" }
        case ISO7816Instruction.readRecord:
            s += " record \(p1)" + (p2 >> 3 != 0 ? " of SFI \(p2 >> 3)" : "")
        default:
            break
        }
        return s
    }
}
