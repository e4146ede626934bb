import ArgumentParser
import NFCCapture
import NFCCore
import NFCEmulator
import NFCReplay
import NFCReport
import NFCReaders

struct Replay: TakesValueLists {
    static let configuration = CommandConfiguration(
        abstract: "Replay traces against a target and report the first divergence of each.",
        discussion: """
            Each recorded reader frame is sent to the target in order (field off and re-activation too) \
            and its answer compared with the recorded one: byte for byte, or field by field under the \
            rules of --rules and of a NAME.rules file beside each trace (docs/replay.md).

            Targets: emulator (the tag rebuilt from each trace itself), emulator:DUMP (a tag loaded \
            from a Flipper .nfc, Proxmark3 JSON or .bin dump), emulator:model:NAME (a built-in tag, \
            see emulate --list-models), udp:HOST:PORT (a tag served over nfcpy's UDP protocol, e.g. \
            by nfctrace emulate), libnfc[:CONNSTRING] (a reader libnfc drives, e.g. \
            libnfc:pn532_uart:/dev/ttyUSB0), pcsc[:READER] (a card on a PC/SC reader, READER a part of \
            its name; nfctrace readers lists both kinds).

            Through a PC/SC reader the card is activated by the reader and ISO-DEP blocks are its \
            business: those exchanges are taken as recorded, and each APDU is compared whole. A frame \
            a reader cannot send (a PWD_AUTH without direct transmit, an encrypted MIFARE Classic \
            frame) is listed before anything is sent, and that trace is skipped.

            --record writes what the target answered as a new trace: how to record a tag you own \
            through any libnfc or PC/SC reader. A replay that stops early keeps what was recorded.

            Exit codes: 0 all traces passed, 1 a divergence or a trace the target cannot express, 65 \
            an unreadable trace (the others still run), 74 the target failed (a reader unplugged, \
            pcscd stopped: the report and the recording so far are kept).
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json, junit, html }

    @Argument(help: "Traces to replay (any format nfctrace reads).")
    var traces: [String]

    @Option(help: "Target: emulator, emulator:DUMP, emulator:model:NAME, udp:HOST:PORT, libnfc[:CONNSTRING] (a reader through libnfc), pcsc[:READER] (a PC/SC reader).")
    var against = "emulator"

    @Option(help: "Record what the target answered as a new trace (.nfctrace, .pcap or .pcapng); one trace only.")
    var record: String?

    @Option(help: "A rules file (ignore KEY / substitute KEY lines).")
    var rules: String?

    @Option(help: "Report format: text, json (one object per trace), junit (JUnit XML), html (verdicts and divergences side by side, then each trace as nfctrace report shows it).")
    var format: OutputFormat = .text

    @Option(name: .shortAndLong, help: "Write the report here instead of standard output.")
    var output = "-"

    @Option(help: "Milliseconds a udp target has to answer before it counts as silent.")
    var timeout: Int32 = 100

    @OptionGroup var keyOptions: KeyOptions

    @OptionGroup var inputOptions: InputOptions

    mutating func validate() throws { traces = CommandLinePrepass.expand(traces) }

    func run() throws {
        guard !traces.isEmpty else { throw CLIFailure.usage("give at least one trace") }
        try OutputCheck.refuseOverwriting(output, inputs: traces + [rules, dumpPath], option: "--output")
        if let record {
            guard traces.count == 1 else { throw CLIFailure.usage("--record takes one trace at a time") }
            try OutputCheck.refuseOverwriting(record, inputs: traces + [rules, dumpPath, output == "-" ? nil : output], option: "--record")
        }
        let extraRules = try rules.map { try Self.loadRules($0) } ?? ReplayRules()
        // The target's tag is resolved once, before any trace: a missing (74) or malformed (65)
        // dump, or an unknown model (2), is the target's fault, named as such, not each trace's.
        let keys = try keyOptions.load()
        let dump = try TagSource(replayTarget: against)?.resolve(keys: keys).dump
        let out = try ByteOutput.create(output)
        var results: [ReplayResult] = []
        let recording = try record.map { try Recording(path: $0, target: against) }
        for trace in traces {
            results.append(try replay(trace, extraRules: extraRules, dump: dump, keys: keys, recording: recording))
        }
        // Whatever happened, what was recorded is kept; the report is written even when that fails.
        var recordingFailure: Error? = nil
        do { try recording?.finish() } catch { recordingFailure = error }
        switch format {
        case .text: out.write(PrintableText.forTerminal(ReplayReport.text(results), keepingLines: true))   // trace names, reasons
        case .json: out.write(ReplayReport.json(results))
        case .junit: out.write(ReplayReport.junit(results))
        case .html:
            // The verdicts first, then each trace as `nfctrace report` shows it.
            var report = HTMLReport(title: "nfctrace replay against \(against)")
            report.replay = Array(("[" + results.map { ReplayReport.object($0, frames: true) }.joined(separator: ",") + "]").utf8)
            var frameBudget = InputLimit.reportFrames
            for trace in traces where frameBudget > 0 {
                let name = trace == "-" ? "<stdin>" : FileSystem.baseName(trace)
                if let (shown, _) = try? Report.trace(trace, name: name, input: inputOptions, keys: keys, detailLimit: Report.defaultDetailLimit,
                                                      frameBudget: &frameBudget) {
                    report.traces.append(shown)
                }
            }
            try report.write { out.write($0) }
        }
        try out.finish()
        if let recordingFailure { throw recordingFailure }
        if results.contains(where: {
            switch $0.outcome {
            case .unreadable, .noTarget: return true
            default: return false
            }
        }) {
            throw CLIFailure(message: "unreadable trace(s); see the report", code: .dataError)
        }
        if results.contains(where: { if case .targetFailed = $0.outcome { return true } else { return false } }) {
            throw CLIFailure(message: "the target failed; see the report", code: .ioError)
        }
        if results.contains(where: { if case .diverged = $0.outcome { return true } else { return false } }) {
            throw CLIFailure.findings("divergence(s); see the report")
        }
        if !results.allSatisfy(\.passed) { throw CLIFailure.findings("trace(s) the target cannot express; see the report") }
    }

    /// The dump file of an `emulator:DUMP` target.
    var dumpPath: String? {
        if case .dump(let path)? = TagSource(replayTarget: against) { return path }
        return nil
    }

    func replay(_ trace: String, extraRules: ReplayRules, dump: TagDump?, keys: KeyList, recording: Recording?) throws -> ReplayResult {
        let unreadable = { (why: String) in
            ReplayResult(trace: trace, target: against, outcome: .unreadable(why), exchanges: 0, fieldCycles: 0, accepted: [:], seconds: 0)
        }
        let reader: FrameReader
        do {
            reader = try Capture.open(trace, options: inputOptions.readOptions)
        } catch {
            return unreadable(error.description)
        }
        var rules = extraRules
        let base = trace.hasSuffix(".nfctrace") ? String(trace.dropLast(9)) : (trace.hasSuffix(".pcap") ? String(trace.dropLast(5)) : trace)
        if let beside = try? Self.loadRules(base + ".rules") { rules = beside + rules }
        if against == "emulator" {
            return try replayAgainstItsOwnTag(trace, reader: reader, rules: rules, keys: keys, recording: recording, unreadable: unreadable)
        }
        let target: ReplayTarget
        do {
            target = try makeTarget(for: trace, dump: dump)
        } catch let f as CLIFailure where f.code == .dataError {
            return ReplayResult(trace: trace, target: against, outcome: .noTarget(f.message), exchanges: 0, fieldCycles: 0, accepted: [:], seconds: 0)
        } catch let e as CaptureError {
            return unreadable(e.description)
        }
        var next: () throws -> Frame? = { try reader.next() }
        var clearView = ClassicClearView()
        if isReader {
            // A reader cannot send every frame: find those it cannot before sending any. The frames
            // are held (up to InputLimit.heldFrames; a longer file is read again for each pass, a
            // longer standard input is refused), and a MIFARE Classic session is decrypted first
            // for a PC/SC reader, which runs Crypto1 itself.
            let (frames, damage, held) = Self.hold(reader)
            let check: () throws -> Frame?
            if held {
                if let pcsc = target as? PCSCTarget, pcsc.card == .classic {
                    clearView = ClassicClearView(frames: frames, keys: keys)
                    pcsc.classicView = clearView
                }
                (target as? LibNFCTarget)?.recordedDelays = RecordedTiming.answerDelays(frames)
                check = Self.iterate(frames, then: nil)
                next = Self.iterate(frames, then: damage)
            } else {
                guard trace != "-" else {
                    return unreadable(CaptureError.tooLarge(path: "<stdin>", what: "a trace replayed through a reader",
                                                            limit: "\(InputLimit.heldFrames) frames").description)
                }
                let first = try Capture.open(trace, options: inputOptions.readOptions)
                check = { try first.next() }
                let second = try Capture.open(trace, options: inputOptions.readOptions)
                next = { try second.next() }
            }
            let missing = Replayer.inexpressibleFrames(for: target, next: check)
            if !missing.isEmpty {
                return ReplayResult(trace: trace, target: target.name, outcome: .inexpressible(missing), exchanges: 0, fieldCycles: 0, accepted: [:], seconds: 0)
            }
        }
        let replayer = Replayer(target: target, rules: rules)
        replayer.clearView = clearView
        recording?.attach(replayer)
        return replayer.replay(trace: trace, next: next)
    }

    /// The frames of a trace held in memory, up to `InputLimit.heldFrames` (`complete` false when
    /// there are more); the damage that ended the reading, if any.
    static func hold(_ reader: FrameReader) -> (frames: [Frame], damage: CaptureError?, complete: Bool) {
        var frames: [Frame] = []
        do {
            while let f = try reader.next() {
                guard frames.count < InputLimit.heldFrames else { return (frames, nil, false) }
                frames.append(f)
            }
        } catch {
            return (frames, error, true)
        }
        return (frames, nil, true)
    }

    /// Delivers `frames` one by one, then throws `damage` once (the reading's end as it was).
    static func iterate(_ frames: [Frame], then damage: CaptureError?) -> () throws -> Frame? {
        var i = 0
        var failed = false
        return {
            if i < frames.count {
                defer { i += 1 }
                return frames[i]
            }
            if let damage, !failed {
                failed = true
                throw damage
            }
            return nil
        }
    }

    /// A real reader (libnfc, PC/SC), not an emulator.
    var isReader: Bool { Self.reader("libnfc", in: against) != nil || Self.reader("pcsc", in: against) != nil }

    /// `scheme` or `scheme:NAME` in `against`: .some(nil) for the scheme alone (the default
    /// device), .some(NAME), or nil for another target.
    static func reader(_ scheme: String, in against: String) -> String?? {
        if against == scheme { return .some(nil) }
        guard against.hasPrefix(scheme + ":") else { return nil }
        return .some(String(against.dropFirst(scheme.count + 1)))
    }

    /// `--against emulator`: the tag is rebuilt from the trace, then the trace is replayed against
    /// it. The frames are read once and held (so standard input works too), up to
    /// `InputLimit.heldFrames`; a longer file is read a second time instead, a longer standard
    /// input is refused. A damaged trace still rebuilds its tag from the frames before the
    /// damage; the replay then reports the damage itself.
    func replayAgainstItsOwnTag(_ trace: String, reader: FrameReader, rules: ReplayRules, keys: KeyList, recording: Recording?,
                                unreadable: (String) -> ReplayResult) throws -> ReplayResult {
        var (frames, damage, held) = Self.hold(reader)
        let noSession = ReplayResult(trace: trace, target: against, outcome: .noTarget("no tag session in this trace can be emulated"),
                                     exchanges: 0, fieldCycles: 0, accepted: [:], seconds: 0)
        let target: ReplayTarget
        var next: () throws -> Frame?
        if held {
            let all = Self.iterate(frames, then: nil)
            guard let t = try Self.rebuiltTarget(next: { (try? all()) ?? nil }, keys: keys) else { return noSession }
            target = t
            next = Self.iterate(frames, then: damage)
        } else {
            guard trace != "-" else {
                return unreadable(CaptureError.tooLarge(path: "<stdin>", what: "a trace replayed against the tag rebuilt from it",
                                                        limit: "\(InputLimit.heldFrames) frames").description)
            }
            frames = []   // the first 200,000 are not needed for the second pass
            damage = nil
            let first = try Capture.open(trace, options: inputOptions.readOptions)
            guard let t = try Self.rebuiltTarget(next: { (try? first.next()) ?? nil }, keys: keys) else { return noSession }
            target = t
            let second = try Capture.open(trace, options: inputOptions.readOptions)
            next = { try second.next() }
        }
        let replayer = Replayer(target: target, rules: rules)
        recording?.attach(replayer)
        return replayer.replay(trace: trace, next: next)
    }

    /// The emulator of the tag(s) a trace's dissection rebuilt; nil when no session can be emulated.
    static func rebuiltTarget(next: () -> Frame?, keys: KeyList) throws -> ReplayTarget? {
        guard let (field, sources) = try TraceTag.field(next: next, keys: keys) else { return nil }
        let from = sources.joined(separator: "; ")
        return EmulatorTarget(tag: field, name: "emulator (\(field.summary), rebuilt from \(from))")
    }

    func makeTarget(for trace: String, dump: TagDump?) throws -> ReplayTarget {
        if let dump {
            // A fresh tag per trace, from the dump or model resolved once.
            guard let tag = dump.makeTag() else { throw CLIFailure(message: "\(against): the dump holds no usable UID", code: .dataError) }
            return EmulatorTarget(tag: tag)
        }
        // A reader that cannot be opened is an I/O failure (74), named in one line.
        func opened(_ make: () throws(ReplayTargetError) -> ReplayTarget) throws -> ReplayTarget {
            do { return try make() } catch { throw CLIFailure(message: error.description, code: .ioError) }
        }
        if let connstring = Self.reader("libnfc", in: against) { return try opened { () throws(ReplayTargetError) in try LibNFCTarget(connstring: connstring) } }
        if let name = Self.reader("pcsc", in: against) { return try opened { () throws(ReplayTargetError) in try PCSCTarget(reader: name) } }
        if against.hasPrefix("udp:") {
            guard against.split(separator: ":", omittingEmptySubsequences: false).count == 3 else { throw CLIFailure.usage("--against udp:HOST:PORT") }
            let (host, port) = try Emulate.address(String(against.dropFirst("udp:".count)), option: "--against udp:HOST:PORT")
            do { return try UDPTarget(host: host, port: port, timeoutMilliseconds: timeout) } catch { throw CLIFailure.usage(error.description) }
        }
        throw CLIFailure.usage("unknown target \"\(against)\" (emulator, emulator:DUMP, emulator:model:NAME, udp:HOST:PORT, libnfc[:CONNSTRING], pcsc[:READER])")
    }

    static func loadRules(_ path: String) throws -> ReplayRules {
        let bytes = try InputLimit.read(path, limit: InputLimit.rules, what: "a rules file")
        do {
            return try ReplayRules(text: String(decoding: bytes, as: UTF8.self), file: path)
        } catch {
            throw CLIFailure.usage(error.description)
        }
    }
}

/// `replay --record`: what the replay sent and the target answered, written as it happens, so
/// that a replay stopped by a failing reader keeps everything up to it.
final class Recording {
    let path: String
    let writer: FrameWriter
    private(set) var frames = 0
    private var failure: CaptureError?

    init(path: String, target: String) throws {
        guard let format = CaptureFormat(fileExtensionOf: path), format != .proxmark3 else {
            throw CLIFailure.usage("cannot tell the trace format of \"\(path)\": name it .nfctrace, .pcap or .pcapng")
        }
        self.path = path
        var metadata = TraceMetadata()
        metadata["source"] = "nfctrace replay --against \(target)"
        writer = try Capture.create(path, format: format, metadata: metadata, resolution: .nanoseconds)
    }

    func attach(_ replayer: Replayer) {
        replayer.onRecord = { [self] frame in
            guard failure == nil else { return }
            do {
                try writer.write(frame)
                frames += 1
            } catch let e as CaptureError {
                failure = e
            } catch {
                failure = .io(path: path, reason: "\(error)")
            }
        }
    }

    func finish() throws {
        try writer.finish()
        if let failure { throw failure }
        CLI.warn("recorded \(frames) frame\(frames == 1 ? "" : "s") to \(path)")
    }
}
