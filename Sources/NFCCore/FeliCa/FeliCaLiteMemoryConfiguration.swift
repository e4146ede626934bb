/// The FeliCa Lite-S MC block (`88`): who may read and write which block. protocols.md §5.9;
/// byte roles as nfcpy (`tt3_sony.py` format/protect) and Flipper's listener
/// (`felica_listener_i.c`, `FELICA_MC_*`) use them; 15-bit maps (S_PAD0…13 + REG) as the Sato
/// CL6NX manual describes them. Bit maps are little endian: bit n = block n, bit 14 = REG.
///
///     0–1 RW bits (1 = writable; bit 15: the MC bit maps may still change)   2 system blocks (FF writable, 00 read-only)
///     3 SYS_OP (bit 0: NDEF, answers 12FC)   4 RF_PRM   5 bit 0: CK/CKV writable with MAC
///     6–7 read needs authentication   8–9 write needs authentication   10–11 write needs MAC_A
///     12 bit 0: STATE write needs MAC_A   13–15 reserved
public struct FeliCaLiteMemoryConfiguration: Sendable, Hashable {
    public var writableBlocks: UInt16
    public var systemBlocks: UInt8
    public var systemOptions: UInt8
    public var rfParameter: UInt8
    public var cardKeyOptions: UInt8
    public var readNeedsAuthentication: UInt16
    public var writeNeedsAuthentication: UInt16
    public var writeNeedsMAC: UInt16
    public var stateOptions: UInt8
    public var reserved: [UInt8]

    public init(writableBlocks: UInt16 = 0xFFFF, systemBlocks: UInt8 = 0xFF, systemOptions: UInt8 = 0x00, rfParameter: UInt8 = 0x00,
                cardKeyOptions: UInt8 = 0x00, readNeedsAuthentication: UInt16 = 0, writeNeedsAuthentication: UInt16 = 0,
                writeNeedsMAC: UInt16 = 0, stateOptions: UInt8 = 0x00) {
        self.writableBlocks = writableBlocks
        self.systemBlocks = systemBlocks
        self.systemOptions = systemOptions
        self.rfParameter = rfParameter
        self.cardKeyOptions = cardKeyOptions
        self.readNeedsAuthentication = readNeedsAuthentication
        self.writeNeedsAuthentication = writeNeedsAuthentication
        self.writeNeedsMAC = writeNeedsMAC
        self.stateOptions = stateOptions
        self.reserved = [0, 0, 0]
    }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> FeliCaLiteMemoryConfiguration {
        var c = ByteCursor(block)
        var mc = FeliCaLiteMemoryConfiguration(writableBlocks: try c.readUInt16LE("MC bytes 0–1 (RW bits)"),
                                               systemBlocks: try c.readUInt8("MC byte 2 (system blocks)"),
                                               systemOptions: try c.readUInt8("MC byte 3 (SYS_OP)"),
                                               rfParameter: try c.readUInt8("MC byte 4 (RF_PRM)"),
                                               cardKeyOptions: try c.readUInt8("MC byte 5 (CK/CKV with MAC)"),
                                               readNeedsAuthentication: try c.readUInt16LE("MC bytes 6–7 (read after authentication)"),
                                               writeNeedsAuthentication: try c.readUInt16LE("MC bytes 8–9 (write after authentication)"),
                                               writeNeedsMAC: try c.readUInt16LE("MC bytes 10–11 (write with MAC_A)"),
                                               stateOptions: try c.readUInt8("MC byte 12 (STATE with MAC_A)"))
        mc.reserved = try c.readBytes(3, "MC bytes 13–15 (reserved)")
        try c.expectEnd("the 16-byte MC block")
        return mc
    }

    public var bytes: [UInt8] {
        func le(_ v: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(v >> 8)] }
        return le(writableBlocks) + [systemBlocks, systemOptions, rfParameter, cardKeyOptions] + le(readNeedsAuthentication)
            + le(writeNeedsAuthentication) + le(writeNeedsMAC) + [stateOptions] + (reserved + [0, 0, 0]).prefix(3)
    }

    static func bit(_ map: UInt16, _ block: UInt16) -> Bool { FeliCaLiteBlock.isUserBlock(block) && map >> block & 1 == 1 }

    /// S_PAD n / REG: writable (RW bit set).
    public func isWritable(_ block: UInt16) -> Bool { Self.bit(writableBlocks, block) }
    public func readNeedsAuthentication(_ block: UInt16) -> Bool { Self.bit(readNeedsAuthentication, block) }
    public func writeNeedsAuthentication(_ block: UInt16) -> Bool { Self.bit(writeNeedsAuthentication, block) }
    public func writeNeedsMAC(_ block: UInt16) -> Bool { Self.bit(writeNeedsMAC, block) }
    /// Byte 2 `FF`: ID, SER_C, SYS_C, CKV and CK may be written; `00` freezes them (nfcpy `protect`).
    public var systemBlocksWritable: Bool { systemBlocks == 0xFF }
    /// SYS_OP bit 0: the tag is NDEF capable and answers a Polling for `12FC` (nfcpy `format`).
    public var ndef: Bool { systemOptions & 1 == 1 }
    public var cardKeyNeedsMAC: Bool { cardKeyOptions & 1 == 1 }
    public var stateNeedsMAC: Bool { stateOptions & 1 == 1 }
    /// Bit 15 of bytes 0–1: the bit maps may still be changed.
    public var bitMapsChangeable: Bool { writableBlocks & 0x8000 != 0 }

    /// The configuration after an MC write (Flipper `felica_handler_write_mc_block`; Sato CL6NX
    /// manual: a locked block and an "after authentication" bit can never be undone): RW bits are
    /// AND-ed and the restriction maps OR-ed while bit 15 allows it, bytes 2–5 replaced while the
    /// system blocks are writable, the reserved bytes stay zero. `rules` is the MC in effect
    /// (it decides what may change); by default this one.
    public func applyingWrite(_ new: FeliCaLiteMemoryConfiguration, rules: FeliCaLiteMemoryConfiguration? = nil) -> FeliCaLiteMemoryConfiguration {
        var out = self
        let rules = rules ?? self
        if rules.bitMapsChangeable {
            out.writableBlocks &= new.writableBlocks
            out.readNeedsAuthentication |= new.readNeedsAuthentication
            out.writeNeedsAuthentication |= new.writeNeedsAuthentication
            out.writeNeedsMAC |= new.writeNeedsMAC
            out.stateOptions |= new.stateOptions
        }
        if rules.systemBlocksWritable {
            out.systemBlocks = new.systemBlocks
            out.systemOptions = new.systemOptions
            out.rfParameter = new.rfParameter
            out.cardKeyOptions = new.cardKeyOptions
        }
        out.reserved = [0, 0, 0]
        return out
    }
}

/// The Lite-S subtraction register REG (`0E`): A (4 bytes), B (4 bytes), C (8 bytes), little
/// endian (Flipper `felica_handler_write_reg_block`).
public struct FeliCaLiteSubtractionRegister: Sendable, Hashable {
    public var a: UInt32
    public var b: UInt32
    public var c: [UInt8]

    public init(a: UInt32, b: UInt32, c: [UInt8]) {
        self.a = a
        self.b = b
        self.c = Array((c + [UInt8](repeating: 0, count: 8)).prefix(8))
    }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> FeliCaLiteSubtractionRegister {
        var cur = ByteCursor(block)
        let a = try cur.readUInt32LE("REG A (4 bytes, little endian)")
        let b = try cur.readUInt32LE("REG B (4 bytes, little endian)")
        let r = FeliCaLiteSubtractionRegister(a: a, b: b, c: try cur.readBytes(8, "REG C (8 bytes)"))
        try cur.expectEnd("the 16-byte REG block")
        return r
    }

    public var bytes: [UInt8] {
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return le(a) + le(b) + c
    }

    /// A and B can only go down: a larger value leaves them unchanged; C is taken only when
    /// neither A nor B would have gone up (Flipper's listener).
    public func applyingWrite(_ new: FeliCaLiteSubtractionRegister) -> FeliCaLiteSubtractionRegister {
        var out = self
        if new.a <= a { out.a = new.a }
        if new.b <= b { out.b = new.b }
        if new.a <= a && new.b <= b { out.c = new.c }
        return out
    }
}

/// WCNT (`90`): the Lite-S write counter in bytes 0–2, little endian.
public struct FeliCaLiteWriteCounter: Sendable, Hashable {
    public var value: UInt32

    public init(_ value: UInt32) { self.value = value & 0xFF_FFFF }

    public static func decode(_ block: [UInt8]) throws(DecodeError) -> FeliCaLiteWriteCounter {
        var c = ByteCursor(block)
        return FeliCaLiteWriteCounter(try c.readUInt24LE("WCNT (3 bytes, little endian)"))
    }

    /// Bytes 0–2 of the block.
    public var bytes: [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value >> 16)]
    }
}
