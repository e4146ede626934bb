/// The three CRCs of contactless NFC, table driven. protocols.md §1.6, §5.1, §6.3.
public enum CRC {
    /// Which CRC a frame carries, and how it is appended.
    public enum Kind: String, Sendable, CaseIterable {
        /// ISO/IEC 14443-3 Annex B CRC_A: reflected 0x8408, initial 0x6363, no final XOR, low byte first.
        case a = "CRC_A"
        /// ISO/IEC 14443-3 CRC_B and ISO/IEC 15693 (ISO/IEC 13239, "X-25"): reflected 0x8408,
        /// initial 0xFFFF, final XOR 0xFFFF, low byte first.
        case b = "CRC_B"
        /// JIS X 6319-4 (FeliCa): CRC-16/CCITT 0x1021 not reflected, initial 0x0000, high byte first.
        case felica = "CRC_F"
        /// HID iClass / PicoPass: reflected 0x8408, initial 0xE012 (0x4807 bit-reversed, as the
        /// Proxmark3 writes it), no final XOR, low byte first.
        case iclass = "CRC_iClass"
    }

    static let reflectedTable: [UInt16] = (0..<256).map { i -> UInt16 in
        var c = UInt16(i)
        for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x8408 : c >> 1 }
        return c
    }

    static let forwardTable: [UInt16] = (0..<256).map { i -> UInt16 in
        var c = UInt16(i) << 8
        for _ in 0..<8 { c = (c & 0x8000) != 0 ? (c << 1) ^ 0x1021 : c << 1 }
        return c
    }

    @inline(__always)
    static func reflected<C: Collection>(_ bytes: C, initial: UInt16) -> UInt16 where C.Element == UInt8 {
        var crc = initial
        reflectedTable.withUnsafeBufferPointer { t in
            for b in bytes { crc = (crc >> 8) ^ t[Int(UInt8(truncatingIfNeeded: crc) ^ b)] }
        }
        return crc
    }

    /// The MIFARE Application Directory's CRC-8 (NXP AN10787): polynomial x⁸+x⁴+x³+x²+1 (0x1D),
    /// preset 0xC7 (AN10787 prints it bit-reversed, E3h), MSB first, no final XOR.
    public static func mad<C: Collection>(_ bytes: C) -> UInt8 where C.Element == UInt8 {
        var crc: UInt8 = 0xC7
        for b in bytes {
            crc ^= b
            for _ in 0..<8 { crc = crc & 0x80 != 0 ? crc << 1 ^ 0x1D : crc << 1 }
        }
        return crc
    }

    /// The 16-bit CRC value of `bytes` (before byte ordering).
    public static func compute<C: Collection>(_ kind: Kind, _ bytes: C) -> UInt16 where C.Element == UInt8 {
        switch kind {
        case .a:
            return reflected(bytes, initial: 0x6363)
        case .b:
            return ~reflected(bytes, initial: 0xFFFF)
        case .iclass:
            return reflected(bytes, initial: 0xE012)
        case .felica:
            var crc: UInt16 = 0
            forwardTable.withUnsafeBufferPointer { t in
                for b in bytes { crc = (crc << 8) ^ t[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ b)] }
            }
            return crc
        }
    }

    /// The two CRC bytes as they are sent after `bytes`.
    public static func bytes<C: Collection>(_ kind: Kind, _ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let (first, second) = transmitted(kind, compute(kind, bytes))
        return [first, second]
    }

    /// A CRC value's two bytes in transmission order: low byte first for CRC_A/CRC_B, high first for CRC_F.
    static func transmitted(_ kind: Kind, _ v: UInt16) -> (UInt8, UInt8) {
        switch kind {
        case .a, .b, .iclass: return (UInt8(v & 0xFF), UInt8(v >> 8))
        case .felica: return (UInt8(v >> 8), UInt8(v & 0xFF))
        }
    }

    /// `bytes` followed by their CRC.
    public static func appending(_ kind: Kind, to bytes: [UInt8]) -> [UInt8] {
        bytes + self.bytes(kind, bytes)
    }

    /// Result of checking the last two bytes of a frame.
    public enum Check: Equatable, Sendable {
        case ok
        /// The frame ends in `found`, its content needs `expected` (both in transmission order).
        case mismatch(expected: [UInt8], found: [UInt8])
        /// Fewer than two bytes: there is no CRC to check.
        case tooShort
    }

    /// The CRC the bytes of `frame[range]` before its last two need, and those two; nil when
    /// the range holds fewer than two bytes. No allocation: every frame with a CRC passes here.
    private static func compare(_ kind: Kind, _ frame: [UInt8], range: Range<Int>?) -> (expected: (UInt8, UInt8), found: (UInt8, UInt8))? {
        let r = range ?? 0..<frame.count
        guard r.count >= 2, r.lowerBound >= 0, r.upperBound <= frame.count else { return nil }
        let body = frame[r.lowerBound..<r.upperBound - 2]
        return (transmitted(kind, compute(kind, body)), (frame[r.upperBound - 2], frame[r.upperBound - 1]))
    }

    /// Checks that the last two bytes of `frame[range]` are the CRC of the bytes before them.
    public static func check(_ kind: Kind, _ frame: [UInt8], range: Range<Int>? = nil) -> Check {
        guard let (expected, found) = compare(kind, frame, range: range) else { return .tooShort }
        // Arrays only for the diagnostic of a mismatch.
        return expected == found ? .ok : .mismatch(expected: [expected.0, expected.1], found: [found.0, found.1])
    }

    /// Whether the last two bytes of `frame[range]` are the CRC of the bytes before them, without
    /// the arrays a mismatch's diagnostic needs (for tests of a frame against several CRCs).
    public static func isValid(_ kind: Kind, _ frame: [UInt8], range: Range<Int>? = nil) -> Bool {
        compare(kind, frame, range: range).map { $0.expected == $0.found } ?? false
    }
}

/// ISO/IEC 14443-3 §6.2.3.1: odd parity over each byte.
public enum Parity {
    @inlinable
    public static func odd(_ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (b.nonzeroBitCount + 1) & 1)
    }

    /// The parity bit of each byte as it goes on air: odd parity, inverted at the positions of
    /// `errors` (`Frame.parityErrors`: a MIFARE Classic session's encrypted parity; the inverse
    /// is `Crypto1.parityErrors(sent:parity:)`).
    public static func bits(_ bytes: [UInt8], errors: [Int]?) -> [UInt8] {
        var out = bytes.map(odd)
        // One pass over the list: asking it for each byte took time in the square of the frame's
        // length (a 64 KiB frame with every byte marked, 1.2 s). A position listed twice is one error.
        for i in errors ?? [] where out.indices.contains(i) { out[i] = odd(bytes[i]) ^ 1 }
        return out
    }

    /// Whether each of `count` bytes has a parity error, from `errors` (`Frame.parityErrors`,
    /// positions outside the frame left out): for loops over the bytes, which would otherwise
    /// search the list once per byte.
    public static func errorFlags(_ errors: [Int]?, count: Int) -> [Bool] {
        var flags = [Bool](repeating: false, count: count)
        for i in errors ?? [] where flags.indices.contains(i) { flags[i] = true }
        return flags
    }

    /// ISO/IEC 14443-A bits on air with their parity (§6.2.3.1): each byte least significant bit
    /// first, then its parity bit, packed least significant bit first — what a PN53x sends with
    /// its parity generation off (libnfc's `NP_HANDLE_PARITY` false). A frame of fewer than 9
    /// bits (a short frame, one byte) goes without parity. Returns the bytes and the bit count.
    public static func wrap(_ bytes: [UInt8], parity: [UInt8], bits: Int) -> (bytes: [UInt8], bits: Int) {
        guard bits >= 9 else { return (Array(bytes.prefix(1)), bits) }
        var out: [UInt8] = []
        var count = 0
        func put(_ bit: UInt8) {
            if count % 8 == 0 { out.append(0) }
            out[out.count - 1] |= (bit & 1) << UInt8(count % 8)
            count += 1
        }
        var left = bits
        for (i, b) in bytes.enumerated() where left > 0 {
            let n = min(8, left)
            for k in 0..<n { put(b >> UInt8(k)) }
            left -= n
            if n == 8 { put(i < parity.count ? parity[i] : odd(b)) }
        }
        return (out, count)
    }

    /// The inverse of `wrap`: the bytes, their parity bits, and the bits of the last byte.
    public static func unwrap(_ stream: [UInt8], bits: Int) -> (bytes: [UInt8], parity: [UInt8], lastByteBits: UInt8) {
        guard bits >= 9 else { return (Array(stream.prefix(1)), [], UInt8(max(1, min(8, bits)))) }
        var bytes: [UInt8] = []
        var parity: [UInt8] = []
        var position = 0
        func bit() -> UInt8 {
            defer { position += 1 }
            return (stream[position / 8] >> UInt8(position % 8)) & 1
        }
        var lastBits: UInt8 = 8
        while position < bits, position / 8 < stream.count {
            let n = min(8, bits - position)
            var b: UInt8 = 0
            for k in 0..<n { b |= bit() << UInt8(k) }
            bytes.append(b)
            lastBits = UInt8(n)
            if n == 8, position < bits { parity.append(bit()) }
        }
        return (bytes, parity, lastBits)
    }
}
