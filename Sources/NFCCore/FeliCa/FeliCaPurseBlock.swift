/// The block of a purse service, and the block a cashback or decrement write carries.
/// FeliCa Card User's Manual (Excerpted Edition), "Purse Service", Figure 3-17: bytes 0–3 hold
/// the value, little endian (the purse balance, or the cashback/decrement amount), bytes 14–15
/// the execution ID; bytes 4–13 are kept as they are (protocols.md §5.4 lists the purse kinds).
public struct FeliCaPurseBlock: Sendable, Hashable {
    public var value: UInt32
    /// Bytes 4–13.
    public var middle: [UInt8]
    /// Bytes 14–15, as sent.
    public var executionID: [UInt8]

    public init(value: UInt32, middle: [UInt8] = [UInt8](repeating: 0, count: 10), executionID: [UInt8] = [0, 0]) {
        self.value = value
        self.middle = Array((middle + [UInt8](repeating: 0, count: 10)).prefix(10))
        self.executionID = Array((executionID + [0, 0]).prefix(2))
    }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> FeliCaPurseBlock {
        var c = ByteCursor(block)
        let value = try c.readUInt32LE("purse value (4 bytes, little endian)")
        let middle = try c.readBytes(10, "purse bytes 4–13")
        let id = try c.readBytes(2, "execution ID (2 bytes)")
        try c.expectEnd("the 16-byte purse block")
        return FeliCaPurseBlock(value: value, middle: middle, executionID: id)
    }

    public var bytes: [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } + middle + executionID
    }
}
