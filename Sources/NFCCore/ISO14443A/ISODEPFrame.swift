/// One ISO/IEC 14443-4 block without its CRC: PCB, then CID when the PCB says so, then NAD
/// (I-blocks only), then INF (protocols-wave2.md §3.2). The offsets of CID, NAD and INF follow
/// from the PCB: `Layout` computes them, decode and encode read it.
public struct ISODEPFrame: Sendable, Hashable {
    public var block: ISODEPBlock
    public var cid: UInt8?
    public var nad: UInt8?
    public var inf: [UInt8]

    public init(_ block: ISODEPBlock, cid: UInt8? = nil, nad: UInt8? = nil, inf: [UInt8] = []) {
        self.block = block
        self.cid = cid
        self.nad = nad
        self.inf = inf
    }

    /// Where each part of a block sits.
    public struct Layout: Sendable, Hashable {
        public static let pcb = FieldLayout(0, 1, "PCB")
        public let cid: FieldLayout?
        public let nad: FieldLayout?
        /// INF starts here and runs to the end of the block.
        public let infStart: Int

        public init(_ block: ISODEPBlock) {
            var at = Self.pcb.end
            cid = block.cidFollows ? FieldLayout(at, 1, "CID (the PCB announces it)") : nil
            if block.cidFollows { at += 1 }
            nad = block.nadFollows ? FieldLayout(at, 1, "NAD (the PCB announces it)") : nil
            if block.nadFollows { at += 1 }
            infStart = at
        }

        public func inf(count: Int) -> Range<Int> { infStart..<infStart + count }
    }

    public var layout: Layout { Layout(block) }

    public static func decode(_ payload: [UInt8]) throws(DecodeError) -> ISODEPFrame {
        var c = ByteCursor(payload)
        let pcb = try c.readUInt8(Layout.pcb.expected)
        guard let block = ISODEPBlock(pcb: pcb) else {
            throw DecodeError(offset: 0, expected: "an I-, R- or S-block PCB (ISO/IEC 14443-4 §7.1.1)", found: Hex.byte(pcb))
        }
        let layout = Layout(block)
        var frame = ISODEPFrame(block)
        if let f = layout.cid { frame.cid = try c.readUInt8(f.expected) }
        if let f = layout.nad { frame.nad = try c.readUInt8(f.expected) }
        frame.inf = c.readRest()
        return frame
    }

    public func encode() -> [UInt8] {
        var w = PayloadWriter()
        w.put(block.pcb, Layout.pcb)
        let layout = self.layout
        if let f = layout.cid { w.put(cid ?? 0, f) }
        if let f = layout.nad { w.put(nad ?? 0, f) }
        w.put(inf, FieldLayout(layout.infStart, inf.count, "INF"))
        return w.bytes
    }

    /// S(WTX): b6…b1 of the INF byte ask for WTXM × FWT (1–59), b8b7 are the power level.
    public var waitingTimeExtension: (multiplier: UInt8, powerLevel: UInt8)? {
        guard case .s(.wtx, _) = block, let b = inf.first else { return nil }
        return (b & 0x3F, b >> 6)
    }
}
