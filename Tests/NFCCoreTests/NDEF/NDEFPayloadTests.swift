import Testing
@testable import NFCCore

/// Typed payloads: what each record kind reads, beyond the rule checks.
@Suite struct NDEFPayloadTests {
    func decode(_ records: [NDEFRecord], chunkSize: Int? = nil) throws -> NDEFDecodeResult {
        let result = NDEFMessage.decode(try NDEFMessage(records).encode(chunkSize: chunkSize), mode: .strict)
        #expect(result.isValid, "\(result.issues)")
        return result
    }

    @Test func everyURIPrefixCodeDecodesAndTheEncoderPicksTheLongest() throws {
        #expect(NDEFURI.prefixes.count == 0x24)
        for (code, prefix) in NDEFURI.prefixes.enumerated() {
            let result = NDEFMessage.decode([0xD1, 0x01, 0x02, 0x55, UInt8(code), 0x78], mode: .strict)
            #expect(result.isValid)
            #expect(result.records.first?.payload == .uri(NDEFURI(code: UInt8(code), rest: "x")))
            if case .uri(let u) = result.records.first?.payload { #expect(u.uri == prefix + "x") }
        }
        // §4.5: ndeflib picks the longest prefix (AOSP would take urn: = 0x13).
        #expect(NDEFURI("urn:epc:id:sgtin:1").code == 0x1E)
        #expect(NDEFURI("urn:nfc:sn:x").code == 0x23)
        #expect(NDEFURI("https://www.example.com").code == 0x02)
        #expect(NDEFURI("ftp://anonymous:anonymous@host").code == 0x07)
        #expect(NDEFURI("gopher://x") == NDEFURI(code: 0, rest: "gopher://x"))
    }

    @Test func utf16TextHonoursTheBOMAndDefaultsToBigEndian() throws {
        func text(_ body: [UInt8]) -> NDEFPayload? {
            let payload = [0x82, 0x65, 0x6E] + body
            let wire = [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
            return NDEFMessage.decode(wire, mode: .strict).records.first?.payload
        }
        let hi = NDEFPayload.text(NDEFText("hi", language: "en", encoding: .utf16))
        #expect(text([0xFE, 0xFF, 0x00, 0x68, 0x00, 0x69]) == hi)
        #expect(text([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]) == hi)
        #expect(text([0x00, 0x68, 0x00, 0x69]) == hi, "no BOM: big-endian (§9 #23)")
        // An encoded UTF-16 record carries a BOM, so a little-endian reader gets it right too.
        #expect(try NDEFRecord.text("hi", encoding: .utf16).payload == [0x82, 0x65, 0x6E, 0xFE, 0xFF, 0x00, 0x68, 0x00, 0x69])
        // A lone high surrogate is invalid.
        let bad = NDEFMessage.decode([0xD1, 0x01, 0x07, 0x54, 0x82, 0x65, 0x6E, 0xD8, 0x00, 0x00, 0x41], mode: .strict)
        #expect(bad.issues.map(\.rule) == [.textEncodingInvalid] && bad.issues.first?.offset == 7)
    }

    @Test func chunkedRecordsAreReassembledAndKeepTheirChunks() throws {
        let record = NDEFRecord.mime("text/plain", payload: Array("hello, chunks".utf8), id: Array("id".utf8))
        let wire = try NDEFMessage([.uri("https://a"), record]).encode(chunkSize: 5)
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid, "\(result.issues)")
        #expect(result.records.map(\.record) == [.uri("https://a"), record])
        let chunks = result.records[1].record.chunks
        #expect(chunks.count == 3)
        #expect(chunks.map(\.payloadRange.count) == [5, 5, 3])
        #expect(chunks.map(\.header.cf) == [true, true, false])
        #expect(chunks.map(\.header.tnf) == [.media, .unchanged, .unchanged])
        #expect(chunks.last?.header.me == true && chunks.first?.header.mb == false)
        #expect(result.records[1].record.isChunked)
        // Payload bytes map back to their chunk.
        let r = result.records[1].record
        #expect(r.messageOffset(ofPayloadByte: 5) == chunks[1].payloadRange.lowerBound)
        #expect(r.messageRange(ofPayloadRange: 3..<7) == chunks[0].payloadRange.lowerBound + 3..<chunks[1].payloadRange.lowerBound + 2)
    }

    @Test func chunkedTypedRecordIsReadWhole() throws {
        // The UTF-8 "é" is split between chunks: read whole, it is valid text.
        let result = try decode([try .text("café au lait")], chunkSize: 4)
        #expect(result.records.first?.payload == .text(NDEFText("café au lait")))
    }

    @Test func handoverSelectWithCarriers() throws {
        let wifi = NDEFWiFiSimpleConfig.credential(ssid: Array("home".utf8), networkKey: Array("secret12".utf8))
        let bt = NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: [6, 5, 4, 3, 2, 1],
                                  elements: [.init(type: 0x09, data: Array("spk".utf8))])
        let hs = try NDEFRecord.handover(.select, records: [
            try .alternativeCarrier(NDEFAlternativeCarrier(powerState: .active, carrierDataReference: Array("w".utf8))),
            try .alternativeCarrier(NDEFAlternativeCarrier(powerState: .activating, carrierDataReference: Array("b".utf8),
                                                           auxiliaryDataReferences: [Array("x".utf8)])),
        ])
        let result = try decode([hs, .wifiSimpleConfig(wifi, id: Array("w".utf8)), try .bluetooth(bt, id: Array("b".utf8))])
        guard case .handover(let h) = result.records.first?.payload else {
            Issue.record("not a handover record")
            return
        }
        #expect(h.kind == .select && h.versionText == "1.3")
        #expect(h.alternativeCarriers.map(\.powerState) == [.active, .activating])
        #expect(h.alternativeCarriers.last?.auxiliaryDataReferences == [Array("x".utf8)])
        guard case .wifiSimpleConfig(let w) = result.records[1].payload else {
            Issue.record("not Wi-Fi")
            return
        }
        #expect(w.credentials.first?.first(0x1045)?.value == Array("home".utf8))
        #expect(w.credentials.first?.first(0x1027)?.value == Array("secret12".utf8))
        guard case .bluetooth(let b) = result.records[2].payload else {
            Issue.record("not Bluetooth")
            return
        }
        #expect(b.oobLength == 13 && b.localName == "spk")
        #expect(NDEFBluetoothOOB.addressText(b.deviceAddress ?? []) == "01:02:03:04:05:06")
    }

    @Test func handoverRequestCarriesCollisionResolution() throws {
        let hr = try NDEFRecord.handover(.request, version: 0x12, records: [.collisionResolution(0xBEEF)])
        let hc = try NDEFRecord.handoverCarrier(NDEFHandoverCarrier(format: .wellKnown, carrierType: Array("b".utf8)))
        let result = try decode([hr, hc])
        if case .handover(let h) = result.records.first?.payload { #expect(h.collisionResolution == 0xBEEF) }
        #expect(result.records[1].payload == .handoverCarrier(NDEFHandoverCarrier(format: .wellKnown, carrierType: Array("b".utf8))))
        // Local types mean nothing outside their container: cr at the top level is only bytes.
        let loose = try decode([.collisionResolution(1)])
        #expect(loose.records.first?.kind == nil && loose.records.first?.payload == .bytes)
    }

    @Test func deviceInformationAndSignature() throws {
        let di = NDEFDeviceInformation(manufacturer: "ACME", model: "Reader 2", uniqueName: "desk",
                                       uuid: Array(0..<16), firmwareVersion: "1.0")
        let sig = NDEFSignature(signatureType: 0x0B, signature: [UInt8](repeating: 0xAB, count: 64),
                                certificates: [[1, 2, 3]], certificateURI: Array("https://c.example".utf8))
        let result = try decode([try .deviceInformation(di), try .signature(sig)])
        guard case .deviceInformation(let read) = result.records.first?.payload,
              case .signature(let s) = result.records[1].payload else {
            Issue.record("not read: \(result.records.map(\.payload))")
            return
        }
        #expect(read.manufacturer == "ACME" && read.model == "Reader 2" && read.uniqueName == "desk")
        #expect(read.uuidText == "00010203-0405-0607-0809-0A0B0C0D0E0F" && read.firmwareVersion == "1.0")
        #expect(s == sig)
        #expect(s.signatureTypeName == "ECDSA-P256" && s.hashTypeName == "SHA-256" && s.certificateFormatName == "X.509")
        // A 6-byte Signature (start marker: no signature, no certificates) is complete.
        let marker = NDEFSignature(signatureType: 0, signature: [])
        #expect(try marker.encode().count == 6)
        _ = try decode([try .signature(marker)])
    }

    @Test func vCardShowsItsLines() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\n Lovelace\r\nitem1.TEL;TYPE=cell:+44 1\r\nEND:VCARD\r\n"
        let result = try decode([.vCard(card)])
        guard case .vCard(let v) = result.records.first?.payload else {
            Issue.record("not a vCard")
            return
        }
        #expect(v.lines.map(\.name) == ["BEGIN", "VERSION", "FN", "TEL", "END"])
        #expect(v.formattedName == "AdaLovelace", "folded lines are joined (RFC 6350 §3.2)")
        #expect(v.lines[3].parameters == ["TYPE=cell"] && v.lines[3].value == "+44 1")
        #expect(result.issues.isEmpty)
    }

    @Test func mediaTypesMatchCaseInsensitivelyWithParameters() {
        #expect(NDEFRecordKind.recognize(tnf: .media, type: Array("Application/VND.wfa.WSC".utf8), in: .message) == .wifiSimpleConfig)
        #expect(NDEFRecordKind.recognize(tnf: .media, type: Array("text/vcard; charset=utf-8".utf8), in: .message) == .vCard)
        #expect(NDEFRecordKind.recognize(tnf: .external, type: Array("Android.com:PKG".utf8), in: .message) == .androidApplication)
        #expect(NDEFRecordKind.recognize(tnf: .wellKnown, type: Array("t".utf8), in: .message) == nil)
        #expect(NDEFRecordKind.recognize(tnf: .wellKnown, type: Array("t".utf8), in: .smartPoster) == .smartPosterType)
    }

    @Test func typeSyntax() {
        for good in ["text/plain", "application/vnd.wfa.wsc", "text/plain; charset=\"utf-8\"", "image/svg+xml"] {
            #expect(NDEFTypeSyntax.isMediaType(Array(good.utf8)), "\(good)")
        }
        for bad in ["text", "/plain", "text/", "text/pl ain", "text/plain;", "a/b; c", "a/b; c=\"x"] {
            #expect(!NDEFTypeSyntax.isMediaType(Array(bad.utf8)), "\(bad)")
        }
        for good in ["https://example.com", "urn:isbn:0451450523", "mailto:a@b.c", "http://[::1]/x?y=%20"] {
            #expect(NDEFTypeSyntax.isAbsoluteURI(Array(good.utf8)), "\(good)")
        }
        for bad in ["example.com", "1http://x", "http://a b", "http://x#frag", "http://%2", ":x"] {
            #expect(!NDEFTypeSyntax.isAbsoluteURI(Array(bad.utf8)), "\(bad)")
        }
    }

    @Test func encodingRejectsFieldsTooLongForTheirLengthByte() {
        #expect(throws: NDEFEncodingError.typeTooLong(record: 0, length: 256)) {
            try NDEFMessage([NDEFRecord(tnf: .media, type: [UInt8](repeating: 0x61, count: 256))]).encode()
        }
        #expect(throws: NDEFEncodingError.idTooLong(record: 1, length: 300)) {
            try NDEFMessage([.empty, NDEFRecord(tnf: .unknown, id: [UInt8](repeating: 0x61, count: 300))]).encode()
        }
        #expect(throws: NDEFEncodingError.self) { try NDEFRecord.text("x", language: String(repeating: "a", count: 64)) }
    }
}
