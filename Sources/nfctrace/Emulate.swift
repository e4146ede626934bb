import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCapture
import NFCCore
import NFCDissect
import NFCEmulator
import NFCFuzz
import NFCReplay

/// Set from the signal thread (SIGINT, SIGTERM, SIGHUP); the serve loop polls it.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

struct Emulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Emulate a tag and serve it to reader software.",
        discussion: """
            The tag comes from a dump (Flipper .nfc, Proxmark3 JSON, raw .bin page dump) or is a \
            factory-fresh tag of --model. --udp serves it to nfcpy's UDP contactless frontend \
            (nfcpy device path udp:HOST:PORT), so unmodified nfcpy reads and writes it with no hardware. \
            --vpcd puts a 14443-A or -B, FeliCa or ISO 15693 tag in the virtual reader of vsmartcard's vpcd (pcscd's driver for \
            virtual cards, Debian vsmartcard-vpcd), so every PC/SC application sees it in "Virtual PCD 00 00". \
            --pn532 makes PATH a pseudo-terminal with a PN532 behind it and the tag in its field, so any \
            libnfc program uses it with LIBNFC_DEVICE=pn532_uart:PATH. \
            --record writes every exchange as a trace; --save writes the tag's memory when the emulator \
            stops (SIGINT, SIGTERM or SIGHUP; a second signal ends it at once), so writes are not lost. \
            Both are replaced only when complete, and their paths are checked before serving starts. \
            --save may name the dump being emulated (it was read whole at the start); --record may not \
            name an input.

            Messages about what peers send are rate limited, printed with control characters escaped, \
            and never hold up the answers, even when nobody reads stderr.
            """
    )

    @Argument(help: "Dump file of the tag to emulate (Flipper .nfc, Proxmark3 JSON, .bin).")
    var dump: String?

    @Option(name: .customLong("from-trace"), help: "Emulate the tag a trace's dissection reconstructed (UID, model, pages read or written, the password a PWD_AUTH used).")
    var fromTrace: String?

    @Option(help: "With --from-trace: the tag session to take (default: all sessions of the tag seen most, merged).")
    var session: Int?

    @OptionGroup var keyOptions: KeyOptions

    @Option(help: "MIFARE Classic: behave as a magic card (gen1a: the 7-bit 40 / 43 backdoor, block 0 writable).")
    var magic: MagicKind?

    enum MagicKind: String, ExpressibleByArgument, CaseIterable { case gen1a }

    @Option(help: "Answer from a recorded trace (a cassette): each reader frame matching a recorded command gets the recorded answer.")
    var cassette: String?

    @Option(help: "With --cassette: strict (the next recorded command only) or relaxed (any unused identical command).")
    var order: CassetteTag.Order = .relaxed

    @Option(help: "With --cassette: answer an unknown command with silence or a NAK.")
    var unknown: CassetteTag.Unknown = .silence

    @Option(help: "Emulate a built-in tag instead (--list-models shows them).")
    var model: String?

    @Flag(name: .customLong("list-models"), help: "List the built-in tags and exit.")
    var listModels = false

    @Option(help: "Serve over nfcpy's UDP protocol at [HOST:]PORT (default host 127.0.0.1; port 0 picks a free one).")
    var udp: String?

    @Option(help: "Serve as the virtual card of vsmartcard's vpcd at [HOST:]PORT (pcscd's virtual reader; its first slot is 35963).")
    var vpcd: String?

    @Option(help: "Serve as a PN532 on a pseudo-terminal linked from this path, for libnfc (LIBNFC_DEVICE=pn532_uart:PATH).")
    var pn532: String?

    @Option(help: "Record every exchange to this trace (format from the extension: .nfctrace, .pcap, .pcapng).")
    var record: String?

    @Option(help: "Save the tag's state to this file (Flipper .nfc) when the emulator stops.")
    var save: String?

    @Option(help: "Set the tag's password (PWD, 4 bytes hex), e.g. for a dump read without it.")
    var password: String?

    @Option(help: "Set the tag's PACK (2 bytes hex).")
    var pack: String?

    @Option(help: "Fuzz the reader: serve a Type 2 tag whose NDEF message (ndef) or memory (type2) is mutated afresh at every field-on.")
    var fuzz: String?

    @Option(name: .customLong("fuzz-seed"), help: "With --fuzz: random seed (the same seed serves the same contents).")
    var fuzzSeed: UInt64?

    @Option(name: .customLong("fuzz-out"), help: "With --fuzz: keep every served memory here as a raw page dump (session-N.bin; emulate FILE serves it again).")
    var fuzzOut: String?

    func validate() throws {
        if let session, session < 1 { throw ValidationError("--session: sessions are numbered from 1, got \(session)") }
    }

    func run() throws {
        if listModels {
            for t in BuiltInTag.all { print(t.name + String(repeating: " ", count: max(1, 20 - t.name.count)) + t.description) }
            return
        }
        let ways = [udp.map { _ in "--udp" }, vpcd.map { _ in "--vpcd" }, pn532.map { _ in "--pn532" }].compactMap { $0 }
        guard ways.count == 1 else {
            throw CLIFailure.usage(ways.isEmpty ? "give --udp [HOST:]PORT (nfcpy), --vpcd [HOST:]PORT (PC/SC) or --pn532 PATH (libnfc) to serve the tag"
                                               : "give one of --udp, --vpcd and --pn532, not \(ways.joined(separator: " and "))")
        }
        let sources = [dump != nil ? "a dump" : nil, fromTrace != nil ? "--from-trace" : nil,
                       model != nil ? "--model" : nil, cassette != nil ? "--cassette" : nil].compactMap { $0 }
        guard sources.count <= 1 else { throw CLIFailure.usage("give one tag source, not \(sources.joined(separator: " and "))") }
        // Outputs are checked before any work: a bad path found at exit would lose what readers wrote.
        try OutputCheck.refuseOverwriting(record, inputs: [dump, fromTrace, cassette], option: "--record")
        if let record, let save, record == save || FileIdentity(path: record).map({ $0 == FileIdentity(path: save) }) == true {
            throw CLIFailure.usage("--record and --save name the same file \(record)")
        }
        try OutputCheck.refuseOverwriting(save, inputs: [fromTrace, cassette], option: "--save")
        if let save { try AtomicFile.checkWritable(save) }
        // Every message of a serving emulator goes through the log: stderr may be a pipe nobody reads.
        let log = PeerLog()
        var tag = try cassette.map { try makeCassette($0, log: log) } ?? makeTag(log: log)
        if let fuzz { tag = try fuzzedTag(tag, shape: fuzz, log: log) }
        var server: NFCPyUDPServer? = nil
        var vpcdClient: VPCDClient? = nil
        var pn532Server: PN532SerialServer? = nil
        if let udp {
            let (host, port) = try Self.address(udp, option: "--udp")
            if tag.technology == .iso15693 {
                throw CLIFailure.usage("nfcpy's UDP frontend has no ISO 15693 (NFC-V): this tag cannot be served with --udp; replay against it instead (replay --against emulator:…)")
            }
            do {
                server = try NFCPyUDPServer(tag: tag, host: host, port: port)
            } catch {
                throw CLIFailure(message: error.description, code: .ioError)
            }
        } else if let vpcd {
            let (host, port) = try Self.address(vpcd, option: "--vpcd")
            guard let card = PCSCContactlessCard(tag: tag) else {
                throw CLIFailure.usage("--vpcd serves ISO 14443-A and -B, FeliCa and ISO 15693 tags; this is a \(tag.technology.displayName) tag")
            }
            if ["127.0.0.1", "localhost"].contains(host), !Self.vpcdDriverPaths.contains(where: { access($0, F_OK) == 0 }) {
                // A local vpcd is pcscd's driver: without it nobody will ever listen on the port.
                throw CLIFailure(message: "vsmartcard's vpcd is not installed (apt install vsmartcard-vpcd, then restart pcscd); --vpcd HOST:PORT reaches one on another machine", code: .ioError)
            }
            vpcdClient = VPCDClient(card: card, host: host, port: port)
        } else if let pn532 {
            guard let card = PCSCContactlessCard(tag: tag) else {
                throw CLIFailure.usage("--pn532 serves ISO 14443-A and -B, FeliCa and ISO 15693 tags; this is a \(tag.technology.displayName) tag")
            }
            do {
                pn532Server = try PN532SerialServer(reader: card, path: pn532)
            } catch {
                throw CLIFailure(message: error.description, code: .ioError)
            }
            // A second signal ends the process at once, without deinit: the link goes with it.
            // (Held weakly, so that an error thrown before serving still ends in deinit.)
            SignalPath.onAbort = { [weak server = pn532Server] in server?.removeLink() }
        }
        var writer: FrameWriter? = nil
        if let record {
            guard let format = CaptureFormat(fileExtensionOf: record), format != .proxmark3 else {
                throw CLIFailure.usage("cannot tell the trace format of \"\(record)\": name it .nfctrace, .pcap or .pcapng")
            }
            var metadata = TraceMetadata()
            metadata["source"] = vpcdClient != nil ? "nfctrace emulate in vsmartcard's vpcd (PC/SC)" : pn532 != nil ? "nfctrace emulate as a PN532 (libnfc)" : "nfctrace emulate over nfcpy's UDP frontend"
            metadata["tech"] = tag.technology.rawValue
            writer = try Capture.create(record, format: format, metadata: metadata, resolution: .nanoseconds)
        }
        var fieldOn = false
        var recordError: CaptureError? = nil
        func put(_ f: Frame) {
            guard recordError == nil, let writer else { return }
            do { try writer.write(f) } catch { recordError = error }
        }
        // The signal thread (SignalPath) only asks the loop to stop: the tag is saved below.
        SignalPath.onStop = { _ in stopRequested = 1 }
        if let server {
            server.onExchange = { request, answer in
                if !fieldOn {
                    fieldOn = true
                    put(Frame(.fieldOn, technology: tag.technology, start: request.start))
                }
                put(request)
                if let answer { put(answer) }
            }
            server.onFieldOff = { t in
                fieldOn = false
                put(Frame(.fieldOff, technology: tag.technology, start: t))
            }
            server.onIgnored = { log.peer("ignored a datagram that is no nfcpy frame: \(PrintableText.escaped($0))") }
            log.own("emulating \(tag.summary) on udp \(server.host):\(server.port) (nfcpy device udp:\(server.host):\(server.port))")
            server.serve { stopRequested != 0 }
        } else if let vpcdClient {
            vpcdClient.card.onFrame = { put($0) }
            vpcdClient.onLog = { log.own($0) }
            // vpcd's slots are 35963, 35964 …, named "Virtual PCD 00 00", "… 00 01" by pcscd.
            let slot = Int(vpcdClient.port) - 35963
            let reader = (0..<10).contains(slot) ? " (PC/SC reader \"Virtual PCD 00 0\(slot)\")" : ""
            log.own("emulating \(tag.summary) as vpcd's card on tcp \(vpcdClient.host):\(vpcdClient.port)\(reader)")
            vpcdClient.serve { stopRequested != 0 }
        } else if let pn532Server {
            pn532Server.reader.onFrame = { put($0) }
            // Every message of the server is about what the host sends: rate limited.
            pn532Server.onLog = { log.peer($0) }
            log.own("emulating \(tag.summary) in the field of a PN532 on \(pn532Server.path) (libnfc: LIBNFC_DEVICE=pn532_uart:\(pn532Server.path))")
            pn532Server.serve { stopRequested != 0 }
            // Now, not in deinit: a failed save ends the process through CLI.end (exit), which
            // runs no deinit.
            pn532Server.removeLink()
            log.own("\(pn532Server.commands) PN532 commands answered")
        }
        // From here on stderr is written through the log (it may be a pipe nobody reads): the
        // save must not wait for it.
        var failure: Error? = nil
        do {
            if let writer { try writer.finish() }
            if let recordError { throw recordError }
        } catch {
            failure = error
        }
        if let save {
            do {
                guard let bytes = tag.savedDump() else { throw CLIFailure(message: "this tag cannot be saved", code: .dataError) }
                let out = try ByteOutput.create(save)
                out.write(bytes)
                try out.finish()
                log.own("saved the tag to \(save)")
            } catch {
                failure = failure ?? error
            }
        }
        if let c = tag as? CassetteTag {
            let answered = c.exchanges.filter { $0.uses > 0 }.count
            log.own("cassette: \(answered) of \(c.exchanges.count) recorded exchanges asked for" + (c.reuses > 0 ? ", \(c.reuses) answers reused" : "")
                    + ", \(c.unknownRequests.count) unknown request\(c.unknownRequests.count == 1 ? "" : "s")")
            for e in c.unused.prefix(20) { log.own("  never asked for: frame \(e.number): \(Hex.string(e.request.bytes))") }
            if c.unused.count > 20 { log.own("  … and \(c.unused.count - 20) more") }
            if failure == nil, !c.unknownRequests.isEmpty {
                failure = CLIFailure.findings("the reader asked for \(c.unknownRequests.count) command(s) the cassette does not hold")
            }
        }
        log.drain(seconds: 1)
        if let failure {
            // A stderr nobody reads must not keep the process alive: the message is queued, the exit code tells.
            let (message, code): (String, ExitStatus) = switch failure {
            case let f as CLIFailure: (f.message, f.code)
            case let e as CaptureError: (e.description, e.exitCode)
            default: ("\(failure)", .ioError)
            }
            log.own(message)
            log.drain(seconds: 1)
            CLI.end(code)
        }
    }

    /// The tag to serve with its content mutated at every field-on (EmulateFuzz.swift).
    func fuzzedTag(_ tag: EmulatedTag, shape name: String, log: PeerLog) throws -> EmulatedTag {
        guard let shape = FuzzShape(rawValue: name), shape == .ndef || shape == .type2 else {
            throw CLIFailure.usage("--fuzz takes ndef or type2, not \"\(name)\"")
        }
        guard let type2 = tag as? Type2Tag,
              let fuzzed = FuzzedType2Tag(dump: Type2Dump(memory: type2.memory, atqa: type2.listener.atqa, sak: type2.listener.finalSAK),
                                          shape: shape, seed: fuzzSeed ?? Fuzz.clockSeed()) else {
            throw CLIFailure.usage("--fuzz needs an NTAG/Ultralight tag (a Type 2 dump or --model of one)")
        }
        if let dir = fuzzOut { try FileSystem.makeDirectories(dir) }
        fuzzed.onSession = { n, memory in
            log.peer("fuzz: session \(n): \(shape.rawValue) content, CC \(Hex.string(memory.page(3)))")
            if let dir = fuzzOut { try? FileSystem.write(memory.pages, to: dir + "/session-\(n).bin") }
        }
        return fuzzed
    }

    func makeCassette(_ path: String, log: PeerLog) throws -> EmulatedTag {
        let reader = try Capture.open(path)
        var frames: [Frame] = []
        while let f = try reader.next() {
            guard frames.count < InputLimit.heldFrames else {
                throw CaptureError.tooLarge(path: path, what: "a cassette", limit: "\(InputLimit.heldFrames) frames")
            }
            frames.append(f)
        }
        guard let c = CassetteTag(frames: frames, order: order, unknown: unknown) else {
            throw CLIFailure(message: "\(path): no reader frame to answer in this trace", code: .dataError)
        }
        c.onUnknown = { f in log.peer("cassette: unknown request \(Hex.string(f.bytes.prefix(64)))\(f.bytes.count > 64 ? " …" : "")") }
        return c
    }

    func makeTag(log: PeerLog) throws -> EmulatedTag {
        let source: TagSource
        if let dump {
            source = .dump(dump)
        } else if let fromTrace {
            source = .trace(fromTrace, session: session)
        } else if let model {
            source = .model(model)
        } else {
            throw CLIFailure.usage("give a dump file, --from-trace or --model")
        }
        var (dumpValue, from) = try source.resolve(keys: try keyOptions.load())
        if let fromTrace, let from { log.own("\(fromTrace): emulating the tag of \(from)") }
        for note in dumpValue.notes { log.own(note) }
        if var d = dumpValue.content as? Type2Dump {
            if let password {
                guard let p = Hex.parse(password), p.count == 4, let page = d.memory.map.pwdPage else { throw CLIFailure.usage("--password takes 4 bytes of hex (and a tag with PWD)") }
                d.memory.setPage(page, p)
            }
            if let pack {
                guard let p = Hex.parse(pack), p.count == 2, let page = d.memory.map.packPage else { throw CLIFailure.usage("--pack takes 2 bytes of hex (and a tag with PACK)") }
                d.memory.setPage(page, p + [0, 0])
            }
            dumpValue = TagDump(d)
        } else if password != nil || pack != nil {
            throw CLIFailure.usage("--password and --pack apply to NTAG/Ultralight tags")
        }
        if magic == .gen1a {
            guard var d = dumpValue.content as? MIFAREClassicDump else { throw CLIFailure.usage("--magic gen1a applies to MIFARE Classic cards") }
            d.gen1a = true
            dumpValue = TagDump(d)
        }
        guard let tag = dumpValue.makeTag() else { throw CLIFailure(message: "the dump holds no usable UID", code: .dataError) }
        return tag
    }

    /// Where vsmartcard's vpcd driver lives: Debian's package, a source build (/usr/local), macOS's
    /// bundle. NFCTRACE_VPCD_DRIVER overrides (tests point it at a missing path).
    static var vpcdDriverPaths: [String] {
        if let path = getenv("NFCTRACE_VPCD_DRIVER") { return [String(cString: path)] }
        return ["/usr/lib/pcsc/drivers/serial/libifdvpcd.so", "/usr/local/lib/pcsc/drivers/serial/libifdvpcd.so",
                "/usr/lib/x86_64-linux-gnu/pcsc/drivers/serial/libifdvpcd.so", "/usr/lib/aarch64-linux-gnu/pcsc/drivers/serial/libifdvpcd.so",
                "/usr/local/libexec/SmartCardServices/drivers/ifd-vpcd.bundle", "/usr/libexec/SmartCardServices/drivers/ifd-vpcd.bundle"]
    }

    /// `[HOST:]PORT` of an option (`--udp`, `--vpcd`, replay's `--against udp:`). A host the
    /// sockets cannot take is the user's mistake (exit 2), found here, not an I/O failure later.
    static func address(_ text: String, option: String = "--udp") throws -> (String, UInt16) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let hostText = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        let host = hostText.isEmpty ? "127.0.0.1" : hostText
        guard let portText = parts.last, let port = UInt16(portText), parts.count <= 2 else {
            throw CLIFailure.usage("\(option) takes [HOST:]PORT, not \"\(text)\"")
        }
        guard ServeSupport.address(host, port) != nil else {
            throw CLIFailure.usage("\(option): \"\(host)\" is no IPv4 address (HOST is an IPv4 address or localhost)")
        }
        return (host, port)
    }
}

extension CassetteTag.Order: ExpressibleByArgument {}
extension CassetteTag.Unknown: ExpressibleByArgument {}
