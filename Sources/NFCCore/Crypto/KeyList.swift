/// The keys a dissection, replay or emulation tries, in order: those given with `--keys`, then
/// the built-in well-known ones. MIFARE Classic keys (48 bit) and Ultralight C / AES keys
/// (16 bytes) share one list and one file format.
public struct KeyList: Sendable {
    public private(set) var classic: [MIFAREClassicKey]
    public private(set) var ultralight: [UltralightKey]
    /// Whether keys recovered from a trace are printed whole (`dissect --show-keys`).
    public var revealRecovered = false
    /// Whether card numbers and cardholder data inside APDUs are printed whole
    /// (`dissect --show-secrets`); masked by default.
    public var revealCardData = false
    /// How many key searches (mfkey32 about 0.2 s each in a release build, mfkey64 a few ms) one
    /// dissection may run: a capture of made-up authentications must not buy minutes of work
    /// with a few kilobytes; real sessions need a handful.
    public var keySearchBudget = 16

    /// The values in the lists, so that adding a key checks for a duplicate in constant time: a
    /// search of the list made loading a dictionary quadratic (issue 51: 80,000 keys, minutes).
    private var classicValues: Set<UInt64>
    private var ultralightValues: Set<[UInt8]>

    public init(_ classic: [MIFAREClassicKey] = [], ultralight: [UltralightKey] = []) {
        self.classic = classic
        self.ultralight = ultralight
        classicValues = Set(classic.map(\.value))
        ultralightValues = Set(ultralight.map(\.bytes))
    }

    public static var defaults: KeyList { KeyList(MIFAREClassicKey.wellKnown, ultralight: UltralightKey.wellKnown) }

    public mutating func append(_ key: MIFAREClassicKey) {
        if classicValues.insert(key.value).inserted { classic.append(key) }
    }

    public mutating func append(_ key: UltralightKey) {
        if ultralightValues.insert(key.bytes).inserted { ultralight.append(key) }
    }

    public mutating func append(contentsOf other: KeyList) {
        for k in other.classic { append(k) }
        for k in other.ultralight { append(k) }
    }

    /// A key dictionary: one key per line, 12 hex digits for MIFARE Classic or 32 for Ultralight
    /// C / AES; `#` starts a comment, and so does `--` after the key; blank lines are skipped.
    /// The Proxmark3's `.dic` files (`mfc_default_keys.dic`, `mfulc_default_keys.dic`) and
    /// Flipper's `mf_classic_dict.nfc` read as they are.
    public static func parse(_ text: String, name: String) throws(DumpError) -> KeyList {
        var list = KeyList()
        var line = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            line += 1
            var content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map { $0.trimmingBlanks() } ?? ""
            // `KEY -- comment`, as the Proxmark3's Ultralight dictionaries write it.
            let parts = content.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count == 2, parts[1].trimmingBlanks().hasPrefix("--") { content = String(parts[0]) }
            if content.isEmpty { continue }
            let hexDigits = content.allSatisfy(\.isHexDigit)
            if hexDigits, content.utf8.count == 12, let value = UInt64(content, radix: 16) {
                list.append(MIFAREClassicKey(value, source: "\(name):\(line)"))
            } else if hexDigits, content.utf8.count == 32, let bytes = Hex.parse(String(content)) {
                list.append(UltralightKey(bytes, source: "\(name):\(line)"))
            } else {
                throw DumpError(file: name, line: line, message: "expected a key of 12 hex digits (MIFARE Classic) or 32 (Ultralight C / AES), found \"\(PrintableText.escaped(Array(content.utf8), limit: 40))\"")
            }
        }
        return list
    }
}
