import ArgumentParser
import NFCCapture
import NFCCore
import NFCDissect

struct Dissect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Annotate every frame of a trace and summarise each tag session.",
        discussion: """
            One line per frame by default: number, time since the first frame (µs), source, bytes \
            (16 per line, ! after a parity error, (n) after a short last byte), CRC check, annotation. \
            -V prints the full field tree with byte ranges; --format json prints one JSON object per \
            frame and per tag session (docs/json-output.md).

            A damaged file is dissected up to the damage, then reported with its byte offset (exit 65).

            --list-fields [PROTOCOL] prints the field keys instead (as tshark -G fields does): a P \
            line per protocol (title, prefix) and an F line per field (label, key, value kind, \
            protocol, where its codec places it), tab-separated; with --format json one object per \
            field. Replay rules name these keys.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum FailLevel: String, ExpressibleByArgument, CaseIterable { case warning, error }

    @Argument(help: "Capture to read, or - for standard input. With --list-fields: a protocol prefix (ntag, mfc, felica …).")
    var file: String = "-"

    @OptionGroup var input: InputOptions

    @Flag(name: [.customShort("V"), .long], help: "Print every field with its byte range.")
    var verbose = false

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Colour: auto (terminal and no NO_COLOR), always, never.")
    var color: ColorMode = .auto

    @Option(name: .customLong("fail-on"), help: "Exit 1 when a frame has a diagnostic of this severity or worse (warning, error).")
    var failOn: FailLevel?

    @OptionGroup var keyOptions: KeyOptions

    @Flag(name: .customLong("show-keys"), help: "Print MIFARE Classic keys recovered from the trace whole (they are masked by default: keys you were not given are secrets).")
    var showKeys = false

    @Flag(name: .customLong("list-fields"), help: "List the field keys dissections carry (of one protocol if one is named) and exit.")
    var listFields = false

    @Flag(name: .customLong("show-secrets"), help: "Print card numbers and cardholder data inside APDUs whole (masked by default: first 6 and last 4 digits of a card number).")
    var showSecrets = false

    func run() throws {
        if listFields {
            let name = file == "-" ? nil : file
            let tables = FieldListing.tables(named: name)
            if let name, tables.isEmpty {
                let names = FieldRegistry.tables.map(\.name).sorted().joined(separator: ", ")
                throw CLIFailure.usage("no protocol \"\(PrintableText.forTerminal(name))\" (\(names))")
            }
            let out = ByteOutput.standardOutput()
            out.write(Array(FieldListing.render(tables, format: format == .json ? .json : .text).utf8))
            try out.finish()
            return
        }
        let reader = try Capture.open(file, options: input.readOptions)
        let out = ByteOutput.standardOutput()
        let detail: DissectionDetail = verbose || format == .json ? .full : .summary
        var keys = try keyOptions.load()
        keys.revealRecovered = showKeys
        keys.revealCardData = showSecrets
        let dissector = Dissector(detail: detail, keys: keys)
        let render: (consuming PendingEvent, inout [UInt8]) -> Void
        switch format {
        case .json:
            let renderer = JSONRenderer()
            render = { renderer.render(pending: $0, into: &$1) }
        case .text:
            let renderer = TextRenderer(verbose: verbose, color: CLI.useColor(color, output: out))
            out.write(renderer.header())
            render = { renderer.render(pending: $0, into: &$1) }
        }
        // The renderer and the output belong to the rendering thread until run returns.
        var worst: Diagnostic.Severity? = nil
        var damage: Error? = nil
        do {
            worst = try PipelinedDissection.run(dissector, frames: { try reader.next() }) { events in
                out.withBuffer { buffer in
                    // Moved out of the batch, not copied.
                    PipelinedDissection.drain(&events) { render($0, &buffer) }
                }
            }
        } catch {
            damage = error
        }
        try out.finish()
        if let damage { throw damage }
        if let level = failOn, let worst {
            let threshold: Diagnostic.Severity = level == .warning ? .warning : .error
            if worst >= threshold { throw CLIFailure.findings("diagnostics of severity \(worst.rawValue) found") }
        }
    }
}
