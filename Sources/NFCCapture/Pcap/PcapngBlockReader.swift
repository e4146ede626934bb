import NFCCore

/// pcapng read block by block: the files libpcap refuses (interfaces of different link types in
/// one section: NFCGate writes LINKTYPE_ISO_14443 beside a LINKTYPE_USER0 interface holding the
/// tag's activation data), and every pcapng of NFC frames, whose packet comments (`opt_comment`,
/// where nfctrace writes a frame's comment) libpcap does not give. Section Header, Interface
/// Description, Enhanced, Simple and the obsolete Packet blocks are read, in either byte order;
/// Name Resolution, Interface Statistics, custom and unknown blocks are skipped. Packets of 264
/// and nfctrace's USER3 interfaces become frames, their comment the frame's; NFCGate's USER0
/// packets become comments naming what they carry; packets of other link types become a comment
/// each, never an error. A pcapng of other link types only stays with libpcap (`PcapReader`),
/// which refuses it by name.
final class PcapngBlockReader: FrameReader {
    let format = CaptureFormat.pcapng
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private let forcedTechnology: Technology?
    private var typeRecognizer = ISO14443TypeRecognizer()
    private var bigEndian = false
    private var interfaces: [Interface] = []
    private var frameNumber = 0
    private var finished = false
    private var comments: [String] = []
    /// The tag an NFCGate export relayed, as its initial data (USER0) says.
    private var nfcgateTag: (technology: Technology, isoDEP: Bool)?
    private var nfcgatePCBNoted = false
    /// Timestamps in µs when every interface counts µs (the pcapng default), else ns.
    private let unit: TimeUnit

    struct Interface {
        var linkType: Int
        /// Units per second of its timestamps: 10^n or 2^n.
        var resolution: (base: Int, exponent: Int) = (10, 6)
        var offsetSeconds: Int64 = 0
    }

    /// Blocks longer than this are damage, not packets (no NFC frame comes near it).
    static let blockLimit = 16 << 20
    static let userLinkType0 = 147

    /// Whether this reader reads the file: the first section's interfaces (as far as `prefix`
    /// holds them) have more than one link type, which libpcap refuses, or NFC frames only.
    static func needed(_ prefix: [UInt8]) -> Bool {
        let types = linkTypes(prefix)
        return types.count > 1 || !types.isEmpty && types.isSubset(of: [Int(ISO14443PseudoHeader.linkType), Int(NFCTracePseudoHeader.linkType)])
    }

    /// The link types of the first section's interfaces, as far as `prefix` holds them.
    static func linkTypes(_ prefix: [UInt8]) -> Set<Int> {
        guard prefix.count >= 12 else { return [] }
        let big = prefix[8] == 0x1A
        func u32(_ at: Int) -> Int {
            guard at + 4 <= prefix.count else { return -1 }
            let b = prefix[at..<at + 4].map(Int.init)
            return big ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        }
        var at = 0
        var linkTypes = Set<Int>()
        var blocks = 0
        while at + 12 <= prefix.count, blocks < 64 {
            let type = u32(at), length = u32(at + 4)
            guard length >= 12, length % 4 == 0 else { return linkTypes }
            if type == 0x0A0D_0D0A, at > 0 { break }   // the next section
            if type == 1, at + 10 <= prefix.count {
                linkTypes.insert(big ? Int(prefix[at + 8]) << 8 | Int(prefix[at + 9]) : Int(prefix[at + 9]) << 8 | Int(prefix[at + 8]))
            }
            at += length
            blocks += 1
        }
        return linkTypes
    }

    init(input: ByteInput, options: CaptureReadOptions) {
        self.input = input
        forcedTechnology = options.technology
        let prefix = Array(input.peek(1 << 16))
        unit = PcapReader.pcapngResolution(prefix)
        let types = Self.linkTypes(prefix)
        metadata["link-type"] = types.count == 1 ? types.first.map(String.init) : "several (pcapng interfaces of different link types)"
        metadata["timebase"] = unit.rawValue
        if let t = options.technology { metadata["tech"] = t.rawValue }
    }

    func takeComments() -> [String] {
        defer { comments.removeAll() }
        return comments
    }

    private func damage(_ reason: String, at offset: Int) -> CaptureError {
        finished = true
        return CaptureError.damaged(path: input.name, offset: offset, frame: frameNumber + 1, reason: reason)
    }

    private func u32(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        let i = b.startIndex + at
        let v = UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
        return bigEndian ? v : v.byteSwapped
    }

    private func u16(_ b: ArraySlice<UInt8>, _ at: Int) -> UInt16 {
        let i = b.startIndex + at
        let v = UInt16(b[i]) << 8 | UInt16(b[i + 1])
        return bigEndian ? v : v.byteSwapped
    }

    func next() throws(CaptureError) -> Frame? {
        while !finished {
            let start = input.offset
            let head = Array(input.peek(12))
            if head.isEmpty {
                finished = true
                if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
                return nil
            }
            guard head.count >= 8 else { throw damage("a block header cut short: \(head.count) of 8 bytes", at: start) }
            let rawType = Array(head.prefix(4))
            if rawType == [0x0A, 0x0D, 0x0D, 0x0A] {
                guard head.count >= 12 else { throw damage("a Section Header Block cut short", at: start) }
                switch Array(head[8..<12]) {
                case [0x1A, 0x2B, 0x3C, 0x4D]: bigEndian = true
                case [0x4D, 0x3C, 0x2B, 0x1A]: bigEndian = false
                default: throw damage("Section Header Block byte-order magic \(Hex.string(head[8..<12])) is neither 1A2B3C4D nor 4D3C2B1A", at: start + 8)
                }
                interfaces = []
            }
            let type = u32(head[...], 0)
            let length = Int(u32(head[...], 4))
            guard length >= 12, length % 4 == 0, length <= Self.blockLimit else {
                throw damage("block length \(length) (a block is 12 bytes at least, a multiple of 4, here at most \(Self.blockLimit))", at: start + 4)
            }
            let block = input.peek(length)
            guard block.count == length else { throw damage("block of \(length) bytes cut short after \(block.count)", at: start) }
            guard Int(u32(block, length - 4)) == length else {
                throw damage("block length \(length) at its start, \(u32(block, length - 4)) at its end", at: start + length - 4)
            }
            _ = input.read(length)
            let body = block[(block.startIndex + 8)..<(block.endIndex - 4)]
            switch type {
            case 0x0A0D_0D0A: continue
            case 1: try readInterface(body, at: start)
            case 6, 2:
                // EPB: interface u32, time high, time low, captured, original, data.
                // Obsolete PB: interface u16, drops u16, then the same.
                guard body.count >= 20 else { throw damage("packet block of \(length) bytes: shorter than its fixed fields", at: start) }
                let iface = type == 6 ? Int(u32(body, 0)) : Int(u16(body, 0))
                let time = UInt64(u32(body, 4)) << 32 | UInt64(u32(body, 8))
                let captured = Int(u32(body, 12))
                let original = Int(u32(body, 16))
                guard captured <= body.count - 20 else { throw damage("packet of \(captured) bytes in a block with room for \(body.count - 20)", at: start + 20) }
                let data = Array(body[(body.startIndex + 20)..<(body.startIndex + 20 + captured)])
                let options = body.dropFirst(20 + captured + (4 - captured % 4) % 4)
                let comment = try packetComment(options, at: start + 28 + captured + (4 - captured % 4) % 4)
                if let f = try packet(data, original: original, interface: iface, time: time, comment: comment, at: start) { return f }
            case 3:
                // SPB: original length, data (interface 0, no time).
                guard body.count >= 4 else { throw damage("Simple Packet Block without its length", at: start) }
                let original = Int(u32(body, 0))
                let data = Array(body.dropFirst(4).prefix(original))
                if let f = try packet(data, original: original, interface: 0, time: nil, comment: nil, at: start) { return f }
            default:
                continue   // NRB, ISB, custom and unknown blocks carry no frames
            }
        }
        return nil
    }

    private func readInterface(_ body: ArraySlice<UInt8>, at start: Int) throws(CaptureError) {
        guard body.count >= 8 else { throw damage("Interface Description Block shorter than 20 bytes", at: start) }
        var i = Interface(linkType: Int(u16(body, 0)))
        for (code, value) in try options(body.dropFirst(8), at: start + 16) {
            if code == 9, let v = value.first {
                i.resolution = v & 0x80 != 0 ? (2, Int(v & 0x7F)) : (10, Int(v))
                // Past 10^-19 s (2^-63 s) a tick is no unit 64-bit times can be read in: such a
                // file is damaged, not a trace whose times all come out as nearly 0.
                guard i.resolution.exponent <= (i.resolution.base == 10 ? 19 : 63) else {
                    throw damage("interface \(interfaces.count): if_tsresol \(Hex.byte(v)) (ticks of \(i.resolution.base)^-\(i.resolution.exponent) s) is finer than the 10^-19 or 2^-63 s nfctrace reads", at: start)
                }
            } else if code == 14, value.count == 8 {
                // One 64-bit integer in the section's byte order (not two words high first, as
                // a packet's time is): a little-endian file has its low half first.
                let (first, second) = (UInt64(u32(value, 0)), UInt64(u32(value, 4)))
                i.offsetSeconds = Int64(bitPattern: bigEndian ? first << 32 | second : second << 32 | first)
                // Added to every time in nanoseconds: an offset past their 64-bit range would wrap.
                guard !i.offsetSeconds.multipliedReportingOverflow(by: 1_000_000_000).overflow else {
                    throw damage("interface \(interfaces.count): if_tsoffset \(i.offsetSeconds) s is beyond the 64-bit nanosecond range (±292 years of 1970)", at: start)
                }
            }
        }
        interfaces.append(i)
    }

    /// A block's options (code, value) up to opt_endofopt; `offset` is where they start in the file.
    private func options(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(CaptureError) -> [(code: UInt16, value: ArraySlice<UInt8>)] {
        var out: [(code: UInt16, value: ArraySlice<UInt8>)] = []
        var at = 0
        while at + 4 <= bytes.count {
            let code = u16(bytes, at), len = Int(u16(bytes, at + 2))
            guard code != 0 else { break }
            guard at + 4 + len <= bytes.count else { throw damage("option \(code) of \(len) bytes runs past its block", at: offset + at) }
            out.append((code, bytes[(bytes.startIndex + at + 4)..<(bytes.startIndex + at + 4 + len)]))
            at += 4 + len + (4 - len % 4) % 4
        }
        return out
    }

    /// Nanoseconds (or µs) of a packet time in its interface's units.
    private func timestamp(_ raw: UInt64, _ i: Interface) -> Timestamp? {
        var ns: Int64
        let (base, exponent) = i.resolution
        if base == 10 {
            if exponent <= 9 {
                let (v, o) = Int64(clamping: raw).multipliedReportingOverflow(by: Int64(pow10(9 - exponent)))
                guard !o else { return nil }
                ns = v
            } else {
                ns = Int64(clamping: raw / UInt64(pow10(exponent - 9)))   // exponent ≤ 19 (readInterface)
            }
        } else {
            guard exponent < 64 else { return nil }
            let seconds = raw >> UInt64(exponent)
            let fraction = raw & ((1 << UInt64(exponent)) - 1)
            let (s, o) = Int64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
            guard !o else { return nil }
            ns = s + Int64((Double(fraction) / Double(UInt64(1) << UInt64(exponent)) * 1e9).rounded())
        }
        let (withOffset, o) = ns.addingReportingOverflow(i.offsetSeconds * 1_000_000_000)   // checked in readInterface
        guard !o else { return nil }
        ns = withOffset
        return unit == .microseconds ? Timestamp(ns / 1000, .microseconds) : Timestamp(ns, .nanoseconds)
    }

    private func pow10(_ n: Int) -> Int64 { (0..<n).reduce(1) { v, _ in v * 10 } }

    /// The `opt_comment` options of a packet block (several are joined by "; "), nil without one.
    private func packetComment(_ options: ArraySlice<UInt8>, at offset: Int) throws(CaptureError) -> String? {
        let comments = try self.options(options, at: offset).filter { $0.code == 1 }.map { String(decoding: $0.value, as: UTF8.self) }
        return comments.isEmpty ? nil : comments.joined(separator: "; ")
    }

    private func packet(_ data: [UInt8], original: Int, interface index: Int, time: UInt64?, comment: String?, at start: Int) throws(CaptureError) -> Frame? {
        guard index < interfaces.count else { throw damage("a packet of interface \(index), and the section describes \(interfaces.count)", at: start + 8) }
        let i = interfaces[index]
        var frame: Frame
        switch i.linkType {
        case Int(ISO14443PseudoHeader.linkType):
            frame = data.withUnsafeBytes { ISO14443PseudoHeader.decode($0, wireLength: original, technology: forcedTechnology ?? .iso14443a) }
            if forcedTechnology == nil { frame.technology = typeRecognizer.technology(of: frame) }
            if let tag = nfcgateTag, !tag.isoDEP, frame.direction != nil, frame.bytes.first == NFCGateInitialData.syntheticPCB {
                // NFCGate's PCB before a frame of a tag that speaks no ISO-DEP: the frame is the rest.
                frame.bytes = Array(frame.bytes.dropFirst())
                if forcedTechnology == nil { frame.technology = tag.technology }
                if !nfcgatePCBNoted {
                    nfcgatePCBNoted = true
                    comments.append("NFCGate's own PCB 02 before every payload removed: this \(tag.technology.displayName) tag speaks no ISO-DEP")
                }
            }
        case Int(NFCTracePseudoHeader.linkType):
            frame = data.withUnsafeBytes { NFCTracePseudoHeader.decode($0, fallback: forcedTechnology ?? .iso14443a) }
        case Self.userLinkType0:
            comments.append(NFCGateInitialData.describe(data) ?? "interface \(index) (LINKTYPE_USER0): \(data.count) bytes: \(Hex.string(data.prefix(64)))\(data.count > 64 ? " …" : "")")
            if let tag = NFCGateInitialData.tag(data) { nfcgateTag = tag }
            return nil
        default:
            comments.append("interface \(index) (link type \(i.linkType)): a packet of \(data.count) bytes, not NFC frames nfctrace reads")
            return nil
        }
        if let time {
            guard let t = timestamp(time, i) else { throw damage("a packet time beyond the 64-bit nanosecond range", at: start + 12) }
            frame.start = t
        }
        frameNumber += 1
        if let comment { frame.comment = comment }
        // What the metadata interfaces said rides on the next frame (`dissect -V` and JSON show a
        // frame's comment); what follows the last frame comes out through takeComments().
        if !comments.isEmpty {
            frame.comment = ([frame.comment].compactMap { $0 } + comments).joined(separator: "; ")
            comments.removeAll()
        }
        return frame
    }
}

/// NFCGate's USER0 packets: the tag's activation data as NCI listen parameters, behind the same
/// 4-byte ISO 14443 pseudo-header and synthetic PCB `02` as its 264 packets (nfcgate/nfcgate:
/// `ISO14443Packet`, `ConfigBuilder`; notes from its source in issue 18's research).
enum NFCGateInitialData {
    /// NCI listen-parameter ids (NCI 2.0 Table 46…) as NFCGate uses them.
    static let names: [UInt8: String] = [
        0x30: "ATQA byte 1 (LA_BIT_FRAME_SDD)", 0x31: "ATQA byte 2 (LA_PLATFORM_CONFIG)", 0x32: "SAK (LA_SEL_INFO)", 0x33: "UID (LA_NFCID1)",
        0x38: "protocol info byte 2 (LB_SENSB_INFO)", 0x39: "PUPI (LB_NFCID0)", 0x3A: "application data (LB_APPLICATION_DATA)",
        0x3B: "protocol info byte 1 (LB_SFGI)", 0x3C: "protocol info byte 3 (LB_ADC_FO)",
        0x40: "system code and IDm (LF_T3T_IDENTIFIERS_1)", 0x51: "PMm (LF_T3T_PMM)", 0x53: "LF_T3T_FLAGS",
        0x59: "historical bytes (LA_HIST_BY)", 0x5A: "higher-layer answer (LB_H_INFO_RSP)",
    ]

    /// The listen parameters (type, value) of a USER0 packet, or nil when it is not laid out so.
    static func parameters(_ packet: [UInt8]) -> [(type: UInt8, value: ArraySlice<UInt8>)]? {
        guard packet.count >= 5, packet[0] == 0, packet[4] == 0x02,
              Int(packet[2]) << 8 | Int(packet[3]) == packet.count - 4 else { return nil }
        var out: [(type: UInt8, value: ArraySlice<UInt8>)] = []
        var i = 5
        while i + 2 <= packet.count {
            let type = packet[i], length = Int(packet[i + 1])
            guard i + 2 + length <= packet.count else { return nil }
            out.append((type, packet[(i + 2)..<(i + 2 + length)]))
            i += 2 + length
        }
        guard i == packet.count, !out.isEmpty else { return nil }
        return out
    }

    /// `NFCGate initial tag data: UID 04 A1 …; SAK 20; …`, or nil when the packet is not laid out so.
    static func describe(_ packet: [UInt8]) -> String? {
        guard let parameters = parameters(packet) else { return nil }
        let parts = parameters.map { "\(names[$0.type] ?? "parameter \(Hex.byte($0.type))") \(Hex.string($0.value))" }
        return "NFCGate initial tag data (NCI listen parameters): " + parts.joined(separator: "; ")
    }

    /// What the relayed tag speaks, from its listen parameters: NFC-F (LF_T3T_*) is FeliCa; NFC-A
    /// speaks ISO-DEP when its SAK has b6 set; NFC-B is taken as ISO-DEP (LB_* carry no such bit
    /// NFCGate sets apart). Nil when the parameters do not say.
    static func tag(_ packet: [UInt8]) -> (technology: Technology, isoDEP: Bool)? {
        guard let parameters = parameters(packet) else { return nil }
        let types = Set(parameters.map(\.type))
        if !types.isDisjoint(with: [0x40, 0x51, 0x53]) { return (.felica, false) }
        if let sak = parameters.first(where: { $0.type == 0x32 })?.value.first { return (.iso14443a, sak & 0x20 != 0) }
        if !types.isDisjoint(with: [0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x5A]) { return (.iso14443b, true) }
        return nil
    }

    /// NFCGate writes its own I-block PCB `02` before every payload (`ISO14443Packet`); before
    /// the frames of a tag that speaks no ISO-DEP (an NTAG, a FeliCa card) it is nobody's byte.
    static let syntheticPCB: UInt8 = 0x02
}
