/// A field's key or label. Nearly always a literal of a dissector (`"iso14443a.sel"`, `"SEL"`):
/// then it is kept as the literal's address and length, so building, copying and freeing a field
/// touch no string storage, and a renderer can remember that a literal needs no JSON escapes
/// (its bytes never change). Interpolated or computed names are kept as text.
///
/// Write literals and interpolations where a `FieldName` is expected; wrap a computed `String`
/// in `FieldName(_:)`. Two names are equal when their text is.
public struct FieldName: Sendable, Hashable, CustomStringConvertible,
                         ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    enum Storage: @unchecked Sendable {
        /// UTF-8 bytes of a string literal: immutable for the life of the process.
        case literal(UnsafePointer<UInt8>, Int)
        case text(String)
    }

    let storage: Storage

    public init(stringLiteral value: StaticString) {
        if value.hasPointerRepresentation {
            storage = .literal(value.utf8Start, value.utf8CodeUnitCount)
        } else {
            storage = .text(value.description)
        }
    }

    /// `"\(prefix).type"`: built as a `String`, like any interpolation.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text: DefaultStringInterpolation

        public init(literalCapacity: Int, interpolationCount: Int) {
            text = DefaultStringInterpolation(literalCapacity: literalCapacity, interpolationCount: interpolationCount)
        }

        public mutating func appendLiteral(_ literal: StaticString) { text.appendLiteral(literal.description) }
        public mutating func appendInterpolation(_ value: String) { text.appendInterpolation(value) }
        public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) { text.appendInterpolation(value) }
    }

    public init(stringInterpolation: StringInterpolation) {
        storage = .text(String(stringInterpolation: stringInterpolation.text))
    }

    public init(_ text: String) {
        storage = .text(text)
    }

    /// A name made at run time that then behaves like a literal: its bytes are copied to memory
    /// that is never freed. Only for tables made once (page labels, TLV keys), whose size does
    /// not depend on the input.
    public static func permanent(_ text: String) -> FieldName {
        var text = text
        return text.withUTF8 { bytes in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bytes.count))
            if let source = bytes.baseAddress { copy.initialize(from: source, count: bytes.count) }
            return FieldName(storage: .literal(UnsafePointer(copy), bytes.count))
        }
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The literal's bytes, when the name is one.
    @inline(__always)
    var literal: UnsafeBufferPointer<UInt8>? {
        if case .literal(let start, let count) = storage { return UnsafeBufferPointer(start: start, count: count) }
        return nil
    }

    public var text: String {
        switch storage {
        case .literal(let start, let count): return String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
        case .text(let s): return s
        }
    }

    public var description: String { text }

    /// Calls `body` with the name's UTF-8 bytes.
    @inline(__always)
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .literal(let start, let count): return body(UnsafeBufferPointer(start: start, count: count))
        case .text(var s): return s.withUTF8(body)
        }
    }

    public static func == (a: FieldName, b: FieldName) -> Bool {
        if case .literal(let p, let n) = a.storage, case .literal(let q, let m) = b.storage, p == q, n == m { return true }
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
