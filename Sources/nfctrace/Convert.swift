import ArgumentParser
import NFCCapture
import NFCCore

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a trace between pcap, pcapng, nfctrace text and Proxmark3 .trace.",
        discussion: """
            The output format comes from --to or from the output file's extension (.pcap, .pcapng, \
            .nfctrace, .trace). Every frame is kept; what a format cannot carry (bit counts, parity, \
            end times in pcap) is dropped only by that format. A damaged input is converted up to \
            the damage, then reported (exit 65).
            """
    )

    @Argument(help: "Input capture, or - for standard input.")
    var input: String

    @Argument(help: "Output file, or - for standard output (then --to is required).")
    var output: String

    @OptionGroup var inputOptions: InputOptions

    @Option(help: "Output format (pcap, pcapng, nfctrace, pm3, nfclab).")
    var to: CaptureFormat?

    @Option(help: "Timestamp resolution of pcap/pcapng output: us or ns (default: the input's).")
    var resolution: String?

    @Option(name: .customLong("pm3-times"), help: "Proxmark3 output: how times fit its 32-bit carrier counter (316.7 s): first (count from the first frame) or wrap (modulo 2^32, as the device's counter). Default: as they are, and a time outside the counter fails.")
    var pm3Times: Proxmark3Times?

    @Option(name: .customLong("link-type"), help: "pcap/pcapng link type: iso14443 (264) or nfctrace (USER3, every technology). Default: iso14443 when the frames are ISO 14443-A only or -B only, nfctrace when the trace holds another technology or mixes them (decided from the first 65,536 frames, with a note).")
    var linkType: PcapEncapsulation?

    func run() throws {
        guard let format = to ?? CaptureFormat(fileExtensionOf: output) else {
            throw CLIFailure.usage("cannot tell the output format of \"\(output)\"; give --to pcap|pcapng|nfctrace|pm3")
        }
        try OutputCheck.refuseOverwriting(output, inputs: [input])
        let reader = try Capture.open(input, options: inputOptions.readOptions)
        let unit: TimeUnit
        switch resolution {
        case "us"?: unit = .microseconds
        case "ns"?: unit = .nanoseconds
        case nil:
            let inputUnit = reader.metadata["timebase"].flatMap { TimeUnit(rawValue: $0) } ?? .microseconds
            unit = inputUnit == .microseconds ? .microseconds : .nanoseconds
        case let other?:
            throw CLIFailure.usage("--resolution takes us or ns, not \"\(other)\"")
        }
        // pcap holds one link type: without --link-type, look at the first frames before choosing.
        var ahead: [Frame] = []
        var aheadDamage: CaptureError? = nil
        var encapsulation = linkType
        if encapsulation == nil, format == .pcap || format == .pcapng {
            var technologies = Set<Technology>()
            do {
                while ahead.count < Self.lookAhead, let f = try reader.next() {
                    if case .data = f.event { technologies.insert(f.technology) }
                    ahead.append(f)
                }
            } catch {
                aheadDamage = error
            }
            if technologies.count > 1 || technologies.contains(where: { $0 != .iso14443a && $0 != .iso14443b }) {
                encapsulation = .nfctrace
                if technologies.count > 1 {
                    let names = technologies.map(\.displayName).sorted().joined(separator: ", ")
                    CLI.warn("convert: the trace holds \(names): written with nfctrace's LINKTYPE_USER3 encapsulation (LINKTYPE_ISO_14443 carries ISO 14443 only); --link-type says otherwise")
                }
            } else if !technologies.isEmpty {
                encapsulation = .iso14443
            }
        }
        let writer = try Capture.create(output, format: format, metadata: reader.metadata, resolution: unit, encapsulation: encapsulation,
                                        proxmark3Times: pm3Times ?? .absolute)
        if pm3Times != nil && format != .proxmark3 { throw CLIFailure.usage("--pm3-times applies to Proxmark3 output only") }
        // Damage in the input ends the conversion with the frames before it written (then exit 65);
        // a frame the output cannot hold fails it, and the old output stays as it was.
        var damage: CaptureError? = aheadDamage
        for frame in ahead { try writer.write(frame) }
        while damage == nil {
            let frame: Frame?
            do {
                frame = try reader.next()
            } catch {
                damage = error
                break
            }
            writer.writeComments(reader.takeComments())
            guard let frame else { break }
            try writer.write(frame)
        }
        try writer.finish()
        if let damage { throw damage }
    }
}

extension Convert {
    /// Frames read before the pcap link type is chosen (memory stays bounded).
    static let lookAhead = 65_536
}

extension Proxmark3Times: ExpressibleByArgument {}
