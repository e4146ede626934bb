/// One value of a payload: where it sits (offset and width in bytes) and what a decoder expects
/// to find there. A command's table of these is its one description: decode reads through it,
/// encode writes through it, and the dissector takes each field's byte range from it, so no
/// offset is written twice (docs/adding-a-protocol.md).
public struct FieldLayout: Sendable, Hashable {
    public let offset: Int
    public let width: Int
    /// What decode errors say is missing (`page address`, `4-byte password`).
    public let expected: String

    public init(_ offset: Int, _ width: Int, _ expected: String) {
        self.offset = offset
        self.width = width
        self.expected = expected
    }

    public var range: Range<Int> { offset..<offset + width }
    /// The range of the field in a payload where its table starts at `base` (a UID CLn inside a
    /// SELECT, say).
    public func range(at base: Int) -> Range<Int> { base + offset..<base + offset + width }
    /// The offset just past the field, where the next one starts.
    public var end: Int { offset + width }
}

extension ByteCursor {
    /// The cursor must stand at the field: tables list fields in payload order. A table that
    /// skips or overlaps is a bug the round-trip tests catch; here it is a decode error, not a trap.
    private func at(_ field: FieldLayout) throws(DecodeError) {
        guard offset == field.offset else { throw error(field.expected, found: "a layout table out of order at byte \(offset)") }
    }

    public mutating func readUInt8(_ field: FieldLayout) throws(DecodeError) -> UInt8 {
        try at(field)
        return try readUInt8(field.expected)
    }

    public mutating func readUInt16BE(_ field: FieldLayout) throws(DecodeError) -> UInt16 {
        try at(field)
        return try readUInt16BE(field.expected)
    }

    public mutating func readUInt16LE(_ field: FieldLayout) throws(DecodeError) -> UInt16 {
        try at(field)
        return try readUInt16LE(field.expected)
    }

    public mutating func readUInt24LE(_ field: FieldLayout) throws(DecodeError) -> UInt32 {
        try at(field)
        return try readUInt24LE(field.expected)
    }

    public mutating func readBytes(_ field: FieldLayout) throws(DecodeError) -> [UInt8] {
        try at(field)
        return try readBytes(field.width, field.expected)
    }
}

/// Builds a payload field by field from the same tables decode reads. A gap before a field is
/// zeros; a value of another width than its field is written as it is (the fuzzer builds
/// malformed commands that way), and what follows moves with it.
public struct PayloadWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func put(_ value: UInt8, _ field: FieldLayout) {
        put([value], field)
    }

    public mutating func put<C: Collection>(_ value: C, _ field: FieldLayout) where C.Element == UInt8 {
        if bytes.count < field.offset { bytes += [UInt8](repeating: 0, count: field.offset - bytes.count) }
        bytes += value
    }

    /// A little-endian value of the field's width (INCR_CNT's 24-bit increment).
    public mutating func putLE(_ value: UInt32, _ field: FieldLayout) {
        put((0..<field.width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }, field)
    }
}
