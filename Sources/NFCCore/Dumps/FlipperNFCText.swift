/// Writes the `Key: value` text of a Flipper Zero `.nfc` file (protocols.md §7.1): the header
/// every file starts with, then the device's keys in the order Flipper writes them. The typed
/// files below (`FlipperNTAGFile`, `FlipperISO15693File`, `FlipperFeliCaLiteFile`) are the one
/// place each device's keys and their order are written down; `emulate --save` and the fuzzer's
/// dump shape both go through them, and the emulator's loaders read the same keys back.
public struct FlipperNFCText {
    public private(set) var lines: [String]

    /// `Filetype`, `Version: 4`, an optional `# comment` and `Device type`.
    public init(deviceType: String, comment: String? = nil) {
        lines = ["Filetype: \(FlipperNFCFile.filetype)", "Version: \(FlipperNFCFile.versions.upperBound)"]
        if let comment { lines.append("# \(comment)") }
        lines.append("Device type: \(deviceType)")
    }

    public mutating func add(_ key: String, _ value: String) { lines.append("\(key): \(value)") }

    /// Space-separated hex, as every byte field of the format.
    public mutating func add<C: Collection>(_ key: String, hex bytes: C) where C.Element == UInt8 { add(key, Hex.string(bytes)) }

    public var text: String { lines.joined(separator: "\n") + "\n" }
}

/// An NTAG/Ultralight `.nfc` (format version 4, data format version 2; protocols.md §7.2).
public struct FlipperNTAGFile: Sendable, Equatable {
    public static let deviceType = "NTAG/Ultralight"
    /// The model key of version 4 files (`NTAG215`, `Mifare Ultralight 11`).
    public static let typeKey = "NTAG/Ultralight type"

    public var uid: [UInt8]
    /// ATQA most significant byte first (file versions 3 and 4).
    public var atqa: UInt16
    public var sak: UInt8
    public var typeName: String
    public var signature: [UInt8]
    public var version: [UInt8]
    public var counters: [UInt32]
    public var tearing: [UInt8]
    /// Every page, four bytes each.
    public var pages: [UInt8]
    public var failedAuthentications: Int

    public init(uid: [UInt8], atqa: UInt16 = 0x0044, sak: UInt8 = 0x00, typeName: String, signature: [UInt8] = [UInt8](repeating: 0, count: 32),
                version: [UInt8], counters: [UInt32] = [0, 0, 0], tearing: [UInt8] = [0, 0, 0], pages: [UInt8], failedAuthentications: Int = 0) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.typeName = typeName
        self.signature = signature
        self.version = version
        self.counters = counters
        self.tearing = tearing
        self.pages = pages
        self.failedAuthentications = failedAuthentications
    }

    public static let pagePrefix = "Page "
    public static func pageKey(_ page: Int) -> String { pagePrefix + "\(page)" }
    public static func counterKey(_ n: Int) -> String { "Counter \(n)" }
    public static func tearingKey(_ n: Int) -> String { "Tearing \(n)" }

    public func text(comment: String? = nil) -> String {
        var f = FlipperNFCText(deviceType: Self.deviceType, comment: comment)
        f.add("UID", hex: uid)
        f.add("ATQA", hex: [UInt8(atqa >> 8), UInt8(atqa & 0xFF)])
        f.add("SAK", hex: [sak])
        f.add("Data format version", "2")
        f.add(Self.typeKey, typeName)
        f.add("Signature", hex: signature)
        f.add("Mifare version", hex: version)
        for i in counters.indices {
            f.add(Self.counterKey(i), "\(counters[i])")
            f.add(Self.tearingKey(i), hex: [i < tearing.count ? tearing[i] : 0])
        }
        let total = pages.count / 4
        f.add("Pages total", "\(total)")
        f.add("Pages read", "\(total)")
        for p in 0..<total { f.add(Self.pageKey(p), hex: pages[p * 4..<p * 4 + 4]) }
        f.add("Failed authentication attempts", "\(failedAuthentications)")
        return f.text
    }
}

/// An ISO 15693 `.nfc`: `ISO15693-3`, or `SLIX` with the NXP ICODE keys (protocols.md §7.4).
public struct FlipperISO15693File: Sendable, Equatable {
    public static let plainDeviceType = "ISO15693-3"
    public static let slixDeviceType = "SLIX"

    /// The ICODE keys of a `SLIX` file, in Flipper's order.
    public struct SLIX: Sendable, Equatable {
        public var acceptsAllPasswords: Bool
        /// `Password Read`, `Password Write` …, in the order given.
        public var passwords: [(name: String, value: [UInt8])]
        public var signature: [UInt8]?
        public var privacyMode: Bool
        public var protectionPointer: UInt8?
        public var protectionCondition: UInt8?
        public var lockEAS: Bool
        public var lockPPL: Bool?

        public init(acceptsAllPasswords: Bool = false, passwords: [(name: String, value: [UInt8])], signature: [UInt8]? = nil, privacyMode: Bool = false,
                    protectionPointer: UInt8? = nil, protectionCondition: UInt8? = nil, lockEAS: Bool = false, lockPPL: Bool? = nil) {
            self.acceptsAllPasswords = acceptsAllPasswords
            self.passwords = passwords
            self.signature = signature
            self.privacyMode = privacyMode
            self.protectionPointer = protectionPointer
            self.protectionCondition = protectionCondition
            self.lockEAS = lockEAS
            self.lockPPL = lockPPL
        }

        public static func == (lhs: SLIX, rhs: SLIX) -> Bool {
            lhs.acceptsAllPasswords == rhs.acceptsAllPasswords && lhs.passwords.elementsEqual(rhs.passwords) { $0.name == $1.name && $0.value == $1.value }
                && lhs.signature == rhs.signature && lhs.privacyMode == rhs.privacyMode && lhs.protectionPointer == rhs.protectionPointer
                && lhs.protectionCondition == rhs.protectionCondition && lhs.lockEAS == rhs.lockEAS && lhs.lockPPL == rhs.lockPPL
        }
    }

    /// Most significant byte first (`E0 04 …`).
    public var uid: [UInt8]
    public var dsfid: UInt8?
    public var afi: UInt8?
    public var icReference: UInt8?
    public var lockDSFID: Bool
    public var lockAFI: Bool
    public var blockCount: Int
    public var blockSize: Int
    public var data: [UInt8]
    /// One byte per block.
    public var securityStatus: [UInt8]
    public var slix: SLIX?

    public init(uid: [UInt8], dsfid: UInt8? = 0, afi: UInt8? = 0, icReference: UInt8? = 0, lockDSFID: Bool = false, lockAFI: Bool = false,
                blockCount: Int, blockSize: Int, data: [UInt8], securityStatus: [UInt8]? = nil, slix: SLIX? = nil) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.icReference = icReference
        self.lockDSFID = lockDSFID
        self.lockAFI = lockAFI
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.data = data
        self.securityStatus = securityStatus ?? [UInt8](repeating: 0, count: blockCount)
        self.slix = slix
    }

    public static func passwordKey(_ name: String) -> String { "Password \(name)" }

    public func text(comment: String? = nil) -> String {
        var f = FlipperNFCText(deviceType: slix == nil ? Self.plainDeviceType : Self.slixDeviceType, comment: comment)
        f.add("UID", hex: uid)
        if let dsfid { f.add("DSFID", hex: [dsfid]) }
        if let afi { f.add("AFI", hex: [afi]) }
        if let icReference { f.add("IC Reference", hex: [icReference]) }
        f.add("Lock DSFID", "\(lockDSFID)")
        f.add("Lock AFI", "\(lockAFI)")
        f.add("Block Count", "\(blockCount)")
        f.add("Block Size", hex: [UInt8(truncatingIfNeeded: blockSize)])
        f.add("Data Content", hex: data)
        f.add("Security Status", hex: securityStatus)
        if let slix {
            f.add("Capabilities", slix.acceptsAllPasswords ? "Accept all passwords" : "Default")
            for p in slix.passwords { f.add(Self.passwordKey(p.name), hex: p.value) }
            if let s = slix.signature { f.add("Signature", hex: s) }
            f.add("Privacy Mode", "\(slix.privacyMode)")
            if let p = slix.protectionPointer { f.add("Protection Pointer", "\(p)") }
            if let c = slix.protectionCondition { f.add("Protection Condition", hex: [c]) }
            f.add("Lock EAS", "\(slix.lockEAS)")
            if let l = slix.lockPPL { f.add("Lock PPL", "\(l)") }
        }
        return f.text
    }
}

/// A FeliCa Lite-S `.nfc` (data format version 1): IDm, PMm and every block in the chip's
/// order as `Block n: ` status (2 bytes) and 16 data bytes.
public struct FlipperFeliCaLiteFile: Sendable, Equatable {
    public static let deviceType = "FeliCa"

    public var idm: [UInt8]
    public var pmm: [UInt8]
    /// 16 bytes per block, in `FeliCaLiteBlock.liteSBlocks` order.
    public var blocks: [UInt8]

    public init(idm: [UInt8], pmm: [UInt8], blocks: [UInt8]) {
        self.idm = idm
        self.pmm = pmm
        self.blocks = blocks
    }

    public static let blockPrefix = "Block "
    public static func blockKey(_ n: Int) -> String { blockPrefix + "\(n)" }

    public func text(comment: String? = nil) -> String {
        var f = FlipperNFCText(deviceType: Self.deviceType, comment: comment)
        f.add("UID", hex: idm)
        f.add("Data format version", "1")
        f.add("Manufacture id", hex: idm)
        f.add("Manufacture parameter", hex: pmm)
        let count = blocks.count / 16
        f.add("Blocks total", "\(count)")
        f.add("Blocks read", "\(count)")
        for n in 0..<count { f.add(Self.blockKey(n), hex: [0, 0] + blocks[n * 16..<n * 16 + 16]) }
        return f.text
    }
}

/// A MIFARE Classic `.nfc` (data format version 2): every block as `Block n: ` 16 hex bytes,
/// `??` for bytes that were not read.
public struct FlipperMIFAREClassicFile: Sendable, Equatable {
    public static let deviceType = "Mifare Classic"
    public static let typeKey = "Mifare Classic type"
    public static let blockPrefix = "Block "

    public var uid: [UInt8]
    /// ATQA most significant byte first.
    public var atqa: UInt16
    public var sak: UInt8
    /// `MINI`, `1K`, `2K` or `4K`.
    public var typeName: String
    /// 16 bytes per block; nil entries are blocks not read.
    public var blocks: [[UInt8]?]

    public init(uid: [UInt8], atqa: UInt16, sak: UInt8, typeName: String, blocks: [[UInt8]?]) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.typeName = typeName
        self.blocks = blocks
    }

    public static func blockKey(_ n: Int) -> String { blockPrefix + "\(n)" }

    public func text(comment: String? = nil) -> String {
        var f = FlipperNFCText(deviceType: Self.deviceType, comment: comment)
        f.add("UID", hex: uid)
        f.add("ATQA", hex: [UInt8(atqa >> 8), UInt8(atqa & 0xFF)])
        f.add("SAK", hex: [sak])
        f.add(Self.typeKey, typeName)
        f.add("Data format version", "2")
        for (n, b) in blocks.enumerated() {
            f.add(Self.blockKey(n), b.map { Hex.string($0) } ?? Array(repeating: "??", count: 16).joined(separator: " "))
        }
        return f.text
    }
}
