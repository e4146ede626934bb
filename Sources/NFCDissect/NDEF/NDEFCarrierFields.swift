import NFCCore

/// Carrier configuration payloads: Bluetooth OOB and Wi-Fi attributes, shown as fields.
extension NDEFPayloadFields {
    func bluetooth(_ b: NDEFBluetoothOOB, _ r: NDEFRecord) -> [Field] {
        var out: [Field] = []
        if let length = b.oobLength {
            out.append(Field(.ndef.btOobLength, "\(length)", range: at(r, NDEFBluetoothOOB.Layout.oobLength.range)))
        }
        if let address = b.deviceAddress {
            out.append(Field(.ndef.btAddress, NDEFBluetoothOOB.addressText(address), range: at(r, NDEFBluetoothOOB.Layout.address.range)))
        }
        for e in b.elements {
            out.append(Field(.ndef.btEir, label: FieldName(e.name), eirValue(e), range: at(r, e.range)))
        }
        return out
    }

    func eirValue(_ e: NDEFBluetoothOOB.Element) -> String {
        let d = e.data
        switch e.type {
        case 0x08, 0x09: return quoted(String(decoding: d, as: UTF8.self))
        case 0x0D where d.count == 3:
            // Class of Device: 24 bits, sent LSB first.
            return Hex.value(Int(d[2]) << 16 | Int(d[1]) << 8 | Int(d[0]), digits: 6)
        case 0x1B where d.count == 7:
            return NDEFBluetoothOOB.addressText(d.prefix(6)) + ((d[6] & 0x01) != 0 ? " (random)" : " (public)")
        case 0x1C where d.count == 1:
            let roles = ["Peripheral only", "Central only", "Peripheral and Central, Peripheral preferred",
                         "Peripheral and Central, Central preferred"]
            return Int(d[0]) < roles.count ? roles[Int(d[0])] : "reserved \(Hex.byte(d[0]))"
        case 0x19 where d.count == 2:
            return Hex.value(Int(d[1]) << 8 | Int(d[0]), digits: 4)
        case 0x02...0x03 where d.count % 2 == 0:
            return stride(from: 0, to: d.count, by: 2).map { Hex.value(Int(d[$0 + 1]) << 8 | Int(d[$0]), digits: 4) }
                .joined(separator: ", ")
        default:
            return hexValue(d)
        }
    }

    func wsc(_ attributes: [NDEFWiFiSimpleConfig.Attribute], _ r: NDEFRecord, base: Int = 0) -> [Field] {
        attributes.map { a in
            let range = (a.range.lowerBound + base)..<(a.range.upperBound + base)
            var children: [Field] = []
            if a.type == 0x100E {
                // A Credential holds attributes of its own, after this one's 4-byte header.
                children = wsc(NDEFWiFiSimpleConfig.attributes(in: a.value), r, base: range.lowerBound + 4)
            }
            return Field(.ndef.wscAttribute, label: FieldName(a.name), wscValue(a), range: at(r, range), children: children)
        }
    }

    func wscValue(_ a: NDEFWiFiSimpleConfig.Attribute) -> String {
        let v = a.value
        let u16: UInt16? = v.count == 2 ? UInt16(v[0]) << 8 | UInt16(v[1]) : nil
        switch a.type {
        case 0x1003:
            guard let u16 else { return hexValue(v) }
            return "\(Hex.value(u16, digits: 4)) (\(NDEFWiFiSimpleConfig.authenticationTypeNames(u16).joined(separator: ", ")))"
        case 0x100F:
            guard let u16 else { return hexValue(v) }
            return "\(Hex.value(u16, digits: 4)) (\(NDEFWiFiSimpleConfig.encryptionTypeNames(u16).joined(separator: ", ")))"
        case 0x1020 where v.count == 6: return Hex.string(v, separator: ":")
        case 0x1045, 0x1027, 0x1011, 0x1021, 0x1023, 0x1024, 0x1042: return textOrHex(v)
        case 0x104A where v.count == 1: return "\(v[0] >> 4).\(v[0] & 0x0F)"
        case 0x1026 where v.count == 1: return "\(v[0])"
        case 0x100E: return plural(v.count, "byte")
        case 0x103C where v.count == 1:
            let bands = [(0x01, "2.4 GHz"), (0x02, "5 GHz"), (0x04, "60 GHz")].filter { Int(v[0]) & $0.0 != 0 }.map(\.1)
            return bands.isEmpty ? Hex.byte(v[0]) : bands.joined(separator: ", ")
        default: return hexValue(v)
        }
    }

    func peerToPeer(_ p: NDEFWiFiPeerToPeer, _ r: NDEFRecord) -> [Field] {
        func u16(at i: Int) -> Int? {
            i >= 0 && i + 1 < r.payload.count ? Int(r.payload[i]) << 8 | Int(r.payload[i + 1]) : nil
        }
        let wscLength = u16(at: 0) ?? 0
        var out = [Field(.ndef.p2pWscLength, "\(wscLength)", range: at(r, NDEFWiFiPeerToPeer.Layout.wscLength.range))]
        out += wsc(p.wsc.attributes, r, base: 2)
        if let p2pLength = u16(at: 2 + wscLength) {
            out.append(Field(.ndef.p2pLength, "\(p2pLength)", range: at(r, NDEFWiFiPeerToPeer.Layout.p2pLength(afterWSC: wscLength))))
        }
        out += p.attributes.map { Field(.ndef.p2pAttribute, label: FieldName($0.name), hexValue($0.value), range: at(r, $0.range)) }
        return out
    }
}
