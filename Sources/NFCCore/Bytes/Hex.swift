/// Hexadecimal text for bytes, both ways. The one place nfctrace turns bytes into hex and back.
public enum Hex {
    /// The uppercase hex digit of a nibble (0–15), without a table (no global to initialise).
    @inlinable @inline(__always)
    public static func digit(ofNibble nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 &+ nibble : 0x37 &+ nibble }

    /// `[0x04, 0xA2]` → `"04 A2"` (uppercase, one separator between bytes).
    @inlinable
    public static func string<C: Collection>(_ bytes: C, separator: String = " ") -> String where C.Element == UInt8 {
        let n = bytes.count
        guard n > 0 else { return "" }
        var separator = separator
        // The separator's UTF-8 is read in place (a one-space literal needs no array).
        return separator.withUTF8 { sep in
            String(unsafeUninitializedCapacity: n * 2 + (n - 1) * sep.count) { buffer in
                guard let p = buffer.baseAddress else { return 0 }
                var i = 0
                for b in bytes {
                    if i > 0 { for s in sep { p[i] = s; i += 1 } }
                    p[i] = digit(ofNibble: b >> 4)
                    p[i + 1] = digit(ofNibble: b & 0x0F)
                    i += 2
                }
                return i
            }
        }
    }

    /// `bytes` as `string` writes them, with `mask` for each byte at an index in `hidden` (card
    /// data that output masks; offsets from the first of `bytes`).
    public static func string(_ bytes: ArraySlice<UInt8>, hiding hidden: [Range<Int>], separator: String = " ", mask: String = "••") -> String {
        guard !hidden.isEmpty else { return string(bytes, separator: separator) }
        return bytes.indices.map { i in hidden.contains { $0.contains(i - bytes.startIndex) } ? mask : string(bytes[i...i]) }.joined(separator: separator)
    }

    /// Appends hex digits to a UTF-8 output buffer (used by renderers on their hot path).
    @inlinable
    public static func append<C: Collection>(_ bytes: C, separator: [UInt8] = [0x20], to out: inout [UInt8]) where C.Element == UInt8 {
        var first = true
        for b in bytes {
            if !first { out.append(contentsOf: separator) }
            first = false
            out.append(digit(ofNibble: b >> 4))
            out.append(digit(ofNibble: b & 0x0F))
        }
    }

    @inlinable
    public static func appendByte(_ b: UInt8, to out: inout [UInt8]) {
        out.append(digit(ofNibble: b >> 4))
        out.append(digit(ofNibble: b & 0x0F))
    }

    /// `0x1A8B` → `"1A8B"` with `digits` hex digits (zero padded).
    public static func value<T: BinaryInteger>(_ v: T, digits: Int) -> String {
        let n = max(0, digits)
        return String(unsafeUninitializedCapacity: n) { buffer in
            var x = UInt64(truncatingIfNeeded: v)
            var i = n - 1
            while i >= 0 {
                buffer[i] = digit(ofNibble: UInt8(x & 0xF))
                x >>= 4
                i -= 1
            }
            return n
        }
    }

    /// `"0x3A"`-style text for one byte.
    public static func byte(_ b: UInt8) -> String {
        String(unsafeUninitializedCapacity: 4) { buffer in
            buffer[0] = 0x30
            buffer[1] = 0x78
            buffer[2] = digit(ofNibble: b >> 4)
            buffer[3] = digit(ofNibble: b & 0x0F)
            return 4
        }
    }

    /// Parses hex text such as `"04 A2 2C"`, `"04a22c"`, `"04:A2:2C"` or `"0x04 0xA2"`.
    /// Whitespace, `:`, `-` and `,` separate bytes; a byte is one or two digits when separated,
    /// otherwise digits pair up, and a run of them must pair up wholly: `04A22C5` is an error,
    /// not three bytes and a `05`. With `pairsOnly` every byte must be two digits (hex dumps,
    /// where a lone digit means the text was cut). Returns nil (never traps) on anything else.
    public static func parse(_ text: some StringProtocol, pairsOnly: Bool = false) -> [UInt8]? {
        // Read where the text is, not from a copy: a frame's hex can be hundreds of MB (an
        // nfc-laboratory frameData; issue 51).
        if let bytes = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0, pairsOnly: pairsOnly) }) { return bytes }
        return Array(text.utf8).withUnsafeBufferPointer { parse(utf8: $0, pairsOnly: pairsOnly) }
    }

    private static func parse(utf8 chars: UnsafeBufferPointer<UInt8>, pairsOnly: Bool) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var pending: UInt8? = nil   // first digit of a pair
        var run = 0   // digits since the last separator
        var i = chars.startIndex
        while true {
            // A space after the end closes the last byte like any separator.
            let c = i < chars.endIndex ? chars[i] : 0x20
            if c == 0x30, pending == nil, i < chars.endIndex {
                let next = chars.index(after: i)
                if next < chars.endIndex, chars[next] | 0x20 == 0x78 {
                    i = chars.index(after: next)   // "0x" prefix
                    continue
                }
            }
            if let d = digit(c) {
                run += 1
                if let p = pending {
                    out.append(p << 4 | d)
                    pending = nil
                } else {
                    pending = d
                }
            } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x3A || c == 0x2D || c == 0x2C {
                if let p = pending {
                    guard run == 1, !pairsOnly else { return nil }   // an odd nibble left over from a run
                    out.append(p)   // a lone digit between separators is one byte ("4 A2")
                    pending = nil
                }
                run = 0
            } else {
                return nil
            }
            guard i < chars.endIndex else { return out }
            i = chars.index(after: i)
        }
    }

    @inlinable
    public static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
