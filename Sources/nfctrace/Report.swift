import ArgumentParser
import NFCCapture
import NFCCore
import NFCDissect
import NFCReport

/// `nfctrace report`: traces as one self-contained HTML file (docs/report.md).
struct Report: TakesValueLists {
    static let configuration = CommandConfiguration(
        abstract: "Write one self-contained HTML file to look at traces: sessions, timeline, frames, fields and bytes, tag memory.",
        discussion: """
            Each trace gets a tab: its tag sessions, a timeline on a real time axis (wheel to zoom, drag to pan), \
            the frame list (the columns of nfctrace dissect), the selected frame's field tree beside its bytes \
            (select a field to highlight its bytes, or a byte to find its field), and the tag memory each session \
            rebuilt. Keys: j/k or the arrow keys move through the frames, / filters (text, or a field key such as \
            ntag.command == READ, or crc.bad). The file needs no network and opens from disk or as a CI artifact. \
            Card numbers and keys are masked as in nfctrace dissect unless --show-secrets / --show-keys.

            Frames past --detail-limit keep their row and timeline mark but not their field tree, and sessions \
            that start past it keep their summary line but not their tag and memory trees: a million-frame trace \
            makes a report of 90–105 MB (docs/limits.md). A report takes at most --frame-limit frames from all \
            its traces together (1,000,000).

            Exit codes: 0 written, 65 a trace is damaged or the frame limit was reached (the report holds the \
            frames before), \
            2 usage error, 74 I/O error.
            """
    )

    @Argument(help: "Captures to show (one tab each), or - for standard input.")
    var files: [String] = ["-"]

    @Option(name: [.customShort("o"), .customLong("output")], help: "The HTML file to write, or - for standard output.")
    var output: String = "report.html"

    @Option(help: "The page title (default: the trace's file name, or the number of traces).")
    var title: String?

    @Option(name: .customLong("detail-limit"), help: "Frames per trace whose field tree the report holds.")
    var detailLimit: Int = Self.defaultDetailLimit

    static let defaultDetailLimit = 50_000

    @Option(name: .customLong("frame-limit"), help: "Frames the report takes from all its traces together; reading stops there (exit 65). At most and by default \(InputLimit.reportFrames).")
    var frameLimit: Int = InputLimit.reportFrames

    @OptionGroup var input: InputOptions
    @OptionGroup var keyOptions: KeyOptions

    @Flag(name: .customLong("show-keys"), help: "Show MIFARE Classic keys recovered from the trace whole (masked by default).")
    var showKeys = false

    @Flag(name: .customLong("show-secrets"), help: "Show card numbers and cardholder data inside APDUs whole (masked by default).")
    var showSecrets = false

    mutating func validate() throws { files = CommandLinePrepass.expand(files) }

    func run() throws {
        guard files.filter({ $0 == "-" }).count <= 1 else { throw CLIFailure.usage("standard input (-) can be read once") }
        guard detailLimit >= 0 else { throw CLIFailure.usage("--detail-limit must be 0 or more") }
        guard (1...InputLimit.reportFrames).contains(frameLimit) else { throw CLIFailure.usage("--frame-limit must be 1 to \(InputLimit.reportFrames)") }
        try OutputCheck.refuseOverwriting(output, inputs: files)
        var keys = try keyOptions.load()
        keys.revealRecovered = showKeys
        keys.revealCardData = showSecrets
        let names = files.map { $0 == "-" ? "<stdin>" : FileSystem.baseName($0) }
        var report = HTMLReport(title: title ?? (names.count == 1 ? names[0] : "\(names.count) traces"))
        var damage: Error? = nil
        var frameBudget = frameLimit
        for (file, name) in zip(files, names) where frameBudget > 0 {
            let (trace, error) = try Self.trace(file, name: name, input: input, keys: keys, detailLimit: detailLimit, frameBudget: &frameBudget, frameLimit: frameLimit)
            report.traces.append(trace)
            if damage == nil { damage = error }
        }
        let out = try ByteOutput.create(output)
        try report.write { out.write($0) }
        try out.finish()
        if let damage { throw damage }
    }

    /// One trace dissected for a report (also `replay --format html`'s tabs); damage ends it
    /// with the frames before it and comes back beside it, for the caller to report at the end.
    /// `frameBudget`: frames the report can still take (`--frame-limit`, at most
    /// `InputLimit.reportFrames`, over all its traces); a trace past it ends there, as at damage,
    /// with a `tooLarge` error.
    static func trace(_ file: String, name: String, input: InputOptions, keys: KeyList,
                      detailLimit: Int, frameBudget: inout Int, frameLimit: Int = InputLimit.reportFrames) throws -> (HTMLReport.Trace, damage: Error?) {
        let reader = try Capture.open(file, options: input.readOptions)
        let source = file == "-" ? "<stdin>" : file
        var left = frameBudget
        defer { frameBudget = max(0, left) }
        return HTMLReport.Trace.dissecting({
            guard let frame = try reader.next() else { return nil }
            guard left > 0 else {
                throw CaptureError.tooLarge(path: source, what: "the frames of one report (--frame-limit)", limit: "\(frameLimit) frames")
            }
            left -= 1
            return frame
        }, name: name, source: source, keys: keys, detailLimit: detailLimit)
    }
}
