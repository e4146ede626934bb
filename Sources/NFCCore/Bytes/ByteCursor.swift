/// Why a decode stopped: the byte offset where it happened and what the decoder expected there.
///
/// Every codec in NFCCore reports failures with this one type, so the dissector, the
/// capture readers and the CLI can all say "at byte 5: expected 2-byte CRC_A, found 1 byte".
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset from the start of the decoded unit (a frame, a memory image, an NDEF message).
    public var offset: Int
    /// What the decoder needed at `offset`, in the protocol's vocabulary.
    public var expected: String
    /// What it found instead, when that helps ("1 byte", "0x07").
    public var found: String?

    public init(offset: Int, expected: String, found: String? = nil) {
        self.offset = offset
        self.expected = expected
        self.found = found
    }

    public var description: String {
        if let found { return "at byte \(offset): expected \(expected), found \(found)" }
        return "at byte \(offset): expected \(expected)"
    }
}

/// A bounds-checked reader over a byte array: the only way codecs look at untrusted bytes.
///
/// Reads either return a value or throw a `DecodeError` carrying the offset; nothing here
/// can trap on short or hostile input.
public struct ByteCursor: Sendable {
    public let bytes: [UInt8]
    /// Absolute index of the next byte to read.
    public private(set) var index: Int
    /// Absolute index one past the last readable byte.
    public let endIndex: Int
    /// Absolute index that reported offsets are measured from.
    public let origin: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.index = 0
        self.endIndex = bytes.count
        self.origin = 0
    }

    /// A cursor over `range` of `bytes`; offsets are reported relative to `origin`
    /// (pass `range.lowerBound` to report offsets inside the range, 0 for the whole buffer).
    public init(_ bytes: [UInt8], range: Range<Int>, origin: Int? = nil) {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        self.bytes = bytes
        self.index = lower
        self.endIndex = upper
        self.origin = origin ?? lower
    }

    public init(_ slice: ArraySlice<UInt8>) {
        self.init(Array(slice))
    }

    /// Offset of the next byte, relative to `origin`.
    public var offset: Int { index - origin }
    public var remaining: Int { endIndex - index }
    public var isAtEnd: Bool { index >= endIndex }

    public func error(_ expected: String, found: String? = nil) -> DecodeError {
        DecodeError(offset: offset, expected: expected, found: found)
    }

    private func shortError(_ needed: Int, _ expected: String) -> DecodeError {
        DecodeError(
            offset: offset, expected: expected,
            found: remaining == 0 ? "end of data" : "\(remaining) byte\(remaining == 1 ? "" : "s")")
    }

    public func peekUInt8() -> UInt8? {
        index < endIndex ? bytes[index] : nil
    }

    public func peek(at distance: Int) -> UInt8? {
        let i = index + distance
        return distance >= 0 && i < endIndex ? bytes[i] : nil
    }

    public mutating func readUInt8(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt8 {
        guard index < endIndex else { throw shortError(1, expected()) }
        defer { index += 1 }
        return bytes[index]
    }

    public mutating func readUInt16BE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt16 {
        guard remaining >= 2 else { throw shortError(2, expected()) }
        defer { index += 2 }
        return UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }

    public mutating func readUInt16LE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt16 {
        guard remaining >= 2 else { throw shortError(2, expected()) }
        defer { index += 2 }
        return UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
    }

    public mutating func readUInt24BE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt32 {
        guard remaining >= 3 else { throw shortError(3, expected()) }
        defer { index += 3 }
        return UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
    }

    public mutating func readUInt24LE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt32 {
        guard remaining >= 3 else { throw shortError(3, expected()) }
        defer { index += 3 }
        return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
    }

    public mutating func readUInt32BE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt32 {
        guard remaining >= 4 else { throw shortError(4, expected()) }
        defer { index += 4 }
        return UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
            | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    public mutating func readUInt32LE(_ expected: @autoclosure () -> String) throws(DecodeError) -> UInt32 {
        guard remaining >= 4 else { throw shortError(4, expected()) }
        defer { index += 4 }
        return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
    }

    /// Reads exactly `count` bytes.
    public mutating func readBytes(_ count: Int, _ expected: @autoclosure () -> String) throws(DecodeError) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw shortError(count, expected()) }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    /// Reads `count` bytes and returns their absolute range instead of copying them.
    public mutating func readRange(_ count: Int, _ expected: @autoclosure () -> String) throws(DecodeError) -> Range<Int> {
        guard count >= 0, remaining >= count else { throw shortError(count, expected()) }
        defer { index += count }
        return index..<index + count
    }

    /// Reads every remaining byte (possibly none).
    public mutating func readRest() -> [UInt8] {
        defer { index = endIndex }
        return Array(bytes[index..<endIndex])
    }

    /// Reads up to `count` bytes: what is there when fewer remain.
    public mutating func readUpTo(_ count: Int) -> [UInt8] {
        let n = max(0, min(count, remaining))
        defer { index += n }
        return Array(bytes[index..<index + n])
    }

    public mutating func skip(_ count: Int, _ expected: @autoclosure () -> String) throws(DecodeError) {
        guard count >= 0, remaining >= count else { throw shortError(count, expected()) }
        index += count
    }

    /// Requires that nothing is left; used by decoders of fixed-size frames.
    public func expectEnd(_ what: @autoclosure () -> String) throws(DecodeError) {
        guard isAtEnd else {
            throw DecodeError(offset: offset, expected: "end of \(what())", found: "\(remaining) extra byte\(remaining == 1 ? "" : "s")")
        }
    }

    /// A cursor over the next `count` bytes (offsets still relative to this cursor's origin);
    /// this cursor moves past them.
    public mutating func readSubCursor(_ count: Int, _ expected: @autoclosure () -> String) throws(DecodeError) -> ByteCursor {
        let range = try readRange(count, expected())
        return ByteCursor(bytes, range: range, origin: origin)
    }
}
