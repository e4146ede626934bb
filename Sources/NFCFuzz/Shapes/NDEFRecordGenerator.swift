import NFCCore

/// Builds random but well-formed NDEF records of every kind nfctrace reads, through the
/// record builders of NFCCore (so the payload layouts are the codec's own).
enum NDEFRecordGenerator {
    /// One record; `depth` limits Smart Poster and handover nesting.
    static func record(_ r: inout FuzzRandom, depth: Int = 0) -> NDEFRecord {
        let id: [UInt8] = r.chance(15) ? Array("#\(r.below(100))".utf8) : []
        switch r.below(depth < 3 ? 16 : 12) {
        case 0, 1: return text(&r, id: id)
        case 2, 3: return NDEFRecord.uri(FuzzValues.uri(&r), id: id)
        case 4: return uriWithCode(&r)
        case 5: return .mime(r.element(FuzzValues.mediaTypes) ?? "text/plain", payload: FuzzValues.payload(&r, upTo: 64), id: id)
        case 6: return .external(r.element(FuzzValues.externalTypes) ?? "a:b", payload: FuzzValues.payload(&r, upTo: 32), id: id)
        case 7: return .androidApplication(r.pick("com.example.app", "", "org.nfctrace"))
        case 8: return r.chance(50) ? .empty : NDEFRecord(tnf: .unknown, payload: FuzzValues.payload(&r, upTo: 16))
        case 9: return .absoluteURI(FuzzValues.uri(&r), payload: FuzzValues.payload(&r, upTo: 16), id: id)
        case 10: return carrier(&r)
        case 11: return deviceOrSignature(&r)
        case 12, 13: return smartPoster(&r, depth: depth)
        default: return handover(&r, depth: depth)
        }
    }

    static func text(_ r: inout FuzzRandom, id: [UInt8] = []) -> NDEFRecord {
        let value = NDEFText(FuzzValues.text(&r), language: FuzzValues.language(&r), encoding: r.chance(25) ? .utf16 : .utf8)
        // Languages are at most 63 bytes by construction, so encoding cannot fail; the fallback keeps it total.
        return (try? NDEFRecord.text(value, id: id)) ?? NDEFRecord(tnf: .wellKnown, type: [0x54], payload: [0x02, 0x65, 0x6E])
    }

    /// A URI record with any identifier code, including the undefined ones (0x24…0xFF).
    static func uriWithCode(_ r: inout FuzzRandom) -> NDEFRecord {
        let code: UInt8 = r.chance(80) ? UInt8(r.below(NDEFURI.prefixes.count)) : r.byte()
        return NDEFRecord(tnf: .wellKnown, type: [0x55], payload: NDEFURI(code: code, rest: FuzzValues.text(&r)).encode())
    }

    static func smartPoster(_ r: inout FuzzRandom, depth: Int) -> NDEFRecord {
        var records = [NDEFRecord.uri(FuzzValues.uri(&r))]
        for _ in 0..<r.below(3) { records.append(text(&r)) }
        if r.chance(40) { records.append(.smartPosterAction(NDEFSmartPosterAction(rawValue: UInt8(r.below(4))))) }
        if r.chance(30) { records.append(.smartPosterSize(UInt32(r.below(100_000)))) }
        if r.chance(30) { records.append(.smartPosterType(r.element(FuzzValues.mediaTypes) ?? "text/plain")) }
        if r.chance(20) { records.append(.mime("image/png", payload: r.bytes(r.length(upTo: 24)))) }
        // Nested Smart Posters: readers recurse, and a depth limit is an edge worth reaching.
        if r.chance(15) { records.append(smartPoster(&r, depth: depth + 1)) }
        if r.chance(30) { records.shuffle(using: &r) }
        let payload = (try? NDEFMessage(records).encode()) ?? []
        return NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: payload)
    }

    static func handover(_ r: inout FuzzRandom, depth: Int) -> NDEFRecord {
        let kind: NDEFHandover.Kind = r.pick(.select, .request, .mediation, .initiate)
        var nested: [NDEFRecord] = []
        let ac = NDEFAlternativeCarrier(powerState: r.pick(.inactive, .active, .activating, .unknown),
                                        carrierDataReference: Array("0".utf8),
                                        auxiliaryDataReferences: r.chance(30) ? [Array("1".utf8)] : [])
        if let record = try? NDEFRecord.alternativeCarrier(ac) { nested.append(record) }
        if kind == .request { nested.append(.collisionResolution(r.uint16())) }
        if kind == .select, r.chance(30) { nested.append(.handoverError(NDEFHandoverError(reason: UInt8(r.below(4)), data: r.bytes(r.below(5))))) }
        if r.chance(20) { nested.append(record(&r, depth: depth + 1)) }
        let version: UInt8 = r.pick(0x12, 0x13, 0x10, 0x20, r.byte())
        let hs = (try? NDEFRecord.handover(kind, version: version, records: nested)) ?? .empty
        return hs
    }

    static func carrier(_ r: inout FuzzRandom) -> NDEFRecord {
        switch r.below(4) {
        case 0:
            let oob = NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: r.bytes(6),
                                       elements: [.init(type: 0x09, data: Array("Speaker".utf8)), .init(type: 0x0D, data: r.bytes(3))])
            return (try? NDEFRecord.bluetooth(oob)) ?? .empty
        case 1:
            let oob = NDEFBluetoothOOB(transport: .lowEnergy, elements: [.init(type: 0x1B, data: r.bytes(7)), .init(type: 0x1C, data: [UInt8(r.below(4))])])
            return (try? NDEFRecord.bluetooth(oob)) ?? .empty
        case 2:
            return .wifiSimpleConfig(.credential(ssid: Array(FuzzValues.text(&r).utf8.prefix(32)), networkKey: r.bytes(r.below(20)),
                                                 authenticationType: r.pick(0x0001, 0x0020, 0x0022, r.uint16())))
        default:
            let hc = NDEFHandoverCarrier(format: .media, carrierType: Array("application/vnd.wfa.wsc".utf8), carrierData: r.bytes(r.below(6)))
            return (try? NDEFRecord.handoverCarrier(hc)) ?? .empty
        }
    }

    static func deviceOrSignature(_ r: inout FuzzRandom) -> NDEFRecord {
        if r.bool() {
            let info = NDEFDeviceInformation(manufacturer: FuzzValues.text(&r), model: "M", uniqueName: r.chance(50) ? "n" : nil,
                                             uuid: r.chance(50) ? r.bytes(16) : nil)
            return (try? NDEFRecord.deviceInformation(info)) ?? .empty
        }
        let isURI = r.chance(20)
        let sig = NDEFSignature(signatureType: UInt8(r.below(12)), signature: isURI ? Array("https://sig.example/1".utf8) : r.bytes(r.pick(0, 32, 64, 128, r.below(300))),
                                signatureIsURI: isURI, certificateFormat: UInt8(r.below(2)),
                                certificates: r.chance(50) ? [r.bytes(r.below(40))] : [],
                                certificateURI: r.chance(20) ? Array("https://c".utf8) : nil)
        return (try? NDEFRecord.signature(sig)) ?? .empty
    }

    /// A message of 1…4 records.
    static func message(_ r: inout FuzzRandom, depth: Int = 0) -> [NDEFRecord] {
        (0..<(1 + r.below(r.chance(70) ? 2 : 4))).map { _ in record(&r, depth: depth) }
    }
}
