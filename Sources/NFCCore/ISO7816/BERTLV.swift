/// One BER-TLV data object (ISO/IEC 7816-4 §5.2, ISO/IEC 8825-1; protocols-wave2.md §3.5), with
/// the byte ranges of its tag, length and value in the buffer it was parsed from.
public struct BERTLV: Sendable, Equatable {
    /// The tag bytes as one number: `6F`, `9F38`, `BF0C`.
    public var tag: UInt32
    public var tagRange: Range<Int>
    public var lengthRange: Range<Int>
    public var valueRange: Range<Int>
    public var value: [UInt8]
    /// The objects inside a constructed one; nil for primitive ones, and for a constructed one
    /// whose value does not parse (then `error` says where).
    public var children: [BERTLV]?
    public var error: DecodeError?

    /// b6 of the first tag byte.
    public var isConstructed: Bool { firstTagByte & 0x20 != 0 }

    var firstTagByte: UInt8 { UInt8(truncatingIfNeeded: tag >> UInt32(8 * (tagRange.count - 1))) }

    public var tagHex: String { Hex.value(tag, digits: 2 * tagRange.count) }

    public var tagClass: String {
        switch firstTagByte >> 6 {
        case 0: return "universal"
        case 1: return "application"
        case 2: return "context-specific"
        default: return "private"
        }
    }

    /// The first object with `tag`, depth first.
    public func first(_ tag: UInt32) -> BERTLV? {
        if self.tag == tag { return self }
        for c in children ?? [] { if let f = c.first(tag) { return f } }
        return nil
    }

    /// Nesting deeper than this is refused: hostile input must not exhaust the stack.
    public static let depthLimit = 16

    /// Parses `bytes[range]` as a sequence of data objects, skipping the `00`/`FF` padding EMV
    /// allows between them. Never traps: a damaged object ends the list, and `error` says where
    /// (offsets in `bytes`).
    public static func parse(_ bytes: [UInt8], range: Range<Int>? = nil, depth: Int = 0) -> (objects: [BERTLV], error: DecodeError?) {
        let r = range ?? bytes.indices
        var objects: [BERTLV] = []
        var i = r.lowerBound
        while i < r.upperBound {
            if bytes[i] == 0x00 || bytes[i] == 0xFF {
                i += 1
                continue
            }
            let tagStart = i
            let tag: UInt32
            switch readTag(bytes, at: i, end: r.upperBound) {
            case .success(let t):
                tag = t.tag
                i = t.next
            case .failure(let e):
                return (objects, e)
            }
            let lengthStart = i
            let length: Int
            switch readLength(bytes, at: i, end: r.upperBound, tagHex: Hex.value(tag, digits: 2 * (i - tagStart))) {
            case .success(let l):
                length = l.length
                i = l.next
            case .failure(let e):
                return (objects, e)
            }
            guard length <= r.upperBound - i else {
                return (objects, DecodeError(offset: i, expected: "\(length) value bytes of tag \(Hex.value(tag, digits: 2 * (lengthStart - tagStart)))", found: "\(r.upperBound - i)"))
            }
            var object = BERTLV(tag: tag, tagRange: tagStart..<lengthStart, lengthRange: lengthStart..<i, valueRange: i..<i + length,
                                value: Array(bytes[i..<i + length]), children: nil, error: nil)
            if object.isConstructed {
                if depth < depthLimit {
                    let inner = parse(bytes, range: object.valueRange, depth: depth + 1)
                    object.children = inner.objects
                    object.error = inner.error
                } else {
                    object.error = DecodeError(offset: i, expected: "at most \(depthLimit) nested objects", found: "deeper nesting")
                }
            }
            objects.append(object)
            i += length
        }
        return (objects, nil)
    }

    /// The length at `start` and the index after it: one byte below 80, or 81–83 and that many
    /// bytes (80, indefinite, is not used in ISO/IEC 7816).
    static func readLength(_ bytes: [UInt8], at start: Int, end: Int, tagHex: @autoclosure () -> String) -> Result<(length: Int, next: Int), DecodeError> {
        var i = start
        guard i < end else { return .failure(DecodeError(offset: i, expected: "the length of tag \(tagHex())", found: "end of data")) }
        var length = Int(bytes[i])
        i += 1
        if length > 0x80 {
            let n = length & 0x7F
            guard n <= 3 else { return .failure(DecodeError(offset: start, expected: "a length of at most 3 bytes after 8x", found: Hex.byte(UInt8(length)))) }
            guard i + n <= end else { return .failure(DecodeError(offset: i, expected: "\(n) length bytes", found: "\(end - i)")) }
            length = 0
            for _ in 0..<n {
                length = length << 8 | Int(bytes[i])
                i += 1
            }
        } else if length == 0x80 {
            return .failure(DecodeError(offset: start, expected: "a definite length (80, indefinite, is not used in ISO/IEC 7816)", found: "80"))
        }
        return .success((length, i))
    }

    /// The values of `tags` in BER-TLV data whose end has not arrived yet (an answer that is still
    /// being chained), nested ones included: each with the range its length gives, which may reach
    /// past the bytes there are. An object inside a constructed one must end within it; the walk
    /// ends at the first object that does not parse or does not fit, as `parse` does.
    public static func values(of tags: Set<UInt32>, inPrefix bytes: [UInt8]) -> [(tag: UInt32, range: Range<Int>)] {
        var found: [(tag: UInt32, range: Range<Int>)] = []
        _ = walk(tags, bytes, from: 0, declaredEnd: nil, depth: 0, into: &found)
        return found
    }

    /// Whether BER-TLV data whose end has not arrived yet is well formed as far as it goes: false
    /// when an object is malformed, or does not fit the one around it, before the bytes run out
    /// (a header cut by their end is only not there yet).
    public static func prefixParses(_ bytes: [UInt8]) -> Bool {
        var found: [(tag: UInt32, range: Range<Int>)] = []
        return walk([], bytes, from: 0, declaredEnd: nil, depth: 0, into: &found)
    }

    /// Objects from `start` to `declaredEnd` (the enclosing object's end; nil at the top, where
    /// the data goes on), as far as the bytes have arrived; false when one is malformed. A damaged
    /// object inside a constructed one ends that one's list only, as in `parse`: the walk goes on
    /// after it.
    private static func walk(_ tags: Set<UInt32>, _ bytes: [UInt8], from start: Int, declaredEnd: Int?, depth: Int, into found: inout [(tag: UInt32, range: Range<Int>)]) -> Bool {
        let end = min(declaredEnd ?? bytes.count, bytes.count)
        var wellFormed = true
        var i = start
        while i < end {
            if bytes[i] == 0x00 || bytes[i] == 0xFF {
                i += 1
                continue
            }
            let t: (tag: UInt32, next: Int)
            switch readTag(bytes, at: i, end: end) {
            case .success(let read): t = read
            // A tag of up to 4 bytes, cut by the end of what has arrived: not there yet.
            case .failure: return wellFormed && end == bytes.count && bytes.count - i <= 4
            }
            let l: (length: Int, next: Int)
            switch readLength(bytes, at: t.next, end: end, tagHex: "") {
            case .success(let read): l = (read.length, read.next)
            // A length of up to 4 bytes, likewise.
            case .failure:
                guard wellFormed, end == bytes.count else { return false }
                if t.next == bytes.count { return true }
                let first = bytes[t.next], n = Int(first & 0x7F)
                return first > 0x80 && n <= 3 && t.next + 1 + n > bytes.count
            }
            let value = l.next..<l.next + l.length
            if let declaredEnd, value.upperBound > declaredEnd { return false }
            if tags.contains(t.tag) {
                found.append((t.tag, value))
            } else if bytes[i] & 0x20 != 0, depth < depthLimit,
                      !walk(tags, bytes, from: value.lowerBound, declaredEnd: value.upperBound, depth: depth + 1, into: &found) {
                wellFormed = false
            }
            i = value.upperBound
        }
        return wellFormed
    }

    /// The tag at `start` and the index after it: one byte, or more when b5…b1 are all set, each
    /// further byte with b8 set saying another follows; at most 4 bytes. (Data object lists are
    /// tags without values, so they read tags here too.)
    public static func readTag(_ bytes: [UInt8], at start: Int, end: Int) -> Result<(tag: UInt32, next: Int), DecodeError> {
        var i = start
        var tag = UInt32(bytes[i])
        i += 1
        if tag & 0x1F == 0x1F {
            repeat {
                guard i < end else { return .failure(DecodeError(offset: i, expected: "the next byte of tag \(Hex.value(tag, digits: 2 * (i - start)))", found: "end of data")) }
                guard i - start < 4 else { return .failure(DecodeError(offset: i, expected: "a tag of at most 4 bytes", found: "a longer one")) }
                tag = tag << 8 | UInt32(bytes[i])
                i += 1
            } while bytes[i - 1] & 0x80 != 0
        }
        return .success((tag, i))
    }

    /// The encoding of a tag, length and value (the emulators and fuzz shapes build with it).
    public static func encode(tag: UInt32, value: [UInt8]) -> [UInt8] {
        var t: [UInt8] = []
        var v = tag
        repeat {
            t.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        } while v != 0
        let n = value.count
        let length: [UInt8]
        switch n {
        case 0..<0x80: length = [UInt8(n)]
        case 0x80...0xFF: length = [0x81, UInt8(n)]
        case 0x100...0xFFFF: length = [0x82, UInt8(n >> 8), UInt8(truncatingIfNeeded: n)]
        default: length = [0x83, UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
        }
        return t + length + value
    }
}
