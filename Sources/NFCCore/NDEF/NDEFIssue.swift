/// Something the NDEF decoder noticed, at a byte offset of the message.
public struct NDEFIssue: Sendable, Hashable, CustomStringConvertible {
    /// Offset in the decoded message (for nested messages: in the outermost message).
    public var offset: Int
    public var rule: NDEFRule
    /// What was found, in the protocol's words ("TNF 0 with PAYLOAD_LENGTH 3").
    public var message: String
    /// Lenient decoding got past it (false: decoding had to stop there).
    public var tolerated: Bool

    public init(offset: Int, rule: NDEFRule, message: String, tolerated: Bool = true) {
        self.offset = offset
        self.rule = rule
        self.message = message
        self.tolerated = tolerated
    }

    /// Breaches make a message invalid in strict mode; advisories never do.
    public var isBreach: Bool { rule.severity == .breach }

    public var description: String { "at byte \(offset): \(message) [\(rule.rawValue)]" }

    /// The same issue as a `DecodeError` (offset + the rule as what was expected).
    public var decodeError: DecodeError {
        DecodeError(offset: offset, expected: rule.statement, found: message)
    }
}

/// The rules the NDEF decoder checks. The raw value is the stable identifier (docs/ndef.md).
public enum NDEFRule: String, Sendable, Hashable, CaseIterable {
    public enum Severity: Sendable, Hashable {
        /// A breach of the NDEF specification or a record type definition: strict mode rejects.
        case breach
        /// Unusual but allowed (an RFU bit set, an attribute of odd length): never rejects.
        case advisory
    }

    // Message and record framing (NDEF 1.0 §3; protocols.md §4.1–4.3).
    case messageEmpty = "message.empty"
    case mbMissing = "message.mb-missing"
    case mbRepeated = "message.mb-repeated"
    case meMissing = "message.me-missing"
    case bytesAfterME = "message.bytes-after-me"
    case recordTruncated = "record.truncated"
    case srLongPayload = "record.sr-long-payload"
    case tnfReserved = "record.tnf-reserved"
    case emptyRecordNotEmpty = "record.empty-not-empty"
    case typeForbidden = "record.type-forbidden"
    case typeMissing = "record.type-missing"
    case typeNotASCII = "record.type-not-ascii"
    case mediaTypeInvalid = "record.media-type-invalid"
    case absoluteURIInvalid = "record.absolute-uri-invalid"
    // Chunks (NDEF 1.0 §3.3).
    case meOnChunk = "chunk.me-on-chunk"
    case unchangedOutsideChunk = "chunk.unchanged-outside"
    case chunkTNFNotUnchanged = "chunk.tnf-not-unchanged"
    case chunkIDOnLaterChunk = "chunk.id-on-later-chunk"
    // Text RTD.
    case textPayloadEmpty = "text.payload-empty"
    case textLanguageLengthZero = "text.language-length-zero"
    case textLanguageOverflow = "text.language-overflow"
    case textLanguageNotASCII = "text.language-not-ascii"
    case textEncodingInvalid = "text.encoding-invalid"
    case textRFUBit = "text.rfu-bit"
    // URI RTD.
    case uriPayloadEmpty = "uri.payload-empty"
    case uriPrefixUndefined = "uri.prefix-undefined"
    case uriEncodingInvalid = "uri.encoding-invalid"
    case uriControlCharacter = "uri.control-character"
    // Smart Poster RTD.
    case smartPosterURICount = "sp.uri-count"
    case smartPosterActionLength = "sp.action-length"
    case smartPosterActionUndefined = "sp.action-undefined"
    case smartPosterSizeLength = "sp.size-length"
    case smartPosterTypeEncodingInvalid = "sp.type-encoding-invalid"
    // Connection Handover.
    case handoverVersionMissing = "handover.version-missing"
    case handoverCollisionResolutionMissing = "handover.cr-missing"
    case handoverCarrierTruncated = "hc.truncated"
    case handoverCarrierCTFReserved = "hc.ctf-reserved"
    case handoverCarrierTypeNotASCII = "hc.type-not-ascii"
    case alternativeCarrierTruncated = "ac.truncated"
    case alternativeCarrierTrailingBytes = "ac.trailing-bytes"
    case collisionResolutionLength = "cr.length"
    case errorReasonReserved = "err.reason-reserved"
    case errorDataShort = "err.data-short"
    case errorDataLong = "err.data-long"
    // Device Information RTD.
    case deviceInformationTruncated = "di.truncated"
    case deviceInformationEncodingInvalid = "di.encoding-invalid"
    case deviceInformationUUIDLength = "di.uuid-length"
    case deviceInformationRequiredMissing = "di.required-missing"
    // Signature RTD 2.0.
    case signatureTruncated = "sig.truncated"
    case signatureVersion = "sig.version"
    case signatureURIInvalid = "sig.uri-invalid"
    // Bluetooth OOB (Bluetooth SIG / NFC Forum Bluetooth Secure Simple Pairing AD).
    case bluetoothTruncated = "bt.truncated"
    case bluetoothOOBLengthExceedsPayload = "bt.oob-length-exceeds"
    case bluetoothPayloadExceedsOOBLength = "bt.oob-length-short"
    case bluetoothEIRTruncated = "bt.eir-truncated"
    // Wi-Fi Simple Configuration and Wi-Fi P2P.
    case wscTruncated = "wsc.truncated"
    case wscAttributeReserved = "wsc.attribute-reserved"
    case wscAttributeLength = "wsc.attribute-length"
    case p2pTruncated = "p2p.truncated"
    case p2pWSCDataShort = "p2p.wsc-short"
    case p2pRequiredMissing = "p2p.required-missing"
    // Media types shown as fields.
    case vCardStructure = "vcard.structure"

    public var severity: Severity {
        switch self {
        case .textRFUBit, .wscAttributeLength, .vCardStructure: return .advisory
        // The list of attributes a P2P carrier record must hold is ndeflib's; the P2P
        // specification text was not available to check it, so a gap is only pointed out.
        case .p2pRequiredMissing: return .advisory
        default: return .breach
        }
    }

    /// The rule, stated as what a valid message has.
    public var statement: String {
        switch self {
        case .messageEmpty: return "at least one record"
        case .mbMissing: return "MB set on the first record"
        case .mbRepeated: return "MB only on the first record"
        case .meMissing: return "ME set on the last record"
        case .bytesAfterME: return "no bytes after the record with ME"
        case .recordTruncated: return "every record field inside the message"
        case .srLongPayload: return "SR only on records with a 1-byte PAYLOAD_LENGTH"
        case .tnfReserved: return "TNF 0–6 (7 is reserved)"
        case .emptyRecordNotEmpty: return "TYPE_LENGTH, ID_LENGTH and PAYLOAD_LENGTH 0 with TNF 0 (Empty)"
        case .typeForbidden: return "TYPE_LENGTH 0 with TNF 5 (Unknown) and 6 (Unchanged)"
        case .typeMissing: return "TYPE_LENGTH > 0 with TNF 1–4"
        case .typeNotASCII: return "TYPE in US-ASCII"
        case .mediaTypeInvalid: return "a media type (RFC 2046 type/subtype) as TYPE with TNF 2"
        case .absoluteURIInvalid: return "an absolute URI (RFC 3986) as TYPE with TNF 3"
        case .meOnChunk: return "ME only after the last chunk of a chunked record"
        case .unchangedOutsideChunk: return "TNF 6 (Unchanged) only on middle and last chunks"
        case .chunkTNFNotUnchanged: return "TNF 6 (Unchanged) on middle and last chunks"
        case .chunkIDOnLaterChunk: return "IL clear on middle and last chunks"
        case .textPayloadEmpty: return "a Text payload with a status byte"
        case .textLanguageLengthZero: return "a language code of 1–63 bytes"
        case .textLanguageOverflow: return "the language code inside the payload"
        case .textLanguageNotASCII: return "a US-ASCII language code"
        case .textEncodingInvalid: return "text in the encoding the status byte names"
        case .textRFUBit: return "status bit 6 (RFU) clear"
        case .uriPayloadEmpty: return "a URI payload with an identifier code"
        case .uriPrefixUndefined: return "a URI identifier code 0x00–0x23"
        case .uriEncodingInvalid: return "a URI field in UTF-8"
        case .uriControlCharacter: return "no control characters (U+0000–U+001F) in the URI"
        case .smartPosterURICount: return "exactly one URI record in a Smart Poster"
        case .smartPosterActionLength: return "a 1-byte action record"
        case .smartPosterActionUndefined: return "action 0 (do), 1 (save) or 2 (edit)"
        case .smartPosterSizeLength: return "a 4-byte size record"
        case .smartPosterTypeEncodingInvalid: return "a type record in UTF-8"
        case .handoverVersionMissing: return "a handover version byte"
        case .handoverCollisionResolutionMissing: return "a collision resolution record in a Handover Request from version 1.2"
        case .handoverCarrierTruncated: return "carrier type inside the Handover Carrier payload"
        case .handoverCarrierCTFReserved: return "a carrier type format 0–6"
        case .handoverCarrierTypeNotASCII: return "a US-ASCII carrier type"
        case .alternativeCarrierTruncated: return "complete carrier data and auxiliary references"
        case .alternativeCarrierTrailingBytes: return "nothing after the auxiliary data references"
        case .collisionResolutionLength: return "a 2-byte random number"
        case .errorReasonReserved: return "an error reason other than 0"
        case .errorDataShort: return "the error data its reason needs"
        case .errorDataLong: return "no bytes after the error data"
        case .deviceInformationTruncated: return "complete device information TLVs"
        case .deviceInformationEncodingInvalid: return "UTF-8 names and version"
        case .deviceInformationUUIDLength: return "a 16-byte UUID"
        case .deviceInformationRequiredMissing: return "manufacturer and model name"
        case .signatureTruncated: return "complete signature and certificate fields"
        case .signatureVersion: return "Signature RTD version 2.0 (0x20)"
        case .signatureURIInvalid: return "a UTF-8 URI without control characters"
        case .bluetoothTruncated: return "OOB data length and device address"
        case .bluetoothOOBLengthExceedsPayload: return "OOB data length within the payload"
        case .bluetoothPayloadExceedsOOBLength: return "payload length equal to the OOB data length"
        case .bluetoothEIRTruncated: return "complete EIR/AD structures"
        case .wscTruncated: return "complete Wi-Fi attributes"
        case .wscAttributeReserved: return "Wi-Fi Simple Config attribute types from 0x1000"
        case .wscAttributeLength: return "the attribute length the Wi-Fi Simple Config specification gives"
        case .p2pTruncated: return "WSC and P2P data lengths within the payload"
        case .p2pWSCDataShort: return "at least 4 bytes of WSC data"
        case .p2pRequiredMissing: return "the mandatory WSC and P2P attributes"
        case .vCardStructure: return "a vCard between BEGIN:VCARD and END:VCARD"
        }
    }
}
