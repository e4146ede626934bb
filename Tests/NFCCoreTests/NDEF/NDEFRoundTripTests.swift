import PropertyBased
import Testing
@testable import NFCCore

/// encode → decode gives back the same records and the same typed values, for every record kind.
@Suite struct NDEFRoundTripTests {
    // MARK: generators

    static let scalar = Gen<UnicodeScalar>.oneOf(
        Gen<UnicodeScalar>.unicodeScalar(in: " "..."~").eraseToAnySequence(),
        Gen<UnicodeScalar>.unicodeScalar(in: "\u{A0}"..."\u{D7FF}").eraseToAnySequence(),
        Gen<UnicodeScalar>.unicodeScalar(in: "\u{E000}"..."\u{10FFFF}").eraseToAnySequence())
    static let text = scalar.array(of: 0...24).map { String(String.UnicodeScalarView($0)) }
    static let word = Gen.letterOrNumber.string(of: 1...12)
    static let bytes = Gen.uint8().array(of: 0...40)
    static let id = Gen.letterOrNumber.string(of: 0...6).map { Array($0.utf8) }
    static let language = zip(Gen.lowercaseLetter.string(of: 1...3), Gen.uppercaseLetter.string(of: 0...2))
        .map { $1.isEmpty ? $0 : "\($0)-\($1)" }
    static let textValue = zip(text, language, Gen.bool).map { NDEFText($0, language: $1, encoding: $2 ? .utf16 : .utf8) }
    static let uri = zip(Gen<String?>.element(of: NDEFURI.prefixes), Gen.letterOrNumber.string(of: 0...20), text)
        .map { ($0 ?? "") + $1 + $2.filter { !$0.isNewline } }

    /// Encodes, decodes strictly, and checks the records came back unchanged.
    static func roundTrip(_ records: [NDEFRecord], chunkSize: Int? = nil) throws -> NDEFDecodeResult {
        let result = NDEFMessage.decode(try NDEFMessage(records).encode(chunkSize: chunkSize), mode: .strict)
        #expect(result.isValid, "\(result.issues)")
        #expect(result.records.map(\.record) == records)
        #expect(result.unparsedRange == nil)
        return result
    }

    static func scalars(_ s: String?) -> [UnicodeScalar] { s.map { Array($0.unicodeScalars) } ?? [] }

    // MARK: one property per record kind

    @Test func text() async {
        await propertyCheck(count: 300, input: Self.textValue, Self.id) { value, id in
            let result = try Self.roundTrip([try .text(value, id: id)])
            guard case .text(let t) = result.records.first?.payload else { Issue.record("not Text"); return }
            #expect(Self.scalars(t.text) == Self.scalars(value.text) && t.language == value.language && t.encoding == value.encoding)
        }
    }

    @Test func uri() async {
        await propertyCheck(count: 300, input: Self.uri, Self.id) { uri, id in
            let result = try Self.roundTrip([.uri(uri, id: id)])
            guard case .uri(let u) = result.records.first?.payload else { Issue.record("not URI"); return }
            #expect(Self.scalars(u.uri) == Self.scalars(uri))
            #expect(u.code == NDEFURI(uri).code)
        }
    }

    @Test func smartPoster() async {
        let action = Gen<NDEFSmartPosterAction?>.element(of: [NDEFSmartPosterAction.exec, .save, .edit]).optional
        let size = Gen.uint32().optional
        await propertyCheck(count: 200, input: Self.uri, Self.textValue.array(of: 0...2), action,
                            zip(size, Self.word.optional)) { uri, titles, action, extra in
            let record = try NDEFRecord.smartPoster(uri: uri, titles: titles, action: action ?? nil, size: extra.0,
                                                    resourceType: extra.1)
            let result = try Self.roundTrip([record])
            guard case .smartPoster(let sp) = result.records.first?.payload else { Issue.record("not Sp"); return }
            #expect(Self.scalars(sp.uri?.uri) == Self.scalars(uri))
            #expect(sp.titles.map { Self.scalars($0.text) } == titles.map { Self.scalars($0.text) })
            #expect(sp.action == action ?? nil && sp.size == extra.0 && sp.resourceType == extra.1)
        }
    }

    @Test func genericTypes() async {
        let kind = Gen.int(in: 0...5)
        await propertyCheck(count: 300, input: kind, Self.word, Self.bytes, Self.id) { kind, word, payload, id in
            let record: NDEFRecord
            switch kind {
            case 0: record = .mime("application/x-\(word)", payload: payload, id: id)
            case 1: record = .absoluteURI("https://example.com/\(word)", payload: payload, id: id)
            case 2: record = .external("example.com:\(word)", payload: payload, id: id)
            case 3: record = .androidApplication("com.\(word)")
            case 4: record = NDEFRecord(tnf: .unknown, id: id, payload: payload)
            default: record = .empty
            }
            let result = try Self.roundTrip([record])
            if kind == 3 { #expect(result.records.first?.payload == .androidApplication("com.\(word)")) }
        }
    }

    @Test func handover() async {
        let kind = Gen<NDEFHandover.Kind?>.element(of: [NDEFHandover.Kind.request, .select, .mediation, .initiate])
        let carrier = zip(Gen.int(in: 0...3), Self.word, Self.word.array(of: 0...2))
            .map { NDEFAlternativeCarrier(powerState: NDEFAlternativeCarrier.PowerState(rawValue: UInt8($0)) ?? .unknown,
                                          carrierDataReference: Array($1.utf8), auxiliaryDataReferences: $2.map { Array($0.utf8) }) }
        await propertyCheck(count: 200, input: kind, carrier.array(of: 0...3), Gen.uint16(), Self.bytes) { kind, carriers, random, data in
            let kind = kind ?? .select
            var nested = try carriers.map { try NDEFRecord.alternativeCarrier($0) }
            if kind == .request { nested.append(.collisionResolution(random)) }
            if kind == .select { nested.append(.handoverError(NDEFHandoverError(reason: 3, data: [data.first ?? 0]))) }
            var records = [try NDEFRecord.handover(kind, records: nested)]
            if kind == .request {
                records.append(try .handoverCarrier(NDEFHandoverCarrier(format: .wellKnown, carrierType: Array("b".utf8), carrierData: data)))
            }
            let result = try Self.roundTrip(records)
            guard case .handover(let h) = result.records.first?.payload else { Issue.record("not handover"); return }
            #expect(h.kind == kind && h.version == 0x13 && h.alternativeCarriers == carriers)
            #expect(h.collisionResolution == (kind == .request ? random : nil))
            if kind == .request {
                #expect(result.records.last?.payload
                        == .handoverCarrier(NDEFHandoverCarrier(format: .wellKnown, carrierType: Array("b".utf8), carrierData: data)))
            }
        }
    }

    @Test func deviceInformationAndSignature() async {
        let uuid = Gen.uint8().array(of: 16).optional
        await propertyCheck(count: 200, input: Self.word, Self.text, uuid, Self.bytes.array(of: 0...3)) { maker, model, uuid, certs in
            let di = NDEFDeviceInformation(manufacturer: maker, model: "m" + model, uuid: uuid ?? nil)
            let sig = NDEFSignature(signatureType: 0x0B, signature: certs.first ?? [], certificates: certs)
            let result = try Self.roundTrip([try .deviceInformation(di), try .signature(sig)])
            guard case .deviceInformation(let d) = result.records.first?.payload else { Issue.record("not Di"); return }
            #expect(d.manufacturer == maker && Self.scalars(d.model) == Self.scalars("m" + model) && d.uuid == uuid ?? nil)
            #expect(result.records.last?.payload == .signature(sig))
        }
    }

    @Test func carrierConfiguration() async {
        let element = zip(Gen.uint8(in: 1...0xFE), Self.bytes).map { NDEFBluetoothOOB.Element(type: $0, data: $1) }
        await propertyCheck(count: 200, input: element.array(of: 0...4), Gen.uint8().array(of: 6), Self.word, Self.bytes) {
            elements, address, ssid, key in
            let ep = NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: address, elements: elements)
            let le = NDEFBluetoothOOB(transport: .lowEnergy, elements: elements)
            let wifi = NDEFWiFiSimpleConfig.credential(ssid: Array(ssid.utf8), networkKey: key)
            let result = try Self.roundTrip([try .bluetooth(ep), try .bluetooth(le), .wifiSimpleConfig(wifi)])
            guard case .bluetooth(let b) = result.records[0].payload, case .bluetooth(let l) = result.records[1].payload,
                  case .wifiSimpleConfig(let w) = result.records[2].payload else { Issue.record("not read"); return }
            #expect(b.deviceAddress == address && b.elements.map(\.data) == elements.map(\.data) && b.elements.map(\.type) == elements.map(\.type))
            #expect(l.elements.map(\.data) == elements.map(\.data))
            #expect(w.attributes.map(\.value) == wifi.attributes.map(\.value))
            #expect(w.credentials.first?.first(0x1045)?.value == Array(ssid.utf8))
        }
    }

    @Test func peerToPeerAndVCard() async {
        await propertyCheck(count: 100, input: Self.word, Self.bytes) { name, data in
            let p2p = NDEFWiFiPeerToPeer(
                wsc: NDEFWiFiSimpleConfig(attributes: [.init(type: 0x1021, value: Array(name.utf8))]),
                attributes: [.init(id: 2, value: [0, 0]), .init(id: 13, value: data)])
            let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\(name)\r\nEND:VCARD\r\n"
            let result = try Self.roundTrip([.wifiPeerToPeer(p2p), .vCard(card)])
            guard case .wifiPeerToPeer(let p) = result.records[0].payload else { Issue.record("not P2P"); return }
            #expect(p.attributes.map(\.value) == p2p.attributes.map(\.value) && p.wsc.attributes.map(\.value) == [Array(name.utf8)])
            if case .vCard(let v) = result.records[1].payload { #expect(v.formattedName == name) } else { Issue.record("not vCard") }
        }
    }

    @Test func multiRecordMessagesInChunks() async {
        let record = zip(Self.word, Self.bytes, Self.id).map { NDEFRecord.mime("application/\($0)", payload: $1, id: $2) }
        await propertyCheck(count: 300, input: record.array(of: 1...5), Gen.int(in: 1...20)) { records, size in
            _ = try Self.roundTrip(records, chunkSize: size)
            let plain = try Self.roundTrip(records)
            #expect(plain.records.allSatisfy { $0.record.chunks.count == 1 })
        }
    }
}
