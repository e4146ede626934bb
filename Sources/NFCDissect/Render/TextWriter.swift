import NFCCore

/// Builds a short text (a frame summary, a field value) as UTF-8 bytes and makes one `String`
/// of it at the end. Each piece costs a copy of its bytes, where `String` interpolation and `+=`
/// go through the general append path and often grow the string more than once.
///
/// The bytes live in a buffer of its own, because an `[UInt8]`'s `append(contentsOf:)` is a
/// generic call per piece; a copied writer gets its own buffer before either one writes again,
/// as an array would.
public struct TextWriter {
    /// Owns the bytes (tail-allocated: one allocation per writer); the writer keeps the
    /// address and sizes beside it, so writing touches no class property.
    @usableFromInline final class Storage: ManagedBuffer<Void, UInt8> {}

    @usableFromInline var storage: Storage
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var count = 0

    public init(capacity: Int) {
        (storage, base, self.capacity) = Self.allocate(max(16, capacity))
    }

    @usableFromInline
    static func allocate(_ capacity: Int) -> (Storage, UnsafeMutablePointer<UInt8>, Int) {
        let s = unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in }, to: Storage.self)
        return (s, s.withUnsafeMutablePointerToElements { $0 }, capacity)
    }

    /// The text written so far.
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    /// Room for `n` more bytes, in a buffer this writer alone uses; returns where they go.
    @inlinable
    mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count &+ n > capacity || !isKnownUniquelyReferenced(&storage) { grow(count + n) }
        return base + count
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        var c = capacity
        while c < needed { c *= 2 }
        let (s, b, _) = Self.allocate(c)
        b.update(from: base, count: count)
        storage = s
        base = b
        capacity = c
    }

    @inlinable
    mutating func append(_ src: UnsafeBufferPointer<UInt8>) {
        guard let from = src.baseAddress, !src.isEmpty else { return }
        room(src.count).update(from: from, count: src.count)
        count &+= src.count
    }

    @inlinable
    mutating func append(_ b: UInt8) {
        room(1).pointee = b
        count &+= 1
    }

    @inlinable
    public mutating func write(_ text: StaticString) {
        if text.hasPointerRepresentation {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            write(text.description)
        }
    }

    @inlinable
    public mutating func write(_ text: String) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ append($0) }) { return done }
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `0x3A` (as `Hex.byte`).
    @inlinable
    public mutating func hexByte(_ b: UInt8) {
        let out = room(4)
        out[0] = 0x30
        out[1] = 0x78
        out[2] = Hex.digit(ofNibble: b >> 4)
        out[3] = Hex.digit(ofNibble: b & 0x0F)
        count &+= 4
    }

    /// `04 A2 2C` (as `Hex.string`): two digits per byte, a space between bytes.
    @inlinable
    public mutating func hexBytes<C: Collection>(_ b: C) where C.Element == UInt8 {
        let n = b.count
        guard n > 0 else { return }
        let out = room(n * 3 - 1)
        var i = 0
        for x in b {
            if i > 0 {
                out[i] = 0x20
                i &+= 1
            }
            out[i] = Hex.digit(ofNibble: x >> 4)
            out[i &+ 1] = Hex.digit(ofNibble: x & 0x0F)
            i &+= 2
        }
        count &+= i
    }

    /// `0044` (as `Hex.value(v, digits:)`): the low `digits` hex digits of `v`, zero padded.
    @inlinable
    public mutating func hexValue<T: BinaryInteger>(_ v: T, digits: Int) {
        let x = UInt64(truncatingIfNeeded: v)
        var i = max(0, digits) - 1
        while i >= 0 {
            append(Hex.digit(ofNibble: UInt8(truncatingIfNeeded: (i < 16 ? x >> UInt64(4 * i) : 0) & 0xF)))
            i -= 1
        }
    }

    /// A decimal integer (as `"\(n)"`).
    @inlinable
    public mutating func decimal(_ n: Int) {
        if n < 0 { append(0x2D) }
        let v = n.magnitude
        var digits = 1
        var scale: UInt = 1
        while v / scale >= 10 {
            scale &*= 10
            digits &+= 1
        }
        // Written from the last digit back.
        let out = room(digits)
        var rest = v
        var i = digits
        repeat {
            i &-= 1
            out[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while i > 0
        count &+= digits
    }
}
