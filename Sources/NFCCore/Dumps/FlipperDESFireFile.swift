/// A Flipper Zero `.nfc` file of `Device type: Mifare DESFire` (the keys and their order as
/// the Flipper firmware's `mf_desfire` writes them): the card's UID, ATQA, SAK and ATS, its
/// GET VERSION, the PICC's key settings, then per application its key settings, key versions,
/// file ids and per file its type, communication settings, access rights, the sizes its type
/// has and the data read from it.
///
/// A Flipper keeps no keys. nfctrace adds one key per DESFire key it knows, `PICC Key 0 AES`
/// and `Application 5a4e54 Key 1 AES`, 16 bytes each (the Flipper skips keys it does not know);
/// the emulator authenticates with them, and a key missing from the file is the all-zero key
/// of a card as delivered.
public struct FlipperDESFireFile: Sendable, Equatable {
    public static let deviceType = "Mifare DESFire"

    public struct File: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Standard (type 0) or backup (type 1) data file of `size` bytes.
            case data(size: Int)
            case value(lower: Int32, upper: Int32, limitedCreditValue: Int32, limitedCreditEnabled: Bool)
            /// Linear (type 3) or cyclic (type 4) record file.
            case records(size: Int, max: Int, current: Int)
        }
        public var id: UInt8
        public var type: UInt8
        public var communication: UInt8
        /// As on the card: read/write nibbles in the second byte, read&write/change in the first.
        public var accessRights: [UInt8]
        public var kind: Kind
        /// The bytes read: a data file's content, a value file's GET VALUE (4 bytes, LSB first),
        /// a record file's records one after the other.
        public var data: [UInt8]?

        public init(id: UInt8, type: UInt8, communication: UInt8, accessRights: [UInt8], kind: Kind, data: [UInt8]?) {
            self.id = id
            self.type = type
            self.communication = communication
            self.accessRights = accessRights
            self.kind = kind
            self.data = data
        }
    }

    public struct Application: Sendable, Equatable {
        /// The AID's three bytes as the card sends them (least significant first).
        public var aid: [UInt8]
        public var maxKeys: UInt8
        public var keys: [Int: [UInt8]]
        public var files: [File]

        public init(aid: [UInt8], maxKeys: UInt8, keys: [Int: [UInt8]], files: [File]) {
            self.aid = aid
            self.maxKeys = maxKeys
            self.keys = keys
            self.files = files
        }
    }

    public var uid: [UInt8]
    public var atqa: UInt16
    public var sak: UInt8
    public var ats: [UInt8]?
    public var version: [UInt8]
    public var piccKey: [UInt8]?
    public var applications: [Application]

    public init(uid: [UInt8], atqa: UInt16 = 0x0344, sak: UInt8 = 0x20, ats: [UInt8]?, version: [UInt8], piccKey: [UInt8]?, applications: [Application]) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.version = version
        self.piccKey = piccKey
        self.applications = applications
    }

    public static let versionLength = 28
    public static let keyLength = 16

    static func prefix(_ aid: [UInt8]) -> String { "Application " + Hex.string(aid, separator: "").lowercased() }
    static func keyKey(_ prefix: String, _ n: Int) -> String { "\(prefix) Key \(n) AES" }

    // MARK: reading

    public init(_ f: FlipperNFCFile) throws(DumpError) {
        uid = try f.requiredBytes("UID")
        guard uid.count == 7 || uid.count == 4 else { throw DumpError(file: f.name, line: f.entry("UID")?.line, field: "UID", message: "a DESFire UID has 7 bytes (or 4 random ones)") }
        let atqaBytes = try f.bytes("ATQA", count: 2) ?? [0x03, 0x44]
        atqa = UInt16(atqaBytes[0]) << 8 | UInt16(atqaBytes[1])
        sak = try f.bytes("SAK", count: 1)?.first ?? 0x20
        ats = try f.bytes("ATS")
        version = try f.requiredBytes("PICC Version", count: Self.versionLength)
        piccKey = try f.bytes(Self.keyKey("PICC", 0), count: Self.keyLength)
        let count = try f.int("Application Count") ?? 0
        let ids = try f.bytes("Application IDs") ?? []
        guard ids.count == 3 * count else {
            throw DumpError(file: f.name, line: f.entry("Application IDs")?.line, field: "Application IDs", message: "\(count) applications need \(3 * count) bytes, the file has \(ids.count)")
        }
        var apps: [Application] = []
        for i in 0..<count {
            let aid = Array(ids[3 * i..<3 * i + 3])
            let p = Self.prefix(aid)
            let maxKeys = try Self.entry(f, p + " Max Keys").map { (k: String) throws(DumpError) in try f.bytes(k, count: 1)?.first ?? 1 } ?? 1
            var keys: [Int: [UInt8]] = [:]
            for n in 0..<Int(maxKeys & 0x0F) {
                if let key = Self.entry(f, Self.keyKey(p, n)), let k = try f.bytes(key, count: Self.keyLength) { keys[n] = k }
            }
            let fileIDs = try Self.entry(f, p + " File IDs").map { (k: String) throws(DumpError) in try f.bytes(k) ?? [] } ?? []
            var files: [File] = []
            for id in fileIDs {
                let fp = "\(p) File \(id)"
                func required(_ name: String, count: Int? = nil) throws(DumpError) -> [UInt8] {
                    guard let key = Self.entry(f, "\(fp) \(name)") else { throw DumpError(file: f.name, field: "\(fp) \(name)", message: "missing") }
                    return try f.requiredBytes(key, count: count)
                }
                func number(_ name: String) throws(DumpError) -> Int {
                    guard let key = Self.entry(f, "\(fp) \(name)"), let n = try f.int(key) else { throw DumpError(file: f.name, field: "\(fp) \(name)", message: "missing") }
                    return n
                }
                let type = try required("Type", count: 1)[0]
                let communication = try required("Communication Settings", count: 1)[0]
                let access = try required("Access Rights")
                guard access.count >= 2, access.count % 2 == 0 else { throw DumpError(file: f.name, field: "\(fp) Access Rights", message: "expected 2 bytes per set of rights") }
                let kind: File.Kind
                switch type {
                case 0, 1: kind = .data(size: try number("Size"))
                case 2:
                    let enabledKey = Self.entry(f, "\(fp) Limited Credit Enabled")
                    kind = .value(lower: Int32(truncatingIfNeeded: try number("Lo Limit")), upper: Int32(truncatingIfNeeded: try number("Hi Limit")),
                                  limitedCreditValue: Int32(truncatingIfNeeded: try number("Limited Credit Value")),
                                  limitedCreditEnabled: enabledKey.flatMap { f.string($0) }?.lowercased() == "true")
                case 3, 4: kind = .records(size: try number("Size"), max: try number("Max"), current: try number("Cur"))
                default: throw DumpError(file: f.name, field: "\(fp) Type", message: "file type \(Hex.byte(type)) is none of data (0, 1), value (2), record (3, 4)")
                }
                let data = try Self.entry(f, fp).map { (k: String) throws(DumpError) in try f.bytes(k) } ?? nil
                files.append(File(id: id, type: type, communication: communication, accessRights: Array(access.prefix(2)), kind: kind, data: data))
            }
            apps.append(Application(aid: aid, maxKeys: maxKeys, keys: keys, files: files))
        }
        applications = apps
    }

    /// The key as the file spells it: Flipper writes the AID in lowercase hex, files edited by
    /// hand may not.
    static func entry(_ f: FlipperNFCFile, _ key: String) -> String? {
        if f.entry(key) != nil { return key }
        return f.entries.first { $0.key.lowercased() == key.lowercased() }?.key
    }

    // MARK: writing

    /// The file's text, keys in the Flipper's order with nfctrace's key lines after the key
    /// versions they belong to.
    public func text(comment: String? = nil) -> String {
        var t = FlipperNFCText(deviceType: Self.deviceType, comment: comment)
        t.add("UID", hex: uid)
        t.add("ATQA", hex: [UInt8(atqa >> 8), UInt8(atqa & 0xFF)])
        t.add("SAK", hex: [sak])
        if let ats { t.add("ATS", hex: ats) }
        t.add("PICC Version", hex: version)
        keySettings(&t, "PICC", maxKeys: 0x01)
        t.add("PICC Key 0 Version", "00")
        if let piccKey { t.add(Self.keyKey("PICC", 0), hex: piccKey) }
        t.add("Application Count", "\(applications.count)")
        t.add("Application IDs", hex: applications.flatMap(\.aid))
        for app in applications {
            let p = Self.prefix(app.aid)
            keySettings(&t, p, maxKeys: app.maxKeys)
            for n in 0..<Int(app.maxKeys & 0x0F) {
                t.add("\(p) Key \(n) Version", "00")
                if let k = app.keys[n] { t.add(Self.keyKey(p, n), hex: k) }
            }
            t.add("\(p) File IDs", hex: app.files.map(\.id))
            for file in app.files {
                let fp = "\(p) File \(file.id)"
                t.add("\(fp) Type", hex: [file.type])
                t.add("\(fp) Communication Settings", hex: [file.communication])
                t.add("\(fp) Access Rights", hex: file.accessRights)
                switch file.kind {
                case .data(let size): t.add("\(fp) Size", "\(size)")
                case .value(let lower, let upper, let limited, let enabled):
                    t.add("\(fp) Hi Limit", "\(UInt32(bitPattern: upper))")
                    t.add("\(fp) Lo Limit", "\(UInt32(bitPattern: lower))")
                    t.add("\(fp) Limited Credit Value", "\(UInt32(bitPattern: limited))")
                    t.add("\(fp) Limited Credit Enabled", enabled ? "true" : "false")
                case .records(let size, let max, let current):
                    t.add("\(fp) Size", "\(size)")
                    t.add("\(fp) Max", "\(max)")
                    t.add("\(fp) Cur", "\(current)")
                }
                if let data = file.data { t.add(fp, hex: data) }
            }
        }
        return t.text
    }

    private func keySettings(_ t: inout FlipperNFCText, _ prefix: String, maxKeys: UInt8) {
        t.add("\(prefix) Change Key ID", "00")
        t.add("\(prefix) Config Changeable", "true")
        t.add("\(prefix) Free Create Delete", "true")
        t.add("\(prefix) Free Directory List", "true")
        t.add("\(prefix) Key Changeable", "true")
        t.add("\(prefix) Max Keys", Hex.string([maxKeys]))
    }
}
