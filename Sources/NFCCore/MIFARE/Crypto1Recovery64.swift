/// State recovery from 64 consecutive keystream bits (the mfkey64 situation), written from the
/// idea of GARCIA08 §6 (protocols-wave2.md §2.8) and the cipher's equations; no code from crapto1.
///
/// The even-numbered outputs b₀, b₂, … b₆₂ read only the odd cells oᵢ = x₉₊₂ᵢ (b₂ᵢ is the filter of
/// oᵢ … oᵢ₊₁₉), so they are searched over those cells alone: about 2¹⁹ sequences o₀ … o₅₀ fit all
/// 32. The even cells eᵢ = x₁₀₊₂ᵢ are never searched: the window at time 9 is o₀ … o₂₃ and
/// e₀ … e₂₃ interleaved, and every later cell is a linear function of it (the feedback), so the
/// 27 cells o₂₄ … o₅₀ of a sequence are 27 linear equations in the 24 unknown e₀ … e₂₃. Their
/// reduced form, made once, turns a sequence into its e with table lookups; the three equations
/// left over reject seven sequences in eight, and the odd-numbered outputs the rest.
///
/// The odd cells are added four at a time. Output b₂ₖ is fc(P, B), where P (four bits) reads
/// oₖ … oₖ₊₁₅ and only B = fb(oₖ₊₁₆ … oₖ₊₁₉) reads the newest cells. So the 19 newest known cells
/// say, for each of the next four outputs, which values of its B give it (`Tables.zeroSets`), and
/// with the three newest cells that decides which of the 16 ways to add four cells fit all four
/// (`Tables.extensions`): two lookups instead of 64 evaluations of the filter. The next four
/// outputs' P read at most the four new cells, so the same can be asked of each way on before it
/// is taken (`Tables.ahead`, `Tables.further`): only sequences that can go on again are carried to
/// the next step, about a sixth of those the four outputs alone would let through.
extension Crypto1Recovery {
    enum Search64 {
        /// A sequence at level j (cells o₀ … o₁₉₊ⱼ known) is a `UInt64` with the newest cell in
        /// bit 0, so that four cells more are `v << 4 | code` and the 19 cells the next four outputs
        /// read are `v & 0x7FFFF`. Code bit 3 is the first cell added, bit 0 the last.
        static let contextMask = 0x7FFFF

        /// 32 outputs, four per step, from level −1 (cells o₀ … o₁₈) to level 31 (o₀ … o₅₀).
        static let steps = 8
        static let oddCells = 51
        static let syndromeBytes = (oddCells + 7) / 8

        /// Made once, never changed or freed.
        final class Tables: @unchecked Sendable {
            /// For 16 consecutive cells of a half, the 16th in bit 0 and the first in bit 15: bit y
            /// (0 or 1) set when fc(P, y) = 0, P being what fa, fb, fb, fa make of the four nibbles.
            let pZero: UnsafeMutablePointer<UInt8>
            /// For the 19 newest cells (bit 0 newest) and t = 1 … 4: bits 2(t−1) and 2(t−1)+1 say
            /// whether B = 0 and B = 1 give a zero for the t-th next output. A one is the complement.
            let zeroSets: UnsafeMutablePointer<UInt8>
            /// For the 15 newest cells: the allowed B values of the four outputs after the next four
            /// (the fifth to eighth), which depend on the cells those four add. Sixteen bits for
            /// each value q of the first two new cells (bits 16q …): the fifth output's two bits for
            /// q's first cell, the sixth's for q, the seventh's for q and each third cell (four
            /// bits), the eighth's for q and each last two (eight bits).
            let ahead: UnsafeMutablePointer<UInt64>
            /// [three newest cells | allowed B values of the four outputs << 3]: bit `code` set when
            /// the four cells of `code` give each B an allowed value.
            let extensions: UnsafeMutablePointer<UInt16>
            /// [second new cell << 16 | sixteen bits of `ahead`] → bit 2·c₃ + c₄ set when four cells
            /// more can give the fifth to eighth outputs' B allowed values, the four new cells
            /// ending in c₃ c₄.
            let further: UnsafeMutablePointer<UInt8>
            /// The set bits of a byte as values in eight slots, and how many there are.
            let bitList: UnsafeMutablePointer<SIMD8<UInt64>>
            let bitCount: UnsafeMutablePointer<UInt8>
            /// [256 · byte n + value of byte n of a sequence o₀ … o₅₀ (bit p = o₅₀₋ₚ)] → its share
            /// of e₀ … e₂₃ (bit p = e₂₃₋ₚ) and, in bits 24–26, of the three equations that must
            /// come out zero.
            let syndrome: UnsafeMutablePointer<UInt32>
            /// `syndrome` of the codes `bitList` lists, for the low byte of a mask (codes 0–7) and,
            /// 256 entries on, for the high byte (codes 8–15).
            let syndromeList: UnsafeMutablePointer<SIMD8<UInt32>>
            /// [check bits of a sequence whose last four cells are zero] → the codes whose own
            /// check bits cancel them.
            let checksCancel: UnsafeMutablePointer<UInt16>

            init() {
                pZero = Self.makePZero()
                zeroSets = Self.makeZeroSets(pZero)
                ahead = Self.makeAhead(pZero)
                extensions = Self.makeExtensions()
                further = Self.makeFurther()
                bitList = .allocate(capacity: 256)
                bitCount = .allocate(capacity: 256)
                for byte in 0..<256 {
                    var slots = SIMD8<UInt64>(), n = 0
                    for bit in 0..<8 where byte >> bit & 1 == 1 {
                        slots[n] = UInt64(bit)
                        n += 1
                    }
                    bitList[byte] = slots
                    bitCount[byte] = UInt8(n)
                }
                syndrome = Self.makeSyndrome()
                syndromeList = .allocate(capacity: 512)
                for half in 0..<2 {
                    for byte in 0..<256 {
                        var slots = SIMD8<UInt32>()
                        for i in 0..<Int(bitCount[byte]) { slots[i] = syndrome[8 * half + Int(bitList[byte][i])] }
                        syndromeList[256 * half + byte] = slots
                    }
                }
                checksCancel = .allocate(capacity: 8)
                for checks in 0..<8 {
                    var codes: UInt16 = 0
                    for code in 0..<16 where syndrome[code] >> 24 == UInt32(checks) { codes |= 1 << UInt16(code) }
                    checksCancel[checks] = codes
                }
            }

            @inline(__always) static func fa(_ nibble: Int) -> Int { Int(Crypto1.fa >> UInt32(nibble) & 1) }
            @inline(__always) static func fb(_ nibble: Int) -> Int { Int(Crypto1.fb >> UInt32(nibble) & 1) }
            /// A nibble whose first cell is in bit 3 (as the tables hold cells) as fa and fb index it.
            @inline(__always) static func reversed(_ r: Int) -> Int { (r & 1) << 3 | (r & 2) << 1 | (r & 4) >> 1 | (r & 8) >> 3 }

            static func makePZero() -> UnsafeMutablePointer<UInt8> {
                // By P: bit y set when fc(P, y) = 0.
                let zeroOf = (0..<16).map { p in
                    UInt8((Crypto1.fc >> UInt32(p) & 1 == 0 ? 1 : 0) | (Crypto1.fc >> UInt32(p | 16) & 1 == 0 ? 2 : 0))
                }
                let faOf = (0..<16).map { fa(reversed($0)) }, fbOf = (0..<16).map { fb(reversed($0)) }
                // The last nibble's 16 values: one row of 16 bytes for each P of the first three.
                let rows = (0..<8).map { abb in SIMD16<UInt8>((0..<16).map { zeroOf[abb | faOf[$0] << 3] }) }
                let t = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
                for first in 0..<(1 << 12) {
                    let abb = faOf[first >> 8] | fbOf[first >> 4 & 15] << 1 | fbOf[first & 15] << 2
                    t.storeBytes(of: rows[abb], toByteOffset: first << 4, as: SIMD16<UInt8>.self)
                }
                return t.bindMemory(to: UInt8.self, capacity: 1 << 16)
            }

            /// Output t reads the 16 cells in bits 4−t … 19−t of the context: two outputs at a
            /// time from 17 cells, then all four from two of those, four contexts per write (the
            /// sets of the first two outputs are the same for them; those of the last two are four
            /// consecutive pairs).
            static func makeZeroSets(_ pZero: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
                let pairs = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 17)
                defer { pairs.deallocate() }
                for y in 0..<(1 << 17) { pairs[y] = pZero[y >> 1] | pZero[y & 0xFFFF] << 2 }
                let sets = UnsafeMutableRawPointer.allocate(byteCount: 1 << 19, alignment: 4)
                let pairs4 = UnsafeRawPointer(pairs)
                for high in 0..<(1 << 17) {
                    let last = pairs4.load(fromByteOffset: (high & 0x7FFF) << 2, as: UInt32.self)
                    sets.storeBytes(of: UInt32(pairs[high]) &* 0x0101_0101 | last << 4, toByteOffset: high << 2, as: UInt32.self)
                }
                return sets.bindMemory(to: UInt8.self, capacity: 1 << 19)
            }

            /// fb of a nibble held newest first, for the 16 values: bit r.
            static let fbNewestFirst: Int = (0..<16).reduce(0) { $0 | fb(reversed($1)) << $1 }

            /// Bit `code` of [t][three known cells][allowed values]: code's cells give the t-th B
            /// (t = 0 … 3) an allowed value. An extension fits when it does so for all four.
            static func makeExtensions() -> UnsafeMutablePointer<UInt16> {
                var fits = [UInt16](repeating: 0, count: 4 * 8 * 4)
                for t in 0..<4 {
                    for known in 0..<8 {
                        for code in 0..<16 {
                            // cells: bits 6…4 the known ones (bit 6 the oldest), bits 3…0 the code.
                            let b = fbNewestFirst >> ((known << 4 | code) >> (3 - t) & 15) & 1
                            for allowed in 0..<4 where allowed >> b & 1 == 1 { fits[(t * 8 + known) * 4 + allowed] |= 1 << UInt16(code) }
                        }
                    }
                }
                let e = UnsafeMutablePointer<UInt16>.allocate(capacity: 1 << 11)
                for index in 0..<(1 << 11) {
                    let known = index & 7
                    e[index] = (0..<4).reduce(0xFFFF) { $0 & fits[($1 * 8 + known) * 4 + index >> (3 + 2 * $1) & 3] }
                }
                return e
            }

            /// The t-th output after the next four (t = 1 … 4) reads its P from cells 4 + t … 19 + t
            /// counted from the oldest of the 19 newest: the 16 − t newest and t new ones.
            static func makeAhead(_ pZero: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt64> {
                // groups[t − 1][x]: the allowed sets of the t-th for each value of its t new cells,
                // two bits each, x the 16 − t newest known cells.
                let groups = (1...4).map { t in
                    let g = UnsafeMutablePointer<UInt32>.allocate(capacity: 1 << (16 - t))
                    for x in 0..<(1 << (16 - t)) {
                        var sets: UInt32 = 0
                        for new in 0..<(1 << t) { sets |= UInt32(pZero[x << t | new]) << UInt32(2 * new) }
                        g[x] = sets
                    }
                    return g
                }
                defer { groups.forEach { $0.deallocate() } }
                let (g5, g6, g7, g8) = (groups[0], groups[1], groups[2], groups[3])
                let a = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << 15)
                for x in 0..<(1 << 15) {
                    let s5 = g5[x], s6 = g6[x & 0x3FFF], s7 = g7[x & 0x1FFF], s8 = g8[x & 0xFFF]
                    var word: UInt64 = 0
                    for q in 0..<4 {
                        let field = (s5 >> UInt32(2 * (q >> 1)) & 3) | (s6 >> UInt32(2 * q) & 3) << 2
                            | (s7 >> UInt32(4 * q) & 15) << 4 | (s8 >> UInt32(8 * q) & 0xFF) << 8
                        word |= UInt64(field) << UInt64(16 * q)
                    }
                    a[x] = word
                }
                return a
            }

            /// For c₂ and the sixteen bits of a quarter of `ahead`: which c₃ c₄ leave some c₅ … c₈
            /// with the fifth output's B = fb(c₂ c₃ c₄ c₅), the sixth's fb(c₃ … c₆), the seventh's
            /// fb(c₄ … c₇) and the eighth's fb(c₅ … c₈) allowed. Each condition is a set of the 32
            /// values of c₃ … c₇ (c₃ c₄ the high bits); c₈ is free, so the eighth's asks for either.
            static func makeFurther() -> UnsafeMutablePointer<UInt8> {
                func fb(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int { Tables.fb(a | b << 1 | c << 2 | d << 3) }
                func set(_ holds: (_ c3: Int, _ c4: Int, _ c5: Int, _ c6: Int, _ c7: Int) -> Bool) -> UInt32 {
                    (0..<32).reduce(0) { $0 | (holds($1 >> 4, $1 >> 3 & 1, $1 >> 2 & 1, $1 >> 1 & 1, $1 & 1) ? 1 << UInt32($1) : 0) }
                }
                let fifth = (0..<8).map { i in set { c3, c4, c5, _, _ in (i & 3) >> fb(i >> 2, c3, c4, c5) & 1 == 1 } }
                let sixth = (0..<4).map { s in set { c3, c4, c5, c6, _ in s >> fb(c3, c4, c5, c6) & 1 == 1 } }
                let seventh = (0..<16).map { s in set { c3, c4, c5, c6, c7 in s >> (2 * c3 + fb(c4, c5, c6, c7)) & 1 == 1 } }
                let eighth = (0..<256).map { s in
                    set { c3, c4, c5, c6, c7 in (0..<2).contains { s >> (4 * c3 + 2 * c4 + fb(c5, c6, c7, $0)) & 1 == 1 } }
                }
                let f = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 17)
                for c2 in 0..<2 {
                    for s8 in 0..<256 {
                        for s7 in 0..<16 {
                            let w78 = eighth[s8] & seventh[s7]
                            for s6 in 0..<4 {
                                let w678 = w78 & sixth[s6]
                                for s5 in 0..<4 {
                                    // Bytes of the 32 values that are not empty, one bit each.
                                    var x = w678 & fifth[c2 << 2 | s5]
                                    x |= x >> 4
                                    x |= x >> 2
                                    x |= x >> 1
                                    let bits = (UInt64(x & 0x0101_0101) &* 0x1020_4080) >> 28 & 15
                                    f[c2 << 16 | s8 << 8 | s7 << 4 | s6 << 2 | s5] = UInt8(bits)
                                }
                            }
                        }
                    }
                }
                return f
            }

            /// Cells after the window at time 9 as masks over it (bit 2i = oᵢ, bit 2i+1 = eᵢ), the
            /// 27 equations o₂₄₊ₖ ⊕ (odd part) = (even part) reduced to e₀ … e₂₃ and three checks.
            static func makeSyndrome() -> UnsafeMutablePointer<UInt32> {
                var cell = [UInt64](repeating: 0, count: 9 + 2 * oddCells)
                for m in 9..<57 { cell[m] = 1 << UInt64(m - 9) }
                for m in 57..<cell.count { cell[m] = Crypto1Recovery.tapOffsets.reduce(0) { $0 ^ cell[m - 48 + $1] } }
                // Each row: the even cells it holds, and the odd cells (bit i = oᵢ) it equals.
                var rows: [(even: UInt32, odd: UInt64)] = (0..<(oddCells - 24)).map { k in
                    let c = cell[57 + 2 * k]
                    var even: UInt32 = 0, odd: UInt64 = 1 << UInt64(24 + k)
                    for i in 0..<24 {
                        even |= UInt32(c >> UInt64(2 * i + 1) & 1) << UInt32(i)
                        odd |= (c >> UInt64(2 * i) & 1) << UInt64(i)
                    }
                    return (even, odd)
                }
                var next = 0
                for col in 0..<24 {
                    guard let p = (next..<rows.count).first(where: { rows[$0].even >> UInt32(col) & 1 == 1 }) else {
                        preconditionFailure("the feedback leaves e\(col) undetermined")
                    }
                    rows.swapAt(next, p)
                    for i in rows.indices where i != next && rows[i].even >> UInt32(col) & 1 == 1 {
                        rows[i].even ^= rows[next].even
                        rows[i].odd ^= rows[next].odd
                    }
                    next += 1
                }
                var solved = [UInt64](repeating: 0, count: 24)
                for r in rows.prefix(24) { solved[r.even.trailingZeroBitCount] = r.odd }
                // Output bit 23 − i is eᵢ, bits 24… the leftover equations.
                let outputs = Array(solved.reversed()) + rows.dropFirst(24).map(\.odd)
                var column = [UInt32](repeating: 0, count: 8 * syndromeBytes)   // per sequence bit
                for (bit, mask) in outputs.enumerated() {
                    for i in 0..<oddCells where mask >> UInt64(i) & 1 == 1 { column[oddCells - 1 - i] |= 1 << UInt32(bit) }
                }
                let table = UnsafeMutablePointer<UInt32>.allocate(capacity: syndromeBytes * 256)
                for b in 0..<syndromeBytes {
                    table[b * 256] = 0
                    for value in 1..<256 {
                        table[b * 256 + value] = table[b * 256 + (value & (value - 1))] ^ column[8 * b + value.trailingZeroBitCount]
                    }
                }
                return table
            }
        }

        static let tables = Tables()

        /// The search's work areas, fixed in size: it runs without allocating.
        struct Search {
            let t: Tables
            let bits: [UInt8]
            /// Per step: outputs as patterns that complement the allowed sets of ones, for the four
            /// outputs of the step (shifted as `extensions` indexes) and the four after them (as
            /// `ahead` holds them, in each quarter).
            let outputs: [Int]
            let outputsAhead: [UInt64]
            /// Sequences with a way on (`v << 16 | mask`), then leaves whose checks hold.
            let kept: UnsafeMutablePointer<UInt64>
            /// The e of each leaf at `run`'s last level.
            let evens: UnsafeMutablePointer<UInt32>
            var found: [UInt64] = []

            /// Sequences are taken `chunk` at a time and each has at most 16 children, so the lists
            /// stay small (and in the first cache levels) whatever the keystream.
            static let chunk = 1024
            static let keptCapacity = 16 * chunk

            init(tables: Tables, bits: [UInt8], kept: UnsafeMutablePointer<UInt64>, evens: UnsafeMutablePointer<UInt32>) {
                t = tables
                self.bits = bits
                self.kept = kept
                self.evens = evens
                func pattern(_ outputs: [Int]) -> Int {
                    outputs.enumerated().reduce(0) { $0 | (bits[2 * $1.element] & 1 == 1 ? 3 << (2 * $1.offset) : 0) }
                }
                // Step s adds o₁₉₊₄ₛ … o₂₂₊₄ₛ for outputs b₈ₛ, b₈ₛ₊₂, b₈ₛ₊₄, b₈ₛ₊₆ (pattern entries are
                // halves of output numbers); it looks ahead to b₈ₛ₊₈ … b₈ₛ₊₁₄, the last step to none.
                outputs = (0..<steps).map { s in pattern((0..<4).map { 4 * s + $0 }) << 3 }
                outputsAhead = (0..<steps).map { s in
                    guard s < steps - 1 else { return 0 }
                    let quarter = pattern([4 * s + 4, 4 * s + 5, 4 * s + 6, 4 * s + 6, 4 * s + 7, 4 * s + 7, 4 * s + 7, 4 * s + 7])
                    return UInt64(quarter) &* 0x0001_0001_0001_0001
                }
            }

            /// Extends the sequences `p[0 ..< n]` of step `s` into the area after them, a chunk at a
            /// time, and goes on depth first.
            mutating func run(_ p: UnsafeMutablePointer<UInt64>, _ n: Int, _ s: Int) {
                var k = 0
                while k < n {
                    let count = min(Self.chunk, n - k)
                    if s == steps - 1 {
                        leaves(kept: keep(p + k, count, s, lookingAhead: false), into: p + n)
                    } else {
                        let m = s == 0 ? lookAhead(keep(p + k, count, s, lookingAhead: false), s) : keep(p + k, count, s, lookingAhead: true)
                        let children = p + n
                        run(children, expand(m, into: children), s + 1)
                    }
                    k += count
                }
            }

            /// Those of the sequences with a way on, with the mask of their extensions; `lookingAhead`,
            /// only the ways on that can go on again (sequences whose parent looked ahead all have
            /// a way on; level −1 looks ahead in `lookAhead`, after most of it is dropped).
            @inline(__always) func keep(_ p: UnsafePointer<UInt64>, _ n: Int, _ s: Int, lookingAhead: Bool) -> Int {
                let pattern = outputs[s]
                var m = 0
                for k in 0..<n {
                    let v = p[k]
                    let context = Int(truncatingIfNeeded: v) & contextMask
                    var mask = t.extensions[(context & 7 | Int(t.zeroSets[context]) << 3) ^ pattern]
                    if lookingAhead { mask &= further(context, s) }
                    kept[m] = v << 16 | UInt64(mask)
                    m &+= Int(truncatingIfNeeded: (UInt32(mask) &+ 0xFFFF) >> 16)   // 1 unless 0, without a branch
                }
                return m
            }

            /// The ways on of a sequence (19 newest cells `context`) that can go on again.
            @inline(__always) func further(_ context: Int, _ s: Int) -> UInt16 {
                let a = t.ahead[context & 0x7FFF] ^ outputsAhead[s]
                let q0 = UInt16(t.further[Int(truncatingIfNeeded: a) & 0xFFFF])
                let q1 = UInt16(t.further[1 << 16 | Int(truncatingIfNeeded: a >> 16) & 0xFFFF])
                let q2 = UInt16(t.further[Int(truncatingIfNeeded: a >> 32) & 0xFFFF])
                let q3 = UInt16(t.further[1 << 16 | Int(truncatingIfNeeded: a >> 48)])
                return q0 | q1 << 4 | q2 << 8 | q3 << 12
            }

            /// The first `m` kept sequences again, those whose ways on can go on again.
            @inline(__always) func lookAhead(_ m: Int, _ s: Int) -> Int {
                var left = 0
                for k in 0..<m {
                    let e = kept[k]
                    let mask = UInt16(truncatingIfNeeded: e) & further(Int(truncatingIfNeeded: e >> 16) & contextMask, s)
                    kept[left] = e & ~0xFFFF | UInt64(mask)
                    left &+= Int(truncatingIfNeeded: (UInt32(mask) &+ 0xFFFF) >> 16)
                }
                return left
            }

            /// Every extension of the kept sequences; each byte of a mask writes eight slots and
            /// moves on by its count, so no branch depends on the data.
            @inline(__always) func expand(_ m: Int, into out: UnsafeMutablePointer<UInt64>) -> Int {
                var n = 0
                for k in 0..<m {
                    let e = kept[k]
                    let base = (e >> 16) << 4
                    let low = Int(truncatingIfNeeded: e) & 0xFF, high = Int(truncatingIfNeeded: e >> 8) & 0xFF
                    let slots = SIMD8<UInt64>(repeating: base)
                    UnsafeMutableRawPointer(out + n).storeBytes(of: slots | t.bitList[low], as: SIMD8<UInt64>.self)
                    n &+= Int(t.bitCount[low])
                    UnsafeMutableRawPointer(out + n).storeBytes(of: slots | t.bitList[high] | 8, as: SIMD8<UInt64>.self)
                    n &+= Int(t.bitCount[high])
                }
                return n
            }

            @inline(__always) func solve(_ v: UInt64) -> UInt32 {
                var s = t.syndrome[Int(truncatingIfNeeded: v) & 0xFF]
                for b in 1..<syndromeBytes { s ^= t.syndrome[256 * b + Int(truncatingIfNeeded: v >> UInt64(8 * b)) & 0xFF] }
                return s
            }

            /// The filter of 20 cells held newest first (bit 0 the 20th).
            @inline(__always) func filter(_ w: UInt64) -> UInt8 {
                let zero = t.pZero[Int(truncatingIfNeeded: w >> 4) & 0xFFFF]
                let y = UInt8(truncatingIfNeeded: Tables.fbNewestFirst >> (Int(truncatingIfNeeded: w) & 15) & 1)
                return ~(zero >> y) & 1
            }

            /// The last step's sequences, `m` of them kept with their masks, into leaves at `out`
            /// with their e at `evens`: each is checked on the three leftover equations, then on
            /// b₁ and b₃, without a branch on the data; the few left are checked to the end.
            mutating func leaves(kept m: Int, into out: UnsafeMutablePointer<UInt64>) {
                var n = 0
                for k in 0..<m {
                    let e = kept[k]
                    let base = (e >> 16) << 4
                    let s = solve(base)
                    // The last four cells change the syndrome by the low byte's entry for them.
                    let codes = Int(truncatingIfNeeded: e) & Int(t.checksCancel[Int(s >> 24)])
                    let low = codes & 0xFF, high = codes >> 8
                    let slots = SIMD8<UInt64>(repeating: base), syndromes = SIMD8<UInt32>(repeating: s)
                    UnsafeMutableRawPointer(out + n).storeBytes(of: slots | t.bitList[low], as: SIMD8<UInt64>.self)
                    UnsafeMutableRawPointer(evens + n).storeBytes(of: syndromes ^ t.syndromeList[low], as: SIMD8<UInt32>.self)
                    n &+= Int(t.bitCount[low])
                    UnsafeMutableRawPointer(out + n).storeBytes(of: slots | t.bitList[high] | 8, as: SIMD8<UInt64>.self)
                    UnsafeMutableRawPointer(evens + n).storeBytes(of: syndromes ^ t.syndromeList[256 + high], as: SIMD8<UInt32>.self)
                    n &+= Int(t.bitCount[high])
                }
                // Output 2i+1 reads eᵢ … eᵢ₊₁₉, bits 4−i … 23−i of e.
                let b1 = bits[1] & 1, b3 = bits[3] & 1
                var left = 0
                for k in 0..<n {
                    let v = out[k], e = evens[k]
                    out[left] = v
                    evens[left] = e
                    left &+= Int(~(filter(UInt64(e >> 4)) ^ b1) & ~(filter(UInt64(e >> 3 & 0xFFFFF)) ^ b3) & 1)
                }
                for k in 0..<left { check(out[k], even: UInt64(evens[k])) }
            }

            mutating func check(_ v: UInt64, even e: UInt64) {
                for i in 2..<5 where filter(e >> UInt64(4 - i) & 0xFFFFF) != bits[2 * i + 1] & 1 { return }
                var window: UInt64 = 0
                for i in 0..<24 {
                    window |= (v >> UInt64(oddCells - 1 - i) & 1) << UInt64(2 * i) | (e >> UInt64(23 - i) & 1) << UInt64(2 * i + 1)
                }
                // The window is the state at time 9: b₉ on, then back to time 0 and every bit.
                var c = Crypto1(state: window)
                for t in 9..<bits.count where c.clock() != bits[t] & 1 { return }
                c = Crypto1(state: window)
                for _ in 0..<9 { c.rollback() }
                var clocked = c
                if bits.allSatisfy({ clocked.clock() == $0 & 1 }) { found.append(c.state) }
            }
        }

        /// States at time 0 that give `bits` (at least 64; all are checked).
        static func states(keystream bits: [UInt8]) -> [UInt64] {
            precondition(bits.count >= 64)
            // Level −1 takes a chunk, each later level at most a chunk's children (16 each) plus
            // the eight slots a write may run past them.
            let area = UnsafeMutablePointer<UInt64>.allocate(capacity: Search.chunk + steps * (Search.keptCapacity + 16))
            let kept = UnsafeMutablePointer<UInt64>.allocate(capacity: Search.keptCapacity)
            let evens = UnsafeMutablePointer<UInt32>.allocate(capacity: Search.keptCapacity + 16)
            defer { area.deallocate(); kept.deallocate(); evens.deallocate() }
            var search = Search(tables: tables, bits: bits, kept: kept, evens: evens)
            // Level −1: every value of o₀ … o₁₈.
            var start = 0
            while start < 1 << 19 {
                for i in 0..<Search.chunk { area[i] = UInt64(start + i) }
                search.run(area, Search.chunk, 0)
                start += Search.chunk
            }
            return search.found
        }
    }
}
