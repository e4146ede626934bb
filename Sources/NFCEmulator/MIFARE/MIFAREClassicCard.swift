import NFCCore

/// The memory of a MIFARE Classic card: every block, sector trailers included.
public struct MIFAREClassicMemory: Sendable, Equatable {
    public enum Size: String, Sendable, CaseIterable {
        case mini = "MIFARE Mini", oneK = "MIFARE Classic 1K", twoK = "MIFARE Classic 2K", fourK = "MIFARE Classic 4K"

        public var blockCount: Int {
            switch self {
            case .mini: return 20
            case .oneK: return 64
            case .twoK: return 128
            case .fourK: return 256
            }
        }

        public var sak: UInt8 {
            switch self {
            case .mini: return 0x09
            case .oneK: return 0x08
            case .twoK: return 0x19
            case .fourK: return 0x18
            }
        }

        /// The size a SAK names (Infineon's `88` and SmartMX `28` emulate a 1K, `38` a 4K).
        public init(sak: UInt8) {
            switch sak {
            case 0x18, 0x38: self = .fourK
            default: self = Size.allCases.first { $0.sak == sak } ?? .oneK
            }
        }

        public init?(blockCount: Int) {
            guard let s = Size.allCases.first(where: { $0.blockCount == blockCount }) else { return nil }
            self = s
        }
    }

    public var size: Size
    public var blocks: [[UInt8]]

    public init(size: Size, blocks: [[UInt8]]) {
        self.size = size
        self.blocks = blocks
    }

    /// A blank card: the UID and BCC in block 0, zeros, and every trailer in the transport
    /// configuration (keys FFFFFFFFFFFF, access bits FF 07 80, GPB 69).
    public static func blank(_ size: Size, uid: [UInt8]) -> MIFAREClassicMemory {
        var blocks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 16), count: size.blockCount)
        let nuid = Array(uid.suffix(4))
        blocks[0] = nuid + [nuid.reduce(0, ^), size.sak, 0x04, 0x00] + [UInt8](repeating: 0, count: 8)
        if uid.count == 7 { blocks[0] = uid + [size.sak, 0x44, 0x00] + [UInt8](repeating: 0, count: 6) }
        for b in 0..<size.blockCount where MIFAREClassicLayout.isTrailer(b) {
            blocks[b] = [UInt8](repeating: 0xFF, count: 6) + [0xFF, 0x07, 0x80, 0x69] + [UInt8](repeating: 0xFF, count: 6)
        }
        return MIFAREClassicMemory(size: size, blocks: blocks)
    }

    public func key(_ type: MIFAREClassicCommand.KeyType, sector: Int) -> [UInt8] {
        let t = blocks[MIFAREClassicLayout.trailer(ofSector: sector)]
        return type == .a ? Array(t[MIFAREClassicTrailer.Layout.keyA.range]) : Array(t[MIFAREClassicTrailer.Layout.keyB.range])
    }

    public func access(sector: Int) -> MIFAREClassicAccessBits {
        MIFAREClassicTrailer.accessBits(blocks[MIFAREClassicLayout.trailer(ofSector: sector)])
    }

    /// The access condition of `block` (its group on a 4K large sector).
    public func condition(ofBlock block: Int) -> UInt8 {
        access(sector: MIFAREClassicLayout.sector(ofBlock: block)).condition(MIFAREClassicLayout.accessGroup(ofBlock: block))
    }
}

/// What the dump loaders give an emulated Classic card.
public struct MIFAREClassicDump: TagDumpContent, Equatable {
    public var memory: MIFAREClassicMemory
    public var uid: [UInt8]
    public var atqa: ATQA
    public var sak: SAK
    public var notes: [String] = []
    /// Tag nonces to answer authentications with, in order (a card rebuilt from a trace
    /// answers as the trace did, so the recorded reader frames decrypt); then the generator.
    public var nonces: [UInt32] = []
    public var gen1a = false

    public init(memory: MIFAREClassicMemory, uid: [UInt8], atqa: ATQA? = nil, sak: SAK? = nil, notes: [String] = []) {
        self.memory = memory
        self.uid = uid
        self.atqa = atqa ?? ATQA(value: uid.count == 7 ? 0x0044 : 0x0004)
        self.sak = sak ?? SAK(memory.size.sak)
        self.notes = notes
    }

    public var summary: String { "\(memory.size.rawValue), UID \(Hex.string(uid))" }

    static let defaultUID: [UInt8] = [0x4E, 0x2A, 0x91, 0xC3]

    /// Blank cards in the transport configuration (every key FFFFFFFFFFFF).
    static let builtIns: [BuiltInTag] = [(MIFAREClassicMemory.Size.oneK, "mifare-classic-1k"), (.fourK, "mifare-classic-4k"), (.mini, "mifare-mini")].map { size, name in
        BuiltInTag(name: name, description: "blank \(size.rawValue) in the transport configuration (keys FFFFFFFFFFFF), UID \(Hex.string(defaultUID))") {
            TagDump(MIFAREClassicDump(memory: .blank(size, uid: defaultUID), uid: defaultUID))
        }
    }

    public func makeTag() -> EmulatedTag? { MIFAREClassicTag(self) }
}
