/// Names of BER-TLV tags: ISO/IEC 7816-4 file control information (FCI `6F`, FCP `62`) and the
/// EMV data elements (protocols-wave2.md §6.3). Some context-specific tags mean different things
/// in an FCP template; `parent` tells.
public enum BERTLVTags {
    static let fcp: [UInt32: String] = [
        0x80: "file size (data bytes)", 0x81: "file size (total)", 0x82: "file descriptor", 0x83: "file identifier",
        0x84: "DF name", 0x85: "proprietary information", 0x86: "security attributes (proprietary)", 0x88: "short EF identifier",
        0x8A: "life cycle status", 0x8C: "security attributes (compact)", 0xA5: "proprietary information (constructed)",
    ]

    static let names: [UInt32: String] = [
        // ISO/IEC 7816-4 templates and FCI.
        0x62: "FCP template", 0x64: "FMD template", 0x6F: "FCI template", 0x84: "DF name", 0xA5: "FCI proprietary template",
        0x88: "short file identifier (SFI)", 0x5F2D: "language preference", 0x9F11: "issuer code table index",
        0xBF0C: "FCI issuer discretionary data", 0x61: "application template (directory entry)", 0x4F: "application identifier (AID)",
        0x50: "application label", 0x87: "application priority indicator", 0x73: "directory discretionary template",
        // EMV.
        0x57: "track 2 equivalent data", 0x56: "track 1 data", 0x5A: "application PAN", 0x5F20: "cardholder name",
        0x5F24: "application expiration date", 0x5F25: "application effective date", 0x5F28: "issuer country code",
        0x5F2A: "transaction currency code", 0x5F30: "service code", 0x5F34: "PAN sequence number",
        0x70: "READ RECORD response template", 0x77: "response message template format 2", 0x80: "response message template format 1",
        0x82: "application interchange profile (AIP)", 0x83: "command template", 0x8C: "CDOL1", 0x8D: "CDOL2", 0x8E: "CVM list",
        0x8F: "certification authority public key index", 0x90: "issuer public key certificate", 0x92: "issuer public key remainder",
        0x93: "signed static application data", 0x94: "application file locator (AFL)", 0x95: "terminal verification results (TVR)",
        0x9A: "transaction date", 0x9C: "transaction type", 0x9F02: "amount, authorised", 0x9F03: "amount, other",
        0x9F07: "application usage control", 0x9F08: "application version number", 0x9F0A: "application selection registered proprietary data",
        0x9F0D: "issuer action code, default", 0x9F0E: "issuer action code, denial", 0x9F0F: "issuer action code, online",
        0x9F10: "issuer application data", 0x9F12: "application preferred name", 0x9F17: "PIN try counter",
        0x9F1A: "terminal country code", 0x9F1F: "track 1 discretionary data", 0x9F26: "application cryptogram",
        0x9F27: "cryptogram information data", 0x9F32: "issuer public key exponent", 0x9F33: "terminal capabilities",
        0x9F34: "CVM results", 0x9F35: "terminal type", 0x9F36: "application transaction counter (ATC)",
        0x9F37: "unpredictable number", 0x9F38: "processing options data object list (PDOL)", 0x9F42: "application currency code",
        0x9F44: "application currency exponent", 0x9F46: "ICC public key certificate", 0x9F47: "ICC public key exponent",
        0x9F48: "ICC public key remainder", 0x9F49: "DDOL", 0x9F4A: "static data authentication tag list",
        0x9F4B: "signed dynamic application data", 0x9F4C: "ICC dynamic number", 0x9F4D: "log entry",
        0x9F4E: "merchant name and location", 0x9F5A: "application program identifier", 0x9F5D: "available offline spending amount",
        0x9F66: "terminal transaction qualifiers (TTQ)", 0x9F69: "card authentication related data", 0x9F6B: "track 2 data",
        0x9F6C: "card transaction qualifiers (CTQ)", 0x9F6E: "form factor indicator / third party data", 0x9F7C: "customer exclusive data",
        0xBF0D: "FCI issuer discretionary data (proprietary)",
    ]

    /// ISO/IEC 7816-4 §10.2 secure messaging data objects, which reuse tags EMV names otherwise
    /// (`8E` is EMV's CVM list but a MAC under secure messaging).
    static let secureMessaging: [UInt32: String] = [
        0x80: "plain value (not BER-TLV)", 0x81: "plain value (BER-TLV)", 0x85: "cryptogram (BER-TLV plain value)",
        0x87: "padding-content indicator and cryptogram", 0x8E: "cryptographic checksum (secure messaging MAC)",
        0x97: "Le (secure messaging)", 0x99: "processing status (SW1-SW2)",
    ]

    /// What the answers are read as: an EMV payment application's data elements, or ISO/IEC
    /// 7816-4's with secure messaging (Seos and other access-control applications).
    public enum Context: Sendable {
        case payment
        case secureMessaging
    }

    /// The tag's name in `context`, or nil.
    public static func name(_ tag: UInt32, parent: UInt32? = nil, context: Context = .payment) -> String? {
        if parent == 0x62, let n = fcp[tag] { return n }
        if context == .secureMessaging, let n = secureMessaging[tag] { return n }
        return names[tag]
    }

    /// Tags that hold card numbers or cardholder data: masked unless the user asks
    /// (`--show-secrets`).
    public static let secret: Set<UInt32> = [0x5A, 0x57, 0x56, 0x5F20, 0x9F1F, 0x9F6B]
}
