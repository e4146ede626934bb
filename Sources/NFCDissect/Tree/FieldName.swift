/// A field's key or label: a plain string. Dissectors write literals and interpolations where a
/// `FieldName` is expected and wrap a computed `String` in `FieldName(_:)`; a literal of fifteen
/// UTF-8 bytes or fewer is stored inline, a longer one points at the binary's constant text, so
/// neither allocates. Two names are equal when their text is.
public struct FieldName: Sendable, Hashable, CustomStringConvertible,
                         ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    public let text: String

    public init(stringLiteral value: String) {
        text = value
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
        text = String(stringInterpolation: stringInterpolation)
    }

    public init(_ text: String) {
        self.text = text
    }

    public var description: String { text }
}
