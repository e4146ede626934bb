import NFCCore

/// Fields for what a record's payload says; ranges are the payload bytes each field comes from.
struct NDEFPayloadFields {
    let builder: NDEFFieldBuilder

    func at(_ r: NDEFRecord, _ range: Range<Int>) -> Range<Int>? { builder.at(r, range) }

    func fields(_ d: NDEFDecodedRecord) -> [Field] {
        let r = d.record
        let all = r.payload.indices
        switch d.payload {
        case .text(let t): return text(t, r)
        case .uri(let u):
            return [Field("ndef.uri", "URI", u.uri, range: at(r, all), children: [
                Field("ndef.uri.code", "Identifier code",
                      "\(Hex.byte(u.code)) " + (u.prefix.map { $0.isEmpty ? "(no prefix)" : quoted($0) } ?? "(undefined: no prefix)"),
                      range: at(r, NDEFURI.Layout.identifierCode.range)),
                Field("ndef.uri.rest", "URI field", quoted(u.rest), range: at(r, NDEFURI.Layout.rest(r.payload.count))),
            ])]
        case .smartPoster(let sp):
            var out = [Field("ndef.sp", "Smart Poster", NDEFSummary.smartPoster(sp), range: at(r, all))]
            out += sp.records.enumerated().map { builder.record($0.element, index: $0.offset + 1) }
            if let unparsed = sp.message.unparsedRange {
                out.append(Field("ndef.unparsed", "Not part of a record", plural(unparsed.count, "byte"), range: builder.place(unparsed)))
            }
            return out
        case .smartPosterAction(let a):
            return [Field("ndef.sp.action", "Action", "\(a.rawValue) (\(a.name))", range: at(r, all))]
        case .smartPosterSize(let s):
            return [Field("ndef.sp.size", "Resource size", plural(Int(s), "byte"), range: at(r, all))]
        case .smartPosterType(let t):
            return [Field("ndef.sp.type", "Resource type", quoted(t), range: at(r, all))]
        case .handover(let h):
            var out = [Field("ndef.handover.version", "Version", "\(h.versionText) (\(Hex.byte(h.version)))", range: at(r, NDEFHandover.Layout.version.range))]
            out += h.message.records.enumerated().map { builder.record($0.element, index: $0.offset + 1) }
            if let unparsed = h.message.unparsedRange {
                out.append(Field("ndef.unparsed", "Not part of a record", plural(unparsed.count, "byte"), range: builder.place(unparsed)))
            }
            return out
        case .handoverCarrier(let hc):
            let n = hc.carrierType.count
            return [
                Field("ndef.hc.ctf", "Carrier type format", "\(hc.format.rawValue) (\(hc.format.name))", range: at(r, NDEFHandoverCarrier.Layout.format.range)),
                Field("ndef.hc.type_length", "Carrier type length", "\(n)", range: at(r, NDEFHandoverCarrier.Layout.typeLength.range)),
                Field("ndef.hc.type", "Carrier type", textOrHex(hc.carrierType), range: at(r, NDEFHandoverCarrier.Layout.type(n))),
                Field("ndef.hc.data", "Carrier data", hexValue(hc.carrierData), range: at(r, NDEFHandoverCarrier.Layout.data(typeLength: n, payloadCount: r.payload.count))),
            ]
        case .alternativeCarrier(let ac): return alternativeCarrier(ac, r)
        case .collisionResolution(let n):
            return [Field("ndef.cr.random", "Random number", "\(n) (\(Hex.value(n, digits: 4)))", range: at(r, all))]
        case .handoverError(let e):
            return [
                Field("ndef.err.reason", "Error reason", "\(e.reason) (\(e.reasonName))", range: at(r, NDEFHandoverError.Layout.reason.range)),
                Field("ndef.err.data", "Error data", hexValue(e.data), range: at(r, NDEFHandoverError.Layout.data(r.payload.count))),
            ]
        case .deviceInformation(let di): return deviceInformation(di, r)
        case .signature(let s): return signature(s, r)
        case .bluetooth(let b): return bluetooth(b, r)
        case .wifiSimpleConfig(let w): return wsc(w.attributes, r)
        case .wifiPeerToPeer(let p): return peerToPeer(p, r)
        case .vCard(let v):
            return v.lines.map { Field("ndef.vcard.line", FieldName($0.name), quoted($0.value), range: at(r, $0.range)) }
        case .androidApplication(let package):
            return [Field("ndef.aar.package", "Package", quoted(package), range: at(r, all))]
        case .bytes:
            return r.payload.isEmpty ? [] : [Field("ndef.payload.bytes", "Bytes", hexValue(r.payload), range: at(r, all))]
        case .malformed:
            return [Field("ndef.payload.bytes", "Bytes (unreadable \(d.kind.map { NDEFSummary.kindName($0) } ?? "payload"))",
                          hexValue(r.payload), range: at(r, all))]
        }
    }

    func text(_ t: NDEFText, _ r: NDEFRecord) -> [Field] {
        let status = r.payload.first ?? 0
        let n = Int(status & 0x3F)
        return [
            Field("ndef.text.status", "Status", "\(Hex.byte(status)): \(t.encoding.rawValue), language code \(plural(n, "byte"))"
                    + (status & 0x40 != 0 ? ", RFU bit set" : ""), range: at(r, NDEFText.Layout.status.range)),
            Field("ndef.text.language", "Language", t.language, range: at(r, NDEFText.Layout.language(n))),
            Field("ndef.text.text", "Text", quoted(t.text), range: at(r, NDEFText.Layout.text(languageLength: n, payloadCount: r.payload.count))),
        ]
    }

    func alternativeCarrier(_ ac: NDEFAlternativeCarrier, _ r: NDEFRecord) -> [Field] {
        var out = [Field("ndef.ac.cps", "Carrier power state", "\(ac.powerState.rawValue) (\(ac.powerState.name))", range: at(r, NDEFAlternativeCarrier.Layout.powerState.range))]
        var offset = 1
        let cdr = ac.carrierDataReference
        out.append(Field("ndef.ac.carrier_ref", "Carrier data reference", quoted(String(decoding: cdr, as: UTF8.self)),
                         range: at(r, offset..<(offset + 1 + cdr.count))))
        offset += 1 + cdr.count
        out.append(Field("ndef.ac.aux_count", "Auxiliary data references", "\(ac.auxiliaryDataReferences.count)",
                         range: at(r, offset..<(offset + 1))))
        offset += 1
        for aux in ac.auxiliaryDataReferences {
            out.append(Field("ndef.ac.aux_ref", "Auxiliary data reference", quoted(String(decoding: aux, as: UTF8.self)),
                             range: at(r, offset..<(offset + 1 + aux.count))))
            offset += 1 + aux.count
        }
        return out
    }

    func deviceInformation(_ di: NDEFDeviceInformation, _ r: NDEFRecord) -> [Field] {
        di.elements.map { e in
            let value: String
            switch e.type {
            case 3: value = NDEFDeviceInformation(elements: [e]).uuidText ?? hexValue(e.value)
            case 0, 1, 2, 4: value = quoted(String(decoding: e.value, as: UTF8.self))
            default: value = hexValue(e.value)
            }
            return Field("ndef.di.element", FieldName(e.name), value, range: at(r, e.range))
        }
    }

    func signature(_ s: NDEFSignature, _ r: NDEFRecord) -> [Field] {
        var out = [
            Field("ndef.sig.version", "Version", "\(s.version >> 4).\(s.version & 0x0F) (\(Hex.byte(s.version)))", range: at(r, NDEFSignature.Layout.version.range)),
            Field("ndef.sig.type", "Signature type", "\(Hex.byte(s.signatureType)) (\(s.signatureTypeName))"
                    + (s.signatureIsURI ? ", by URI" : ""), range: at(r, NDEFSignature.Layout.signatureType.range)),
            Field("ndef.sig.hash", "Hash type", "\(Hex.byte(s.hashType)) (\(s.hashTypeName))", range: at(r, NDEFSignature.Layout.hashType.range)),
        ]
        let n = s.signature.count
        out.append(s.signatureIsURI
            ? Field("ndef.sig.uri", "Signature URI", textOrHex(s.signature), range: at(r, NDEFSignature.Layout.signature(n)))
            : Field("ndef.sig.signature", "Signature", "\(plural(n, "byte")): \(hexValue(s.signature))", range: at(r, NDEFSignature.Layout.signature(n))))
        var offset = 5 + n
        out.append(Field("ndef.sig.certificate_format", "Certificate format",
                         "\(s.certificateFormatName), \(plural(s.certificates.count, "certificate"))"
                            + (s.certificateURI != nil ? ", URI follows" : ""), range: at(r, offset..<(offset + 1))))
        offset += 1
        for (k, c) in s.certificates.enumerated() {
            out.append(Field("ndef.sig.certificate", "Certificate \(k + 1)", "\(plural(c.count, "byte")): \(hexValue(c))",
                             range: at(r, offset..<(offset + 2 + c.count))))
            offset += 2 + c.count
        }
        if let uri = s.certificateURI {
            out.append(Field("ndef.sig.certificate_uri", "Certificate URI", textOrHex(uri), range: at(r, offset..<(offset + 2 + uri.count))))
        }
        return out
    }
}
