#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CPcap
import NFCCore

/// Reads pcap and pcapng through libpcap, one record at a time.
///
/// libpcap reads from a cookie stream over `ByteInput` so that detection could peek first and
/// so that the byte offset of each record is known when libpcap reports damage.
final class PcapReader: FrameReader {
    let format: CaptureFormat
    private(set) var metadata = TraceMetadata()
    private let input: ByteInput
    private let handle: OpaquePointer
    private let file: UnsafeMutablePointer<FILE>
    private let linkType: Int32
    private let technology: Technology
    private let unit: TimeUnit
    // Touched by `next()` alone, on the one thread that reads, never re-entrantly: no dynamic
    // exclusivity check (three per frame cost about 230 instructions a frame).
    @exclusivity(unchecked) private var frameNumber = 0
    @exclusivity(unchecked) private var finished = false
    /// Type A or B by content, for 264 records when the user gave no --tech.
    @exclusivity(unchecked) private var typeRecognizer: ISO14443TypeRecognizer?

    init(input: ByteInput, format: CaptureFormat, options: CaptureReadOptions) throws(CaptureError) {
        self.input = input
        self.format = format
        let prefix = Array(input.peek(1 << 16))
        self.unit = format == .pcap ? Self.pcapResolution(prefix) : Self.pcapngResolution(prefix)
        guard let file = input.makeCFile() else {
            throw CaptureError.io(path: input.name, reason: "cannot create a stream for libpcap")
        }
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let handle = pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_NANO), &errbuf) else {
            fclose(file)
            let reason = errbuf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw CaptureError.damaged(path: input.name, offset: 0, frame: 1, reason: "file header: libpcap: \(reason)")
        }
        self.handle = handle
        self.file = file
        self.linkType = pcap_datalink(handle)
        switch linkType {
        case ISO14443PseudoHeader.linkType, NFCTracePseudoHeader.linkType:
            technology = options.technology ?? .iso14443a
            if linkType == ISO14443PseudoHeader.linkType, options.technology == nil { typeRecognizer = ISO14443TypeRecognizer() }
        default:
            let name = pcap_datalink_val_to_name(linkType).map { String(cString: $0) }
            pcap_close(handle)
            throw CaptureError.unsupportedLinkType(path: input.name, linkType: Int(linkType), name: name)
        }
        metadata["link-type"] = String(linkType)
        if linkType == ISO14443PseudoHeader.linkType || options.technology != nil { metadata["tech"] = technology.rawValue }
        metadata["timebase"] = unit.rawValue
    }

    deinit {
        pcap_close(handle)   // also closes the cookie stream; the input stays with its owner
    }

    func next() throws(CaptureError) -> Frame? {
        if finished { return nil }
        let recordStart = input.position(of: file)
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        let r = pcap_next_ex(handle, &header, &data)
        switch r {
        case 1:
            guard let header, let data else { return nil }
            frameNumber += 1
            let h = header.pointee
            let caplen = Int(h.caplen)
            let record = UnsafeRawBufferPointer(start: data, count: caplen)
            var frame: Frame
            if linkType == NFCTracePseudoHeader.linkType {
                frame = NFCTracePseudoHeader.decode(record, fallback: technology)
            } else {
                frame = ISO14443PseudoHeader.decode(record, wireLength: Int(h.len), technology: technology)
                if typeRecognizer != nil { frame.technology = typeRecognizer!.technology(of: frame) }
            }
            // Classic pcap stores unsigned 32-bit seconds (1970 to 2106, as PcapWriter writes
            // them); libpcap hands them over sign-extended, so 2050 would read as 1913.
            let wholeSeconds = format == .pcap ? Int64(UInt32(truncatingIfNeeded: h.ts.tv_sec)) : Int64(h.ts.tv_sec)
            // Nanosecond precision was requested; a pcapng's 64-bit time can pass the 64-bit
            // nanosecond range, which is damage rather than a wrapped time.
            let (seconds, o1) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (ns, o2) = seconds.addingReportingOverflow(Int64(h.ts.tv_usec))
            guard !o1 && !o2 else {
                finished = true
                throw CaptureError.damaged(path: input.name, offset: recordStart, frame: frameNumber,
                                           reason: "timestamp of \(h.ts.tv_sec) s is beyond the 64-bit nanosecond range")
            }
            frame.start = unit == .microseconds ? Timestamp(ns / 1000, .microseconds) : Timestamp(ns, .nanoseconds)
            return frame
        case -2:   // PCAP_ERROR_BREAK: end of file
            finished = true
            if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
            return nil
        default:
            finished = true
            let reason = String(cString: pcap_geterr(handle))
            if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
            throw CaptureError.damaged(path: input.name, offset: recordStart, frame: frameNumber + 1, reason: "libpcap: \(reason)")
        }
    }

    /// Classic pcap: the magic says microseconds (A1B2C3D4) or nanoseconds (A1B23C4D).
    static func pcapResolution(_ p: [UInt8]) -> TimeUnit {
        guard p.count >= 4 else { return .microseconds }
        let magic = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
        return magic == 0xA1B2_3C4D || magic == 0x4D3C_B2A1 ? .nanoseconds : .microseconds
    }

    /// pcapng: the `if_tsresol` option of the first Interface Description Block (default µs).
    static func pcapngResolution(_ p: [UInt8]) -> TimeUnit {
        var c = ByteCursor(p)
        do {
            _ = try c.readUInt32LE("SHB type")
            let shbLengthRaw = try c.readUInt32LE("SHB length")
            let bom = try c.readUInt32LE("byte-order magic")
            let little = bom == 0x1A2B_3C4D
            func u32(_ v: UInt32) -> UInt32 { little ? v : v.byteSwapped }
            func u16(_ v: UInt16) -> UInt16 { little ? v : v.byteSwapped }
            let shbLength = Int(u32(shbLengthRaw))
            // Block lengths come from the file: a range is only formed once they are known to fit.
            guard shbLength <= p.count else { return .microseconds }
            c = ByteCursor(p, range: shbLength..<p.count, origin: 0)
            let type = u32(try c.readUInt32LE("block type"))
            guard type == 1 else { return .microseconds }
            let length = Int(u32(try c.readUInt32LE("IDB length")))
            guard length >= 20 else { return .microseconds }
            var idb = ByteCursor(p, range: shbLength + 16..<shbLength + length - 4, origin: 0)
            while !idb.isAtEnd {
                let code = u16(try idb.readUInt16LE("option code"))
                let len = Int(u16(try idb.readUInt16LE("option length")))
                if code == 0 { break }
                let value = try idb.readBytes(len, "option value")
                try idb.skip((4 - len % 4) % 4, "option padding")
                if code == 9, let v = value.first {
                    return v == 6 ? .microseconds : .nanoseconds
                }
            }
        } catch {
            return .microseconds
        }
        return .microseconds
    }
}
