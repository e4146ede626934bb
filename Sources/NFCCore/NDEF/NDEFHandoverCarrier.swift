/// The Handover Carrier record (`Hc`, Connection Handover 1.3 §3.4): a carrier named by
/// type when no carrier configuration record is available.
public struct NDEFHandoverCarrier: Sendable, Hashable {
    /// Carrier Type Format: a TNF value in the low 3 bits (the upper 5 are RFU).
    public var ctf: UInt8
    public var carrierType: [UInt8]
    public var carrierData: [UInt8]

    public init(format: NDEFTypeNameFormat, carrierType: [UInt8], carrierData: [UInt8] = []) {
        self.ctf = format.rawValue
        self.carrierType = carrierType
        self.carrierData = carrierData
    }

    public var format: NDEFTypeNameFormat { NDEFTypeNameFormat(header: ctf) }
    public var carrierTypeText: String { String(decoding: carrierType, as: UTF8.self) }

    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        guard carrierType.count <= 255 else {
            throw .fieldTooLong(field: "carrier type", length: carrierType.count, maximum: 255)
        }
        return [ctf, UInt8(carrierType.count)] + carrierType + carrierData
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFHandoverCarrier? {
        var cursor = ByteCursor(payload)
        do throws(DecodeError) {
            let ctf = try cursor.readUInt8("CTF")
            let length = Int(try cursor.readUInt8("carrier type length"))
            let typeRange = try cursor.readRange(length, "carrier type of \(length) bytes")
            let format = NDEFTypeNameFormat(header: ctf)
            if format == .reserved {
                issues.append(NDEFIssue(offset: 0, rule: .handoverCarrierCTFReserved, message: "CTF 7 is reserved"))
            } else if format.requiresType, let bad = UnicodeText.firstNonASCII(payload, typeRange) {
                issues.append(NDEFIssue(offset: bad, rule: .handoverCarrierTypeNotASCII,
                                        message: "carrier type byte \(Hex.byte(payload[bad])) is not US-ASCII"))
            } else if let rule = NDEFTypeSyntax.breach(tnf: format, type: Array(payload[typeRange])) {
                issues.append(NDEFIssue(offset: typeRange.lowerBound, rule: rule,
                                        message: "carrier type \"\(UnicodeText.lossyUTF8(payload, typeRange))\" is not "
                                            + (format == .media ? "a media type" : "an absolute URI")))
            }
            return NDEFHandoverCarrier(ctf: ctf, carrierType: Array(payload[typeRange]), carrierData: cursor.readRest())
        } catch {
            issues.append(NDEFIssue(offset: error.offset, rule: .handoverCarrierTruncated,
                                    message: "Handover Carrier: \(error.description)"))
            return nil
        }
    }

    init(ctf: UInt8, carrierType: [UInt8], carrierData: [UInt8]) {
        self.ctf = ctf
        self.carrierType = carrierType
        self.carrierData = carrierData
    }
}

/// The Alternative Carrier record (`ac`, Connection Handover 1.3 §3.3): which carrier, its
/// power state, and references (record IDs) to its configuration and auxiliary data.
public struct NDEFAlternativeCarrier: Sendable, Hashable {
    public enum PowerState: UInt8, Sendable, Hashable {
        case inactive = 0, active = 1, activating = 2, unknown = 3

        public var name: String {
            switch self {
            case .inactive: return "inactive"
            case .active: return "active"
            case .activating: return "activating"
            case .unknown: return "unknown"
            }
        }
    }

    /// The CPS byte as sent (power state in the low 2 bits, the rest RFU).
    public var cpsByte: UInt8
    public var carrierDataReference: [UInt8]
    public var auxiliaryDataReferences: [[UInt8]]

    public init(powerState: PowerState, carrierDataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = []) {
        cpsByte = powerState.rawValue
        self.carrierDataReference = carrierDataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    public var powerState: PowerState { PowerState(rawValue: cpsByte & 0x03) ?? .unknown }

    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        guard auxiliaryDataReferences.count <= 255 else {
            throw .fieldTooLong(field: "auxiliary data reference list", length: auxiliaryDataReferences.count, maximum: 255)
        }
        var out: [UInt8] = [cpsByte]
        for reference in [carrierDataReference] + auxiliaryDataReferences {
            guard reference.count <= 255 else { throw .fieldTooLong(field: "data reference", length: reference.count, maximum: 255) }
        }
        out.append(UInt8(carrierDataReference.count))
        out.append(contentsOf: carrierDataReference)
        out.append(UInt8(auxiliaryDataReferences.count))
        for reference in auxiliaryDataReferences {
            out.append(UInt8(reference.count))
            out.append(contentsOf: reference)
        }
        return out
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFAlternativeCarrier? {
        var cursor = ByteCursor(payload)
        do throws(DecodeError) {
            let cps = try cursor.readUInt8("CPS")
            let cdrLength = Int(try cursor.readUInt8("carrier data reference length"))
            let cdr = try cursor.readBytes(cdrLength, "carrier data reference of \(cdrLength) bytes")
            let count = Int(try cursor.readUInt8("auxiliary data reference count"))
            var aux: [[UInt8]] = []
            for k in 0..<count {
                let n = Int(try cursor.readUInt8("length of auxiliary data reference \(k + 1)"))
                aux.append(try cursor.readBytes(n, "auxiliary data reference \(k + 1) of \(n) bytes"))
            }
            if !cursor.isAtEnd {
                issues.append(NDEFIssue(offset: cursor.offset, rule: .alternativeCarrierTrailingBytes,
                                        message: "\(cursor.remaining) byte(s) after the auxiliary data references"))
            }
            var ac = NDEFAlternativeCarrier(powerState: .inactive, carrierDataReference: cdr, auxiliaryDataReferences: aux)
            ac.cpsByte = cps
            return ac
        } catch {
            issues.append(NDEFIssue(offset: error.offset, rule: .alternativeCarrierTruncated,
                                    message: "Alternative Carrier: \(error.description)"))
            return nil
        }
    }
}
