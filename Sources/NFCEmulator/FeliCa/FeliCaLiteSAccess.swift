import NFCCore

/// Read / Write Without Encryption on a FeliCa Lite-S, without MAC (protocols.md §5.9). Rules and
/// status flags as Flipper's Lite-S listener applies them (`felica_listener_i.c`, which follows
/// Sony's Lite-S manual); SF1 is a bit mask, `1 << element` (§9 #12: Lite-S, nfcpy's error table
/// `01B1/02B1/04B1/08B1`).
///
/// | check | status |
/// |---|---|
/// | not exactly one service | `FF A1` |
/// | Read: 1…4 blocks; Write: 1 block (2 = block + MAC_A) | `FF A2` |
/// | service other than `000B`/`0009` (Read), other than `0009` (Write) | `01 A6` |
/// | element names service #1 or beyond | mask + `A3` |
/// | access mode other than `000` | mask + `A7` |
/// | block the chip lacks; Read through `0009` of a read-only block | mask + `A8` |
/// | Write to a read-only block (MC RW bit clear, system blocks with MC[2] = `00`, MAC, D_ID, WCNT, CRC_CHECK) or one that needs MAC_A | `01 A8` |
/// | Read of a block whose MC bit says "read after authentication" | mask + `B1` |
/// | Write of a block whose MC bit says "write after authentication" | `01 B1` |
/// | Read of MAC/MAC_A, Write with MAC_A: the MAC is not computed here | mask + `B2` |
///
/// Authentication needs the MAC this emulator does not compute, so the card is never
/// authenticated: restricted blocks stay refused, and STATE (whose ext-auth flag only a MAC
/// write may set) is treated as needing MAC_A.
struct FeliCaLiteSVolatile: Sendable, Equatable {
    /// MC as the card applies it: read at power-on. An MC write changes the stored block, which
    /// takes effect at the next power-on (Flipper keeps it in a shadow until reset).
    var configuration: FeliCaLiteMemoryConfiguration
    /// RC was written in this power cycle.
    var randomChallengeWritten = false
}

extension FeliCaLiteSMemory {
    static let location = FeliCaStatusFlags.LocationConvention.bitMask
    static let maximumReadBlocks = 4

    /// Blocks no Write may change, whatever MC says.
    static let alwaysReadOnly: Set<UInt16> = [FeliCaLiteBlock.mac, FeliCaLiteBlock.dID, FeliCaLiteBlock.wcnt, FeliCaLiteBlock.crcCheck]
    /// System blocks MC[2] freezes: ID, SER_C, CKV, CK (nfcpy `protect`, Flipper) and SYS_C (its
    /// neighbour; neither source lists it, we keep the system code with the other system blocks).
    static let systemBlocks: Set<UInt16> = [FeliCaLiteBlock.id, FeliCaLiteBlock.serC, FeliCaLiteBlock.sysC, FeliCaLiteBlock.ckv, FeliCaLiteBlock.ck]

    static func isReadOnly(_ n: UInt16, _ mc: FeliCaLiteMemoryConfiguration) -> Bool {
        if FeliCaLiteBlock.isUserBlock(n) { return !mc.isWritable(n) }
        if systemBlocks.contains(n) { return !mc.systemBlocksWritable }
        return alwaysReadOnly.contains(n)
    }

    static func needsMAC(_ n: UInt16, _ mc: FeliCaLiteMemoryConfiguration) -> Bool {
        if FeliCaLiteBlock.isUserBlock(n) { return mc.writeNeedsMAC(n) }
        if n == FeliCaLiteBlock.ck || n == FeliCaLiteBlock.ckv { return mc.cardKeyNeedsMAC }
        return n == FeliCaLiteBlock.state || n == FeliCaLiteBlock.macA
    }

    func read(services: [FeliCaServiceCode], blocks list: [FeliCaBlockListElement], _ v: FeliCaLiteSVolatile) -> (FeliCaStatusFlags, [[UInt8]]) {
        guard services.count == 1, let service = services.first else { return (.command(sf2: 0xA1), []) }
        guard (1...Self.maximumReadBlocks).contains(list.count) else { return (.command(sf2: 0xA2), []) }
        guard service == .ndefRead || service == .ndefWrite else { return (.element(0, sf2: 0xA6, Self.location), []) }
        var out: [[UInt8]] = []
        for (i, b) in list.enumerated() {
            func refuse(_ sf2: UInt8) -> (FeliCaStatusFlags, [[UInt8]]) { (.element(i, sf2: sf2, Self.location), []) }
            if b.serviceOrder != 0 { return refuse(0xA3) }
            if b.accessMode != 0 { return refuse(0xA7) }
            let n = b.blockNumber
            if !Self.exists(n) || (service == .ndefWrite && Self.isReadOnly(n, v.configuration)) { return refuse(0xA8) }
            if n == FeliCaLiteBlock.mac || n == FeliCaLiteBlock.macA { return refuse(0xB2) }
            if v.configuration.readNeedsAuthentication(n) { return refuse(0xB1) }
            out.append(readable(n, v))
        }
        return (.success, out)
    }

    /// A block as Read returns it: RC and CK are write-only (zeros), MC is the one in effect.
    func readable(_ n: UInt16, _ v: FeliCaLiteSVolatile) -> [UInt8] {
        switch n {
        case FeliCaLiteBlock.rc, FeliCaLiteBlock.ck: return [UInt8](repeating: 0, count: 16)
        case FeliCaLiteBlock.mc: return v.configuration.bytes
        default: return block(n) ?? [UInt8](repeating: 0, count: 16)
        }
    }

    mutating func write(services: [FeliCaServiceCode], blocks list: [FeliCaBlockListElement], data: [UInt8],
                        _ v: inout FeliCaLiteSVolatile) -> FeliCaStatusFlags {
        guard services.count == 1, let service = services.first else { return .command(sf2: 0xA1) }
        guard list.count == 1 || list.count == 2, let b = list.first else { return .command(sf2: 0xA2) }
        guard service == .ndefWrite else { return .element(0, sf2: 0xA6, Self.location) }
        if list.count == 2 {
            // The second element may only be MAC_A, and a MAC write needs the MAC we do not compute.
            guard list.last?.blockNumber == FeliCaLiteBlock.macA else { return .element(1, sf2: 0xA8, Self.location) }
            return .element(1, sf2: 0xB2, Self.location)
        }
        let n = b.blockNumber
        let mc = v.configuration
        if !Self.exists(n) { return .element(0, sf2: 0xA8, Self.location) }
        if Self.isReadOnly(n, mc) || Self.needsMAC(n, mc) { return .element(0, sf2: 0xA8, Self.location) }
        if b.serviceOrder != 0 { return .element(0, sf2: 0xA3, Self.location) }
        if b.accessMode != 0 { return .element(0, sf2: 0xA7, Self.location) }
        if mc.writeNeedsAuthentication(n) { return .element(0, sf2: 0xB1, Self.location) }
        // Flipper: with the system blocks frozen, WCNT between 1028h and FFFDFEh warns (SF 71)
        // that the rewrite count is high; the write is still done (§5.6).
        let counter = writeCounter
        let warn = !mc.systemBlocksWritable && counter > 0x1027 && counter < 0xFF_FDFF
        apply(n, Array(data.prefix(16)), &v)
        setWriteCounter(min(counter + 1, mc.systemBlocksWritable ? 0xFF_FFFF : 0xFF_FE00))
        return warn ? .command(sf2: 0x71) : .success
    }

    private mutating func apply(_ n: UInt16, _ data: [UInt8], _ v: inout FeliCaLiteSVolatile) {
        let old = block(n) ?? [UInt8](repeating: 0, count: 16)
        switch n {
        case FeliCaLiteBlock.reg:
            // A and B only go down (Flipper `felica_handler_write_reg_block`).
            guard let r = try? FeliCaLiteSubtractionRegister.decode(old), let new = try? FeliCaLiteSubtractionRegister.decode(data) else { return }
            setBlock(n, r.applyingWrite(new).bytes)
        case FeliCaLiteBlock.rc:
            setBlock(n, data)
            v.randomChallengeWritten = true
        case FeliCaLiteBlock.id:
            setBlock(n, Array(old.prefix(8)) + data.dropFirst(8))   // IDd stays; DFC and the rest change
        case FeliCaLiteBlock.mc:
            guard let new = try? FeliCaLiteMemoryConfiguration.decode(data) else { return }
            setBlock(n, configuration.applyingWrite(new, rules: v.configuration).bytes)
        default:
            setBlock(n, data)
        }
    }
}
