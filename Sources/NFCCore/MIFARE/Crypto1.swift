/// Crypto1, the stream cipher of MIFARE Classic, written from its published description
/// (Garcia et al., "Dismantling MIFARE Classic", ESORICS 2008; protocols-wave2.md §2).
///
/// The 48-bit LFSR is held in a `UInt64` whose bit i is cell x_{k+i} of the window at time k:
/// bit 0 is the oldest cell, the next to leave. A clock computes the output from the window,
/// then shifts in the feedback (18 taps) XORed with the input bit. Data bits go on the air
/// least significant bit of the first byte first, and the cipher takes them in that order.
public struct Crypto1: Sendable, Equatable {
    public private(set) var state: UInt64

    /// Cells x_k … x_{k+47} that feed x_{k+48}: offsets 0, 5, 9, 10, 12, 14, 15, 17, 19, 24,
    /// 25, 27, 29, 35, 39, 41, 42, 43 (the generating polynomial of §2.1).
    static let taps: UInt64 = [0, 5, 9, 10, 12, 14, 15, 17, 19, 24, 25, 27, 29, 35, 39, 41, 42, 43].reduce(0) { $0 | 1 << UInt64($1) }
    static let cells: UInt64 = 1 << 48 - 1

    /// Loads a 6-byte key: cell i is bit i mod 8 of key byte i / 8, key byte 0 being the first
    /// as keys are written (`A0` of `A0A1A2A3A4A5`).
    public init(key: [UInt8]) {
        var s: UInt64 = 0
        for (i, b) in key.prefix(6).enumerated() { s |= UInt64(b) << UInt64(8 * i) }
        state = s
    }

    public init(state: UInt64) { self.state = state & Self.cells }

    /// `FFFFFFFFFFFF` → 0xFFFFFFFFFFFF: a key as the 12 hex digits people write.
    public static func key(_ value: UInt64) -> [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (5 - $0))) } }

    /// The other way: a key's 6 bytes as the 48-bit value people write.
    public static func value(ofKey bytes: [UInt8]) -> UInt64 { bytes.prefix(6).reduce(0) { $0 << 8 | UInt64($1) } }

    // MARK: filter

    /// The two 4-input functions and the 5-input one as truth tables: bit i is the value at
    /// index i = y0 + 2 y1 + 4 y2 + 8 y3 (+ 16 y4), y0 the lowest-offset cell.
    static let fa: UInt32 = 0xB48E
    static let fb: UInt32 = 0x9E98
    static let fc: UInt32 = 0xEC57_E80A

    @inline(__always)
    static func nibble(_ s: UInt64, _ first: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (s >> first & 1) | (s >> (first + 2) & 1) << 1 | (s >> (first + 4) & 1) << 2 | (s >> (first + 6) & 1) << 3)
    }

    /// The output bit of a window: the filter reads only the cells at odd offsets 9 … 47.
    @inline(__always)
    public static func filter(_ s: UInt64) -> UInt8 {
        let i = (fa >> nibble(s, 9) & 1) | (fb >> nibble(s, 17) & 1) << 1 | (fb >> nibble(s, 25) & 1) << 2
            | (fa >> nibble(s, 33) & 1) << 3 | (fb >> nibble(s, 41) & 1) << 4
        return UInt8(truncatingIfNeeded: fc >> i & 1)
    }

    /// The bit the next clock will output (parity bits reuse it without clocking, §2.5).
    public var peek: UInt8 { Self.filter(state) }

    // MARK: clocking

    /// One clock: returns the output bit, then shifts in feedback ⊕ `input`.
    @inline(__always)
    @discardableResult
    public mutating func clock(_ input: UInt8 = 0) -> UInt8 {
        let out = Self.filter(state)
        let feedback = UInt64((state & Self.taps).nonzeroBitCount & 1) ^ UInt64(input & 1)
        state = state >> 1 | feedback << 47
        return out
    }

    /// One clock where the input is the plain bit of `cipherBit` (the output decrypts it before
    /// it goes in): how a card takes {nR}, and how a nested {nT} is fed.
    @inline(__always)
    public mutating func clockDecrypting(_ cipherBit: UInt8, xor extra: UInt8 = 0) -> UInt8 {
        let plain = (cipherBit ^ Self.filter(state)) & 1
        clock(plain ^ extra)
        return plain
    }

    /// Undoes one clock that took `input`: the cell that left is recovered from the feedback
    /// equation (§2.1), so a state found later can be taken back to the key.
    public mutating func rollback(_ input: UInt8 = 0) {
        let newest = state >> 47 & 1
        var s = (state << 1) & Self.cells
        let rest = UInt64((s & Self.taps).nonzeroBitCount & 1)   // taps other than x_k (bit 0 is clear)
        s |= newest ^ rest ^ UInt64(input & 1)
        state = s
    }

    /// Undoes a clock whose input was the plain bit of `cipherBit` (the output of the earlier
    /// window does not read the cell being recovered, so it can be computed first).
    public mutating func rollbackDecrypting(_ cipherBit: UInt8, xor extra: UInt8 = 0) {
        let newest = state >> 47 & 1
        var s = (state << 1) & Self.cells
        let plain = (cipherBit ^ Self.filter(s)) & 1
        let rest = UInt64((s & Self.taps).nonzeroBitCount & 1)
        s |= newest ^ rest ^ UInt64(plain ^ extra)
        state = s
    }

    /// The key a state rolled back to time 0 holds.
    public var key: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: state >> UInt64(8 * $0)) } }

    // MARK: bytes

    /// 8 keystream bits, first bit in the least significant place, each clock fed `input`'s bit.
    public mutating func keystreamByte(input: UInt8 = 0) -> UInt8 {
        var k: UInt8 = 0
        for bit in 0..<8 { k |= clock(input >> UInt8(bit) & 1) << UInt8(bit) }
        return k
    }

    /// 32 clocks, bit j of `input` fed at clock j; returns the 32 keystream bits the same way
    /// (a nonce's bits in transmission order, `MIFARENonce`).
    @discardableResult
    public mutating func word(input: UInt32 = 0) -> UInt32 {
        var k: UInt32 = 0
        for bit in 0..<32 { k |= UInt32(clock(UInt8(truncatingIfNeeded: input >> UInt32(bit)))) << UInt32(bit) }
        return k
    }

    /// 32 clocks whose input is the plain text of `cipher` (XOR `extra`); returns the plain text.
    public mutating func wordDecrypting(_ cipher: UInt32, xor extra: UInt32 = 0) -> UInt32 {
        var plain: UInt32 = 0
        for bit in 0..<32 {
            let p = clockDecrypting(UInt8(truncatingIfNeeded: cipher >> UInt32(bit)), xor: UInt8(truncatingIfNeeded: extra >> UInt32(bit)))
            plain |= UInt32(p) << UInt32(bit)
        }
        return plain
    }

    /// `bytes` XOR keystream, the cipher fed zeros (all traffic after the authentication).
    public mutating func crypt(_ bytes: [UInt8]) -> [UInt8] { bytes.map { $0 ^ keystreamByte() } }

    /// The low `bits` bits of `value` XOR as many keystream bits (4-bit ACK/NAK).
    public mutating func crypt(bits: Int, of value: UInt8) -> UInt8 {
        var k: UInt8 = 0
        for bit in 0..<bits { k |= clock() << UInt8(bit) }
        return (value ^ k) & UInt8(truncatingIfNeeded: (1 << bits) - 1)
    }

    /// Decrypts a frame and says, for each byte, whether its received parity bit is the
    /// encrypted odd parity of the plain byte (parity uses the keystream bit that encrypts the
    /// next bit, §2.5). `parity` may be nil when the capture did not keep the bits.
    public mutating func decrypt(_ bytes: [UInt8], parity: [UInt8]?) -> (plain: [UInt8], parityOK: [Bool]?) {
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var ok: [Bool] = []
        for (i, c) in bytes.enumerated() {
            let p = c ^ keystreamByte()
            plain.append(p)
            if let parity, i < parity.count {
                let expected = Parity.odd(p) ^ peek
                ok.append(parity[i] & 1 == expected)
            }
        }
        return (plain, parity == nil ? nil : ok)
    }

    /// Encrypts a frame; returns the bytes and their parity bits as they go on the air.
    /// `input` is fed byte by byte (zeros after the authentication; uid ⊕ nT for a nested nonce).
    public mutating func encrypt(_ bytes: [UInt8], input: [UInt8]? = nil) -> (bytes: [UInt8], parity: [UInt8]) {
        var out: [UInt8] = [], parity: [UInt8] = []
        for (i, p) in bytes.enumerated() {
            out.append(p ^ keystreamByte(input: input.map { i < $0.count ? $0[i] : 0 } ?? 0))
            parity.append(Parity.odd(p) ^ peek)
        }
        return (out, parity)
    }

    /// The indices of `sent` bytes whose parity bit is not their own odd parity: how a capture
    /// marks the encrypted parity of a frame (`Frame.parityErrors`).
    public static func parityErrors(sent: [UInt8], parity: [UInt8]) -> [Int] {
        sent.indices.filter { $0 < parity.count && Parity.odd(sent[$0]) != parity[$0] }
    }
}

/// The card's 16-bit nonce generator, seen through 32-bit nonces (§2.3). A nonce is held as
/// its 32 bits in transmission order: bit j is bit j mod 8 of byte j / 8 (`82 A4 16 6C` →
/// 0x6C16A482).
public enum MIFARENonce {
    public static func value(_ bytes: [UInt8]) -> UInt32 {
        bytes.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << UInt32(8 * $1.offset) }
    }

    public static func bytes(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) } }

    /// suc(n0 … n31) = (n1 … n31, n16 ⊕ n18 ⊕ n19 ⊕ n21), `count` times.
    public static func successor(_ n: UInt32, _ count: Int = 1) -> UInt32 {
        var n = n
        for _ in 0..<count {
            let bit = (n >> 16 ^ n >> 18 ^ n >> 19 ^ n >> 21) & 1
            n = n >> 1 | bit << 31
        }
        return n
    }

    /// The n-th nonce an emulated card sends after power-on: 32 outputs of the 16-bit generator
    /// from a start that depends on n only, so emulated sessions are reproducible (and the
    /// fuzzer can write sessions an emulated card accepts).
    public static func emulated(_ n: Int) -> UInt32 {
        var start: UInt16 = 0x4A6B
        for _ in 0...n { start = start &* 0x6D &+ 0x3B1 | 1 }
        var bits = UInt32(start)
        for k in 0..<16 {
            let bit = (bits >> UInt32(k) ^ bits >> UInt32(k + 2) ^ bits >> UInt32(k + 3) ^ bits >> UInt32(k + 5)) & 1
            bits |= bit << UInt32(k + 16)
        }
        return bits
    }

    /// Whether the nonce is 32 consecutive outputs of the 16-bit generator:
    /// n_{k+16} = n_k ⊕ n_{k+2} ⊕ n_{k+3} ⊕ n_{k+5} for k = 0 … 15.
    public static func isGeneratorOutput(_ n: UInt32) -> Bool {
        for k in 0..<16 where (n >> (k + 16) ^ n >> k ^ n >> (k + 2) ^ n >> (k + 3) ^ n >> (k + 5)) & 1 != 0 { return false }
        return true
    }
}
