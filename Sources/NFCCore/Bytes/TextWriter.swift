/// Builds a short text (a frame summary, a field value) as UTF-8 bytes and makes one `String`
/// of it at the end. Each piece costs a copy of its bytes, where `String` interpolation and `+=`
/// go through the general append path and often grow the string more than once.
public struct TextWriter {
    @usableFromInline var bytes: [UInt8]

    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    @inlinable
    public mutating func write(_ text: StaticString) {
        if text.hasPointerRepresentation {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            write(text.description)
        }
    }

    @inlinable
    public mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `0x3A` (as `Hex.byte`).
    @inlinable
    public mutating func hexByte(_ b: UInt8) {
        bytes.append(0x30)
        bytes.append(0x78)
        Hex.appendByte(b, to: &bytes)
    }

    /// `04 A2 2C` (as `Hex.string`): two digits per byte, a space between bytes.
    @inlinable
    public mutating func hexBytes<C: Collection>(_ b: C) where C.Element == UInt8 {
        var first = true
        for x in b {
            if !first { bytes.append(0x20) }
            first = false
            Hex.appendByte(x, to: &bytes)
        }
    }

    /// `0044` (as `Hex.value(v, digits:)`): the low `digits` hex digits of `v`, zero padded.
    @inlinable
    public mutating func hexValue<T: BinaryInteger>(_ v: T, digits: Int) {
        let x = UInt64(truncatingIfNeeded: v)
        var i = max(0, digits) - 1
        while i >= 0 {
            bytes.append(Hex.digit(ofNibble: UInt8(truncatingIfNeeded: (i < 16 ? x >> UInt64(4 * i) : 0) & 0xF)))
            i -= 1
        }
    }

    /// A decimal integer (as `"\(n)"`).
    @inlinable
    public mutating func decimal(_ n: Int) {
        if n < 0 { bytes.append(0x2D) }
        let v = n.magnitude
        // The digits' count first, then each digit from the most significant: reversing them in
        // place (`bytes[start...].reverse()`) copied the array through a slice.
        var scale: UInt = 1
        while v / scale >= 10 { scale &*= 10 }
        while true {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: (v / scale) % 10))
            if scale == 1 { break }
            scale /= 10
        }
    }
}
