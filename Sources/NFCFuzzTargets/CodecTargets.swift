import NFCCore
import NFCFuzz
import NFCDissect

/// Targets for the codecs that go through the dissector's describers: lenient NDEF, tag
/// memory, DESFire and EMV answers (the NFCCore-only ones are `CoreCodecTargets`).
enum CodecTargets {
    /// Lenient decode and the field tree `ndef decode` shows; whatever records were decoded
    /// encode back to themselves (the empty message aside: it encodes as `D0 00 00`).
    static func ndefLenient(_ input: [UInt8]) -> FuzzCheck {
        let inspection = NDEFInspection.inspect(input, as: .ndef, mode: .lenient)
        var out: [UInt8] = []
        inspection.text(mode: .lenient, into: &out)
        inspection.json(mode: .lenient, into: &out)
        // The inspection's own decode: decoding again would only repeat it.
        guard let result = inspection.decoded else { return .mismatch("an NDEF message's inspection has no decode") }
        guard !result.records.isEmpty else { return .ok }
        return CoreCodecTargets.roundTrip(result, mode: .lenient)
    }

    /// Decode a memory image fully known, then with its last quarter unread (as a dissector's
    /// partial reconstruction has it), through the describer `ndef decode` uses.
    static func image(_ input: [UInt8]) -> [TagMemoryImage] {
        var partial = [Bool](repeating: true, count: input.count)
        for i in (input.count * 3 / 4)..<input.count { partial[i] = false }
        return [TagMemoryImage(bytes: input), TagMemoryImage(bytes: input, known: partial)]
    }

    static func type2Memory(_ input: [UInt8]) -> FuzzCheck {
        var check = FuzzCheck.ok
        for image in image(input) {
            let layout = Type2Memory.decode(image)
            _ = FieldTreeText.render(TagMemoryDescriber.describe(layout, image: image))
            guard image.known == nil else { continue }
            if let cc = layout.capabilityContainer {
                check = .all(check, .expect(cc.bytes == Array(input[Type2Memory.capabilityContainerRange]), "the CC re-encodes differently — \(Hex.string(input[Type2Memory.capabilityContainerRange])) as \(Hex.string(cc.bytes))"))
            }
            // A complete, valid NDEF message rebuilt into a fresh image reads back the same.
            guard let cc = layout.capabilityContainer, cc.isNDEF, let ndef = layout.ndef, ndef.tlv.isComplete,
                  ndef.result.isValid, !ndef.result.records.isEmpty,
                  let rebuilt = try? Type2Memory.image(capabilityContainer: cc, message: ndef.tlv.value, header: Array(input[0..<12])) else { continue }
            let again = Type2Memory.decode(TagMemoryImage(bytes: rebuilt))
            check = .all(check, .expect(again.ndef?.result.message == ndef.result.message, "NDEF message differs after rebuilding the image"))
        }
        return check
    }

    static func type3Memory(_ input: [UInt8]) -> FuzzCheck {
        var check = FuzzCheck.ok
        for image in image(input) {
            let layout = Type3Memory.decode(image)
            _ = FieldTreeText.render(TagMemoryDescriber.describe(layout, image: image))
            guard image.known == nil, let aib = layout.attributeInformationBlock else { continue }
            check = .all(check, .expect(aib.bytes == Array(input[0..<16]), "the AIB re-encodes differently — \(Hex.string(aib.bytes))"))
            guard let result = layout.ndef, result.isValid, !result.records.isEmpty, let range = layout.ndefRange, range.upperBound <= input.count,
                  let blocks = try? Type3Memory.blocks(message: Array(input[range]), nmaxb: max(aib.nmaxb, UInt16(clamping: (range.count + 15) / 16))) else { continue }
            let again = Type3Memory.decode(TagMemoryImage(bytes: blocks.flatMap { $0 }))
            check = .all(check, .expect(again.ndef?.message == result.message, "NDEF message differs after rebuilding the blocks"))
        }
        return check
    }

    static func type5Memory(_ input: [UInt8]) -> FuzzCheck {
        var check = FuzzCheck.ok
        for image in image(input) {
            let layout = Type5Memory.decode(image)
            _ = FieldTreeText.render(TagMemoryDescriber.describe(layout, image: image))
            guard image.known == nil, let cc = layout.capabilityContainer else { continue }
            check = .all(check, .expect(cc.bytes == Array(input.prefix(cc.length)), "the CC re-encodes differently — \(Hex.string(cc.bytes))"))
            guard let ndef = layout.ndef, ndef.tlv.isComplete, ndef.result.isValid, !ndef.result.records.isEmpty,
                  let rebuilt = try? Type5Memory.image(message: ndef.tlv.value, memorySize: max(64, ndef.tlv.value.count + 16)) else { continue }
            let again = Type5Memory.decode(TagMemoryImage(bytes: rebuilt))
            check = .all(check, .expect(again.ndef?.result.message == ndef.result.message, "NDEF message differs after rebuilding the image"))
        }
        return check
    }

    /// DESFire and EMV answers through their decoders. For BER-TLV with card data: the secret
    /// values a chained answer's prefix announces (what each block masks before the answer is
    /// whole) are, for a prefix and for the whole, those of the parsed tree with the same ranges;
    /// the bytes masked lie in their values.
    static func desfireEMV(_ input: [UInt8]) -> FuzzCheck {
        guard let mode = input.first else { return .ok }
        let body = Array(input.dropFirst())
        switch mode {
        case 0:
            _ = DESFire.summary(code: body.first ?? 0x60, data: Array(body.dropFirst()))
            guard let v = DESFire.Version(body) else { return .ok }
            _ = (v.generation, v.storageText, v.uid, v.productionWeek)
            return .ok
        case 1:
            guard let f = DESFire.FileSettings(body) else { return .ok }
            _ = (f.typeName, f.communicationName, f.accessText, f.size)
            return .ok
        case 2:
            guard let (list, values) = ApplicationDataShape.listAndValues(body), let entries = EMV.dataObjectList(list),
                  let split = EMV.values(values, for: entries) else { return .ok }
            var at = 0
            for (entry, range) in split {
                guard range.lowerBound == at, range.count == entry.length else { return .mismatch("a DOL value is not where the list puts it — \(entry.tagHex) at \(range)") }
                _ = EMV.describe(tag: entry.tag, value: Array(values[range]))
                at = range.upperBound
            }
            return .expect(at == values.count, "the DOL values do not end where the data ends")
        default:
            let (objects, error) = BERTLV.parse(body)
            var secrets: [(tag: UInt32, range: Range<Int>)] = []
            func walk(_ list: [BERTLV]) {
                for o in list {
                    _ = EMV.describe(tag: o.tag, value: o.value)
                    if BERTLVTags.secret.contains(o.tag) { secrets.append((o.tag, o.valueRange)) } else { walk(o.children ?? []) }
                }
            }
            walk(objects)
            for (tag, range) in secrets {
                let value = Array(body[range])
                _ = EMV.maskedDigits(value)
                for h in EMV.hiddenBytes(tag: tag, value: value) where h.lowerBound < 0 || h.upperBound > value.count || h.isEmpty {
                    return .mismatch("hidden bytes outside the value — \(h) of \(value.count)")
                }
            }
            // A damaged object inside a whole one ends its list in both readings, so only the top must parse.
            guard error == nil, objects.allSatisfy({ $0.error == nil }) else { return .ok }
            let announced = BERTLV.values(of: BERTLVTags.secret, inPrefix: body)
            guard announced.map(\.tag) == secrets.map(\.tag), announced.map(\.range) == secrets.map(\.range) else {
                return .mismatch("the secret values of the whole answer read as a prefix differ from its tree — \(announced.map(\.range)) vs \(secrets.map(\.range))")
            }
            // A prefix announces the values the whole has that start in it, with the whole's ranges.
            let cut = body.count / 2
            let early = BERTLV.values(of: BERTLVTags.secret, inPrefix: Array(body.prefix(cut)))
            for e in early where !secrets.contains(where: { $0.tag == e.tag && $0.range == e.range }) {
                return .mismatch("a prefix announces a secret value the whole answer does not have — \(e.range) in \(cut) bytes")
            }
            return .ok
        }
    }
}
