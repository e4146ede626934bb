import Testing
import NFCCore
@testable import NFCDissect

@Suite struct NDEFDescriberTests {
    func describe(_ hex: String) -> FieldTree {
        NDEFDescriber.describe(NDEFMessage.decode(Hex.parse(hex) ?? [], mode: .lenient))
    }

    @Test func uriRecordFieldsAndRanges() throws {
        let tree = describe("D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D")
        #expect(tree.diagnostics.isEmpty)
        let message = try #require(tree.first(key: "ndef.message"))
        #expect(message.value == "1 record" && message.range == 0..<16)
        let record = try #require(tree.first(key: "ndef.record"))
        #expect(record.value == "URI https://example.com" && record.range == 0..<16)
        #expect(tree.first(key: "ndef.record.header")?.value == "0xD1: MB ME SR")
        #expect(tree.first(key: "ndef.record.tnf")?.value == "1 (NFC Forum well-known type)")
        #expect(tree.first(key: "ndef.record.tnf")?.range == 0..<1)
        #expect(tree.first(key: "ndef.record.type_length")?.range == 1..<2)
        #expect(tree.first(key: "ndef.record.payload_length")?.value == "12")
        #expect(tree.first(key: "ndef.record.type")?.value == "urn:nfc:wkt:U" && tree.first(key: "ndef.record.type")?.range == 3..<4)
        #expect(tree.first(key: "ndef.uri")?.value == "https://example.com" && tree.first(key: "ndef.uri")?.range == 4..<16)
        #expect(tree.first(key: "ndef.uri.code")?.value == "0x04 \"https://\"" && tree.first(key: "ndef.uri.code")?.range == 4..<5)
        #expect(tree.first(key: "ndef.record.id_length") == nil, "no IL, no ID_LENGTH field")
    }

    @Test func textRecordFields() {
        let tree = describe("D1 01 08 54 02 65 6E 48 65 6C 6C 6F")
        #expect(tree.first(key: "ndef.text.status")?.value == "0x02: UTF-8, language code 2 bytes")
        #expect(tree.first(key: "ndef.text.language")?.value == "en" && tree.first(key: "ndef.text.language")?.range == 5..<7)
        #expect(tree.first(key: "ndef.text.text")?.value == "\"Hello\"" && tree.first(key: "ndef.text.text")?.range == 7..<12)
    }

    @Test func chunkStructureStaysVisible() throws {
        let wire = try NDEFMessage([.mime("text/plain", payload: Array("hello world".utf8))]).encode(chunkSize: 4)
        let tree = NDEFDescriber.describe(NDEFMessage.decode(wire))
        let chunks = tree.all(key: "ndef.record.chunk")
        #expect(chunks.count == 3)
        #expect(chunks.map(\.value) == ["4 bytes, CF 1", "4 bytes, CF 1", "3 bytes, CF 0"])
        #expect(chunks.first?.range?.lowerBound == 0 && chunks.last?.range?.upperBound == wire.count)
        #expect(tree.first(key: "ndef.record.payload")?.value == "11 bytes in 3 chunks")
        #expect(tree.first(key: "ndef.record")?.value == "MIME text/plain \"hello world\"")
    }

    @Test func diagnosticsCarrySeverityAndRange() {
        // No MB (tolerated: warning), an RFU bit (advisory: note), then a record cut short (error).
        let tree = describe("11 01 05 54 42 65 6E 68 69  D1 01 09 55")
        #expect(tree.diagnostics.map(\.severity) == [.warning, .note, .error])
        #expect(tree.diagnostics.map(\.range) == [0..<1, 4..<5, 13..<14])
        #expect(tree.diagnostics.first?.message == "first record has no MB flag (header 0x11) [message.mb-missing]")
        #expect(tree.first(key: "ndef.unparsed")?.range == 9..<13)
    }

    @Test func summaryLines() throws {
        let wifi = NDEFWiFiSimpleConfig.credential(ssid: Array("home".utf8), networkKey: Array("k".utf8))
        let records: [NDEFRecord] = [
            .uri("https://example.com"), try .text("Hello"), .mime("text/plain", payload: Array("hi".utf8)),
            .androidApplication("com.example"), .empty, .wifiSimpleConfig(wifi),
            try .smartPoster(uri: "https://a.example", titles: [NDEFText("A")], action: .save),
            try .handover(.select, records: [try .alternativeCarrier(NDEFAlternativeCarrier(powerState: .active, carrierDataReference: [0x30]))]),
            try .deviceInformation(NDEFDeviceInformation(manufacturer: "ACME", model: "R2")),
            try .signature(NDEFSignature(signatureType: 0x0B, signature: [UInt8](repeating: 1, count: 64))),
            try .bluetooth(NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: [6, 5, 4, 3, 2, 1],
                                            elements: [.init(type: 0x09, data: Array("spk".utf8))])),
            .vCard("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n"), .absoluteURI("https://example.com/t", payload: [1]),
            .external("example.com:x", payload: [1, 2]), NDEFRecord(tnf: .unknown, payload: [1, 2, 3]),
        ]
        let lines = NDEFDescriber.summaries(NDEFMessage.decode(try NDEFMessage(records).encode()))
        #expect(lines == [
            "URI https://example.com", "Text (en) \"Hello\"", "MIME text/plain \"hi\"", "Android app com.example", "Empty",
            "Wi-Fi SSID \"home\" WPA2-Personal AES", "Smart Poster https://a.example \"A\" (save for later)",
            "Handover Select 1.3, 1 alternative carrier", "Device Information ACME R2", "Signature ECDSA-P256 (SHA-256), 64 bytes",
            "Bluetooth BR/EDR 01:02:03:04:05:06 \"spk\"", "vCard \"Ada\"", "Absolute URI https://example.com/t, 1 byte",
            "External example.com:x, 2 bytes", "Unknown type, 3 bytes",
        ])
    }

    @Test func malformedPayloadsStayVisibleAsBytes() {
        let tree = describe("D1 01 03 54 05 65 6E")   // language code overflows the payload
        #expect(tree.first(key: "ndef.record")?.value == "Text (unreadable), 3 bytes")
        #expect(tree.first(key: "ndef.payload.bytes")?.value == "05 65 6E" && tree.first(key: "ndef.payload.bytes")?.range == 4..<7)
    }

    @Test func plainTextRendering() {
        let text = FieldTreeText.render(describe("D1 01 08 54 02 65 6E 48 65 6C 6C 6F 00"))
        #expect(text == """
            [0..13] NDEF message: 1 record
                [0..12] Record 1: Text (en) "Hello"
                    [0..1] Header: 0xD1: MB ME SR
                        [0..1] MB (message begin): 1
                        [0..1] ME (message end): 1
                        [0..1] CF (chunk flag): 0
                        [0..1] SR (short record): 1
                        [0..1] IL (ID length present): 0
                    [0..1] TNF: 1 (NFC Forum well-known type)
                    [1..2] TYPE_LENGTH: 1
                    [2..3] PAYLOAD_LENGTH: 8
                    [3..4] TYPE: urn:nfc:wkt:T
                    [4..12] Payload: 8 bytes
                        [4..5] Status: 0x02: UTF-8, language code 2 bytes
                        [5..7] Language: en
                        [7..12] Text: "Hello"
                [12..13] Not part of a record: 1 byte
            warning: 1 byte after the record with ME [message.bytes-after-me] [12..13]

            """)
    }

    /// Messages of every record kind, so that mutations reach every payload describer.
    static func seeds() throws -> [[UInt8]] {
        let bt = NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: [1, 2, 3, 4, 5, 6], elements: [
            .init(type: 0x02, data: [0x0B, 0x11, 0x0E, 0x11]), .init(type: 0x09, data: Array("n".utf8)),
            .init(type: 0x0D, data: [1, 2, 3]), .init(type: 0x19, data: [1, 2]),
        ])
        let le = NDEFBluetoothOOB(transport: .lowEnergy, elements: [.init(type: 0x1B, data: [1, 2, 3, 4, 5, 6, 1]),
                                                                    .init(type: 0x1C, data: [2]), .init(type: 0x03, data: [1, 2])])
        let wifi = NDEFWiFiSimpleConfig.credential(ssid: Array("s".utf8), networkKey: Array("k".utf8))
        let p2p = NDEFWiFiPeerToPeer(wsc: wifi, attributes: [.init(id: 2, value: [0, 0])])
        let sig = NDEFSignature(signatureType: 11, signature: [1, 2], certificates: [[3]], certificateURI: Array("u:x".utf8))
        let uriSig = NDEFSignature(signatureType: 11, signature: Array("https://s".utf8), signatureIsURI: true)
        let records: [[NDEFRecord]] = [
            [.uri("https://example.com"), try .text("hé", encoding: .utf16)],
            [try .smartPoster(uri: "https://a", titles: [NDEFText("t")], action: .edit, icon: .mime("image/png", payload: [1]),
                              size: 9, resourceType: "text/html")],
            [try .handover(.request, records: [.collisionResolution(7), try .alternativeCarrier(
                NDEFAlternativeCarrier(powerState: .active, carrierDataReference: [0x62], auxiliaryDataReferences: [[0x61]]))]),
             try .handoverCarrier(NDEFHandoverCarrier(format: .media, carrierType: Array("a/b".utf8), carrierData: [1])), try .bluetooth(bt)],
            [try .handover(.select, records: [.handoverError(NDEFHandoverError(reason: 2, data: [0, 0, 1, 0]))]),
             .wifiSimpleConfig(wifi), .wifiPeerToPeer(p2p), try .bluetooth(le)],
            [try .deviceInformation(NDEFDeviceInformation(manufacturer: "a", model: "b", uuid: Array(0..<16))),
             try .signature(sig), try .signature(uriSig)],
            [.vCard("BEGIN:VCARD\nFN:x\nEND:VCARD"), .androidApplication("a.b"), .absoluteURI("urn:x:y"), .empty],
        ]
        return try records.map { try NDEFMessage($0).encode() } + [try NDEFMessage(records[0]).encode(chunkSize: 3)]
    }

    @Test func describingMutatedMessagesOfEveryKindNeverTraps() throws {
        let seeds = try Self.seeds()
        var state: UInt64 = 0x5EED_0005
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        for n in 0..<50_000 {
            var bytes = seeds[n % seeds.count]
            for _ in 0..<(1 + next() % 3) where !bytes.isEmpty {
                let i = next() % bytes.count
                switch next() % 3 {
                case 0: bytes[i] ^= UInt8(1 << (next() % 8))
                case 1: bytes[i] = UInt8(truncatingIfNeeded: next())
                default: bytes.remove(at: i)
                }
            }
            let tree = NDEFDescriber.describe(NDEFMessage.decode(bytes))
            _ = FieldTreeText.render(tree)
            _ = NDEFDescriber.summaries(NDEFMessage.decode(bytes))
        }
    }

    @Test func describingArbitraryBytesNeverTraps() {
        var state: UInt64 = 0x5EED_0003
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        for _ in 0..<20_000 {
            let bytes = (0..<Int(next() % 40)).map { _ in UInt8(truncatingIfNeeded: next()) }
            let tree = NDEFDescriber.describe(NDEFMessage.decode(bytes))
            var outside = false
            func visit(_ f: Field) {
                if let r = f.range, r.lowerBound < 0 || r.upperBound > bytes.count { outside = true }
                f.children.forEach(visit)
            }
            tree.fields.forEach(visit)
            if outside { Issue.record("field outside the message: \(Hex.string(bytes))"); return }
            _ = FieldTreeText.render(tree)
        }
    }
}
