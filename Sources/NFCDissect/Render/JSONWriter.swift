import NFCCore

/// Writes JSON into one reusable raw buffer: no dictionaries, no per-object arrays, and no
/// copy-on-write or exclusivity checks per byte (the JSON output of `nfctrace dissect` is about
/// a kilobyte per frame, so this is the renderer's whole cost).
///
/// Keep the writer in a local variable while writing (a class's stored property would be
/// checked for exclusive access on every call).
struct JSONWriter {
    /// Owns the memory; the writer keeps the pointer and counts beside it.
    private final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int
    private var needsComma = false

    init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        storage = Storage(capacity: self.capacity)
        base = storage.base
    }

    /// What has been written since the last reset.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
    var out: [UInt8] { Array(bytes) }

    mutating func reset() {
        count = 0
        needsComma = false
    }

    // MARK: raw bytes

    // `byte`, `raw`, `literal`, `escaped`, `write` and the array/range helpers are internal for
    // the field-tree writer in JSONWriter+Fields.swift; renderers use the members further down.

    @inline(__always)
    private mutating func reserve(_ n: Int) {
        if count &+ n > capacity { grow(to: count + n) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        var c = capacity
        while c < needed { c *= 2 }
        let bigger = Storage(capacity: c)
        bigger.base.update(from: base, count: count)
        storage = bigger
        base = bigger.base
        capacity = c
    }

    /// After `reserve`: writes without checking.
    @inline(__always)
    private mutating func put(_ b: UInt8) {
        base[count] = b
        count &+= 1
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        reserve(1)
        put(b)
    }

    @inline(__always)
    mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        copy(UnsafeRawPointer(src), bytes.count)
    }

    /// Lets `body` write at most `limit` bytes in place; it returns how many it wrote.
    @inline(__always)
    mutating func write(atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(limit)
        count &+= body(base + count)
    }

    /// `"k":`, with the comma before it when the object or array already has a member. Keys are
    /// literals of the renderers: plain ASCII, copied without escaping.
    @inline(__always)
    mutating func key(_ k: StaticString) {
        reserve(k.utf8CodeUnitCount + 4)
        if needsComma { put(0x2C) }
        put(0x22)
        copy(UnsafeRawPointer(k.utf8Start), k.utf8CodeUnitCount)
        put(0x22)
        put(0x3A)
        needsComma = true
    }

    /// Whether any of the 8 bytes of `w` needs an escape (< 0x20, `"` or `\`), eight at a time:
    /// the classic "has a byte less than n" and "has a zero byte" bit tricks.
    @inline(__always)
    private static func wordNeedsEscape(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (w &- ones &* 0x20) & ~w & highs
        let q = w ^ (ones &* 0x22)
        let quote = (q &- ones) & ~q & highs
        let b = w ^ (ones &* 0x5C)
        let backslash = (b &- ones) & ~b & highs
        return (control | quote | backslash) != 0
    }

    /// A JSON string literal. Plain text (the usual case) moves eight bytes at a time with no
    /// call per run; from the first byte that needs an escape on, byte by byte.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        escaped(utf8)
        byte(0x22)
    }

    /// The inside of a JSON string literal (no quotes).
    mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(max(8, n &* 6))   // worst case: every byte as \u00XX; a whole word for short ones
        guard let src = utf8.baseAddress else { return }
        if n < 8 {
            // Most labels and many values are a few bytes: gathered into one word (two
            // overlapping loads), the bytes past the end filled with a harmless letter.
            var w: UInt64
            if n >= 4 {
                let lo = UInt64(UnsafeRawPointer(src).loadUnaligned(as: UInt32.self))
                let hi = UInt64(UnsafeRawPointer(src + (n &- 4)).loadUnaligned(as: UInt32.self))
                w = lo | hi << UInt64((n &- 4) &* 8)
            } else if n >= 2 {
                let lo = UInt64(UnsafeRawPointer(src).loadUnaligned(as: UInt16.self))
                let hi = UInt64(UnsafeRawPointer(src + (n &- 2)).loadUnaligned(as: UInt16.self))
                w = lo | hi << UInt64((n &- 2) &* 8)
            } else if n == 1 {
                w = UInt64(src[0])
            } else {
                return
            }
            let pad: UInt64 = 0x4141_4141_4141_4141 & ~(UInt64.max >> UInt64((8 &- n) &* 8))
            if !Self.wordNeedsEscape(w | pad) {
                UnsafeMutableRawPointer(base + count).storeBytes(of: w, as: UInt64.self)
                count &+= n
                return
            }
        }
        var i = 0
        while i &+ 8 <= n {
            let w = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
            if Self.wordNeedsEscape(w) { break }
            UnsafeMutableRawPointer(base + count).storeBytes(of: w, as: UInt64.self)
            count &+= 8
            i &+= 8
        }
        // The last 1–7 bytes of a string of 8 or more: one more word, ending at the last byte
        // (it overlaps bytes already written, with the same values).
        if i < n && n >= 8 && i &+ 8 > n {
            let w = UnsafeRawPointer(src + (n &- 8)).loadUnaligned(as: UInt64.self)
            if !Self.wordNeedsEscape(w) {
                UnsafeMutableRawPointer(base + (count &- (i &+ 8 &- n))).storeBytes(of: w, as: UInt64.self)
                count &+= n &- i
                return
            }
        }
        while i < n {
            let c = src[i]
            i &+= 1
            if !JSONText.needsEscape(c) {
                put(c)
                continue
            }
            JSONText.escape(c) { put($0) }
        }
    }


    private mutating func quoted(_ s: String) {
        byte(0x22)
        escaped(s)
        byte(0x22)
    }

    mutating func escaped(_ s: String) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ escaped($0) }) { return done }
        var copy = s
        copy.withUTF8 { escaped($0) }
    }

    /// Fixed JSON text between values (plain ASCII literals of this file).
    @inline(__always)
    mutating func literal(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        reserve(n)
        copy(UnsafeRawPointer(text.utf8Start), n)
    }

    /// Copies `n` bytes after `reserve`: eight at a time, the last (partial) word overlapping
    /// the one before, short runs as two overlapping loads; reads nothing outside `src[0..<n]`.
    @inline(__always)
    private mutating func copy(_ src: UnsafeRawPointer, _ n: Int) {
        let dst = UnsafeMutableRawPointer(base + count)
        if n >= 8 {
            var i = 0
            while i &+ 8 <= n {
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            if i < n {
                dst.storeBytes(of: src.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
            }
        } else if n >= 4 {
            dst.storeBytes(of: src.loadUnaligned(as: UInt32.self), as: UInt32.self)
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self), toByteOffset: n &- 4, as: UInt32.self)
        } else {
            for i in 0..<n { dst.storeBytes(of: src.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
        }
        count &+= n
    }

    /// "00" "01" … "99": two digits per division (a literal, so nothing to initialise).
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    private mutating func decimal(_ value: Int) {
        reserve(21)   // sign and up to 20 digits
        var v = value.magnitude
        if value < 0 { put(0x2D) }
        if v < 100 {
            // Byte offsets of fields: most are one or two digits.
            smallDecimal(Int(v))
            return
        }
        var digits = 2
        var limit: UInt = 100
        while v >= limit && digits < 20 {
            digits &+= 1
            if limit > UInt.max / 10 { break }
            limit &*= 10
        }
        // Written from the last digit back, in place, two digits at a time.
        let pairs = Self.digitPairs.utf8Start
        var at = base + count + digits
        while v >= 100 {
            let pair = Int(v % 100) &* 2
            v /= 100
            at -= 2
            at[0] = pairs[pair]
            at[1] = pairs[pair &+ 1]
        }
        if v >= 10 {
            let pair = Int(v) &* 2
            at -= 2
            at[0] = pairs[pair]
            at[1] = pairs[pair &+ 1]
        } else {
            at -= 1
            at[0] = 0x30 &+ UInt8(v)
        }
        count &+= digits
    }

    // MARK: members

    /// Fixed JSON text of a renderer, written as is (its own commas and quotes included); the
    /// next member gets a comma.
    mutating func json(_ text: StaticString) {
        literal(text)
        needsComma = true
    }

    /// A bare number after `json(…"key":)`.
    mutating func number(_ v: Int) { decimal(v) }

    /// A quoted, escaped string after `json(…"key":)`.
    mutating func stringValue(_ v: String) { quoted(v) }

    mutating func beginObject() {
        reserve(2)
        if needsComma { put(0x2C) }
        put(0x7B)
        needsComma = false
    }

    mutating func endObject() {
        byte(0x7D)
        needsComma = true
    }

    mutating func string(_ k: StaticString, _ v: String) { key(k); quoted(v) }
    mutating func int(_ k: StaticString, _ v: Int) { key(k); decimal(v) }
    mutating func bool(_ k: StaticString, _ v: Bool) {
        key(k)
        let text: StaticString = v ? "true" : "false"
        raw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `whole.tenth` (a time in microseconds with one decimal).
    mutating func decimal(_ k: StaticString, _ whole: Int64, _ tenth: Int64) {
        key(k)
        decimal(Int(truncatingIfNeeded: whole))
        reserve(2)
        put(0x2E)
        put(0x30 &+ UInt8(truncatingIfNeeded: tenth))
    }

    /// Bytes as one uppercase hex string without separators.
    mutating func hex(_ k: StaticString, _ bytes: [UInt8]) {
        key(k)
        let n = bytes.count
        reserve(n &* 2 &+ 2)
        let out = base + count
        out[0] = 0x22
        bytes.withUnsafeBufferPointer { src in
            for i in 0..<n {
                let b = src[i]
                out[1 &+ 2 &* i] = Hex.digit(ofNibble: b >> 4)
                out[2 &+ 2 &* i] = Hex.digit(ofNibble: b & 0x0F)
            }
        }
        out[1 &+ 2 &* n] = 0x22
        count &+= n &* 2 &+ 2
    }

    mutating func stringArray(_ k: StaticString, _ v: [String]) { array(k, v) { $0.quoted($1) } }
    mutating func intArray(_ k: StaticString, _ v: [Int]) { array(k, v) { $0.decimal($1) } }

    /// `"k":[…]`, each element written by `element`.
    private mutating func array<T>(_ k: StaticString, _ v: [T], _ element: (inout JSONWriter, T) -> Void) {
        key(k)
        byte(0x5B)
        for (i, x) in v.enumerated() {
            if i > 0 { byte(0x2C) }
            element(&self, x)
        }
        byte(0x5D)
    }

    private mutating func range(_ r: Range<Int>) {
        key("range")
        rangeArray(r)
    }

    /// `[lower,upper]`; offsets under 100 (nearly all) written in place.
    @inline(__always)
    mutating func rangeArray(_ r: Range<Int>) {
        let a = r.lowerBound, b = r.upperBound
        guard a >= 0, b < 100 else {
            byte(0x5B)
            decimal(a)
            byte(0x2C)
            decimal(b)
            byte(0x5D)
            return
        }
        reserve(7)
        put(0x5B)
        smallDecimal(a)
        put(0x2C)
        smallDecimal(b)
        put(0x5D)
    }

    /// 0…99 after `reserve`.
    @inline(__always)
    private mutating func smallDecimal(_ v: Int) {
        if v < 10 {
            put(0x30 &+ UInt8(truncatingIfNeeded: v))
        } else {
            let pairs = Self.digitPairs.utf8Start
            put(pairs[v &* 2])
            put(pairs[v &* 2 &+ 1])
        }
    }

    /// `[` of an array whose first element gets no comma.
    mutating func beginArray() {
        byte(0x5B)
        needsComma = false
    }

    /// `]`; the next member gets a comma.
    mutating func endArray() {
        byte(0x5D)
        needsComma = true
    }

    mutating func diagnostics(_ diags: [Diagnostic]) {
        key("diagnostics")
        beginArray()
        for d in diags {
            beginObject()
            string("severity", d.severity.rawValue)
            string("message", d.message)
            if let r = d.range { range(r) }
            endObject()
        }
        endArray()
    }
}
