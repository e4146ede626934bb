/// Records built from typed values: every record kind nfctrace reads can also be written.
extension NDEFRecord {
    private static func wellKnown(_ name: String, _ payload: [UInt8], id: [UInt8]) -> NDEFRecord {
        NDEFRecord(tnf: .wellKnown, type: Array(name.utf8), id: id, payload: payload)
    }

    /// The Empty record (`D0 00 00` on its own).
    public static var empty: NDEFRecord { NDEFRecord(tnf: .empty) }

    public static func text(_ text: String, language: String = "en", encoding: NDEFText.Encoding = .utf8,
                            id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("T", try NDEFText(text, language: language, encoding: encoding).encode(), id: id)
    }

    public static func text(_ value: NDEFText, id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("T", try value.encode(), id: id)
    }

    /// A URI record, abbreviated with the longest matching prefix.
    public static func uri(_ uri: String, id: [UInt8] = []) -> NDEFRecord {
        wellKnown("U", NDEFURI(uri).encode(), id: id)
    }

    /// A Smart Poster: the URI, then titles, action, icon, size and type, in ndeflib's order.
    public static func smartPoster(uri: String, titles: [NDEFText] = [], action: NDEFSmartPosterAction? = nil,
                                   icon: NDEFRecord? = nil, size: UInt32? = nil, resourceType: String? = nil,
                                   id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        var records = [NDEFRecord.uri(uri)]
        for t in titles { records.append(try .text(t)) }
        if let action { records.append(.smartPosterAction(action)) }
        if let icon { records.append(icon) }
        if let size { records.append(.smartPosterSize(size)) }
        if let resourceType { records.append(.smartPosterType(resourceType)) }
        return wellKnown("Sp", try NDEFMessage(records).encode(), id: id)
    }

    /// Smart Poster local records (only meaningful inside a Smart Poster).
    public static func smartPosterAction(_ action: NDEFSmartPosterAction) -> NDEFRecord {
        wellKnown("act", [action.rawValue], id: [])
    }

    public static func smartPosterSize(_ size: UInt32) -> NDEFRecord {
        wellKnown("s", [UInt8(size >> 24), UInt8(truncatingIfNeeded: size >> 16), UInt8(truncatingIfNeeded: size >> 8),
                        UInt8(truncatingIfNeeded: size)], id: [])
    }

    public static func smartPosterType(_ mediaType: String) -> NDEFRecord {
        wellKnown("t", Array(mediaType.utf8), id: [])
    }

    /// A media-type record (`text/plain`, `image/png`, …).
    public static func mime(_ type: String, payload: [UInt8], id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .media, type: Array(type.utf8), id: id, payload: payload)
    }

    public static func vCard(_ text: String, id: [UInt8] = []) -> NDEFRecord {
        mime("text/vcard", payload: Array(text.utf8), id: id)
    }

    /// A record whose type is an absolute URI (TNF 3); the payload is free-form.
    public static func absoluteURI(_ uri: String, payload: [UInt8] = [], id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .absoluteURI, type: Array(uri.utf8), id: id, payload: payload)
    }

    /// An external type `domain:type` (lower-cased, as AOSP writes them; the names are case-insensitive).
    public static func external(_ type: String, payload: [UInt8], id: [UInt8] = []) -> NDEFRecord {
        NDEFRecord(tnf: .external, type: NDEFRecordKind.asciiLowercased(Array(type.utf8)), id: id, payload: payload)
    }

    /// Android Application Record: Android opens the message with this package.
    public static func androidApplication(_ package: String) -> NDEFRecord {
        NDEFRecord(tnf: .external, type: Array("android.com:pkg".utf8), payload: Array(package.utf8))
    }

    /// Handover Request/Select/Mediation/Initiate with its nested records (version `13` = 1.3).
    public static func handover(_ kind: NDEFHandover.Kind, version: UInt8 = 0x13, records: [NDEFRecord],
                                id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown(kind.type, try NDEFHandover.encode(version: version, records: records), id: id)
    }

    public static func handoverCarrier(_ carrier: NDEFHandoverCarrier, id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("Hc", try carrier.encode(), id: id)
    }

    public static func alternativeCarrier(_ carrier: NDEFAlternativeCarrier) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("ac", try carrier.encode(), id: [])
    }

    public static func collisionResolution(_ randomNumber: UInt16) -> NDEFRecord {
        wellKnown("cr", [UInt8(randomNumber >> 8), UInt8(truncatingIfNeeded: randomNumber)], id: [])
    }

    public static func handoverError(_ error: NDEFHandoverError) -> NDEFRecord {
        wellKnown("err", error.encode(), id: [])
    }

    public static func deviceInformation(_ info: NDEFDeviceInformation, id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("Di", try info.encode(), id: id)
    }

    public static func signature(_ signature: NDEFSignature, id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        wellKnown("Sig", try signature.encode(), id: id)
    }

    public static func bluetooth(_ oob: NDEFBluetoothOOB, id: [UInt8] = []) throws(NDEFEncodingError) -> NDEFRecord {
        let type = oob.transport == .easyPairing ? "application/vnd.bluetooth.ep.oob" : "application/vnd.bluetooth.le.oob"
        return mime(type, payload: try oob.encode(), id: id)
    }

    public static func wifiSimpleConfig(_ wsc: NDEFWiFiSimpleConfig, id: [UInt8] = []) -> NDEFRecord {
        mime("application/vnd.wfa.wsc", payload: wsc.encode(), id: id)
    }

    public static func wifiPeerToPeer(_ p2p: NDEFWiFiPeerToPeer, id: [UInt8] = []) -> NDEFRecord {
        mime("application/vnd.wfa.p2p", payload: p2p.encode(), id: id)
    }
}
