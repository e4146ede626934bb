import Testing
@testable import NFCCore

/// Every decoder of this issue meets arbitrary bytes: no trap, and lenient NDEF decoding
/// accounts for every byte (records, or an unparsed range with the issue that explains it).
/// The libFuzzer targets come with the fuzzing issue; this is the quick in-test loop.
@Suite struct RandomInputTests {
    static let seeds: [[UInt8]] = {
        let messages: [[NDEFRecord]] = [
            [.uri("https://example.com")],
            [(try? .text("Hello", language: "en")) ?? .empty, .androidApplication("com.example")],
            [(try? .smartPoster(uri: "https://a", titles: [NDEFText("t")], action: .save, size: 5)) ?? .empty],
            [(try? .handover(.select, records: [.handoverError(NDEFHandoverError(reason: 1, data: [5]))])) ?? .empty,
             .wifiSimpleConfig(.credential(ssid: [0x61], networkKey: [0x62]))],
            [(try? .deviceInformation(NDEFDeviceInformation(manufacturer: "a", model: "b"))) ?? .empty,
             (try? .signature(NDEFSignature(signatureType: 11, signature: [1, 2], certificates: [[3]]))) ?? .empty],
            [(try? .handover(.request, records: [.collisionResolution(1), (try? .alternativeCarrier(
                NDEFAlternativeCarrier(powerState: .active, carrierDataReference: [0x62], auxiliaryDataReferences: [[0x61]]))) ?? .empty]))
                ?? .empty,
             (try? .handoverCarrier(NDEFHandoverCarrier(format: .wellKnown, carrierType: [0x62]))) ?? .empty,
             (try? .bluetooth(NDEFBluetoothOOB(transport: .easyPairing, deviceAddress: [1, 2, 3, 4, 5, 6],
                                               elements: [.init(type: 0x09, data: [0x61])]))) ?? .empty],
            [(try? .bluetooth(NDEFBluetoothOOB(transport: .lowEnergy, elements: [.init(type: 0x1C, data: [0])]))) ?? .empty,
             .wifiPeerToPeer(NDEFWiFiPeerToPeer(wsc: .credential(ssid: [0x61], networkKey: []), attributes: [.init(id: 2, value: [0, 0])])),
             .vCard("BEGIN:VCARD\r\nFN:a\r\nEND:VCARD")],
        ]
        var out = messages.compactMap { try? NDEFMessage($0).encode() }
        if let chunked = try? NDEFMessage([.mime("a/b", payload: Array(0..<20))]).encode(chunkSize: 6) { out.append(chunked) }
        return out
    }()

    static func input(_ rng: inout SplitMix64) -> [UInt8] {
        switch rng.next() % 3 {
        case 0:
            return (0..<Int(rng.next() % 48)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 1:
            // A valid message with a few bytes changed, cut or added.
            var b = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0...(rng.next() % 3) where !b.isEmpty {
                let i = Int(rng.next() % UInt64(b.count))
                switch rng.next() % 4 {
                case 0: b[i] ^= UInt8(1 << (rng.next() % 8))
                case 1: b = Array(b[..<i])
                case 2: b.insert(UInt8.random(in: 0...255, using: &rng), at: i)
                default: b[i] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            return b
        default:
            // Plausible headers with random lengths.
            var b: [UInt8] = []
            for _ in 0..<(1 + rng.next() % 4) {
                b.append(UInt8.random(in: 0...255, using: &rng) | (rng.next() % 2 == 0 ? 0x10 : 0))
                b.append(UInt8(rng.next() % 4))
                b.append(UInt8(rng.next() % 8))
                b += (0..<Int(rng.next() % 10)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
            }
            return b
        }
    }

    @Test func ndefDecodingAccountsForEveryByte() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        for n in 0..<200_000 {
            let bytes = Self.input(&rng)
            let lenient = NDEFMessage.decode(bytes, mode: .lenient)
            let strict = NDEFMessage.decode(bytes, mode: .strict)
            // The modes decode alike; only the verdict differs.
            guard lenient.records == strict.records, lenient.issues == strict.issues else {
                Issue.record("#\(n) \(Hex.string(bytes)): modes decode differently")
                return
            }
            if strict.isValid && !lenient.isValid { Issue.record("#\(n): strict accepts what lenient rejects") }
            // Wire records tile the input from byte 0; the rest is unparsed and explained.
            var end = 0
            for chunk in lenient.records.flatMap(\.record.chunks) {
                if chunk.range.lowerBound != end { Issue.record("#\(n) \(Hex.string(bytes)): gap before \(chunk.range)"); return }
                end = chunk.range.upperBound
            }
            if end < bytes.count {
                let explained = lenient.unparsedRange == end..<bytes.count && lenient.issues.contains {
                    ($0.rule == .recordTruncated || $0.rule == .bytesAfterME) && (end...bytes.count).contains($0.offset)
                }
                if !explained { Issue.record("#\(n) \(Hex.string(bytes)): bytes \(end)..<\(bytes.count) unaccounted for"); return }
            } else if lenient.unparsedRange != nil {
                Issue.record("#\(n) \(Hex.string(bytes)): unparsed range past the records")
            }
            if bytes.isEmpty && lenient.issues.map(\.rule) != [.messageEmpty] { Issue.record("empty input not reported") }
            if lenient.issues.contains(where: { $0.offset < 0 || $0.offset > bytes.count }) {
                Issue.record("#\(n) \(Hex.string(bytes)): issue offset outside the input: \(lenient.issues)")
                return
            }
            // Whatever was decoded encodes and decodes back to the same records.
            if !lenient.records.isEmpty {
                let again = NDEFMessage.decode(try lenient.message.encode(), mode: .lenient)
                if again.records != lenient.records { Issue.record("#\(n) \(Hex.string(bytes)): re-encoding changed the records") }
            }
        }
    }

    /// `decodeFraming` is `decode` without the payload readers: the same records, chunks and
    /// unparsed bytes, only framing issues (all of them also `decode`'s), nothing read.
    @Test func framingDecodeIsDecodeWithoutPayloads() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        for n in 0..<50_000 {
            let bytes = Self.input(&rng)
            let full = NDEFMessage.decode(bytes, mode: .lenient)
            let framing = NDEFMessage.decodeFraming(bytes, mode: .lenient)
            guard framing.records.map(\.record) == full.records.map(\.record), framing.unparsedRange == full.unparsedRange else {
                Issue.record("#\(n) \(Hex.string(bytes)): the framing decode found other records")
                return
            }
            if framing.records.contains(where: { $0.kind != nil || $0.payload != .bytes }) { Issue.record("#\(n): a payload was read") }
            if framing.issues.contains(where: { !full.issues.contains($0) }) {
                Issue.record("#\(n) \(Hex.string(bytes)): an issue decode does not report: \(framing.issues)")
                return
            }
            if full.isValid && !framing.isValid { Issue.record("#\(n) \(Hex.string(bytes)): framing rejects what decode accepts") }
        }
        // A Smart Poster whose nested message is cut short: decode opens it and stops, the
        // framing decode does not open it.
        let poster = NDEFRecord(tnf: .wellKnown, type: Array("Sp".utf8), payload: [0xD1, 0x01, 0x09, 0x55, 0x04])
        let bytes = (try? NDEFMessage([poster]).encode()) ?? []
        #expect(!NDEFMessage.decode(bytes, mode: .lenient).isValid)
        let framing = NDEFMessage.decodeFraming(bytes, mode: .lenient)
        #expect(framing.isValid && framing.issues.isEmpty && framing.records.map(\.record) == [poster])
    }

    @Test func tagMemoryDecodersSurviveArbitraryImages() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        for n in 0..<200_000 {
            var bytes = (0..<Int(rng.next() % 96)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            switch n % 3 {
            case 0 where bytes.count >= 16:
                // An NDEF-formatted Type 2 CC, and TLV-looking bytes after it.
                bytes.replaceSubrange(12..<16, with: [0xE1, 0x10, UInt8(rng.next() % 32), 0x00])
                for i in stride(from: 16, to: bytes.count, by: 1 + Int(rng.next() % 5)) {
                    bytes[i] = [0x00, 0x01, 0x02, 0x03, 0xFD, 0xFE, 0xFF][Int(rng.next() % 7)]
                }
            case 1 where bytes.count >= 4:
                bytes.replaceSubrange(0..<4, with: [0xE1, UInt8(rng.next() % 256), UInt8(rng.next() % 16), 0x01])
            default:
                break
            }
            let known: [Bool]? = rng.next() % 2 == 0 ? nil : bytes.map { _ in rng.next() % 8 != 0 }
            let image = TagMemoryImage(bytes: bytes, known: known)
            let t2 = Type2Memory.decode(image)
            let t3 = Type3Memory.decode(image)
            let t5 = Type5Memory.decode(image)
            let tlvs = t2.tlvs + t5.tlvs
            if tlvs.contains(where: { $0.range.lowerBound < 0 || $0.range.upperBound > bytes.count }) {
                Issue.record("#\(n) \(Hex.string(bytes)): TLV outside the image")
                return
            }
            if tlvs.contains(where: { $0.value.count != $0.valueSegments.reduce(0) { $0 + $1.count } }) {
                Issue.record("#\(n): value bytes and segments disagree")
                return
            }
            let issues = t2.issues + t3.issues + t5.issues
            if issues.contains(where: { $0.range.lowerBound < 0 || $0.range.isEmpty }) {
                Issue.record("#\(n) \(Hex.string(bytes)): bad issue range \(issues)")
                return
            }
            // Block and CC codecs give back the bytes they read.
            if bytes.count >= 16, let aib = try? Type3AttributeInformationBlock.decode(Array(bytes[0..<16])),
               aib.bytes != Array(bytes[0..<16]) {
                Issue.record("#\(n): AIB bytes differ after decoding")
            }
            if let cc = try? Type5CapabilityContainer.decode(Array(bytes.prefix(8))), cc.bytes != Array(bytes.prefix(cc.length)) {
                Issue.record("#\(n): Type 5 CC bytes differ after decoding")
            }
            if bytes.count >= 4, let cc = try? Type2CapabilityContainer.decode(Array(bytes[0..<4])), cc.bytes != Array(bytes[0..<4]) {
                Issue.record("#\(n): Type 2 CC bytes differ after decoding")
            }
            _ = t3.ndef
        }
    }
}
