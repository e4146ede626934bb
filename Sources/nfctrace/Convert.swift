import ArgumentParser
import NFCCapture
import NFCConvert
import NFCCore

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a trace between pcap, pcapng, nfctrace text and Proxmark3 .trace.",
        discussion: """
            The output format comes from --to or from the output file's extension (.pcap, .pcapng, \
            .nfctrace, .trace). Every frame is kept; what a format cannot carry (bit counts, parity, \
            end times in pcap …) is dropped only by that format, and said: one note on stderr per \
            kind of loss, with how many frames and the first (docs/limits.md). A damaged input is \
            converted up to the damage, then reported (exit 65).

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
    var to: OutputFormat?

    @Option(help: "Timestamp resolution of pcap/pcapng output: us or ns (default: the input's).")
    var resolution: String?

    @Option(name: .customLong("pm3-times"), help: "Proxmark3 output: how times fit its 32-bit carrier counter (316.7 s): first (count from the trace's start, the earliest of its first 65,536 frames) or wrap (modulo 2^32, as the device's counter). Default: as they are, and a time outside the counter fails.")
    var pm3Times: Proxmark3Times?

    @Option(name: .customLong("link-type"), help: "pcap/pcapng link type: iso14443 (264) or nfctrace (USER3, every technology). Default: iso14443 when the frames are ISO 14443-A only or -B only, nfctrace when the trace holds another technology or mixes them (decided from the first 65,536 frames, with a note).")
    var linkType: PcapEncapsulation?

    @Flag(name: .customLong("show-secrets"), help: "Write card numbers and cardholder data inside APDUs as captured (they are overwritten by default: first 6 and last 4 digits of a card number kept).")
    var showSecrets = false

    func run() throws {
        guard let format = to?.format ?? CaptureFormat(fileExtensionOf: output) else {
            throw CLIFailure.usage("cannot tell the output format of \"\(output)\"; give --to \(CaptureFormat.writable.map(\.rawValue).joined(separator: "|"))")
        }
        let unit: TimeUnit?
        switch resolution {
        case "us"?: unit = .microseconds
        case "ns"?: unit = .nanoseconds
        case nil: unit = nil
        case let other?: throw CLIFailure.usage("--resolution takes us or ns, not \"\(other)\"")
        }
        try OutputCheck.refuseOverwriting(output, inputs: [input])
        let options = ConversionOptions(format: format, read: inputOptions.readOptions, resolution: unit, linkType: linkType,
                                        proxmark3Times: pm3Times, showSecrets: showSecrets)
        let result: ConversionResult
        do {
            result = try Conversion.run(input: input, output: output, options: options)
        } catch let error as ConversionUsageError {
            throw CLIFailure.usage(error.description)
        }
        for remark in result.remarks { CLI.warn("convert: \(remark)") }
        // One note per kind of loss (docs/limits.md, "What each format cannot carry").
        for note in result.notes { CLI.warn("convert: note: \(note)") }
        if result.maskedFrames > 0 {
            CLI.warn("convert: card data masked in \(result.maskedFrames) frame\(result.maskedFrames == 1 ? "" : "s") (--show-secrets keeps it)")
        }
        if let damage = result.damage { throw damage }
    }
}

/// `--to`: a format nfctrace writes. A Proxmark3 listing is read only: it is not offered, and
/// asked for it is a usage error that says so (`Conversion.check`).
struct OutputFormat: ExpressibleByArgument {
    var format: CaptureFormat
    init?(argument: String) {
        guard let f = CaptureFormat(name: argument) else { return nil }
        format = f
    }
    static var allValueStrings: [String] { CaptureFormat.writable.map(\.rawValue) }
}

extension Proxmark3Times: ExpressibleByArgument {}
