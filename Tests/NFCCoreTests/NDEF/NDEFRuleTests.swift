import Foundation
import Testing
@testable import NFCCore

/// Every rule the decoder checks, triggered once, with the byte offset it must point at.
@Suite struct NDEFRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var rule: NDEFRule
        var hex: String
        var offset: Int
        var testDescription: String { rule.rawValue }
    }

    static let bt = "61 70 70 6C 69 63 61 74 69 6F 6E 2F 76 6E 64 2E 62 6C 75 65 74 6F 6F 74 68 2E 65 70 2E 6F 6F 62"  // 32
    static let wsc = "61 70 70 6C 69 63 61 74 69 6F 6E 2F 76 6E 64 2E 77 66 61 2E 77 73 63"  // 23
    static let p2p = "61 70 70 6C 69 63 61 74 69 6F 6E 2F 76 6E 64 2E 77 66 61 2E 70 32 70"  // 23

    static let cases: [Case] = [
        // Framing.
        Case(rule: .messageEmpty, hex: "", offset: 0),
        Case(rule: .mbMissing, hex: "51 01 02 55 04 61", offset: 0),
        Case(rule: .mbRepeated, hex: "91 01 02 55 04 61  D1 01 02 55 04 62", offset: 6),
        Case(rule: .meMissing, hex: "91 01 02 55 04 61  11 01 02 55 04 62", offset: 6),
        Case(rule: .bytesAfterME, hex: "D1 01 02 55 04 61 00 00", offset: 6),
        Case(rule: .recordTruncated, hex: "D1 01 05 55 04 61", offset: 4),
        // A 256-byte record written with SR: the 4-byte length 00 00 01 00 read as 1 byte.
        Case(rule: .srLongPayload, hex: "D2 03 00 00 01 00 61 2F 62" + String(repeating: " 41", count: 256), offset: 2),
        Case(rule: .tnfReserved, hex: "D7 00 00", offset: 0),
        Case(rule: .emptyRecordNotEmpty, hex: "D0 00 01 41", offset: 0),
        Case(rule: .typeForbidden, hex: "D5 01 00 41", offset: 1),
        Case(rule: .typeMissing, hex: "D1 00 00", offset: 1),
        Case(rule: .typeNotASCII, hex: "D1 01 00 C3", offset: 3),
        Case(rule: .mediaTypeInvalid, hex: "D2 04 00 74 65 78 74", offset: 3),
        Case(rule: .absoluteURIInvalid, hex: "D3 04 00 61 62 63 64", offset: 3),
        // Chunks.
        Case(rule: .meOnChunk, hex: "F2 03 01 61 2F 62 41", offset: 0),
        Case(rule: .unchangedOutsideChunk, hex: "D6 00 01 41", offset: 0),
        Case(rule: .chunkTNFNotUnchanged, hex: "B2 03 01 61 2F 62 41  52 03 01 61 2F 62 42", offset: 7),
        Case(rule: .chunkIDOnLaterChunk, hex: "B2 03 01 61 2F 62 41  5E 00 01 01 69 42", offset: 7),
        // Text.
        Case(rule: .textPayloadEmpty, hex: "D1 01 00 54", offset: 4),
        Case(rule: .textLanguageLengthZero, hex: "D1 01 03 54 00 68 69", offset: 4),
        Case(rule: .textLanguageOverflow, hex: "D1 01 03 54 05 65 6E", offset: 4),
        Case(rule: .textLanguageNotASCII, hex: "D1 01 04 54 02 E9 6E 78", offset: 5),
        Case(rule: .textEncodingInvalid, hex: "D1 01 04 54 02 65 6E FF", offset: 7),
        Case(rule: .textRFUBit, hex: "D1 01 05 54 42 65 6E 68 69", offset: 4),
        // URI.
        Case(rule: .uriPayloadEmpty, hex: "D1 01 00 55", offset: 4),
        Case(rule: .uriPrefixUndefined, hex: "D1 01 02 55 24 61", offset: 4),
        Case(rule: .uriEncodingInvalid, hex: "D1 01 03 55 04 61 FF", offset: 6),
        Case(rule: .uriControlCharacter, hex: "D1 01 03 55 04 61 0A", offset: 6),
        // Smart Poster (payload from byte 5; nested URI record 91 01 02 55 04 61 first).
        Case(rule: .smartPosterURICount, hex: "D1 02 07 53 70  D1 01 03 54 01 65 78", offset: 5),
        Case(rule: .smartPosterActionLength, hex: "D1 02 0E 53 70  91 01 02 55 04 61  51 03 02 61 63 74 00 00", offset: 17),
        Case(rule: .smartPosterActionUndefined, hex: "D1 02 0D 53 70  91 01 02 55 04 61  51 03 01 61 63 74 05", offset: 17),
        Case(rule: .smartPosterSizeLength, hex: "D1 02 0D 53 70  91 01 02 55 04 61  51 01 03 73 00 01 02", offset: 15),
        Case(rule: .smartPosterTypeEncodingInvalid, hex: "D1 02 0C 53 70  91 01 02 55 04 61  51 01 02 74 61 FF", offset: 16),
        // Handover.
        Case(rule: .handoverVersionMissing, hex: "D1 02 00 48 73", offset: 5),
        Case(rule: .handoverCollisionResolutionMissing, hex: "D1 02 0A 48 72 12  D1 02 04 61 63 01 01 63 00", offset: 5),
        Case(rule: .handoverCarrierTruncated, hex: "D1 02 03 48 63 01 05 61", offset: 7),
        Case(rule: .handoverCarrierCTFReserved, hex: "D1 02 03 48 63 07 01 62", offset: 5),
        Case(rule: .handoverCarrierTypeNotASCII, hex: "D1 02 03 48 63 01 01 E9", offset: 7),
        Case(rule: .alternativeCarrierTruncated, hex: "D1 02 0A 48 73 13  D1 02 04 61 63 01 05 61 62", offset: 13),
        Case(rule: .alternativeCarrierTrailingBytes, hex: "D1 02 0B 48 73 13  D1 02 05 61 63 01 01 63 00 7A", offset: 15),
        Case(rule: .collisionResolutionLength, hex: "D1 02 07 48 72 13  D1 02 01 63 72 01", offset: 11),
        Case(rule: .errorReasonReserved, hex: "D1 02 09 48 73 13  D1 03 02 65 72 72 00 01", offset: 12),
        Case(rule: .errorDataShort, hex: "D1 02 0A 48 73 13  D1 03 03 65 72 72 02 00 01", offset: 15),
        Case(rule: .errorDataLong, hex: "D1 02 0A 48 73 13  D1 03 03 65 72 72 01 05 06", offset: 14),
        // Device Information.
        Case(rule: .deviceInformationTruncated, hex: "D1 02 05 44 69 00 01 41 01 05", offset: 10),
        Case(rule: .deviceInformationEncodingInvalid, hex: "D1 02 06 44 69 00 01 FF 01 01 42", offset: 7),
        Case(rule: .deviceInformationUUIDLength, hex: "D1 02 0A 44 69 00 01 41 01 01 42 03 02 01 02", offset: 12),
        Case(rule: .deviceInformationRequiredMissing, hex: "D1 02 03 44 69 00 01 41", offset: 8),
        // Signature.
        Case(rule: .signatureTruncated, hex: "D1 03 06 53 69 67 20 0B 02 00 09 61", offset: 11),
        Case(rule: .signatureVersion, hex: "D1 03 07 53 69 67 10 0B 02 00 01 61 00", offset: 6),
        Case(rule: .signatureURIInvalid, hex: "D1 03 08 53 69 67 20 8B 02 00 02 61 01 00", offset: 12),
        // Bluetooth (payload from byte 35).
        Case(rule: .bluetoothTruncated, hex: "D2 20 03 \(bt) 06 00 01", offset: 38),
        Case(rule: .bluetoothOOBLengthExceedsPayload, hex: "D2 20 08 \(bt) 20 00 01 02 03 04 05 06", offset: 35),
        Case(rule: .bluetoothPayloadExceedsOOBLength, hex: "D2 20 0B \(bt) 08 00 01 02 03 04 05 06 02 09 61", offset: 35),
        Case(rule: .bluetoothEIRTruncated, hex: "D2 20 0B \(bt) 0B 00 01 02 03 04 05 06 05 09 61", offset: 45),
        // Wi-Fi (payload from byte 26).
        Case(rule: .wscTruncated, hex: "D2 17 05 \(wsc) 10 4A 00 05 10", offset: 30),
        Case(rule: .wscAttributeReserved, hex: "D2 17 05 \(wsc) 0F FF 00 01 10", offset: 26),
        Case(rule: .wscAttributeLength, hex: "D2 17 06 \(wsc) 10 4A 00 02 10 00", offset: 28),
        Case(rule: .p2pTruncated, hex: "D2 17 02 \(p2p) 00 05", offset: 28),
        Case(rule: .p2pWSCDataShort, hex: "D2 17 06 \(p2p) 00 02 10 4A 00 00", offset: 26),
        Case(rule: .p2pRequiredMissing, hex: "D2 17 09 \(p2p) 00 05 10 4A 00 01 10 00 00", offset: 35),
        // vCard.
        Case(rule: .vCardStructure, hex: "D2 0A 03 74 65 78 74 2F 76 63 61 72 64 41 3A 42", offset: 13),
    ]

    @Test func everyRuleHasACase() {
        #expect(Set(Self.cases.map(\.rule)) == Set(NDEFRule.allCases))
    }

    @Test func everyRuleIsDocumented() throws {
        // docs/ndef.md lists the identifiers users see in diagnostics.
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/ndef.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for rule in NDEFRule.allCases {
            #expect(text.contains("`\(rule.rawValue)`"), "\(rule.rawValue) is missing from docs/ndef.md")
        }
    }

    @Test(arguments: cases)
    func ruleIsReportedAtItsOffset(_ c: Case) throws {
        let bytes = try #require(Hex.parse(c.hex))
        let strict = NDEFMessage.decode(bytes, mode: .strict)
        let hits = strict.issues.filter { $0.rule == c.rule }
        #expect(hits.count == 1, "\(c.rule.rawValue): \(strict.issues)")
        #expect(hits.first?.offset == c.offset, "\(hits.first?.description ?? "none")")
        // Breaches make strict decoding invalid; advisories never do.
        if c.rule.severity == .breach {
            #expect(!strict.isValid)
            #expect(throws: DecodeError.self) { try NDEFMessage(strict: bytes) }
        } else {
            #expect(strict.isValid, "an advisory alone never rejects: \(strict.issues)")
        }
        // Lenient decoding gets past everything but a record that runs off the end.
        let lenient = NDEFMessage.decode(bytes, mode: .lenient)
        let decodingStopped = c.rule == .recordTruncated
        #expect(lenient.isValid == !decodingStopped, "\(lenient.issues)")
        #expect(hits.first?.tolerated == !decodingStopped)
    }

    @Test func strictReportsEveryBreachNotOnlyTheFirst() {
        // No MB, an undefined URI code, and bytes after ME: three breaches, three issues.
        let result = NDEFMessage.decode(Hex.parse("51 01 02 55 24 61 00")!, mode: .strict)
        #expect(result.issues.map(\.rule) == [.mbMissing, .uriPrefixUndefined, .bytesAfterME])
        #expect(result.issues.map(\.offset) == [0, 4, 6])
        #expect(result.records.count == 1, "the record is still decoded")
        #expect(result.unparsedRange == 6..<7)
    }

    @Test func lenientToleratesWhatStrictRejects() {
        let bytes = Hex.parse("51 01 02 55 24 61")!
        #expect(!NDEFMessage.decode(bytes, mode: .strict).isValid)
        let lenient = NDEFMessage.decode(bytes, mode: .lenient)
        #expect(lenient.isValid)
        #expect(lenient.tolerated.map(\.rule) == [.mbMissing, .uriPrefixUndefined])
        // An undefined identifier code reads as no prefix, as ndeflib's relaxed mode does.
        #expect(lenient.records.first?.payload == .uri(NDEFURI(code: 0x24, rest: "a")))
        if case .uri(let u) = lenient.records.first?.payload { #expect(u.uri == "a") }
    }
}
