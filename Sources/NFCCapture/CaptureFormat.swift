import NFCCore

/// The trace file formats nfctrace reads and writes.
public enum CaptureFormat: String, Sendable, CaseIterable {
    case pcap
    case pcapng
    /// The native line-oriented text trace (docs/trace-format.md).
    case nfctrace
    /// Proxmark3 tracelog (`trace save`), no header.
    case proxmark3 = "pm3"
    /// nfc-laboratory's JSON frame export.
    case nfcLaboratory = "nfclab"
    /// The Proxmark3 client's `trace list` table, pasted into a file (read only).
    case proxmark3Listing = "pm3list"

    /// The formats nfctrace writes (a Proxmark3 listing is read only).
    public static let writable: [CaptureFormat] = allCases.filter { $0 != .proxmark3Listing }

    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "pcap": self = .pcap
        case "pcapng": self = .pcapng
        case "nfctrace", "text", "txt": self = .nfctrace
        case "pm3", "trace", "proxmark3", "proxmark": self = .proxmark3
        case "nfclab", "nfc-laboratory", "nfclaboratory": self = .nfcLaboratory
        case "pm3list", "pm3-list", "listing", "trace-list": self = .proxmark3Listing
        default: return nil
        }
    }

    /// The format an output file name asks for by its extension.
    public init?(fileExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...]
        switch ext.lowercased() {
        case "pcap", "cap": self = .pcap
        case "pcapng": self = .pcapng
        // Not .txt: Proxmark3 listings and other tools' logs are .txt too; --to says it.
        case "nfctrace": self = .nfctrace
        case "trace": self = .proxmark3
        default: return nil
        }
    }

    /// Detects the format of a capture from its first bytes (up to 64 KiB; fewer when the file
    /// is shorter). `complete` tells whether `prefix` is the whole file.
    public static func detect(_ prefix: ArraySlice<UInt8>, complete: Bool) -> CaptureFormat? {
        let p = Array(prefix)
        if p.count >= 4 {
            let magic = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
            switch magic {
            case 0xA1B2_C3D4, 0xD4C3_B2A1, 0xA1B2_3C4D, 0x4D3C_B2A1: return .pcap
            case 0x0A0D_0D0A: return .pcapng
            default: break
            }
        }
        if TextTraceSyntax.looksLikeTextTrace(p) { return .nfctrace }
        if NFCLaboratory.looksLikeExport(p) { return .nfcLaboratory }
        if Proxmark3Trace.looksLikeTrace(p, complete: complete) { return .proxmark3 }
        // After the binary trace: a listing is text, which no .trace's records split into.
        if Proxmark3Listing.looksLikeListing(p) { return .proxmark3Listing }
        return nil
    }
}

/// Reads frames one at a time from a capture. Memory does not grow with the capture's length.
public protocol FrameReader: AnyObject {
    var format: CaptureFormat { get }
    /// What the file says about itself (text header, link type, time resolution …).
    var metadata: TraceMetadata { get }
    /// The next frame, or nil at the end. After damage it throws `CaptureError.damaged`,
    /// having first delivered every frame before the damage.
    func next() throws(CaptureError) -> Frame?
    /// Comment lines of the file (`# …` in a text trace) read since the last call: after
    /// `next()` returned a frame, those that stood before it; after the end, the trailing ones.
    func takeComments() -> [String]
}

extension FrameReader {
    public func takeComments() -> [String] { [] }
}

/// Options that the user can give for inputs whose format cannot say everything.
public struct CaptureReadOptions: Sendable {
    /// Forces the input format instead of detecting it.
    public var format: CaptureFormat?
    /// Technology of frames whose format does not say (Proxmark3 traces, pcap 264 type A vs B).
    public var technology: Technology?

    public init(format: CaptureFormat? = nil, technology: Technology? = nil) {
        self.format = format
        self.technology = technology
    }
}

public enum Capture {
    /// Opens a capture (`-` for standard input) and picks its reader by content.
    public static func open(_ path: String, options: CaptureReadOptions = CaptureReadOptions()) throws(CaptureError) -> FrameReader {
        try open(ByteInput.open(path), options: options)
    }

    public static func open(_ input: ByteInput, options: CaptureReadOptions = CaptureReadOptions()) throws(CaptureError) -> FrameReader {
        let prefix = input.peek(1 << 16)
        if let e = input.ioError { throw CaptureError.io(path: input.name, reason: e) }
        if prefix.isEmpty { throw CaptureError.empty(path: input.name) }
        let complete = prefix.count < 1 << 16
        guard let format = options.format ?? CaptureFormat.detect(prefix, complete: complete) else {
            throw CaptureError.unrecognized(path: input.name, detail: describeUnknown(prefix))
        }
        switch format {
        case .pcapng where PcapngBlockReader.needed(Array(prefix)):
            // Interfaces of different link types (NFCGate): libpcap refuses them.
            return PcapngBlockReader(input: input, options: options)
        case .pcap, .pcapng: return try PcapReader(input: input, format: format, options: options)
        case .nfctrace: return try TextTraceReader(input: input, options: options)
        case .proxmark3: return Proxmark3TraceReader(input: input, technology: options.technology ?? .iso14443a)
        case .nfcLaboratory: return try NFCLaboratoryReader(input: input)
        case .proxmark3Listing: return Proxmark3ListingReader(input: input, options: options)
        }
    }

    static func describeUnknown(_ prefix: ArraySlice<UInt8>) -> String {
        if looksLikeLFSamples(prefix) {
            return "a Proxmark3 LF sample file (.pm3: one signal sample per line); LF signals are not frames, nfctrace reads and dissects HF traces only"
        }
        let head = Array(prefix.prefix(8))
        let printable = head.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable {
            let text = String(decoding: prefix.prefix(24).prefix { $0 != 0x0A }, as: UTF8.self)
            return "text starting \"\(text)\""
        }
        return "starts with bytes \(Hex.string(head))"
    }
}

extension Capture {
    /// The Proxmark3's `data save` of an LF (or HF) signal: a decimal sample (−128…255) per line,
    /// hundreds of them. Checked on the lines the prefix holds whole.
    static func looksLikeLFSamples(_ prefix: ArraySlice<UInt8>) -> Bool {
        var lines = prefix.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.count > 1 { lines.removeLast() }   // maybe cut
        let samples = lines.map { $0.last == 0x0D ? $0.dropLast() : $0 }.filter { !$0.isEmpty }
        guard samples.count >= 32 else { return false }
        return samples.allSatisfy { line in
            let digits = line.first == UInt8(ascii: "-") ? line.dropFirst() : line
            guard (1...3).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
                  let v = Int(String(decoding: digits, as: UTF8.self)) else { return false }
            return v <= (line.first == UInt8(ascii: "-") ? 128 : 255)
        }
    }
}

extension Capture {
    /// Creates a writer for `format` at `path` (`-` for standard output). `metadata` goes into
    /// formats that carry it (the text header; the others count it among their losses);
    /// `resolution` picks pcap/pcapng time resolution; `proxmark3Origin` is the time
    /// `--pm3-times first` counts from (default: the first frame's).
    public static func create(_ path: String, format: CaptureFormat, metadata: TraceMetadata = TraceMetadata(),
                              resolution: TimeUnit = .microseconds, encapsulation: PcapEncapsulation? = nil,
                              proxmark3Times: Proxmark3Times = .absolute, proxmark3Origin: Timestamp? = nil) throws(CaptureError) -> FrameWriter {
        switch format {
        case .pcap: return try PcapWriter(path: path, resolution: resolution, encapsulation: encapsulation, metadata: metadata)
        case .pcapng: return PcapngWriter(output: try ByteOutput.create(path), resolution: resolution, encapsulation: encapsulation, metadata: metadata)
        case .nfctrace: return TextTraceWriter(output: try ByteOutput.create(path), metadata: metadata)
        case .proxmark3:
            return Proxmark3TraceWriter(output: try ByteOutput.create(path), times: proxmark3Times, origin: proxmark3Origin, metadata: metadata)
        case .nfcLaboratory: return NFCLaboratoryWriter(output: try ByteOutput.create(path), metadata: metadata)
        case .proxmark3Listing: throw CaptureError.cannotOpen(path: path, reason: "nfctrace reads Proxmark3 listings but does not write them; --to pm3 writes the .trace the Proxmark3 client lists")
        }
    }
}
