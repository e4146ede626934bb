import NFCCore

/// The non-volatile memory of a FeliCa Lite-S (RC-S966): IDm, PMm and its 28 blocks
/// (protocols.md §5.9): S_PAD0…13 user blocks, REG, and the system blocks RC … CRC_CHECK.
/// One system; its code is SYS_C (`88B4` as shipped), and with MC's NDEF bit set the card also
/// answers a Polling for `12FC` (nfcpy `format`).
public struct FeliCaLiteSMemory: Sendable, Equatable {
    public var idm: FeliCaIDm
    public var pmm: FeliCaPMm
    /// Block number → 16 bytes, for every number of `FeliCaLiteBlock.liteSBlocks`.
    public private(set) var blocks: [UInt16: [UInt8]]

    /// The PMm of a real Lite-S (EWTJ680H manual; nfcpy's IC code F1): read time 302 µs × (n + 2).
    public static let liteSPMm = FeliCaPMm(rawValue: 0x00F1_0000_0001_4300)

    public init(idm: FeliCaIDm, pmm: FeliCaPMm = liteSPMm, blocks: [UInt16: [UInt8]] = [:]) {
        self.idm = idm
        self.pmm = pmm
        self.blocks = [:]
        let factory = Self.factoryBlocks(idm: idm, pmm: pmm)
        for n in FeliCaLiteBlock.liteSBlocks { self.blocks[n] = FeliCaCardSystem.block(blocks[n] ?? factory[n] ?? []) }
    }

    /// Factory state as far as the sources say (§5.9; nfcpy `protect` uses the all-zero key as
    /// the manufacturer's): S_PAD zero, ID = IDm + DFC `00 00`, D_ID = IDm + PMm, SER_C `000B`
    /// (on-air order), SYS_C `88 B4`, CK zero, MC all user blocks and system blocks writable,
    /// NDEF off. REG starts at all `FF` as in Flipper's example dump.
    static func factoryBlocks(idm: FeliCaIDm, pmm: FeliCaPMm) -> [UInt16: [UInt8]] {
        var b: [UInt16: [UInt8]] = [:]
        b[FeliCaLiteBlock.reg] = [UInt8](repeating: 0xFF, count: 16)
        b[FeliCaLiteBlock.id] = idm.bytes
        b[FeliCaLiteBlock.dID] = idm.bytes + pmm.bytes
        b[FeliCaLiteBlock.serC] = FeliCaServiceCode.ndefRead.onAir
        b[FeliCaLiteBlock.sysC] = [UInt8(FeliCaSystemCode.feliCaLite >> 8), UInt8(FeliCaSystemCode.feliCaLite & 0xFF)]
        b[FeliCaLiteBlock.mc] = FeliCaLiteMemoryConfiguration().bytes
        return b
    }

    public func block(_ n: UInt16) -> [UInt8]? { blocks[n] }

    /// Sets a block as it is (dump loading, reconstruction); ignores numbers the chip lacks.
    public mutating func setBlock(_ n: UInt16, _ data: [UInt8]) {
        guard blocks[n] != nil else { return }
        blocks[n] = FeliCaCardSystem.block(data)
    }

    public static func exists(_ n: UInt16) -> Bool { FeliCaLiteBlock.liteSBlocks.contains(n) }

    /// MC as stored (an MC write changes it; the card applies it from the next power-on).
    public var configuration: FeliCaLiteMemoryConfiguration {
        (try? FeliCaLiteMemoryConfiguration.decode(blocks[FeliCaLiteBlock.mc] ?? [])) ?? FeliCaLiteMemoryConfiguration()
    }

    /// SYS_C bytes 0–1, big endian like every system code (§5.7).
    public var systemCode: UInt16 {
        var c = ByteCursor(blocks[FeliCaLiteBlock.sysC] ?? [])
        return (try? c.readUInt16BE("SYS_C")) ?? FeliCaSystemCode.feliCaLite
    }

    public var writeCounter: UInt32 {
        ((try? FeliCaLiteWriteCounter.decode(blocks[FeliCaLiteBlock.wcnt] ?? [])) ?? FeliCaLiteWriteCounter(0)).value
    }

    mutating func setWriteCounter(_ v: UInt32) {
        let old = blocks[FeliCaLiteBlock.wcnt] ?? []
        setBlock(FeliCaLiteBlock.wcnt, FeliCaLiteWriteCounter(v).bytes + old.dropFirst(3))
    }

    /// Blocks 0–13 with an AIB in block 0 and `message` after it; MC's NDEF bit set so that the
    /// card answers `12FC` (what nfcpy's `format` does to a Lite-S).
    public mutating func formatNDEF(message: [UInt8], nbr: UInt8 = 4, nbw: UInt8 = 1) throws(TagMemoryEncodingError) {
        let data = try Type3Memory.blocks(message: message, nbr: nbr, nbw: nbw, nmaxb: 13)
        for (i, b) in data.enumerated() { setBlock(UInt16(i), b) }
        var mc = configuration
        mc.systemOptions |= 1
        setBlock(FeliCaLiteBlock.mc, mc.bytes)
    }

    public var knownBlockCount: Int { blocks.count }
}
