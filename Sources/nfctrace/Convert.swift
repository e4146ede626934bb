import ArgumentParser
import NFCCapture
import NFCCore
import NFCDissect

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a trace between pcap, pcapng, nfctrace text and Proxmark3 .trace.",
        discussion: """
            The output format comes from --to or from the output file's extension (.pcap, .pcapng, \
            .nfctrace, .trace). Every frame is kept; what a format cannot carry (bit counts, parity, \
            end times in pcap) is dropped only by that format. A damaged input is converted up to \
            the damage, then reported (exit 65).

            Card data inside APDUs (card numbers but their first 6 and last 4 digits, track 2 but \
            its expiry date, the cardholder's name) is overwritten with 00 in the output, as \
            `dissect` masks it; the frame says so in a comment and a right CRC is recomputed. \
            --show-secrets writes the frames as they are.
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

    @Flag(name: .customLong("show-secrets"), help: "Write card numbers and cardholder data inside APDUs as captured (they are overwritten by default: first 6 and last 4 digits of a card number kept).")
    var showSecrets = false

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
        let masking = showSecrets ? nil : CardDataMasking()
        // Masking hands a frame out when the next one has been dissected, so the comment lines
        // that preceded a frame wait with it.
        var commentsWaiting: [[String]] = []
        var writeError: Error?
        func write(_ frame: Frame, comments: [String]) throws {
            guard let masking else {
                writer.writeComments(comments)
                return try writer.write(frame)
            }
            commentsWaiting.append(comments)
            masking.push(frame) { ready in
                guard writeError == nil else { return }
                writer.writeComments(commentsWaiting.removeFirst())
                do { try writer.write(ready) } catch { writeError = error }
            }
            if let writeError { throw writeError }
        }
        for frame in ahead { try write(frame, comments: []) }
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
                writer.writeComments(comments)
                break
            }
            try write(frame, comments: comments)
        }
        masking?.finish { ready in
            guard writeError == nil else { return }
            writer.writeComments(commentsWaiting.removeFirst())
            do { try writer.write(ready) } catch { writeError = error }
        }
        if let writeError { throw writeError }
        if let masking, masking.maskedFrames > 0 {
            CLI.warn("convert: card data masked in \(masking.maskedFrames) frame\(masking.maskedFrames == 1 ? "" : "s") (--show-secrets keeps it)")
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
