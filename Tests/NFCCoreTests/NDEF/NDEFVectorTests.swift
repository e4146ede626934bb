import Testing
@testable import NFCCore

/// The vectors of protocols.md §4.4–4.8 (generated with ndeflib), both ways.
@Suite struct NDEFVectorTests {
    func bytes(_ hex: String) -> [UInt8] { Hex.parse(hex) ?? [] }

    @Test func emptyMessage() throws {
        let result = NDEFMessage.decode(bytes("D0 00 00"), mode: .strict)
        #expect(result.isValid)
        #expect(result.records.map(\.record) == [.empty])
        #expect(try NDEFMessage([.empty]).encode() == bytes("D0 00 00"))
        #expect(try NDEFMessage([]).encode() == bytes("D0 00 00"), "no records encode as the empty message")
    }

    @Test func uriExampleCom() throws {
        let wire = bytes("D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D")
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid)
        guard case .uri(let uri) = result.records.first?.payload else {
            Issue.record("not read as URI: \(result.records)")
            return
        }
        #expect(uri.code == 0x04 && uri.rest == "example.com" && uri.uri == "https://example.com")
        #expect(try NDEFMessage([.uri("https://example.com")]).encode() == wire)
        let chunk = try #require(result.records.first?.record.chunks.first)
        #expect(chunk.range == 0..<16 && chunk.typeRange == 3..<4 && chunk.payloadRange == 4..<16)
        #expect(chunk.header.mb && chunk.header.me && chunk.header.sr && !chunk.header.cf && !chunk.header.il)
    }

    @Test func textHello() throws {
        let wire = bytes("D1 01 08 54 02 65 6E 48 65 6C 6C 6F")
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid)
        #expect(result.records.first?.payload == .text(NDEFText("Hello", language: "en")))
        #expect(try NDEFMessage([.text("Hello", language: "en")]).encode() == wire)
    }

    @Test func mimeTextPlain() throws {
        let wire = bytes("D2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 68 69")
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid)
        #expect(result.records.first?.record == .mime("text/plain", payload: Array("hi".utf8)))
        #expect(result.records.first?.kind == .media)
        #expect(try NDEFMessage([.mime("text/plain", payload: Array("hi".utf8))]).encode() == wire)
    }

    @Test func twoRecordsWithMBOnFirstAndMEOnLast() throws {
        // ndeflib doc example: urn:nfc:wkt:ABC "abc", then urn:nfc:wkt:DEF with ID "0" and "def".
        let wire = bytes("91 03 03 41 42 43 61 62 63  59 03 03 01 44 45 46 30 64 65 66")
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid)
        let records = result.records.map(\.record)
        #expect(records == [NDEFRecord(tnf: .wellKnown, type: Array("ABC".utf8), payload: Array("abc".utf8)),
                            NDEFRecord(tnf: .wellKnown, type: Array("DEF".utf8), id: Array("0".utf8), payload: Array("def".utf8))])
        #expect(try NDEFMessage(records).encode() == wire)
        #expect(result.records[1].record.chunks.first?.idRange == 16..<17)
    }

    @Test func smartPosterExample() throws {
        // §4.6: Sp { URI https://example.com, Title "Ex" (en), act 00 }.
        let nested = bytes("91 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D 11 01 05 54 02 65 6E 45 78 51 03 01 61 63 74 00")
        let wire = bytes("D1 02 20 53 70") + nested
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid, "\(result.issues)")
        guard case .smartPoster(let sp) = result.records.first?.payload else {
            Issue.record("not a Smart Poster")
            return
        }
        #expect(sp.uri?.uri == "https://example.com")
        #expect(sp.titles == [NDEFText("Ex", language: "en")])
        #expect(sp.action == .exec)
        #expect(sp.records.first?.record.range == 5..<21, "nested records carry outer-message offsets")
        let built = try NDEFRecord.smartPoster(uri: "https://example.com", titles: [NDEFText("Ex")], action: .exec)
        #expect(try NDEFMessage([built]).encode() == wire)
    }

    @Test func androidApplicationRecord() throws {
        let wire = bytes("D4 0F 0B 61 6E 64 72 6F 69 64 2E 63 6F 6D 3A 70 6B 67") + Array("com.example".utf8)
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid)
        #expect(result.records.first?.kind == .androidApplication)
        #expect(result.records.first?.payload == .androidApplication("com.example"))
        #expect(try NDEFMessage([.androidApplication("com.example")]).encode() == wire)
    }

    @Test func longPayloadUsesFourByteLength() throws {
        let payload = [UInt8](repeating: 0x41, count: 256)
        let wire = try NDEFMessage([.mime("application/octet-stream", payload: payload)]).encode()
        #expect(wire.prefix(6) == [0xC2, 24, 0x00, 0x00, 0x01, 0x00], "SR clear, 4-byte PAYLOAD_LENGTH 256")
        let short = try NDEFMessage([.mime("a/b", payload: [UInt8](repeating: 0, count: 255))]).encode()
        #expect(short[0] == 0xD2 && short[2] == 0xFF, "SR set up to 255 bytes")
        let result = NDEFMessage.decode(wire, mode: .strict)
        #expect(result.isValid && result.records.first?.record.payload == payload)
    }

    @Test func strictInitThrowsTheFirstBreachWithItsOffset() {
        // MB missing on the first record: header at byte 0.
        #expect(throws: DecodeError(offset: 0, expected: NDEFRule.mbMissing.statement,
                                    found: "first record has no MB flag (header 0x51)")) {
            try NDEFMessage(strict: Hex.parse("51 01 02 55 04 61")!)
        }
        #expect((try? NDEFMessage(strict: Hex.parse("D1 01 02 55 04 61")!))?.records.count == 1)
    }
}
