/// The Proxmark3 JSON dumps nfctrace reads (protocols.md §7.5): every value a hex string without
/// spaces, the memory under `blocks` by number. These types are the one place their keys are
/// written down; the fuzzer writes them, the emulator's loaders read the same keys.
public enum Proxmark3DumpKeys {
    public static let fileType = "FileType"
    public static let card = "Card"
    public static let blocks = "blocks"

    static func hex<C: Collection>(_ bytes: C) -> JSONValue where C.Element == UInt8 { .string(Hex.string(bytes, separator: "")) }

    static func file(_ type: String, card: [(String, JSONValue)], blocks: [(String, JSONValue)]) -> JSONValue {
        .object([("Created", .string("proxmark3")), (fileType, .string(type)), (Self.card, .object(card)), (Self.blocks, .object(blocks))])
    }
}

/// `"FileType": "mfu"`: a MIFARE Ultralight/NTAG dump (`hf mfu dump`).
public struct Proxmark3MFUFile: Sendable, Equatable {
    public static let fileType = "mfu"

    public var uid: [UInt8]
    public var version: [UInt8]
    public var signature: [UInt8]
    /// Counter 2 as READ_CNT answers it (LSB first) and its tearing flag: what `hf mfu dump`
    /// stores for an NTAG21x, whose only counter is number 2.
    public var counter2: [UInt8]
    public var tearing2: UInt8
    /// Every page, four bytes each.
    public var pages: [UInt8]

    public init(uid: [UInt8], version: [UInt8], signature: [UInt8] = [UInt8](repeating: 0, count: 32), counter2: [UInt8] = [0, 0, 0],
                tearing2: UInt8 = 0xBD, pages: [UInt8]) {
        self.uid = uid
        self.version = version
        self.signature = signature
        self.counter2 = counter2
        self.tearing2 = tearing2
        self.pages = pages
    }

    public static func counterKey(_ n: Int) -> String { "Counter\(n)" }
    public static func tearingKey(_ n: Int) -> String { "Tearing\(n)" }

    public var json: JSONValue {
        let card: [(String, JSONValue)] = [("UID", Proxmark3DumpKeys.hex(uid)), ("Version", Proxmark3DumpKeys.hex(version)),
                                           ("Signature", Proxmark3DumpKeys.hex(signature)), (Self.counterKey(2), Proxmark3DumpKeys.hex(counter2)),
                                           (Self.tearingKey(2), Proxmark3DumpKeys.hex([tearing2]))]
        let blocks = (0..<pages.count / 4).map { ("\($0)", Proxmark3DumpKeys.hex(pages[$0 * 4..<$0 * 4 + 4])) }
        return Proxmark3DumpKeys.file(Self.fileType, card: card, blocks: blocks)
    }
}

/// `"FileType": "15693 v4"` (`iso15_tag_t` in the Proxmark3's `include/iso15.h`): `uid` as
/// received on air, least significant byte first; `pagescount` one byte; `locks` one byte per
/// block.
public struct Proxmark3ISO15693File: Sendable, Equatable {
    public static let fileType = "15693 v4"

    /// On-air order (`… 04 E0`).
    public var uid: [UInt8]
    public var dsfid: UInt8
    public var afi: UInt8
    public var icReference: UInt8
    public var blockSize: Int
    public var locks: [UInt8]
    public var dsfidLock: UInt8
    public var afiLock: UInt8
    /// `blockSize` bytes per block.
    public var data: [UInt8]

    public init(uid: [UInt8], dsfid: UInt8 = 0, afi: UInt8 = 0, icReference: UInt8 = 0, blockSize: Int, locks: [UInt8]? = nil,
                dsfidLock: UInt8 = 0, afiLock: UInt8 = 0, data: [UInt8]) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.icReference = icReference
        self.blockSize = blockSize
        self.data = data
        self.locks = locks ?? [UInt8](repeating: 0, count: data.count / max(1, blockSize))
        self.dsfidLock = dsfidLock
        self.afiLock = afiLock
    }

    public var blockCount: Int { data.count / max(1, blockSize) }

    public var json: JSONValue {
        func h<C: Collection>(_ bytes: C) -> JSONValue where C.Element == UInt8 { Proxmark3DumpKeys.hex(bytes) }
        let card: [(String, JSONValue)] = [("uid", h(uid)), ("dsfid", h([dsfid])), ("afi", h([afi])), ("ic", h([icReference])),
                                           ("bytesperpage", h([UInt8(truncatingIfNeeded: blockSize)])),
                                           ("pagescount", h([UInt8(truncatingIfNeeded: blockCount)])), ("locks", h(locks)),
                                           ("dsfidlock", h([dsfidLock])), ("afilock", h([afiLock]))]
        let blocks = (0..<blockCount).map { ("\($0)", h(data[$0 * blockSize..<($0 + 1) * blockSize])) }
        return Proxmark3DumpKeys.file(Self.fileType, card: card, blocks: blocks)
    }
}

/// `"FileType": "mfcard"`: a MIFARE Classic dump (`hf mf dump`, `hf mf esave`): `Card.UID`,
/// `Card.ATQA` (on-air order, `0400`), `Card.SAK`, and the 16-byte blocks by number.
public enum Proxmark3MIFARECardFile {
    public static let fileType = "mfcard"
}
