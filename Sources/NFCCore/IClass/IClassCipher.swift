/// iClass (PicoPass) authentication as "Dismantling iClass and iClass Elite" (Garcia, de Koning
/// Gans, Verdult, Meriac, ESORICS 2012) describes it: a card key is diversified from a master key
/// and the card's CSN (`k = hash0(DES(CSN, K))`, standard diversification), and CHECK carries the
/// reader's MAC over the e-purse and the reader nonce NR, made by the iClass cipher under `k`; the
/// card answers with the cipher's next 32 output bits. Enough to tell which well-known key a
/// sniffed CHECK was made with, as the Proxmark3's `trace list` does (written from the paper's
/// definitions; checked against its test vectors and the Proxmark3's `hf iclass lookup` example).
public enum IClassCipher {
    /// The card key of `csn` under `masterKey` (standard, not Elite, diversification).
    public static func diversifiedKey(csn: [UInt8], masterKey: [UInt8]) -> [UInt8] {
        hash0(DES(key: masterKey).encrypt(csn))
    }

    /// The reader's MAC in CHECK: the first 32 output bits after the e-purse and NR.
    public static func readerMAC(key: [UInt8], epurse: [UInt8], nr: [UInt8]) -> [UInt8] {
        Array(output(key: key, input: epurse + nr, count: 4))
    }

    /// The card's MAC that answers CHECK: the next 32 output bits.
    public static func cardMAC(key: [UInt8], epurse: [UInt8], nr: [UInt8]) -> [UInt8] {
        Array(output(key: key, input: epurse + nr, count: 8).suffix(4))
    }

    /// The paper's `hash0` (definition 6): the 8 bytes of the DES output become a key whose bytes
    /// are distinct in a way the cipher needs.
    static func hash0(_ c8: [UInt8]) -> [UInt8] {
        let c = c8.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let x = UInt8(truncatingIfNeeded: c >> 56), y = UInt8(truncatingIfNeeded: c >> 48)
        // Six-bit groups of the low 48 bits, the last group first.
        var z = (0..<8).map { Int((c >> UInt64(42 - 6 * (7 - $0))) & 0x3F) }
        for i in 0..<4 {
            z[i] = z[i] % (63 - i) + i
            z[i + 4] = z[i + 4] % (64 - i) + i
        }
        for half in [0, 4] {
            for i in [3, 2, 1] {
                for j in stride(from: i - 1, through: 0, by: -1) where z[half + i] == z[half + j] { z[half + i] = j }
            }
        }
        var p = piTable[Int(x % 35)]
        if x & 1 == 1 { p = ~p }
        var permuted = [Int](repeating: 0, count: 8)
        var l = 0, r = 4
        for i in 0..<8 {
            if (p >> UInt8(i)) & 1 == 1 {
                permuted[i] = (z[l] + 1) & 0x3F
                l += 1
            } else {
                permuted[i] = z[r]
                r += 1
            }
        }
        return (0..<8).map { i in
            let pi = (p >> UInt8(i)) & 1
            let zi = UInt8(permuted[i])
            if (y >> UInt8(i)) & 1 == 1 {
                return (0x80 | (~(zi << 1) & 0x7E) | pi) &+ 1
            }
            return ((zi << 1) & 0x7E) | (1 - pi)
        }
    }

    /// The paper's π: 35 bytes of four set bits each (in this order, not sorted: 39 before 36).
    static let piTable: [UInt8] = [
        0x0F, 0x17, 0x1B, 0x1D, 0x1E, 0x27, 0x2B, 0x2D, 0x2E, 0x33, 0x35, 0x39, 0x36, 0x3A, 0x3C, 0x47, 0x4B, 0x4D,
        0x4E, 0x53, 0x55, 0x56, 0x59, 0x5A, 0x5C, 0x63, 0x65, 0x66, 0x69, 0x6A, 0x6C, 0x71, 0x72, 0x74, 0x78,
    ]

    /// The cipher (definition 3): state l, r, b of 8 bits and t of 16; each input bit, least
    /// significant first, clocks it once; then `count` bytes of output, bit 2 of r before each
    /// clock with input 0, packed least significant bit first.
    static func output(key k: [UInt8], input: [UInt8], count: Int) -> [UInt8] {
        var l = (k[0] ^ 0x4C) &+ 0xEC, r = (k[0] ^ 0x4C) &+ 0x21, b: UInt8 = 0x4C, t: UInt16 = 0xE012
        func clock(_ y: UInt8) {
            let tt = UInt8((t & 0xC533).nonzeroBitCount & 1)
            let newT = t >> 1 | UInt16(tt ^ (r >> 7 & 1) ^ (r >> 3 & 1)) << 15
            let bb = UInt8((b & 0x71).nonzeroBitCount & 1)
            let newB = b >> 1 | (bb ^ (r & 1)) << 7
            let key = k[select(tt, y, r)]
            let newR = (key ^ newB) &+ l
            l = newR &+ r
            r = newR
            t = newT
            b = newB
        }
        for byte in input {
            for i in 0..<8 { clock(byte >> UInt8(i) & 1) }
        }
        var out: [UInt8] = []
        for _ in 0..<count {
            var v: UInt8 = 0
            for i in 0..<8 {
                v |= (r >> 2 & 1) << UInt8(i)
                clock(0)
            }
            out.append(v)
        }
        return out
    }

    /// Which key byte the next clock takes (the paper's `select`): r's bits from the most
    /// significant down are R0…R7.
    static func select(_ x: UInt8, _ y: UInt8, _ r: UInt8) -> Int {
        func bit(_ n: Int) -> UInt8 { r >> UInt8(7 - n) & 1 }
        let z0 = (bit(0) & bit(2)) ^ (bit(1) & (1 - bit(3))) ^ (bit(2) | bit(4))
        let z1 = (bit(0) | bit(2)) ^ (bit(5) | bit(7)) ^ bit(1) ^ bit(6) ^ x ^ y
        let z2 = (bit(3) & (1 - bit(5))) ^ (bit(4) & bit(6)) ^ bit(7) ^ x
        return Int(z0) << 2 | Int(z1) << 1 | Int(z2)
    }
}

/// iClass master keys that are public: the ones the Proxmark3's `trace list` tries on a CHECK.
public enum IClassKeys {
    public static let wellKnown: [(key: [UInt8], name: String)] = [
        ([0xAE, 0xA6, 0x84, 0xA6, 0xDA, 0xB2, 0x32, 0x78], "the AA1 default key"),
        ([0xFD, 0xCB, 0x5A, 0x52, 0xEA, 0x8F, 0x30, 0x90], "a default PicoPass key"),
        ([0xF0, 0xE1, 0xD2, 0xC3, 0xB4, 0xA5, 0x96, 0x87], "PicoPass's documented Kd"),
        ([0x76, 0x65, 0x54, 0x43, 0x32, 0x21, 0x10, 0x00], "PicoPass's documented Kc"),
    ]

    /// The well-known key, if any, a CHECK's reader MAC was made with.
    public static func identify(csn: [UInt8], epurse: [UInt8], nr: [UInt8], readerMAC: [UInt8]) -> (key: [UInt8], name: String)? {
        wellKnown.first { IClassCipher.readerMAC(key: IClassCipher.diversifiedKey(csn: csn, masterKey: $0.key), epurse: epurse, nr: nr) == readerMAC }
    }
}
