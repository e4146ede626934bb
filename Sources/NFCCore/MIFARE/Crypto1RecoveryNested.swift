/// Keys of nested authentications recovered from a sniff (protocols-wave2.md §2.8; the idea of
/// the Proxmark3's `trace list -t mf` and mf_nonce_brute, written from the cipher's equations).
///
/// In a nested authentication the card sends its nonce encrypted under the new key, {nT} = nT ⊕
/// ks0. A card with the weak 16-bit generator can only send one of its 65,535 outputs, and the
/// capture's parity bits rule most of them out without any key: the parity bit after byte j is
/// encrypted with the same keystream bit as the first bit of byte j + 1, so
/// P_j ⊕ C[8j + 8] = odd(plain_j) ⊕ plain[8j + 8] must hold for the plain nT (bytes 0–2 of {nT}),
/// for aR = suc⁶⁴(nT) (bytes 0–2 of {aR}, and byte 3 against the first bit of {aT}) and for
/// aT = suc⁹⁶(nT) (bytes 0–2 of {aT}): ten checks, about 64 nonces left of 65,535. For each, ks2 =
/// {aR} ⊕ aR and ks3 = {aT} ⊕ aT are 64 known keystream bits: the mfkey64 search finds the state,
/// rolled back through {nR} and uid ⊕ nT to the key, which must then decrypt {nT} to nT.
extension Crypto1Recovery {
    /// A nested authentication as a sniffer saw it; parity bits as they went on the air (one per
    /// byte), nil where the capture has none or they cannot be trusted.
    public struct NestedAuthentication: Sendable, Hashable {
        public var uid: UInt32
        public var encryptedNT: UInt32
        public var ntParity: [UInt8]?
        public var encryptedNR: UInt32
        public var encryptedAR: UInt32
        /// The parity bits of {nR}{aR} (8): a reader that sends plain parity (no real reader does,
        /// but some software readers did) makes them useless, and they are left out then.
        public var answerParity: [UInt8]?
        public var encryptedAT: UInt32
        public var atParity: [UInt8]?

        public init(uid: UInt32, encryptedNT: UInt32, ntParity: [UInt8]?, encryptedNR: UInt32, encryptedAR: UInt32,
                    answerParity: [UInt8]?, encryptedAT: UInt32, atParity: [UInt8]?) {
            self.uid = uid
            self.encryptedNT = encryptedNT
            self.ntParity = ntParity
            self.encryptedNR = encryptedNR
            self.encryptedAR = encryptedAR
            self.answerParity = answerParity
            self.encryptedAT = encryptedAT
            self.atParity = atParity
        }
    }

    /// Every output of the card's generator, in the order it produces them (suc¹ from one to the
    /// next), and each one's place in that order by its low 16 bits, which fix the rest.
    static let generator: (cycle: [UInt32], place: [Int32]) = {
        var cycle: [UInt32] = []
        cycle.reserveCapacity(0xFFFF)
        var place = [Int32](repeating: -1, count: 0x1_0000)
        var n = MIFARENonce.emulated(0)
        for i in 0..<0xFFFF {
            cycle.append(n)
            place[Int(n & 0xFFFF)] = Int32(i)
            n = MIFARENonce.successor(n)
        }
        return (cycle, place)
    }()

    /// Steps of the generator from `a` to `b` (0 …65,534); nil when either is no output of it.
    public static func generatorDistance(from first: UInt32, to second: UInt32) -> Int? {
        guard MIFARENonce.isGeneratorOutput(first), MIFARENonce.isGeneratorOutput(second) else { return nil }
        let pa = generator.place[Int(first & 0xFFFF)], pb = generator.place[Int(second & 0xFFFF)]
        guard pa >= 0, pb >= 0 else { return nil }
        return (Int(pb) - Int(pa) + 0xFFFF) % 0xFFFF
    }

    /// Whether the parity bits of the 4 encrypted bytes `cipher` fit `plain` (bytes 0–2; byte 3's
    /// is checked against the next word's first bit when `next` is given).
    static func parityFits(plain: UInt32, cipher: UInt32, parity: ArraySlice<UInt8>, next: (plain: UInt32, cipher: UInt32)? = nil) -> Bool {
        let p = Array(parity)
        guard p.count >= 4 else { return true }
        let plainBytes = MIFARENonce.bytes(plain)
        for j in 0..<3 {
            let k = UInt32(8 * j + 8)
            if (p[j] ^ UInt8(truncatingIfNeeded: cipher >> k) & 1) != (Parity.odd(plainBytes[j]) ^ UInt8(truncatingIfNeeded: plain >> k) & 1) { return false }
        }
        if let next {
            if (p[3] ^ UInt8(truncatingIfNeeded: next.cipher) & 1) != (Parity.odd(plainBytes[3]) ^ UInt8(truncatingIfNeeded: next.plain) & 1) { return false }
        }
        return true
    }

    /// Whether `nt` could be the plain nonce of `a` as far as {nT}'s parity tells (true when its
    /// parity is unknown): a key that decrypts {nT} to a nonce that fails is the reader's, not
    /// the card's.
    public static func nonceFitsParity(_ nt: UInt32, _ a: NestedAuthentication) -> Bool {
        a.ntParity.map { parityFits(plain: nt, cipher: a.encryptedNT, parity: $0[...]) } ?? true
    }

    /// The generator outputs the parity bits leave for nT, nearest to `near` first (the card's
    /// previous nonce: its generator runs on between them).
    public static func nestedCandidates(_ a: NestedAuthentication, near previous: UInt32? = nil) -> [UInt32] {
        var out: [UInt32] = []
        for nt in generator.cycle {
            if let p = a.ntParity, !parityFits(plain: nt, cipher: a.encryptedNT, parity: p[...]) { continue }
            let ar = MIFARENonce.successor(nt, 64), at = MIFARENonce.successor(ar, 32)
            if let p = a.answerParity, p.count >= 8,
               !parityFits(plain: ar, cipher: a.encryptedAR, parity: p[4..<8], next: (at, a.encryptedAT)) { continue }
            if let p = a.atParity, !parityFits(plain: at, cipher: a.encryptedAT, parity: p[...]) { continue }
            out.append(nt)
        }
        if let previous, MIFARENonce.isGeneratorOutput(previous) {
            out.sort { (generatorDistance(from: previous, to: $0) ?? .max) < (generatorDistance(from: previous, to: $1) ?? .max) }
        }
        return out
    }

    /// The key and plain nonce of a nested authentication from its candidates for nT (the first
    /// `limit`), or nil.
    public static func nestedKey(_ a: NestedAuthentication, candidates: [UInt32], limit: Int) -> (key: [UInt8], nt: UInt32)? {
        for nt in candidates.prefix(limit) {
            let ar = MIFARENonce.successor(nt, 64)
            let ks2 = a.encryptedAR ^ ar, ks3 = a.encryptedAT ^ MIFARENonce.successor(ar, 32)
            for state in states(keystream: bits(ks2) + bits(ks3)) {
                let value = rollBack(state, uid: a.uid, nt: nt, encryptedNR: a.encryptedNR)
                var check = Crypto1(key: Crypto1.key(value))
                if check.wordDecrypting(a.encryptedNT, xor: a.uid) == nt { return (Crypto1.key(value), nt) }
            }
        }
        return nil
    }
}
