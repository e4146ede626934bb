/// The Signature payload (`urn:nfc:wkt:Sig`, Signature RTD 2.0): a signature (or its URI) over
/// the records before it, and the certificate chain (or its URI).
public struct NDEFSignature: Sendable, Hashable {
    public var version: UInt8
    /// Signature type (b7…b1 of the first signature byte); 0 = no signature (a start marker).
    public var signatureType: UInt8
    public var hashType: UInt8
    /// The signature, or the URI where it is (SUP set), as bytes.
    public var signature: [UInt8]
    public var signatureIsURI: Bool
    /// Certificate format (3 bits).
    public var certificateFormat: UInt8
    public var certificates: [[UInt8]]
    public var certificateURI: [UInt8]?

    public init(version: UInt8 = 0x20, signatureType: UInt8, hashType: UInt8 = 0x02, signature: [UInt8],
                signatureIsURI: Bool = false, certificateFormat: UInt8 = 0, certificates: [[UInt8]] = [],
                certificateURI: [UInt8]? = nil) {
        self.version = version
        self.signatureType = signatureType
        self.hashType = hashType
        self.signature = signature
        self.signatureIsURI = signatureIsURI
        self.certificateFormat = certificateFormat
        self.certificates = certificates
        self.certificateURI = certificateURI
    }

    /// Signature RTD 2.0 Table 3, with the size of the signature each names.
    public var signatureTypeName: String {
        switch signatureType {
        case 0x00: return "not present"
        case 0x01: return "RSASSA-PSS-1024"
        case 0x02: return "RSASSA-PKCS1-v1_5-1024"
        case 0x03: return "DSA-1024"
        case 0x04: return "ECDSA-P192"
        case 0x05: return "RSASSA-PSS-2048"
        case 0x06: return "RSASSA-PKCS1-v1_5-2048"
        case 0x07: return "DSA-2048"
        case 0x08: return "ECDSA-P224"
        case 0x09: return "ECDSA-K233"
        case 0x0A: return "ECDSA-B233"
        case 0x0B: return "ECDSA-P256"
        default: return "reserved \(Hex.byte(signatureType))"
        }
    }

    public var hashTypeName: String { hashType == 0x02 ? "SHA-256" : "reserved \(Hex.byte(hashType))" }

    public var certificateFormatName: String {
        switch certificateFormat {
        case 0: return "X.509"
        case 1: return "M2M"
        default: return "reserved \(certificateFormat)"
        }
    }

    public func encode() throws(NDEFEncodingError) -> [UInt8] {
        guard signature.count <= 0xFFFF else { throw .fieldTooLong(field: "signature", length: signature.count, maximum: 0xFFFF) }
        guard certificates.count <= 15 else { throw .fieldTooLong(field: "certificate chain", length: certificates.count, maximum: 15) }
        var out: [UInt8] = [version, (signatureIsURI ? 0x80 : 0) | (signatureType & 0x7F), hashType]
        Self.appendLength16(signature, to: &out)
        let cup: UInt8 = certificateURI == nil ? 0 : 0x80
        out.append(cup | (certificateFormat & 0x07) << 4 | UInt8(certificates.count))
        for c in certificates {
            guard c.count <= 0xFFFF else { throw .fieldTooLong(field: "certificate", length: c.count, maximum: 0xFFFF) }
            Self.appendLength16(c, to: &out)
        }
        if let uri = certificateURI {
            guard uri.count <= 0xFFFF else { throw .fieldTooLong(field: "certificate URI", length: uri.count, maximum: 0xFFFF) }
            Self.appendLength16(uri, to: &out)
        }
        return out
    }

    private static func appendLength16(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: bytes.count >> 8))
        out.append(UInt8(truncatingIfNeeded: bytes.count))
        out.append(contentsOf: bytes)
    }

    static func read(_ payload: [UInt8], issues: inout [NDEFIssue]) -> NDEFSignature? {
        var cursor = ByteCursor(payload)
        do throws(DecodeError) {
            let version = try cursor.readUInt8("version")
            if version != 0x20 {
                issues.append(NDEFIssue(offset: 0, rule: .signatureVersion, message: "Signature version \(Hex.byte(version))"))
            }
            let sup = try cursor.readUInt8("signature type")
            let hash = try cursor.readUInt8("hash type")
            let length = Int(try cursor.readUInt16BE("signature length"))
            let signatureRange = try cursor.readRange(length, "signature of \(length) bytes")
            let chain = try cursor.readUInt8("certificate chain byte")
            var certificates: [[UInt8]] = []
            for k in 0..<Int(chain & 0x0F) {
                let n = Int(try cursor.readUInt16BE("length of certificate \(k + 1)"))
                certificates.append(try cursor.readBytes(n, "certificate \(k + 1) of \(n) bytes"))
            }
            var certificateURI: [UInt8]?
            if chain & 0x80 != 0 {
                let n = Int(try cursor.readUInt16BE("certificate URI length"))
                let range = try cursor.readRange(n, "certificate URI of \(n) bytes")
                checkURI(payload, range, "certificate URI", &issues)
                certificateURI = Array(payload[range])
            }
            if sup & 0x80 != 0 { checkURI(payload, signatureRange, "signature URI", &issues) }
            return NDEFSignature(version: version, signatureType: sup & 0x7F, hashType: hash,
                                 signature: Array(payload[signatureRange]), signatureIsURI: sup & 0x80 != 0,
                                 certificateFormat: (chain >> 4) & 0x07, certificates: certificates,
                                 certificateURI: certificateURI)
        } catch {
            issues.append(NDEFIssue(offset: error.offset, rule: .signatureTruncated, message: "Signature: \(error.description)"))
            return nil
        }
    }

    private static func checkURI(_ payload: [UInt8], _ range: Range<Int>, _ what: String, _ issues: inout [NDEFIssue]) {
        switch UnicodeText.utf8(payload, range) {
        case .failure(let bad):
            issues.append(NDEFIssue(offset: bad.offset, rule: .signatureURIInvalid, message: "\(what) is not valid UTF-8"))
        case .success:
            if let control = payload[range].firstIndex(where: { $0 <= 0x1F }) {
                issues.append(NDEFIssue(offset: control, rule: .signatureURIInvalid,
                                        message: "\(what) contains control character \(Hex.byte(payload[control]))"))
            }
        }
    }
}
