import NFCCapture
import NFCCore
import NFCDissect

/// What `nfctrace convert` is asked to do besides reading and writing.
public struct ConversionOptions: Sendable {
    /// The output format.
    public var format: CaptureFormat
    /// How to read the input (format, technology).
    public var read: CaptureReadOptions
    /// pcap/pcapng time resolution; nil keeps the input's (µs stays µs, anything finer is ns).
    public var resolution: TimeUnit?
    /// pcap/pcapng link type; nil chooses from the first frames (`Conversion.lookAhead`).
    public var linkType: PcapEncapsulation?
    /// How times go into a Proxmark3 trace; nil is `.absolute`, and any other format refuses it.
    public var proxmark3Times: Proxmark3Times?
    /// Writes card data as captured instead of masking it.
    public var showSecrets: Bool

    public init(format: CaptureFormat, read: CaptureReadOptions = CaptureReadOptions(), resolution: TimeUnit? = nil,
                linkType: PcapEncapsulation? = nil, proxmark3Times: Proxmark3Times? = nil, showSecrets: Bool = false) {
        self.format = format
        self.read = read
        self.resolution = resolution
        self.linkType = linkType
        self.proxmark3Times = proxmark3Times
        self.showSecrets = showSecrets
    }
}

/// What a conversion did.
public struct ConversionResult: Sendable {
    /// Frames read and handed to the writer.
    public var frames = 0
    /// What the output could not carry, one entry per kind, with how many frames and the first
    /// (docs/limits.md, "What each format cannot carry").
    public var notes: [FrameLoss] = []
    /// What the conversion chose for the user (the pcap link type of a mixed trace).
    public var remarks: [String] = []
    /// Frames whose card data was masked (`CardDataMasking`).
    public var maskedFrames = 0
    /// The input's damage: the frames before it were converted and the output written.
    public var damage: CaptureError?
}

/// Options that do not go together; the CLI reports them as usage errors.
public struct ConversionUsageError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// `nfctrace convert`: reads frames, chooses what the output needs from the first of them (the
/// pcap link type, the origin of `--pm3-times first`), masks card data unless asked not to,
/// writes, and says what the output lost. A damaged input is converted up to the damage; a
/// frame the output cannot hold fails the conversion and the old output stays as it was.
public enum Conversion {
    /// Frames read before the pcap link type or the Proxmark3 origin is chosen (memory stays
    /// bounded).
    public static let lookAhead = 65_536

    /// Converts the capture at `input` (`-` for standard input) into `output` (`-` for
    /// standard output).
    public static func run(input: String, output: String, options: ConversionOptions) throws -> ConversionResult {
        try check(options)
        return try run(reader: Capture.open(input, options: options.read), output: output, options: options)
    }

    /// Converts what `reader` delivers into `output`.
    public static func run(reader: FrameReader, output: String, options: ConversionOptions) throws -> ConversionResult {
        try check(options)
        var result = ConversionResult()
        let unit = options.resolution ?? (reader.metadata["timebase"].flatMap(TimeUnit.init(rawValue:)) == .microseconds ? .microseconds : .nanoseconds)
        let times = options.proxmark3Times ?? .absolute
        // pcap holds one link type and `--pm3-times first` one origin: look at the first frames.
        var ahead = LookAhead()
        let pcap = options.format == .pcap || options.format == .pcapng
        if (pcap && options.linkType == nil) || (options.format == .proxmark3 && times == .first) {
            ahead.read(reader, limit: lookAhead)
        }
        var encapsulation = options.linkType
        if pcap, encapsulation == nil {
            encapsulation = ahead.encapsulation
            if ahead.technologies.count > 1 {
                let names = ahead.technologies.map(\.displayName).sorted().joined(separator: ", ")
                result.remarks.append("the trace holds \(names): written with nfctrace's LINKTYPE_USER3 encapsulation (LINKTYPE_ISO_14443 carries ISO 14443 only); --link-type says otherwise")
            }
        }
        let writer = try Capture.create(output, format: options.format, metadata: reader.metadata, resolution: unit,
                                        encapsulation: encapsulation, proxmark3Times: times, proxmark3Origin: ahead.earliest)
        let pipe = Pipe(writer: writer, masking: options.showSecrets ? nil : CardDataMasking())
        for (frame, comments) in ahead.frames { try pipe.write(frame, comments: comments) }
        result.frames = ahead.frames.count
        var damage = ahead.damage
        while damage == nil {
            let frame: Frame?
            do {
                frame = try reader.next()
            } catch {
                damage = error
                break
            }
            let comments = reader.takeComments()
            guard let frame else {
                try pipe.finish(trailing: comments)
                break
            }
            result.frames += 1
            try pipe.write(frame, comments: comments)
        }
        if damage != nil { try pipe.finish(trailing: []) }
        try writer.finish()
        result.notes = writer.losses
        result.maskedFrames = pipe.masking?.maskedFrames ?? 0
        result.damage = damage
        return result
    }

    static func check(_ options: ConversionOptions) throws {
        if options.format == .proxmark3Listing {
            throw ConversionUsageError(description: "nfctrace reads Proxmark3 listings but does not write them; --to pm3 writes the .trace the Proxmark3 client lists")
        }
        if options.proxmark3Times != nil, options.format != .proxmark3 {
            throw ConversionUsageError(description: "--pm3-times applies to Proxmark3 output only")
        }
        if options.linkType != nil, options.format != .pcap, options.format != .pcapng {
            throw ConversionUsageError(description: "--link-type applies to pcap and pcapng output only")
        }
    }
}

/// The first frames of a trace, read before the writer is made, and what they tell.
struct LookAhead {
    var frames: [(Frame, [String])] = []
    var damage: CaptureError?
    var technologies = Set<Technology>()
    /// The earliest start among them: where `--pm3-times first` counts from, so that a frame
    /// a little before the first (a device's clock going back) still fits.
    var earliest: Timestamp?

    mutating func read(_ reader: FrameReader, limit: Int) {
        do {
            while frames.count < limit, let f = try reader.next() {
                if case .data = f.event { technologies.insert(f.technology) }
                if let s = f.start, earliest.map({ s.nanoseconds < $0.nanoseconds }) ?? true { earliest = s }
                frames.append((f, reader.takeComments()))
            }
        } catch {
            damage = error
        }
    }

    /// LINKTYPE_ISO_14443 for ISO 14443-A only or -B only, nfctrace's USER3 for anything else;
    /// nil without data frames (the writer then goes by the first frame).
    var encapsulation: PcapEncapsulation? {
        if technologies.isEmpty { return nil }
        return technologies.count == 1 && (technologies.contains(.iso14443a) || technologies.contains(.iso14443b)) ? .iso14443 : .nfctrace
    }
}

/// Frames on their way to the writer through card-data masking, which hands a frame out when
/// the next one has been dissected: the comment lines that preceded a frame wait with it.
final class Pipe {
    let writer: FrameWriter
    let masking: CardDataMasking?
    private var waiting: [[String]] = []
    private var error: Error?

    init(writer: FrameWriter, masking: CardDataMasking?) {
        self.writer = writer
        self.masking = masking
    }

    func write(_ frame: Frame, comments: [String]) throws {
        guard let masking else {
            writer.writeComments(comments)
            return try writer.write(frame)
        }
        waiting.append(comments)
        masking.push(frame) { hand($0) }
        if let error { throw error }
    }

    /// Hands out the frame masking still holds, then the comment lines after the last frame.
    func finish(trailing: [String]) throws {
        masking?.finish { hand($0) }
        if let error { throw error }
        writer.writeComments(trailing)
    }

    private func hand(_ ready: Frame) {
        guard error == nil else { return }
        writer.writeComments(waiting.isEmpty ? [] : waiting.removeFirst())
        do { try writer.write(ready) } catch { self.error = error }
    }
}
