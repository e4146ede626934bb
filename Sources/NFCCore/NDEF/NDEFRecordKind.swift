/// The record types nfctrace reads the payload of, and where each is understood.
public enum NDEFRecordKind: String, Sendable, Hashable, CaseIterable {
    case empty
    case text                  // urn:nfc:wkt:T
    case uri                   // urn:nfc:wkt:U
    case smartPoster           // urn:nfc:wkt:Sp
    case smartPosterAction     // act, inside a Smart Poster
    case smartPosterSize       // s, inside a Smart Poster
    case smartPosterType       // t, inside a Smart Poster
    case handoverRequest       // Hr
    case handoverSelect        // Hs
    case handoverMediation     // Hm
    case handoverInitiate      // Hi
    case handoverCarrier       // Hc
    case alternativeCarrier    // ac, inside a handover record
    case collisionResolution   // cr, inside a Handover Request
    case handoverError         // err, inside a Handover Select
    case deviceInformation     // Di
    case signature             // Sig
    case bluetoothEasyPairing  // application/vnd.bluetooth.ep.oob
    case bluetoothLowEnergy    // application/vnd.bluetooth.le.oob
    case wifiSimpleConfig      // application/vnd.wfa.wsc
    case wifiPeerToPeer        // application/vnd.wfa.p2p
    case vCard                 // text/vcard, text/x-vcard
    case androidApplication    // urn:nfc:ext:android.com:pkg (AAR)
    case absoluteURI           // TNF 3
    case media                 // any other media type
    case external              // any other external type

    /// Whether the payload has rules a strict decode checks (the others are only shown).
    public var hasPayloadRules: Bool {
        switch self {
        case .empty, .vCard, .androidApplication, .absoluteURI, .media, .external: return false
        default: return true
        }
    }

    /// The records a container's payload (a nested message) understands (protocols.md §4.6, §4.7).
    public enum Context: Sendable, Hashable {
        /// A top-level message: every global type.
        case message
        case smartPoster
        case handoverRequest
        case handoverSelect
        case handoverMediation
        case handoverInitiate
    }

    /// The kind of a record in `context`, or nil when nfctrace does not read that type there.
    ///
    /// Well-known names are case-sensitive (RTD §2.3: `T` and `t` differ); media types and
    /// external names are not (RFC 2045 §5.1, RTD §2.4), so they are compared lower-cased.
    public static func recognize(tnf: NDEFTypeNameFormat, type: [UInt8], in context: Context) -> NDEFRecordKind? {
        switch tnf {
        case .empty: return .empty
        case .wellKnown: return wellKnown(type, in: context)
        case .media: return media(type, in: context)
        case .absoluteURI: return .absoluteURI
        case .external:
            return asciiLowercased(type) == Array("android.com:pkg".utf8) ? .androidApplication : .external
        case .unknown, .unchanged, .reserved: return nil
        }
    }

    private static func wellKnown(_ type: [UInt8], in context: Context) -> NDEFRecordKind? {
        let name = String(decoding: type, as: UTF8.self)
        switch context {
        case .message:
            switch name {
            case "T": return .text
            case "U": return .uri
            case "Sp": return .smartPoster
            case "Hr": return .handoverRequest
            case "Hs": return .handoverSelect
            case "Hm": return .handoverMediation
            case "Hi": return .handoverInitiate
            case "Hc": return .handoverCarrier
            case "Di": return .deviceInformation
            case "Sig": return .signature
            default: return nil
            }
        case .smartPoster:
            // Smart Poster RTD §3: the URI, titles and the local act/s/t records.
            switch name {
            case "T": return .text
            case "U": return .uri
            case "act": return .smartPosterAction
            case "s": return .smartPosterSize
            case "t": return .smartPosterType
            default: return nil
            }
        case .handoverRequest:
            // Connection Handover 1.3 §3.1: cr and ac inside Hr; Hc and carrier records follow.
            switch name {
            case "ac": return .alternativeCarrier
            case "cr": return .collisionResolution
            case "Hc": return .handoverCarrier
            case "Di": return .deviceInformation
            default: return nil
            }
        case .handoverSelect:
            switch name {
            case "ac": return .alternativeCarrier
            case "err": return .handoverError
            case "Di": return .deviceInformation
            default: return nil
            }
        case .handoverMediation, .handoverInitiate:
            return name == "ac" ? .alternativeCarrier : nil
        }
    }

    private static func media(_ type: [UInt8], in context: Context) -> NDEFRecordKind? {
        // Parameters (`; charset=…`) do not change the media type.
        var essence = asciiLowercased(type)
        if let semicolon = essence.firstIndex(of: 0x3B) { essence = Array(essence[..<semicolon]) }
        while essence.last == 0x20 { essence.removeLast() }
        let name = String(decoding: essence, as: UTF8.self)
        let carrier: NDEFRecordKind?
        switch name {
        case "application/vnd.bluetooth.ep.oob": carrier = .bluetoothEasyPairing
        case "application/vnd.bluetooth.le.oob": carrier = .bluetoothLowEnergy
        case "application/vnd.wfa.wsc": carrier = .wifiSimpleConfig
        case "application/vnd.wfa.p2p": carrier = .wifiPeerToPeer
        case "text/vcard", "text/x-vcard": return .vCard
        default: carrier = nil
        }
        switch context {
        case .message, .handoverRequest, .handoverSelect:
            return carrier ?? .media
        case .smartPoster, .handoverMediation, .handoverInitiate:
            // Carrier configuration belongs to handover messages; elsewhere it is only shown.
            return .media
        }
    }

    /// ASCII letters lower-cased, other bytes kept (for case-insensitive type names).
    public static func asciiLowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }
}
