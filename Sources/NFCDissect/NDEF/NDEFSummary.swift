import NFCCore

/// One line per record, for dense listings: `URI https://example.com`, `Text (en) "Hello"`.
public enum NDEFSummary {
    public static func line(_ d: NDEFDecodedRecord) -> String {
        let r = d.record
        var size: String { plural(r.payload.count, "byte") }
        switch d.payload {
        case .text(let t): return "Text (\(t.language)) \(quoted(t.text))" + (t.encoding == .utf16 ? " UTF-16" : "")
        case .uri(let u): return "URI \(u.uri)"
        case .smartPoster(let sp): return "Smart Poster " + smartPoster(sp)
        case .smartPosterAction(let a): return "Action \(a.name)"
        case .smartPosterSize(let s): return "Size \(plural(Int(s), "byte"))"
        case .smartPosterType(let t): return "Type \(t)"
        case .handover(let h):
            return "\(h.kind.rawValue) \(h.versionText), \(plural(h.alternativeCarriers.count, "alternative carrier"))"
        case .handoverCarrier(let hc):
            let type = NDEFRecord(tnf: hc.format, type: hc.carrierType).typeName
            return "Handover Carrier \(type)"
        case .alternativeCarrier(let ac):
            return "Alternative Carrier \(quoted(String(decoding: ac.carrierDataReference, as: UTF8.self))) (\(ac.powerState.name))"
        case .collisionResolution(let n): return "Collision Resolution \(n)"
        case .handoverError(let e): return "Handover Error \(e.reasonName)"
        case .deviceInformation(let di):
            return "Device Information \(di.manufacturer ?? "?") \(di.model ?? "?")"
        case .signature(let s):
            return "Signature \(s.signatureTypeName) (\(s.hashTypeName))"
                + (s.signatureIsURI ? " at \(String(decoding: s.signature, as: UTF8.self))" : ", \(plural(s.signature.count, "byte"))")
        case .bluetooth(let b):
            var s = b.transport == .easyPairing ? "Bluetooth BR/EDR" : "Bluetooth LE"
            if let a = b.deviceAddress { s += " " + NDEFBluetoothOOB.addressText(a) }
            if let e = b.elements.first(where: { $0.type == 0x1B }), e.data.count == 7 {
                s += " " + NDEFBluetoothOOB.addressText(e.data[NDEFBluetoothOOB.LEDeviceAddressLayout.address.range])
            }
            if let name = b.localName { s += " \(quoted(name))" }
            return s
        case .wifiSimpleConfig(let w): return "Wi-Fi " + wifi(w)
        case .wifiPeerToPeer(let p): return "Wi-Fi P2P " + wifi(p.wsc)
        case .vCard(let v): return "vCard " + (v.formattedName.map(quoted) ?? size)
        case .androidApplication(let package): return "Android app \(package)"
        case .malformed:
            return "\(d.kind.map(kindName) ?? r.typeName) (unreadable), \(size)"
        case .bytes:
            switch r.tnf {
            case .empty: return "Empty"
            case .media:
                if NDEFRecordKind.asciiLowercased(r.type).starts(with: Array("text/".utf8)),
                   let text = String(validating: r.payload, as: UTF8.self) {
                    return "MIME \(r.typeText) \(quoted(text))"
                }
                return "MIME \(r.typeText), \(size)"
            case .absoluteURI: return "Absolute URI \(r.typeText), \(size)"
            case .external: return "External \(r.typeText), \(size)"
            case .wellKnown: return "Well-known \(r.typeText), \(size)"
            case .unknown: return "Unknown type, \(size)"
            case .unchanged: return "Unchanged (chunk without a start), \(size)"
            case .reserved: return "Reserved TNF 7, \(size)"
            }
        }
    }

    static func smartPoster(_ sp: NDEFSmartPoster) -> String {
        var parts = [sp.uri?.uri ?? "(no URI)"]
        if let title = sp.titles.first { parts.append(quoted(title.text)) }
        if let action = sp.action { parts.append("(\(action.name))") }
        return parts.joined(separator: " ")
    }

    static func wifi(_ w: NDEFWiFiSimpleConfig) -> String {
        let source = w.credentials.first ?? w
        var parts: [String] = []
        if let ssid = source.first(0x1045) { parts.append("SSID " + textOrHex(ssid.value)) }
        if let auth = source.first(0x1003), auth.value.count == 2 {
            parts += NDEFWiFiSimpleConfig.authenticationTypeNames(UInt16(auth.value[0]) << 8 | UInt16(auth.value[1]))
        }
        if let enc = source.first(0x100F), enc.value.count == 2 {
            parts += NDEFWiFiSimpleConfig.encryptionTypeNames(UInt16(enc.value[0]) << 8 | UInt16(enc.value[1]))
        }
        return parts.isEmpty ? plural(w.attributes.count, "attribute") : parts.joined(separator: " ")
    }

    static func kindName(_ kind: NDEFRecordKind) -> String {
        switch kind {
        case .empty: return "Empty"
        case .text: return "Text"
        case .uri: return "URI"
        case .smartPoster: return "Smart Poster"
        case .smartPosterAction: return "Action"
        case .smartPosterSize: return "Size"
        case .smartPosterType: return "Type"
        case .handoverRequest: return "Handover Request"
        case .handoverSelect: return "Handover Select"
        case .handoverMediation: return "Handover Mediation"
        case .handoverInitiate: return "Handover Initiate"
        case .handoverCarrier: return "Handover Carrier"
        case .alternativeCarrier: return "Alternative Carrier"
        case .collisionResolution: return "Collision Resolution"
        case .handoverError: return "Handover Error"
        case .deviceInformation: return "Device Information"
        case .signature: return "Signature"
        case .bluetoothEasyPairing: return "Bluetooth BR/EDR"
        case .bluetoothLowEnergy: return "Bluetooth LE"
        case .wifiSimpleConfig: return "Wi-Fi"
        case .wifiPeerToPeer: return "Wi-Fi P2P"
        case .vCard: return "vCard"
        case .androidApplication: return "Android app"
        case .absoluteURI: return "Absolute URI"
        case .media: return "MIME"
        case .external: return "External"
        }
    }
}
