/// VICC memory size from Get System Information: block count and block size, both stored
/// minus one on air (protocols.md §6.4; FZ and PM3 add 1 — **DISAGREE** §9 #18: the 1999
/// draft does not say "minus one"; we follow the later editions and both tools).
public struct ISO15693MemorySize: Sendable, Hashable {
    /// Number of blocks, 1…256 (1…65536 with a 2-byte count).
    public var blockCount: Int
    /// Bytes per block, 1…32.
    public var blockSize: Int
    /// Whether the count is sent as 2 bytes (LSB first).
    public var wideCount: Bool
    /// b8–b6 of the block-size byte, RFU (kept so that encoding reproduces the frame).
    public var rfuBits: UInt8

    public init(blockCount: Int, blockSize: Int, wideCount: Bool = false, rfuBits: UInt8 = 0) {
        self.blockCount = blockCount
        self.blockSize = blockSize
        self.wideCount = wideCount
        self.rfuBits = rfuBits & 0xE0
    }

    public var byteCount: Int { blockCount * blockSize }

    static func decode(_ c: inout ByteCursor, count: FieldLayout, size: FieldLayout) throws(DecodeError) -> ISO15693MemorySize {
        let wide = count.width == 2
        let n = wide ? Int(try c.readUInt16LE(count)) + 1 : Int(try c.readUInt8(count)) + 1
        let sizeByte = try c.readUInt8(size)
        return ISO15693MemorySize(blockCount: n, blockSize: Int(sizeByte & 0x1F) + 1, wideCount: wide, rfuBits: sizeByte & 0xE0)
    }

    func write(_ w: inout PayloadWriter, count: FieldLayout, size: FieldLayout) {
        w.putLE(UInt32(truncatingIfNeeded: blockCount - 1), count)
        w.put(UInt8(truncatingIfNeeded: blockSize - 1) & 0x1F | rfuBits & 0xE0, size)
    }
}

/// The answer to Get System Information (`2B`) or Extended Get System Information (`3B`),
/// walked by its information flags (a parser must not assume fixed offsets: protocols.md §6.4).
public struct ISO15693SystemInformation: Sendable, Hashable {
    public enum Layout: Sendable, Hashable {
        /// `2B`: b1 DSFID, b2 AFI, b3 memory size (2 bytes), b4 IC reference; b5 (`10`) is read
        /// as "2-byte block count" as neard does (vendor extension, confidence S), b6–b8 RFU.
        case standard
        /// `3B` (flags per ISO/IEC 15693-3:2018 Table 94 as in ST RFAL; answer layout per the NXP
        /// code in Microsoft's NFC class extension, `phFriNfc_ISO15693Format`): b3 memory size is 3 bytes
        /// (2-byte count, LSB first), b5 MOI is a flag without a field, b6 command list (4 bytes),
        /// b7 CSI information (kept raw), b8 flag-field extension.
        case extended
    }

    public static let dsfidFlag: UInt8 = 0x01
    public static let afiFlag: UInt8 = 0x02
    public static let memorySizeFlag: UInt8 = 0x04
    public static let icReferenceFlag: UInt8 = 0x08
    /// `2B`: 2-byte block count (neard); `3B`: MOI (memory addressing: 2-byte block numbers).
    public static let b5Flag: UInt8 = 0x10
    /// `3B` only.
    public static let commandListFlag: UInt8 = 0x20
    public static let csiFlag: UInt8 = 0x40
    public static let extensionFlag: UInt8 = 0x80

    public var layout: Layout
    public var infoFlags: UInt8
    public var uid: ISO15693UID
    public var dsfid: UInt8?
    public var afi: UInt8?
    public var memorySize: ISO15693MemorySize?
    public var icReference: UInt8?
    /// `3B` b6: the VICC's supported commands (4 bytes, bit map).
    public var commandList: [UInt8]?
    /// `3B` b7: crypto suite information, raw.
    public var csiInformation: [UInt8]?
    /// Bytes after the fields the flags announce (none in a well-formed answer).
    public var trailing: [UInt8]

    /// A `2B` answer with the information flags set for the fields given.
    public init(uid: ISO15693UID, dsfid: UInt8? = nil, afi: UInt8? = nil, memorySize: ISO15693MemorySize? = nil,
                icReference: UInt8? = nil) {
        var flags: UInt8 = 0
        if dsfid != nil { flags |= Self.dsfidFlag }
        if afi != nil { flags |= Self.afiFlag }
        if let m = memorySize {
            flags |= Self.memorySizeFlag
            if m.wideCount { flags |= Self.b5Flag }
        }
        if icReference != nil { flags |= Self.icReferenceFlag }
        self.init(layout: .standard, infoFlags: flags, uid: uid, dsfid: dsfid, afi: afi, memorySize: memorySize,
                  icReference: icReference)
    }

    public init(layout: Layout, infoFlags: UInt8, uid: ISO15693UID, dsfid: UInt8? = nil, afi: UInt8? = nil,
                memorySize: ISO15693MemorySize? = nil, icReference: UInt8? = nil, commandList: [UInt8]? = nil,
                csiInformation: [UInt8]? = nil, trailing: [UInt8] = []) {
        self.layout = layout
        self.infoFlags = infoFlags
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.memorySize = memorySize
        self.icReference = icReference
        self.commandList = commandList
        self.csiInformation = csiInformation
        self.trailing = trailing
    }

    /// Where each field the information flags announce sits in the answer (offsets from the
    /// response flags byte, as `ISO15693Response.Layout`): the one description decode, encode
    /// and the dissector read. Absent fields are nil; the CSI information (`3B` b7) and any
    /// bytes the flags do not announce run from `rest` to the end.
    public struct Fields: Sendable, Hashable {
        public var dsfid: FieldLayout?
        public var afi: FieldLayout?
        /// Number of blocks − 1: 1 byte, or 2 (LSB first) in `3B` answers and with the `2B` b5 flag.
        public var blockCount: FieldLayout?
        /// Block size − 1 in b5–b1, RFU b8–b6.
        public var blockSize: FieldLayout?
        public var icReference: FieldLayout?
        public var commandList: FieldLayout?
        /// Where the CSI information (when announced) or the unannounced bytes start.
        public var rest: Int

        /// The memory size's two fields together.
        public var memorySize: Range<Int>? {
            guard let count = blockCount, let size = blockSize else { return nil }
            return count.offset..<size.end
        }

        public init(infoFlags flags: UInt8, layout: Layout) {
            var at = ISO15693Response.Layout.uid.end
            func next(_ present: Bool, _ width: Int, _ expected: String) -> FieldLayout? {
                guard present else { return nil }
                defer { at += width }
                return FieldLayout(at, width, expected)
            }
            dsfid = next(flags & dsfidFlag != 0, 1, "DSFID (information flag b1)")
            afi = next(flags & afiFlag != 0, 1, "AFI (information flag b2)")
            let memory = flags & memorySizeFlag != 0
            let wide = layout == .extended || flags & b5Flag != 0
            blockCount = next(memory, wide ? 2 : 1, wide ? "number of blocks − 1 (2 bytes, LSB first)" : "number of blocks − 1")
            blockSize = next(memory, 1, "block size − 1 (b5–b1)")
            icReference = next(flags & icReferenceFlag != 0, 1, "IC reference (information flag b4)")
            commandList = next(layout == .extended && flags & commandListFlag != 0, 4, "VICC command list (4 bytes, information flag b6)")
            rest = at
        }
    }

    /// The layout of this answer's fields.
    public var fields: Fields { Fields(infoFlags: infoFlags, layout: layout) }

    /// `3B` b5: the VICC needs 2-byte block numbers.
    public var twoByteAddressing: Bool? { layout == .extended ? infoFlags & Self.b5Flag != 0 : nil }

    /// Reads the body after the response flags; `c` stands at the information flags and reports
    /// offsets from the response flags byte (`ISO15693Response.decode`).
    public static func decode(_ c: inout ByteCursor, layout: Layout) throws(DecodeError) -> ISO15693SystemInformation {
        let flags = try c.readUInt8(ISO15693Response.Layout.infoFlags)
        let uid = try c.readBytes(ISO15693Response.Layout.uid)
        var info = ISO15693SystemInformation(layout: layout, infoFlags: flags, uid: ISO15693UID(onAir: uid) ?? ISO15693UID(value: 0))
        let f = Fields(infoFlags: flags, layout: layout)
        if let l = f.dsfid { info.dsfid = try c.readUInt8(l) }
        if let l = f.afi { info.afi = try c.readUInt8(l) }
        if let count = f.blockCount, let size = f.blockSize { info.memorySize = try ISO15693MemorySize.decode(&c, count: count, size: size) }
        if let l = f.icReference { info.icReference = try c.readUInt8(l) }
        if let l = f.commandList { info.commandList = try c.readBytes(l) }
        if layout == .extended, flags & csiFlag != 0 {
            info.csiInformation = c.readRest()
            return info
        }
        info.trailing = c.readRest()
        return info
    }

    /// The body after the response flags, written through the same `Fields`.
    public func encode() -> [UInt8] {
        let f = fields
        var w = PayloadWriter()
        w.put(infoFlags, ISO15693Response.Layout.infoFlags)
        w.put(uid.onAir, ISO15693Response.Layout.uid)
        if let v = dsfid, let l = f.dsfid { w.put(v, l) }
        if let v = afi, let l = f.afi { w.put(v, l) }
        if let m = memorySize, let count = f.blockCount, let size = f.blockSize { m.write(&w, count: count, size: size) }
        if let v = icReference, let l = f.icReference { w.put(v, l) }
        if let v = commandList, let l = f.commandList { w.put(v, l) }
        if let csi = csiInformation { w.put(csi, FieldLayout(max(f.rest, w.bytes.count), csi.count, "CSI information")) }
        if !trailing.isEmpty { w.put(trailing, FieldLayout(max(f.rest, w.bytes.count), trailing.count, "trailing bytes")) }
        // The writer counts from the response flags byte; the body starts after it.
        return Array(w.bytes[ISO15693Response.Layout.infoFlags.offset...])
    }

    /// Names of the information flags that are set, in bit order.
    public var flagNames: [String] {
        var names: [String] = []
        if infoFlags & Self.dsfidFlag != 0 { names.append("DSFID") }
        if infoFlags & Self.afiFlag != 0 { names.append("AFI") }
        if infoFlags & Self.memorySizeFlag != 0 { names.append("memory size") }
        if infoFlags & Self.icReferenceFlag != 0 { names.append("IC reference") }
        switch layout {
        case .standard:
            if infoFlags & Self.b5Flag != 0 { names.append("2-byte block count (b5, neard)") }
            if infoFlags & 0xE0 != 0 { names.append("RFU bits \(Hex.byte(infoFlags & 0xE0))") }
        case .extended:
            if infoFlags & Self.b5Flag != 0 { names.append("MOI: 2-byte block numbers") }
            if infoFlags & Self.commandListFlag != 0 { names.append("command list") }
            if infoFlags & Self.csiFlag != 0 { names.append("CSI information") }
            if infoFlags & Self.extensionFlag != 0 { names.append("flag-field extension") }
        }
        return names
    }
}
