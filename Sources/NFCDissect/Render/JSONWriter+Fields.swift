import NFCCore

/// Remembers which string literals need no JSON escapes: a literal's bytes never change, so after
/// the first check its address is enough. 256 slots, each holding the last literal seen whose
/// address hashes there (the field keys and labels of a capture fit easily). A second table
/// keeps whole `{"key":"…","label":"…","value":"` openings of fields whose key and label are
/// plain literals, by the pair of addresses: one copy per field instead of five.
final class JSONLiteralCache {
    static let slots = 256
    static let pairBytes = 120
    let starts = UnsafeMutablePointer<UInt>.allocate(capacity: slots)
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: slots)
    /// Per slot: key address, label address, key length, label length.
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

/// Field trees: `[{"key":…,"label":…,"value":…,"range":[…],"children":[…]},…]`, read in place.
extension JSONWriter {
    mutating func fields(_ k: StaticString, _ fields: [Field]) {
        key(k)
        appendFields(fields)
    }

    private mutating func appendFields(_ fields: [Field]) {
        beginArray()
        // Members are read in place through `UnsafePointer.pointee` (an addressor): `for f in
        // fields` or the buffer's subscript (a getter) would copy each field, retaining and
        // releasing its strings and children.
        fields.withUnsafeBufferPointer { fields in
            guard let base = fields.baseAddress else { return }
            for i in fields.indices {
                let f = base + i
                if i > 0 { byte(0x2C) }
                opening(f)
                value(f)
                if let r = f.pointee.range {
                    literal("\",\"range\":")
                    rangeArray(r)
                } else {
                    byte(0x22)
                }
                if !f.pointee.children.isEmpty {
                    literal(",\"children\":")
                    appendFields(f.pointee.children)
                }
                endObject()
            }
        }
        endArray()
    }

    /// `{"key":"…","label":"…","value":"` of a field (without the comma before it): from the
    /// pair cache when key and label are literals seen before together, else written name by
    /// name (and remembered when both turned out plain).
    @inline(__always)
    private mutating func opening(_ f: UnsafePointer<Field>) {
        // The literals' addresses are read in place: copying the two names out of the field
        // would retain and release both for every field written.
        guard let k = f.pointee.keyName.literal, let ks = k.baseAddress,
              let l = f.pointee.labelName.literal, let ls = l.baseAddress else {
            writeOpening(f.pointee.keyName, f.pointee.labelName)
            return
        }
        let ka = UInt(bitPattern: ks), la = UInt(bitPattern: ls)
        let slot = JSONLiteralCache.pairSlot(ka, la)
        let entry = literals.pairKeys + slot &* 4
        let text = literals.pairText + slot &* JSONLiteralCache.pairBytes
        if entry[0] == ka && entry[1] == la && entry[2] == UInt(k.count) && entry[3] == UInt(l.count) {
            raw(UnsafeBufferPointer(start: text, count: literals.pairCounts[slot]))
            return
        }
        let before = bytes.count
        writeOpening(f.pointee.keyName, f.pointee.labelName)
        let n = bytes.count &- before
        // Plain when nothing was escaped: the opening is its fixed text plus both names.
        if n == 30 &+ k.count &+ l.count && n <= JSONLiteralCache.pairBytes {
            text.update(from: bytes.baseAddress! + before, count: n)
            literals.pairCounts[slot] = n
            entry[0] = ka
            entry[1] = la
            entry[2] = UInt(k.count)
            entry[3] = UInt(l.count)
        }
    }

    @inline(__always)
    private mutating func writeOpening(_ key: FieldName, _ label: FieldName) {
        literal("{\"key\":\"")
        name(key)
        literal("\",\"label\":\"")
        name(label)
        literal("\",\"value\":\"")
    }

    /// A field's key or label, inside its quotes: a literal known to be plain is copied, anything
    /// else escaped (and a literal that turns out plain remembered).
    @inline(__always)
    private mutating func name(_ n: FieldName) {
        guard let text = n.literal, let start = text.baseAddress else {
            n.withUTF8 { escaped($0) }
            return
        }
        let address = UInt(bitPattern: start)
        let slot = JSONLiteralCache.slot(address)
        if literals.starts[slot] == address && literals.counts[slot] == text.count {
            raw(text)
            return
        }
        let before = bytes.count
        escaped(text)
        if bytes.count &- before == text.count {
            literals.starts[slot] = address
            literals.counts[slot] = text.count
        }
    }

    /// The inside of a field value's string literal: its hex digits need no escaping. Read
    /// through the pointer, in place (a copy of the value would retain and release its strings).
    @inline(__always)
    private mutating func value(_ f: UnsafePointer<Field>) {
        if !f.pointee.content.prefix.isEmpty { escaped(f.pointee.content.prefix) }
        // The digits are plain values: taken out alone, they cost no copy of the strings.
        let digits = f.pointee.content.digits
        guard digits.count > 0 else { return }
        write(atMost: FieldValue.maxHexLength) { digits.write($0) }
        if f.pointee.content.suffixInParentheses {
            literal(" (")
            escaped(f.pointee.content.suffix)
            byte(0x29)
        } else if !f.pointee.content.suffix.isEmpty {
            escaped(f.pointee.content.suffix)
        }
    }
}
