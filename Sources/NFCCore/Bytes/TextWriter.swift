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

    /// A decimal integer (as `"\(n)"`).
    @inlinable
    public mutating func decimal(_ n: Int) {
        if n < 0 { bytes.append(0x2D) }
        var v = n.magnitude
        let start = bytes.count
        repeat {
            bytes.append(0x30 &+ UInt8(v % 10))
            v /= 10
        } while v > 0
        bytes[start...].reverse()
    }
}
