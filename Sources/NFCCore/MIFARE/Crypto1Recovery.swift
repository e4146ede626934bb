/// Recovering a Crypto1 state from keystream, and from it the key (the idea of GARCIA08 §6 and
/// GARCIA09 as protocols-wave2.md §2.8 states it; written here from that description).
///
/// The filter reads only cells at odd offsets, so of consecutive output bits the even-numbered
/// ones depend only on the odd-indexed cells of the cell sequence and the odd-numbered ones
/// only on the even-indexed cells. Each half is searched alone: the 2²⁰ values of the 20 cells
/// the first output of that half reads, kept when they give it, then one cell more per further
/// output, kept when they give it. The feedback is linear, so each half's share of every
/// feedback equation is computed, and the two lists are joined where their shares agree. With
/// 64 bits or more, one half's search and the feedback solved for the other are much faster
/// (`Search64`, Crypto1Recovery64.swift).
public enum Crypto1Recovery {
    /// Bit i of a 20-cell window is the cell the filter reads at offset 9 + 2i.
    @inline(__always)
    static func filter20(_ v: UInt64) -> UInt8 {
        let i = (Crypto1.fa >> UInt32(truncatingIfNeeded: v & 0xF) & 1)
            | (Crypto1.fb >> UInt32(truncatingIfNeeded: v >> 4 & 0xF) & 1) << 1
            | (Crypto1.fb >> UInt32(truncatingIfNeeded: v >> 8 & 0xF) & 1) << 2
            | (Crypto1.fa >> UInt32(truncatingIfNeeded: v >> 12 & 0xF) & 1) << 3
            | (Crypto1.fb >> UInt32(truncatingIfNeeded: v >> 16 & 0xF) & 1) << 4
        return UInt8(truncatingIfNeeded: Crypto1.fc >> i & 1)
    }

    static let tapOffsets = [0, 5, 9, 10, 12, 14, 15, 17, 19, 24, 25, 27, 29, 35, 39, 41, 42, 43]

    /// `filter20` of every 20-cell window, made once (1 MiB): the search looks each window up
    /// instead of evaluating the filter, the cost the time limits are about.
    static let filterTable: [UInt8] = (0..<UInt64(1 << 20)).map(filter20)

    /// Candidates of one half: bit i is cell `first + 2i`; `outputs` are the keystream bits that
    /// half produces, in order (output j reads bits j … j + 19).
    static func half(_ outputs: [UInt8]) -> [UInt64] {
        let table = filterTable
        var list: [UInt64] = []
        list.reserveCapacity(1 << 19 + 1 << 16)
        let first = outputs[0]
        for v in 0..<(1 << 20) where table[v] == first { list.append(UInt64(v)) }
        var next: [UInt64] = []
        next.reserveCapacity(list.capacity)
        for j in 1..<outputs.count {
            let want = outputs[j]
            let top = UInt64(1) << UInt64(19 + j)
            next.removeAll(keepingCapacity: true)
            for k in list.indices {
                let v = list[k]
                let low = Int(truncatingIfNeeded: v >> UInt64(j)) & 0x7FFFF
                if table[low] == want { next.append(v) }
                if table[low | 0x80000] == want { next.append(v | top) }
            }
            swap(&list, &next)
        }
        return list
    }

    /// Each half's share of up to 32 feedback equations x_m ⊕ Σ x_{m−48+τ} = 0, as a bit each,
    /// computed a byte of cells at a time.
    struct Shares {
        /// [chunk][byte value] → the bits that byte of the candidate contributes.
        var tables: [[UInt32]]

        init(equations: [Int], oddCells: Bool, cells: Int) {
            var columns = [UInt32](repeating: 0, count: cells)   // per candidate bit: the equations it is in
            for (k, m) in equations.enumerated() {
                for c in [m] + Crypto1Recovery.tapOffsets.map({ m - 48 + $0 }) where (c & 1 == 1) == oddCells {
                    let i = oddCells ? (c - 9) / 2 : (c - 10) / 2
                    if i < cells { columns[i] ^= 1 << UInt32(k) }
                }
            }
            tables = stride(from: 0, to: cells, by: 8).map { base in
                (0..<256).map { byte in
                    var s: UInt32 = 0
                    for bit in 0..<8 where byte >> bit & 1 == 1 && base + bit < cells { s ^= columns[base + bit] }
                    return s
                }
            }
        }

        func of(_ v: UInt64) -> UInt32 {
            var s: UInt32 = 0
            for (n, t) in tables.enumerated() { s ^= t[Int(truncatingIfNeeded: v >> UInt64(8 * n)) & 0xFF] }
            return s
        }
    }

    /// States at time 0 (the first keystream bit) that produce `keystream` when the cipher is
    /// fed zeros: bit t of the array is the output of clock t. At least 32 bits; 64 leave about
    /// one state, 32 about 2¹⁶.
    public static func states(keystream bits: [UInt8]) -> [UInt64] {
        let n = bits.count & ~1
        guard n >= 32 else { return [] }
        if n >= 64 { return Search64.states(keystream: bits) }
        // The halves are searched with at most 40 bits (20 each): the lists keep about 2¹⁹
        // entries whatever the length, so later bits only cost time there; 30 feedback
        // equations then leave a few hundred pairs, and every pair is checked on all `n` bits.
        let searched = min(n, 40)
        let odd = half(stride(from: 0, to: searched, by: 2).map { bits[$0] & 1 })    // cells 9, 11, …
        let even = half(stride(from: 1, to: searched, by: 2).map { bits[$0] & 1 })   // cells 10, 12, …
        let cells = 20 + searched / 2 - 1
        // Equations whose cells all lie in the lists: m − 48 ≥ 9 and m ≤ the last even cell.
        let equations = Array(57...min(10 + 2 * (cells - 1), 57 + 31))
        let oddShares = Shares(equations: equations, oddCells: true, cells: cells)
        let evenShares = Shares(equations: equations, oddCells: false, cells: cells)
        // The even list bucketed by the low 16 bits of its shares (a counting sort), then each
        // odd candidate meets the few even ones whose shares equal its own.
        let evenSig = even.map(evenShares.of)
        var start = [Int](repeating: 0, count: 1 << 16 + 1)
        for s in evenSig { start[Int(s & 0xFFFF) + 1] += 1 }
        for i in 0..<(1 << 16) { start[i + 1] += start[i] }
        var fill = start
        var order = [Int](repeating: 0, count: even.count)
        for (i, s) in evenSig.enumerated() {
            order[fill[Int(s & 0xFFFF)]] = i
            fill[Int(s & 0xFFFF)] += 1
        }
        var out: [UInt64] = []
        for o in odd {
            let sig = oddShares.of(o)
            let bucket = Int(sig & 0xFFFF)
            for slot in start[bucket]..<start[bucket + 1] where evenSig[order[slot]] == sig {
                let e = even[order[slot]]
                // The window at time 9: cells x_9 … x_56, interleaved from both halves.
                var s: UInt64 = 0
                for k in 0..<48 {
                    let c = 9 + k
                    let bit = c & 1 == 1 ? o >> UInt64((c - 9) / 2) & 1 : e >> UInt64((c - 10) / 2) & 1
                    s |= bit << UInt64(k)
                }
                var cipher = Crypto1(state: s)
                for _ in 0..<9 { cipher.rollback() }
                var check = cipher
                if (0..<n).allSatisfy({ check.clock() == bits[$0] & 1 }) { out.append(cipher.state) }
            }
        }
        return out
    }

    static func bits(_ word: UInt32) -> [UInt8] { (0..<32).map { UInt8(truncatingIfNeeded: word >> UInt32($0)) & 1 } }

    /// The key of one authentication seen whole (the mfkey64 situation): ks2 and ks3 are known
    /// from {aR} and {aT}, the state found from them is rolled back through {nR} and uid ⊕ nT.
    public static func key(uid: UInt32, nt: UInt32, encryptedNR: UInt32, encryptedAR: UInt32, encryptedAT: UInt32) -> [UInt8]? {
        let ks2 = encryptedAR ^ MIFARENonce.successor(nt, 64)
        let ks3 = encryptedAT ^ MIFARENonce.successor(nt, 96)
        for state in states(keystream: bits(ks2) + bits(ks3)) {
            let key = rollBack(state, uid: uid, nt: nt, encryptedNR: encryptedNR)
            if MIFAREClassicAuthentication.open(uid: uid, nonce: .plain(nt), encryptedNR: encryptedNR, encryptedAR: encryptedAR,
                                                key: MIFAREClassicKey(key, source: "")) != nil {
                return Crypto1.key(key)
            }
        }
        return nil
    }

    /// One reader's half of an authentication: nT and what the reader sent back.
    public struct ReaderAnswer: Sendable, Hashable {
        public var nt: UInt32
        public var encryptedNR: UInt32
        public var encryptedAR: UInt32
        public init(nt: UInt32, encryptedNR: UInt32, encryptedAR: UInt32) {
            self.nt = nt
            self.encryptedNR = encryptedNR
            self.encryptedAR = encryptedAR
        }
    }

    /// The key from two authentications of a reader to the same card and sector where the card
    /// never answered (the mfkey32 situation, also with two different nT): the 32 bits of ks2
    /// of the first leave about 2¹⁶ keys, the second picks the one that fits it too. Nil unless
    /// exactly one key fits both: the same authentication twice (or two that say no more than
    /// one) fits thousands, and the first of them is no answer (issue 51, point 7).
    public static func key(uid: UInt32, _ first: ReaderAnswer, _ second: ReaderAnswer) -> [UInt8]? {
        let found = keys(uid: uid, first, second, atMost: 2)
        return found.count == 1 ? found[0] : nil
    }

    /// Every key (up to `atMost`) that fits both authentications, in the order found.
    public static func keys(uid: UInt32, _ first: ReaderAnswer, _ second: ReaderAnswer, atMost: Int = .max) -> [[UInt8]] {
        let ks2 = first.encryptedAR ^ MIFARENonce.successor(first.nt, 64)
        var out: [[UInt8]] = []
        var seen = Set<UInt64>()
        for state in states(keystream: bits(ks2)) where out.count < atMost {
            let key = rollBack(state, uid: uid, nt: first.nt, encryptedNR: first.encryptedNR)
            guard !seen.contains(key) else { continue }
            if MIFAREClassicAuthentication.open(uid: uid, nonce: .plain(second.nt), encryptedNR: second.encryptedNR,
                                                encryptedAR: second.encryptedAR, key: MIFAREClassicKey(key, source: "")) != nil {
                seen.insert(key)
                out.append(Crypto1.key(key))
            }
        }
        return out
    }

    /// From the state at clock 64 back through the reader nonce and uid ⊕ nT to the key, as a
    /// 48-bit value written the usual way.
    static func rollBack(_ state: UInt64, uid: UInt32, nt: UInt32, encryptedNR: UInt32) -> UInt64 {
        var c = Crypto1(state: state)
        for bit in (0..<32).reversed() { c.rollbackDecrypting(UInt8(truncatingIfNeeded: encryptedNR >> UInt32(bit))) }
        for bit in (0..<32).reversed() { c.rollback(UInt8(truncatingIfNeeded: (uid ^ nt) >> UInt32(bit))) }
        return Crypto1.value(ofKey: c.key)
    }
}
