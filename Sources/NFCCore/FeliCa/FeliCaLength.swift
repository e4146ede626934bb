/// The LEN byte that starts every FeliCa frame: it counts itself and the payload, not CRC_F
/// (JIS X 6319-4; NFC-DIG §6.4; protocols.md §5.1).
public enum FeliCaLength {
    public enum Check: Sendable, Equatable {
        case ok
        /// LEN says `declared` bytes, the frame (without CRC_F) has `actual`.
        case mismatch(declared: Int, actual: Int)
        case empty
    }

    public static func check(_ payload: [UInt8]) -> Check {
        guard let len = payload.first else { return .empty }
        return Int(len) == payload.count ? .ok : .mismatch(declared: Int(len), actual: payload.count)
    }

    /// `body` (code + parameters) with its LEN byte in front. Frames past 255 bytes cannot be
    /// expressed; LEN then wraps rather than trapping.
    public static func prefixed(_ body: [UInt8]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: body.count + 1)] + body
    }

    /// Reads and (unless told not to) checks LEN; the cursor is left on the code.
    static func read(_ c: inout ByteCursor, payloadCount: Int, checking: Bool) throws(DecodeError) {
        let len = try c.readUInt8("LEN")
        if checking && Int(len) != payloadCount {
            throw DecodeError(offset: 0, expected: "LEN \(Hex.byte(UInt8(truncatingIfNeeded: payloadCount))) (\(payloadCount) bytes without CRC_F)",
                              found: Hex.byte(len))
        }
    }
}
