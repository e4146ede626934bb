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
    /// String literals (field keys and labels) found to need no escaping, by address.
    private var clean = CleanLiterals()
    private var count = 0
    private var capacity: Int
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
    private mutating func byte(_ b: UInt8) {
        reserve(1)
        put(b)
    }

    @inline(__always)
    private mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let src = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: src, count: bytes.count)
        count &+= bytes.count
    }

    /// `"k":`, with the comma before it when the object or array already has a member. Keys are
    /// literals of the renderers: plain ASCII, copied without escaping.
    @inline(__always)
    private mutating func key(_ k: StaticString) {
        reserve(k.utf8CodeUnitCount + 4)
        if needsComma { put(0x2C) }
        put(0x22)
        copy(UnsafeRawPointer(k.utf8Start), k.utf8CodeUnitCount)
        put(0x22)
        put(0x3A)
        needsComma = true
    }

    /// Bytes that need an escape in a JSON string: control characters, `"` and `\`.
    @inline(__always)
    private static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

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
    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
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
            if !Self.needsEscape(c) {
                put(c)
                continue
            }
            put(0x5C)
            switch c {
            case 0x22: put(0x22)
            case 0x5C: put(0x5C)
            case 0x0A: put(0x6E)
            case 0x0D: put(0x72)
            case 0x09: put(0x74)
            default:
                put(0x75); put(0x30); put(0x30)
                put(Hex.digit(ofNibble: c >> 4)); put(Hex.digit(ofNibble: c & 0x0F))
            }
        }
    }


    /// Remembers which string literals need no JSON escapes: a literal's bytes never change, so
    /// after the first check its address is enough. 256 slots, each holding the last literal
    /// seen whose address hashes there (field keys and labels of one capture fit easily).
    private final class CleanLiterals {
        static let slots = 256
        let starts = UnsafeMutablePointer<UInt>.allocate(capacity: slots)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: slots)
        /// Whole `{"key":"…","label":"…","value":"` openings of fields whose key and label are
        /// plain literals, by the pair of addresses: one copy per field instead of five.
        static let pairBytes = 120
        let pairKeys = UnsafeMutablePointer<UInt>.allocate(capacity: slots * 4)
        let pairCounts = UnsafeMutablePointer<Int>.allocate(capacity: slots)
        let pairText = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * pairBytes)
        init() {
            starts.initialize(repeating: 0, count: Self.slots)
            counts.initialize(repeating: 0, count: Self.slots)
            pairKeys.initialize(repeating: 0, count: Self.slots * 4)
            pairCounts.initialize(repeating: 0, count: Self.slots)
        }
        deinit {
            starts.deallocate()
            counts.deallocate()
            pairKeys.deallocate()
            pairCounts.deallocate()
            pairText.deallocate()
        }
        @inline(__always)
        static func slot(_ address: UInt) -> Int { Int(truncatingIfNeeded: (address ^ address >> 8) & UInt(slots - 1)) }
        @inline(__always)
        static func pairSlot(_ key: UInt, _ label: UInt) -> Int { slot(key ^ (label &* 31)) }
    }

    /// `{"key":"…","label":"…","value":"` of a field (without the comma before it): from the
    /// pair cache when key and label are literals seen before together, else written name by
    /// name (and remembered when both turned out plain).
    @inline(__always)
    private mutating func fieldOpening(_ key: FieldName, _ label: FieldName) {
        guard let k = key.literal, let ks = k.baseAddress, let l = label.literal, let ls = l.baseAddress else {
            literal("{\"key\":\"")
            name(key)
            literal("\",\"label\":\"")
            name(label)
            literal("\",\"value\":\"")
            return
        }
        let ka = UInt(bitPattern: ks), la = UInt(bitPattern: ls)
        let slot = CleanLiterals.pairSlot(ka, la)
        let entry = clean.pairKeys + slot &* 4
        if entry[0] == ka && entry[1] == la && entry[2] == UInt(k.count) && entry[3] == UInt(l.count) {
            let n = clean.pairCounts[slot]
            reserve(n)
            copy(UnsafeRawPointer(clean.pairText + slot &* CleanLiterals.pairBytes), n)
            return
        }
        let before = count
        literal("{\"key\":\"")
        name(key)
        literal("\",\"label\":\"")
        name(label)
        literal("\",\"value\":\"")
        let n = count &- before
        // Plain when nothing was escaped: the opening is its fixed text plus both names.
        if n == 30 &+ k.count &+ l.count && n <= CleanLiterals.pairBytes {
            (clean.pairText + slot &* CleanLiterals.pairBytes).update(from: base + before, count: n)
            clean.pairCounts[slot] = n
            entry[0] = ka
            entry[1] = la
            entry[2] = UInt(k.count)
            entry[3] = UInt(l.count)
        }
    }

    /// A field's key or label, inside its quotes: a literal known to be plain is copied, anything
    /// else escaped (and a literal that turns out plain remembered).
    @inline(__always)
    private mutating func name(_ n: FieldName) {
        guard let bytes = n.literal, let start = bytes.baseAddress else {
            n.withUTF8 { escaped($0) }
            return
        }
        let address = UInt(bitPattern: start)
        let slot = CleanLiterals.slot(address)
        if clean.starts[slot] == address && clean.counts[slot] == bytes.count {
            reserve(bytes.count)
            copy(UnsafeRawPointer(start), bytes.count)
            return
        }
        let before = count
        escaped(bytes)
        if count &- before == bytes.count {
            clean.starts[slot] = address
            clean.counts[slot] = bytes.count
        }
    }

    /// The inside of a field value's string literal: its hex digits need no escaping. Read
    /// through the pointer, in place (a copy of the value would retain and release its strings).
    @inline(__always)
    private mutating func value(_ f: UnsafePointer<Field>) {
        if !f.pointee.content.prefix.isEmpty { escaped(f.pointee.content.prefix) }
        guard f.pointee.content.hasHex else { return }
        reserve(FieldValue.maxHexLength)
        count &+= f.pointee.content.writeHex(base + count)
        if f.pointee.content.suffixInParentheses {
            literal(" (")
            escaped(f.pointee.content.suffix)
            byte(0x29)
        } else if !f.pointee.content.suffix.isEmpty {
            escaped(f.pointee.content.suffix)
        }
    }

    private mutating func quoted(_ s: String) {
        byte(0x22)
        escaped(s)
        byte(0x22)
    }

    private mutating func escaped(_ s: String) {
        if let done: Void = s.utf8.withContiguousStorageIfAvailable({ escaped($0) }) { return done }
        var copy = s
        copy.withUTF8 { escaped($0) }
    }

    /// Fixed JSON text between values (plain ASCII literals of this file).
    @inline(__always)
    private mutating func literal(_ text: StaticString) {
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
        if v < 10 {
            put(0x30 &+ UInt8(v))
            return
        }
        if v < 100 {
            // Byte offsets of fields: most are two digits.
            let pairs = Self.digitPairs.utf8Start
            put(pairs[Int(v) &* 2])
            put(pairs[Int(v) &* 2 &+ 1])
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
    private mutating func rangeArray(_ r: Range<Int>) {
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

    mutating func fields(_ k: StaticString, _ fields: [Field]) {
        key(k)
        appendFields(fields)
    }

    private mutating func appendFields(_ fields: [Field]) {
        byte(0x5B)
        needsComma = false
        // Members are read in place: `for f in fields` would copy (retain and release) each
        // field's three strings and its children.
        // Through `UnsafePointer.pointee` (an addressor), not the buffer's subscript (a getter,
        // which copies the field).
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            for i in fields.indices {
                let f = base + i
                if i > 0 { byte(0x2C) }
                fieldOpening(f.pointee.keyName, f.pointee.labelName)
                value(f)
                if let r = f.pointee.range {
                    literal("\",\"range\":")
                    rangeArray(r)
                } else {
                    byte(0x22)
                }
                needsComma = true
                if !f.pointee.children.isEmpty {
                    key("children")
                    appendFields(f.pointee.children)
                }
                endObject()
            }
        }
        byte(0x5D)
        needsComma = true
    }

    mutating func diagnostics(_ diags: [Diagnostic]) {
        key("diagnostics")
        byte(0x5B)
        needsComma = false
        for d in diags {
            beginObject()
            string("severity", d.severity.rawValue)
            string("message", d.message)
            if let r = d.range { range(r) }
            endObject()
        }
        byte(0x5D)
        needsComma = true
    }
}
