/// The TNF field of an NDEF record header: how to read its TYPE (protocols.md §4.2).
public enum NDEFTypeNameFormat: UInt8, Sendable, Hashable, CaseIterable {
    case empty = 0
    case wellKnown = 1
    case media = 2
    case absoluteURI = 3
    case external = 4
    case unknown = 5
    case unchanged = 6
    /// §9 #20: ndeflib rejects it, AOSP reads it like Unknown. Kept so nothing is lost.
    case reserved = 7

    /// The 3-bit value of a header byte.
    public init(header: UInt8) {
        // Every 3-bit value has a case, so this never fails.
        self = NDEFTypeNameFormat(rawValue: header & 0x07) ?? .reserved
    }

    public var name: String {
        switch self {
        case .empty: return "Empty"
        case .wellKnown: return "NFC Forum well-known type"
        case .media: return "Media type (RFC 2046)"
        case .absoluteURI: return "Absolute URI (RFC 3986)"
        case .external: return "NFC Forum external type"
        case .unknown: return "Unknown"
        case .unchanged: return "Unchanged (chunk continuation)"
        case .reserved: return "Reserved"
        }
    }

    /// Whether a TYPE must be present (TNF 1–4) or absent (TNF 0, 5, 6).
    public var requiresType: Bool {
        switch self {
        case .wellKnown, .media, .absoluteURI, .external: return true
        case .empty, .unknown, .unchanged, .reserved: return false
        }
    }

    /// The URN prefix under which NFC Forum types are written (`urn:nfc:wkt:U`).
    public var urnPrefix: String? {
        switch self {
        case .wellKnown: return "urn:nfc:wkt:"
        case .external: return "urn:nfc:ext:"
        default: return nil
        }
    }
}
