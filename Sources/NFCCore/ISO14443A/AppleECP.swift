/// Apple's Enhanced Contactless Polling frame (protocols-wave2.md §6.5, after kormax's
/// reverse-engineered description, which the Proxmark3 follows): a reader-only broadcast
/// `6A 01 …` or `6A 02 …` + CRC_A that tells iPhones and Watches which pass to offer.
public struct AppleECP: Sendable, Hashable {
    public var version: UInt8
    /// Version 2: b8 always set, b7 set when no user authentication is needed, b4…b1 the data length.
    public var configuration: UInt8?
    public var terminalType: UInt8?
    public var terminalSubtype: UInt8?
    /// Version 1: the 3-byte TCI; version 2: the n data bytes (TCIs and type-specific extras).
    public var data: [UInt8]

    public static let header: UInt8 = 0x6A

    public enum Layout {
        public static let header = FieldLayout(0, 1, "ECP header 6A")
        public static let version = FieldLayout(1, 1, "ECP version (01 or 02)")
        public static let tci = FieldLayout(2, 3, "3-byte TCI (version 1)")
        public static let configuration = FieldLayout(2, 1, "configuration byte (version 2)")
        public static let terminalType = FieldLayout(3, 1, "terminal type")
        public static let terminalSubtype = FieldLayout(4, 1, "terminal subtype")
        public static func data(count: Int) -> FieldLayout { FieldLayout(5, count, "\(count) bytes of TCI and terminal data") }
    }

    /// Decodes a frame without its CRC.
    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> AppleECP {
        var c = ByteCursor(payload)
        let h = try c.readUInt8(Layout.header.expected)
        guard h == header else { throw DecodeError(offset: 0, expected: Layout.header.expected, found: Hex.byte(h)) }
        let version = try c.readUInt8(Layout.version.expected)
        switch version {
        case 0x01:
            let tci = try c.readBytes(Layout.tci.width, Layout.tci.expected)
            try c.expectEnd("ECP version 1")
            return AppleECP(version: 1, data: tci)
        case 0x02:
            let config = try c.readUInt8(Layout.configuration.expected)
            let type = try c.readUInt8(Layout.terminalType.expected)
            let subtype = try c.readUInt8(Layout.terminalSubtype.expected)
            let n = Int(config & 0x0F)
            let data = try c.readBytes(n, Layout.data(count: n).expected)
            try c.expectEnd("ECP version 2 with \(n) data bytes")
            return AppleECP(version: 2, configuration: config, terminalType: type, terminalSubtype: subtype, data: data)
        default:
            throw DecodeError(offset: 1, expected: Layout.version.expected, found: Hex.byte(version))
        }
    }

    public var terminalTypeName: String? {
        switch terminalType {
        case 0x01?: return "transit"
        case 0x02?: return "access"
        case 0x03?: return "identity"
        case 0x05?: return "AirDrop"
        case let t?: return "terminal type \(Hex.byte(t))"
        case nil: return nil
        }
    }

    public var userAuthenticationRequired: Bool? { configuration.map { $0 & 0x40 == 0 } }

    /// `ECP2 transit, no user authentication, TCI 03 00 02`.
    public var summary: String {
        guard version == 2 else { return "ECP1 TCI \(Hex.string(data))" }
        var s = "ECP2 \(terminalTypeName ?? "")"
        if userAuthenticationRequired == false { s += ", no user authentication" }
        if data.count >= 3 { s += ", TCI \(Hex.string(data.prefix(3)))" }
        return s
    }
}
