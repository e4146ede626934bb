/// What a record's payload says, for the record types nfctrace reads. The raw bytes always stay
/// in `NDEFRecord.payload`; this is the reading of them.
public enum NDEFPayload: Sendable, Equatable {
    case text(NDEFText)
    case uri(NDEFURI)
    case smartPoster(NDEFSmartPoster)
    case smartPosterAction(NDEFSmartPosterAction)
    case smartPosterSize(UInt32)
    case smartPosterType(String)
    case handover(NDEFHandover)
    case handoverCarrier(NDEFHandoverCarrier)
    case alternativeCarrier(NDEFAlternativeCarrier)
    case collisionResolution(UInt16)
    case handoverError(NDEFHandoverError)
    case deviceInformation(NDEFDeviceInformation)
    case signature(NDEFSignature)
    case bluetooth(NDEFBluetoothOOB)
    case wifiSimpleConfig(NDEFWiFiSimpleConfig)
    case wifiPeerToPeer(NDEFWiFiPeerToPeer)
    case vCard(NDEFVCard)
    /// Android Application Record: the package name.
    case androidApplication(String)
    /// Nothing to read: an Empty record, or a type shown only as bytes (unknown types, absolute
    /// URIs, other media and external types).
    case bytes
    /// A type nfctrace reads whose payload could not be read; the issues say why.
    case malformed

    /// Reads `record`'s payload as `kind`; payload problems go to `issues` with payload offsets.
    static func read(_ record: NDEFRecord, kind: NDEFRecordKind?, depth: Int, issues: inout [NDEFIssue]) -> NDEFPayload {
        guard let kind else { return .bytes }
        let p = record.payload
        func or(_ value: NDEFPayload?) -> NDEFPayload { value ?? .malformed }
        switch kind {
        case .empty, .absoluteURI, .media, .external: return .bytes
        case .text: return or(NDEFText.read(p, issues: &issues).map(NDEFPayload.text))
        case .uri: return or(NDEFURI.read(p, issues: &issues).map(NDEFPayload.uri))
        case .smartPoster:
            let nested = readNested(p, from: 0, context: .smartPoster, depth: depth, record: record, issues: &issues)
            NDEFSmartPoster.check(nested, issues: &issues)
            return .smartPoster(NDEFSmartPoster(message: nested))
        case .smartPosterAction: return or(NDEFSmartPosterAction.read(p, issues: &issues).map(NDEFPayload.smartPosterAction))
        case .smartPosterSize: return or(NDEFSmartPosterFields.readSize(p, issues: &issues).map(NDEFPayload.smartPosterSize))
        case .smartPosterType: return or(NDEFSmartPosterFields.readType(p, issues: &issues).map(NDEFPayload.smartPosterType))
        case .handoverRequest, .handoverSelect, .handoverMediation, .handoverInitiate:
            let k: NDEFHandover.Kind = kind == .handoverRequest ? .request
                : kind == .handoverSelect ? .select : kind == .handoverMediation ? .mediation : .initiate
            return or(NDEFHandover.read(k, p, depth: depth, record: record, issues: &issues).map(NDEFPayload.handover))
        case .handoverCarrier: return or(NDEFHandoverCarrier.read(p, issues: &issues).map(NDEFPayload.handoverCarrier))
        case .alternativeCarrier: return or(NDEFAlternativeCarrier.read(p, issues: &issues).map(NDEFPayload.alternativeCarrier))
        case .collisionResolution: return or(NDEFCollisionResolution.read(p, issues: &issues).map(NDEFPayload.collisionResolution))
        case .handoverError: return or(NDEFHandoverError.read(p, issues: &issues).map(NDEFPayload.handoverError))
        case .deviceInformation: return or(NDEFDeviceInformation.read(p, issues: &issues).map(NDEFPayload.deviceInformation))
        case .signature: return or(NDEFSignature.read(p, issues: &issues).map(NDEFPayload.signature))
        case .bluetoothEasyPairing: return or(NDEFBluetoothOOB.read(.easyPairing, p, issues: &issues).map(NDEFPayload.bluetooth))
        case .bluetoothLowEnergy: return or(NDEFBluetoothOOB.read(.lowEnergy, p, issues: &issues).map(NDEFPayload.bluetooth))
        case .wifiSimpleConfig: return or(NDEFWiFiSimpleConfig.read(p, issues: &issues).map(NDEFPayload.wifiSimpleConfig))
        case .wifiPeerToPeer: return or(NDEFWiFiPeerToPeer.read(p, issues: &issues).map(NDEFPayload.wifiPeerToPeer))
        case .vCard: return .vCard(NDEFVCard.read(p, issues: &issues))
        case .androidApplication: return .androidApplication(String(decoding: p, as: UTF8.self))
        }
    }

    /// Decodes the nested message in `payload[start...]`. Its issues are added to `issues` with
    /// payload offsets; the returned result has its offsets in the outer message already.
    static func readNested(_ payload: [UInt8], from start: Int, context: NDEFRecordKind.Context, depth: Int,
                           record: NDEFRecord, issues: inout [NDEFIssue]) -> NDEFDecodeResult {
        let bytes = start == 0 ? payload : Array(payload[min(start, payload.count)...])
        guard depth < NDEFMessageDecoder.maximumDepth else {
            return NDEFDecodeResult(records: [], issues: [], mode: .lenient, byteCount: bytes.count,
                                    unparsedRange: bytes.isEmpty ? nil : 0..<bytes.count)
                .relocated { record.messageOffset(ofPayloadByte: $0 + start) ?? record.payloadEndOffset }
        }
        var decoder = NDEFMessageDecoder(bytes: bytes, context: context, depth: depth + 1)
        let nested = decoder.decode(mode: .lenient, allowEmpty: true)
        issues.append(contentsOf: nested.issues.map { var i = $0; i.offset += start; return i })
        return nested.relocated { record.messageOffset(ofPayloadByte: $0 + start) ?? record.payloadEndOffset }
    }

    /// Moves the offsets of nested messages (the only payload parts that carry message offsets).
    func relocated(_ map: (Int) -> Int) -> NDEFPayload {
        switch self {
        case .smartPoster(var sp):
            sp.message = sp.message.relocated(map)
            return .smartPoster(sp)
        case .handover(var h):
            h.message = h.message.relocated(map)
            return .handover(h)
        default:
            return self
        }
    }
}

