// Where the values of the well-known NDEF payloads sit, from the payload's first byte (NFC
// Forum RTD specifications; protocols.md §4). The payload decoders and the dissector read these.

extension NDEFURI {
    public enum Layout {
        public static let identifierCode = FieldLayout(0, 1, "URI identifier code")
        /// The URI field after the identifier code, to the end of a payload of `count` bytes.
        public static func rest(_ count: Int) -> Range<Int> { identifierCode.end..<max(identifierCode.end, count) }
    }
}

extension NDEFText {
    public enum Layout {
        /// Status byte: UTF-16 flag (b7), RFU (b6), language code length (b5–b0).
        public static let status = FieldLayout(0, 1, "status byte")
        public static func language(_ length: Int) -> Range<Int> { status.end..<status.end + length }
        /// The text after a language code of `length` bytes, to the end of the payload.
        public static func text(languageLength length: Int, payloadCount: Int) -> Range<Int> {
            language(length).upperBound..<max(language(length).upperBound, payloadCount)
        }
    }
}

extension NDEFHandover {
    public enum Layout {
        public static let version = FieldLayout(0, 1, "version")
    }
}

extension NDEFHandoverError {
    public enum Layout {
        public static let reason = FieldLayout(0, 1, "error reason")
        public static func data(_ count: Int) -> Range<Int> { reason.end..<max(reason.end, count) }
    }
}

extension NDEFHandoverCarrier {
    public enum Layout {
        public static let format = FieldLayout(0, 1, "carrier type format")
        public static let typeLength = FieldLayout(1, 1, "carrier type length")
        public static func type(_ length: Int) -> Range<Int> { typeLength.end..<typeLength.end + length }
        public static func data(typeLength: Int, payloadCount: Int) -> Range<Int> { type(typeLength).upperBound..<max(type(typeLength).upperBound, payloadCount) }
    }
}

extension NDEFAlternativeCarrier {
    public enum Layout {
        public static let powerState = FieldLayout(0, 1, "carrier power state")
    }
}

extension NDEFSignature {
    public enum Layout {
        public static let version = FieldLayout(0, 1, "version")
        /// URI present (b7) and signature type (b6–b0).
        public static let signatureType = FieldLayout(1, 1, "signature type")
        public static let hashType = FieldLayout(2, 1, "hash type")
        /// The 2-byte length and the signature (or its URI) of `length` bytes.
        public static func signature(_ length: Int) -> Range<Int> { hashType.end..<hashType.end + 2 + length }
    }
}

extension NDEFBluetoothOOB {
    public enum Layout {
        /// BR/EDR OOB data: the 2-byte length (little endian), then the device address.
        public static let oobLength = FieldLayout(0, 2, "OOB data length")
        public static let address = FieldLayout(2, 6, "device address")
    }
}

extension NDEFWiFiPeerToPeer {
    public enum Layout {
        /// The WSC data's 2-byte length, then the WSC data, then the P2P data's length.
        public static let wscLength = FieldLayout(0, 2, "WSC data length")
        public static func p2pLength(afterWSC wscSize: Int) -> Range<Int> { wscLength.end + wscSize..<wscLength.end + wscSize + 2 }
    }
}
