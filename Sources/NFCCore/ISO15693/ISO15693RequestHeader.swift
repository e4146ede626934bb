/// The addressing part of an ISO/IEC 15693 request: flags, command code, the IC manufacturer
/// code of a custom command and the UID of an addressed one (protocols.md §6.3, §6.4).
///
/// A VICC needs it to decide whether a request is meant for it before it can tell a well-formed
/// request from a malformed one: ISO/IEC 15693-3 answers a format error (`02`) only to the VICC
/// the request addresses, so the header is read on its own and never fails on the parameters.
public struct ISO15693RequestHeader: Sendable, Hashable {
    public var flags: ISO15693RequestFlags
    public var code: UInt8
    /// Custom commands (`A0…DF`): the IC manufacturer code after the command code.
    public var manufacturer: UInt8?
    /// Present when the address flag is set and the command takes a UID.
    public var uid: ISO15693UID?

    public init(flags: ISO15693RequestFlags, code: UInt8, manufacturer: UInt8? = nil, uid: ISO15693UID? = nil) {
        self.flags = flags
        self.code = code
        self.manufacturer = manufacturer
        self.uid = uid
    }

    /// Reads flags, command, [manufacturer | information request flags] and [UID]; the
    /// parameters after them are not looked at.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ISO15693RequestHeader {
        var c = ByteCursor(payload)
        let flags = ISO15693RequestFlags(rawValue: try c.readUInt8("request flags"))
        let code = try c.readUInt8("command code")
        var header = ISO15693RequestHeader(flags: flags, code: code)
        switch ISO15693CommandCode.range(of: code) {
        case .proprietary:
            // Layout defined by the IC manufacturer: no known UID position.
            return header
        case .rfu:
            // The general request format (ISO/IEC 15693-3 7.3): the UID follows the command code.
            // The full decoder keeps these bytes raw (ISO15693Command.takesUID).
            break
        case .custom:
            header.manufacturer = try c.readUInt8("IC manufacturer code (custom command)")
        case .defined(.inventory):
            return header
        case .defined(.extendedGetSystemInformation):
            _ = try c.readUInt8("information request flags")
        case .defined:
            break
        }
        if flags.carriesUID {
            header.uid = ISO15693UID(onAir: try c.readBytes(8, "UID (8 bytes, LSB first: the address flag is set)"))
        }
        return header
    }
}
