#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPcap
import NFCCore

/// Writes frames somewhere, one at a time.
public protocol FrameWriter: AnyObject {
    func write(_ frame: Frame) throws(CaptureError)
    /// Flushes everything; call once at the end.
    func finish() throws(CaptureError)
    /// Comment lines to keep before the next frame (or at the end); formats without comments
    /// drop them, and count them among their losses.
    func writeComments(_ lines: [String])
    /// What the frames written so far lost that the format cannot carry, one entry per kind
    /// (docs/limits.md, "What each format cannot carry").
    var losses: [FrameLoss] { get }
}

/// Timestamps for formats that need one on every record: the frame's own, converted, or the
/// previous one when a frame has none (pcap asks writers without times for "reasonable values").
/// A time the format cannot hold is refused, never wrapped: classic pcap stores unsigned 32-bit
/// seconds (1970 to 2106), pcapng unsigned 64-bit ticks (no time before 1970).
struct RecordClock {
    var lastNanoseconds: Int64 = 0
    /// The latest time the format holds, in nanoseconds.
    let latest: Int64

    mutating func nanoseconds(for frame: Frame, count: Int, path: String) throws(CaptureError) -> Int64 {
        if let t = frame.start {
            guard let ns = t.checkedNanoseconds, ns >= 0, ns <= latest else {
                let seconds = t.checkedNanoseconds.map { "\($0 / 1_000_000_000) s since 1970" } ?? "beyond the 64-bit nanosecond range"
                throw CaptureError.unrepresentable(path: path, frame: count,
                    reason: "its time (\(seconds)) is outside what \(latest == Self.pcapLatest ? "pcap (1970 to 2106)" : "pcapng (from 1970)") can hold")
            }
            lastNanoseconds = ns
        }
        return lastNanoseconds
    }

    static let pcapLatest: Int64 = 0xFFFF_FFFF * 1_000_000_000 + 999_999_999
}

/// What a pcap or pcapng record loses: the record is decoded as the reader will (the pseudo-header
/// decoder, the Type A/B recogniser of LINKTYPE_ISO_14443, the file's time resolution) and
/// compared with the frame written. Shared by both writers.
struct PcapLossCheck {
    private(set) var ledger: LossLedger
    private var recognizer = ISO14443TypeRecognizer()
    private let encapsulation: PcapEncapsulation
    private let resolution: TimeUnit
    /// Whether the format keeps frame comments (pcapng's opt_comment).
    private let comments: Bool

    init(_ encapsulation: PcapEncapsulation, ng: Bool, resolution: TimeUnit, metadata: TraceMetadata, commentLines: Int) {
        self.encapsulation = encapsulation
        self.resolution = resolution
        comments = ng
        ledger = LossLedger(.pcap(encapsulation, ng: ng))
        ledger.dropMetadata(metadata)
        if commentLines > 0 { ledger.record(.commentLines, frame: nil, count: commentLines) }
    }

    /// `nanoseconds` is the time the record was written with; `comment` the comment it holds.
    mutating func account(_ frame: Frame, record: [UInt8], nanoseconds: Int64, comment: String?, number: Int) {
        var (back, payload) = record.withUnsafeBufferPointer { bytes in
            switch encapsulation {
            case .iso14443: return ISO14443PseudoHeader.header(bytes, wireLength: record.count, technology: .iso14443a)
            case .nfctrace: return NFCTracePseudoHeader.header(bytes, fallback: .iso14443a)
            }
        }
        // The bytes as read back: the frame's own where they are the same (no copy per frame).
        back.bytes = frame.bytes.elementsEqual(record[payload]) ? frame.bytes : Array(record[payload])
        if encapsulation == .iso14443 { back.technology = recognizer.technology(of: back) }
        back.comment = comments ? comment : nil
        ledger.compare(frame, back, number: number)
        let time = resolution == .nanoseconds ? Timestamp(nanoseconds, .nanoseconds) : Timestamp(nanoseconds / 1000, .microseconds)
        ledger.compareTime(frame.start, time, precision: resolution == .nanoseconds ? 1 : 1000, kind: .startTimes, number: number)
        if frame.end != nil { ledger.record(.endTimes, frame: number) }
    }

    mutating func dropCommentLines(_ count: Int) {
        if count > 0 { ledger.record(.commentLines, frame: nil, count: count) }
    }
}

/// Classic pcap through libpcap's dumper. The link type is LINKTYPE_ISO_14443 or nfctrace's
/// LINKTYPE_USER3 encapsulation; left open, it is chosen from the first frame.
public final class PcapWriter: FrameWriter {
    private let path: String
    private let name: String
    private let nanosecond: Bool
    private var encapsulation: PcapEncapsulation?
    private var dead: OpaquePointer?
    private var dumper: OpaquePointer?
    private var clock = RecordClock(latest: RecordClock.pcapLatest)
    private var count = 0
    private var closed = false
    private let file: AtomicFile?
    private let metadata: TraceMetadata
    private var commentLines = 0
    private var check: PcapLossCheck?
    public var losses: [FrameLoss] { check?.ledger.losses ?? [] }

    /// `path` may be `-` for standard output. `resolution` picks the µs or ns pcap magic. The
    /// file is created now (beside its target, replacing it at `finish()`). `metadata` is what
    /// the trace says of itself, which pcap has no place for.
    public init(path: String, resolution: TimeUnit = .microseconds, encapsulation: PcapEncapsulation? = nil,
                metadata: TraceMetadata = TraceMetadata()) throws(CaptureError) {
        self.path = path
        self.name = path == "-" ? "<stdout>" : path
        self.nanosecond = resolution == .nanoseconds
        self.encapsulation = encapsulation
        self.metadata = metadata
        self.file = path == "-" ? nil : try AtomicFile.create(path)
        if let encapsulation { try open(encapsulation) }
    }

    public func writeComments(_ lines: [String]) {
        if check != nil { check?.dropCommentLines(lines.count) } else { commentLines += lines.count }
    }

    deinit {
        if let dumper, !closed { pcap_dump_close(dumper) }
        if let dead { pcap_close(dead) }
        // Not finished: the target keeps its old content (AtomicFile removes the temporary).
    }

    private func open(_ encapsulation: PcapEncapsulation) throws(CaptureError) {
        let precision = nanosecond ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO
        guard let dead = pcap_open_dead_with_tstamp_precision(encapsulation.linkType, Int32(PcapEncapsulation.snapshotLength), UInt32(precision)) else {
            throw CaptureError.io(path: name, reason: "libpcap could not create a dumper")
        }
        // libpcap writes through its own stdio stream on a duplicate of the descriptor.
        let descriptor = file?.descriptor ?? STDOUT_FILENO
        let dumper = fdopen(dup(descriptor), "w").flatMap { pcap_dump_fopen(dead, $0) }
        guard let dumper else {
            let reason = String(cString: pcap_geterr(dead))
            pcap_close(dead)
            throw CaptureError.cannotOpen(path: name, reason: reason)
        }
        self.encapsulation = encapsulation
        self.dead = dead
        self.dumper = dumper
        check = PcapLossCheck(encapsulation, ng: false, resolution: nanosecond ? .nanoseconds : .microseconds, metadata: metadata, commentLines: commentLines)
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        if encapsulation == nil { try open(PcapEncapsulation.suited(to: frame)) }
        guard let encapsulation, let dumper else { return }
        guard let record = encapsulation.encode(frame) else {
            throw CaptureError.unrepresentable(path: name, frame: count, reason: encapsulation.refusal(frame))
        }
        let ns = try clock.nanoseconds(for: frame, count: count, path: name)
        var header = pcap_pkthdr()
        header.ts.tv_sec = Int(ns / 1_000_000_000)
        let fraction = ns % 1_000_000_000
        // suseconds_t: Int on Glibc, Int32 on Darwin (a fraction of a second fits either).
        header.ts.tv_usec = .init(nanosecond ? fraction : fraction / 1000)
        header.caplen = UInt32(record.count)
        header.len = UInt32(record.count)
        record.withUnsafeBufferPointer { p in
            pcap_dump(UnsafeMutableRawPointer(dumper).assumingMemoryBound(to: UInt8.self), &header, p.baseAddress)
        }
        check?.account(frame, record: record, nanoseconds: ns, comment: nil, number: count)
    }

    public func finish() throws(CaptureError) {
        if encapsulation == nil { try open(.iso14443) }   // an empty trace still makes a valid file
        guard !closed, let dumper else { return }
        closed = true
        let failed = pcap_dump_flush(dumper) != 0 || ferror(pcap_dump_file(dumper)) != 0
        let reason = String(cString: strerror(errno))
        pcap_dump_close(dumper)
        if failed {
            file?.discard()
            throw CaptureError.io(path: name, reason: "cannot write the file: \(reason)")
        }
        try file?.commit()
    }
}

/// pcapng: one Section Header Block, one Interface Description Block (LINKTYPE_ISO_14443 or the
/// nfctrace encapsulation, chosen like `PcapWriter`), Enhanced Packet Blocks, a frame's comment
/// in its block's `opt_comment` option (Wireshark shows it as the packet comment).
/// (libpcap 1.10 reads pcapng but cannot write it.)
public final class PcapngWriter: FrameWriter {
    private let output: ByteOutput
    private let resolution: TimeUnit
    private var encapsulation: PcapEncapsulation?
    private var headerWritten = false
    private var clock = RecordClock(latest: Int64.max)
    private var count = 0
    private let application: String
    private let metadata: TraceMetadata
    private var commentLines = 0
    private var check: PcapLossCheck?
    public var losses: [FrameLoss] { check?.ledger.losses ?? [] }

    /// The most an option holds (its length is 16 bits).
    static let optionLimit = 0xFFFF

    public init(output: ByteOutput, resolution: TimeUnit = .microseconds, encapsulation: PcapEncapsulation? = nil, application: String = "nfctrace",
                metadata: TraceMetadata = TraceMetadata()) {
        self.output = output
        self.resolution = resolution == .nanoseconds ? .nanoseconds : .microseconds
        self.encapsulation = encapsulation
        self.application = application
        self.metadata = metadata
    }

    public func writeComments(_ lines: [String]) {
        if check != nil { check?.dropCommentLines(lines.count) } else { commentLines += lines.count }
    }

    private func writeHeader(_ encapsulation: PcapEncapsulation) {
        headerWritten = true
        self.encapsulation = encapsulation
        check = PcapLossCheck(encapsulation, ng: true, resolution: resolution, metadata: metadata, commentLines: commentLines)
        var shbOptions: [UInt8] = []
        Self.option(4, Array(application.utf8), to: &shbOptions)   // shb_userappl
        Self.option(0, [], to: &shbOptions)
        var shb: [UInt8] = []
        Self.u32(0x1A2B_3C4D, &shb)
        Self.u16(1, &shb); Self.u16(0, &shb)
        Self.u32(0xFFFF_FFFF, &shb); Self.u32(0xFFFF_FFFF, &shb)   // section length unknown
        shb += shbOptions
        Self.block(0x0A0D_0D0A, shb, to: output)
        var idb: [UInt8] = []
        Self.u16(UInt16(encapsulation.linkType), &idb)
        Self.u16(0, &idb)
        Self.u32(UInt32(PcapEncapsulation.snapshotLength), &idb)   // snaplen
        Self.option(9, [resolution == .nanoseconds ? 9 : 6], to: &idb)   // if_tsresol
        Self.option(0, [], to: &idb)
        Self.block(1, idb, to: output)
    }

    public func write(_ frame: Frame) throws(CaptureError) {
        count += 1
        if !headerWritten { writeHeader(encapsulation ?? PcapEncapsulation.suited(to: frame)) }
        guard let encapsulation else { return }
        guard let record = encapsulation.encode(frame) else {
            throw CaptureError.unrepresentable(path: output.name, frame: count, reason: encapsulation.refusal(frame))
        }
        let ns = try clock.nanoseconds(for: frame, count: count, path: output.name)
        let ticks = UInt64(bitPattern: resolution == .nanoseconds ? ns : ns / 1000)
        var epb: [UInt8] = []
        epb.reserveCapacity(24 + record.count)
        Self.u32(0, &epb)   // interface 0
        Self.u32(UInt32(truncatingIfNeeded: ticks >> 32), &epb)
        Self.u32(UInt32(truncatingIfNeeded: ticks), &epb)
        Self.u32(UInt32(record.count), &epb)
        Self.u32(UInt32(record.count), &epb)
        epb += record
        epb += [UInt8](repeating: 0, count: (4 - record.count % 4) % 4)
        let comment = frame.comment.flatMap { $0.isEmpty ? nil : Self.cut($0) }
        if let comment {
            Self.option(1, Array(comment.utf8), to: &epb)   // opt_comment
            Self.option(0, [], to: &epb)
        }
        Self.block(6, epb, to: output)
        check?.account(frame, record: record, nanoseconds: ns, comment: comment, number: count)
    }

    /// The comment as an option holds it: cut to 65535 bytes at a character's start.
    static func cut(_ comment: String) -> String {
        guard comment.utf8.count > optionLimit else { return comment }
        var end = comment.utf8.index(comment.utf8.startIndex, offsetBy: optionLimit)
        while end > comment.utf8.startIndex, end.samePosition(in: comment.unicodeScalars) == nil { end = comment.utf8.index(before: end) }
        return String(comment.unicodeScalars[..<end])
    }

    public func finish() throws(CaptureError) {
        if !headerWritten { writeHeader(encapsulation ?? .iso14443) }
        try output.finish()
    }

    static func u16(_ v: UInt16, _ out: inout [UInt8]) { out += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func u32(_ v: UInt32, _ out: inout [UInt8]) {
        out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
    }
    static func option(_ code: UInt16, _ value: [UInt8], to out: inout [UInt8]) {
        u16(code, &out)
        u16(UInt16(value.count), &out)
        out += value
        out += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
    }
    static func block(_ type: UInt32, _ body: [UInt8], to output: ByteOutput) {
        var b: [UInt8] = []
        let total = UInt32(12 + body.count)
        u32(type, &b)
        u32(total, &b)
        b += body
        u32(total, &b)
        output.write(b)
    }
}
