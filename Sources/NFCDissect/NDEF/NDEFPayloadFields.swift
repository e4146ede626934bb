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
            return [Field(.ndef.uri, u.uri, range: at(r, all), children: [
                Field(.ndef.uriCode,
                      "\(Hex.byte(u.code)) " + (u.prefix.map { $0.isEmpty ? "(no prefix)" : quoted($0) } ?? "(undefined: no prefix)"),
                      range: at(r, NDEFURI.Layout.identifierCode.range)),
                Field(.ndef.uriRest, quoted(u.rest), range: at(r, NDEFURI.Layout.rest(r.payload.count))),
            ])]
        case .smartPoster(let sp):
            var out = [Field(.ndef.sp, NDEFSummary.smartPoster(sp), range: at(r, all))]
            out += sp.records.enumerated().map { builder.record($0.element, index: $0.offset + 1) }
            if let unparsed = sp.message.unparsedRange {
                out.append(Field(.ndef.unparsed, plural(unparsed.count, "byte"), range: builder.place(unparsed)))
            }
            return out
        case .smartPosterAction(let a):
            return [Field(.ndef.spAction, "\(a.rawValue) (\(a.name))", range: at(r, all))]
        case .smartPosterSize(let s):
            return [Field(.ndef.spSize, plural(Int(s), "byte"), range: at(r, all))]
        case .smartPosterType(let t):
            return [Field(.ndef.spType, quoted(t), range: at(r, all))]
        case .handover(let h):
            var out = [Field(.ndef.handoverVersion, "\(h.versionText) (\(Hex.byte(h.version)))", range: at(r, NDEFHandover.Layout.version.range))]
            out += h.message.records.enumerated().map { builder.record($0.element, index: $0.offset + 1) }
            if let unparsed = h.message.unparsedRange {
                out.append(Field(.ndef.unparsed, plural(unparsed.count, "byte"), range: builder.place(unparsed)))
            }
            return out
        case .handoverCarrier(let hc):
            let n = hc.carrierType.count
            return [
                Field(.ndef.hcCtf, "\(hc.format.rawValue) (\(hc.format.name))", range: at(r, NDEFHandoverCarrier.Layout.format.range)),
                Field(.ndef.hcTypeLength, "\(n)", range: at(r, NDEFHandoverCarrier.Layout.typeLength.range)),
                Field(.ndef.hcType, textOrHex(hc.carrierType), range: at(r, NDEFHandoverCarrier.Layout.type(n))),
                Field(.ndef.hcData, hexValue(hc.carrierData), range: at(r, NDEFHandoverCarrier.Layout.data(typeLength: n, payloadCount: r.payload.count))),
            ]
        case .alternativeCarrier(let ac): return alternativeCarrier(ac, r)
        case .collisionResolution(let n):
            return [Field(.ndef.crRandom, "\(n) (\(Hex.value(n, digits: 4)))", range: at(r, all))]
        case .handoverError(let e):
            return [
                Field(.ndef.errReason, "\(e.reason) (\(e.reasonName))", range: at(r, NDEFHandoverError.Layout.reason.range)),
                Field(.ndef.errData, hexValue(e.data), range: at(r, NDEFHandoverError.Layout.data(r.payload.count))),
            ]
        case .deviceInformation(let di): return deviceInformation(di, r)
        case .signature(let s): return signature(s, r)
        case .bluetooth(let b): return bluetooth(b, r)
        case .wifiSimpleConfig(let w): return wsc(w.attributes, r)
        case .wifiPeerToPeer(let p): return peerToPeer(p, r)
        case .vCard(let v):
            return v.lines.map { Field(.ndef.vcardLine, label: FieldName($0.name), quoted($0.value), range: at(r, $0.range)) }
        case .androidApplication(let package):
            return [Field(.ndef.aarPackage, quoted(package), range: at(r, all))]
        case .bytes:
            return r.payload.isEmpty ? [] : [Field(.ndef.payloadBytes, hexValue(r.payload), range: at(r, all))]
        case .malformed:
            return [Field(.ndef.payloadBytes, label: "Bytes (unreadable \(d.kind.map { NDEFSummary.kindName($0) } ?? "payload"))",
                          hexValue(r.payload), range: at(r, all))]
        }
    }

    func text(_ t: NDEFText, _ r: NDEFRecord) -> [Field] {
        let status = r.payload.first ?? 0
        let n = Int(status & 0x3F)
        return [
            Field(.ndef.textStatus, "\(Hex.byte(status)): \(t.encoding.rawValue), language code \(plural(n, "byte"))"
                    + (status & 0x40 != 0 ? ", RFU bit set" : ""), range: at(r, NDEFText.Layout.status.range)),
            Field(.ndef.textLanguage, t.language, range: at(r, NDEFText.Layout.language(n))),
            Field(.ndef.textText, quoted(t.text), range: at(r, NDEFText.Layout.text(languageLength: n, payloadCount: r.payload.count))),
        ]
    }

    func alternativeCarrier(_ ac: NDEFAlternativeCarrier, _ r: NDEFRecord) -> [Field] {
        var out = [Field(.ndef.acCps, "\(ac.powerState.rawValue) (\(ac.powerState.name))", range: at(r, NDEFAlternativeCarrier.Layout.powerState.range))]
        var offset = 1
        let cdr = ac.carrierDataReference
        out.append(Field(.ndef.acCarrierRef, quoted(String(decoding: cdr, as: UTF8.self)),
                         range: at(r, offset..<(offset + 1 + cdr.count))))
        offset += 1 + cdr.count
        out.append(Field(.ndef.acAuxCount, "\(ac.auxiliaryDataReferences.count)",
                         range: at(r, offset..<(offset + 1))))
        offset += 1
        for aux in ac.auxiliaryDataReferences {
            out.append(Field(.ndef.acAuxRef, quoted(String(decoding: aux, as: UTF8.self)),
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
            return Field(.ndef.diElement, label: FieldName(e.name), value, range: at(r, e.range))
        }
    }

    func signature(_ s: NDEFSignature, _ r: NDEFRecord) -> [Field] {
        var out = [
            Field(.ndef.sigVersion, "\(s.version >> 4).\(s.version & 0x0F) (\(Hex.byte(s.version)))", range: at(r, NDEFSignature.Layout.version.range)),
            Field(.ndef.sigType, "\(Hex.byte(s.signatureType)) (\(s.signatureTypeName))"
                    + (s.signatureIsURI ? ", by URI" : ""), range: at(r, NDEFSignature.Layout.signatureType.range)),
            Field(.ndef.sigHash, "\(Hex.byte(s.hashType)) (\(s.hashTypeName))", range: at(r, NDEFSignature.Layout.hashType.range)),
        ]
        let n = s.signature.count
        out.append(s.signatureIsURI
            ? Field(.ndef.sigUri, textOrHex(s.signature), range: at(r, NDEFSignature.Layout.signature(n)))
            : Field(.ndef.sigSignature, "\(plural(n, "byte")): \(hexValue(s.signature))", range: at(r, NDEFSignature.Layout.signature(n))))
        var offset = 5 + n
        out.append(Field(.ndef.sigCertificateFormat,
                         "\(s.certificateFormatName), \(plural(s.certificates.count, "certificate"))"
                            + (s.certificateURI != nil ? ", URI follows" : ""), range: at(r, offset..<(offset + 1))))
        offset += 1
        for (k, c) in s.certificates.enumerated() {
            out.append(Field(.ndef.sigCertificate, label: "Certificate \(k + 1)", "\(plural(c.count, "byte")): \(hexValue(c))",
                             range: at(r, offset..<(offset + 2 + c.count))))
            offset += 2 + c.count
        }
        if let uri = s.certificateURI {
            out.append(Field(.ndef.sigCertificateUri, textOrHex(uri), range: at(r, offset..<(offset + 2 + uri.count))))
        }
        return out
    }
}
