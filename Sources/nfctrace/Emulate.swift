import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import NFCCapture
import NFCCore
import NFCDissect
import NFCEmulator

/// Set by SIGINT/SIGTERM; the serve loop polls it.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

struct Emulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Emulate a tag and serve it to reader software.",
        discussion: """
            The tag comes from a dump (Flipper .nfc, Proxmark3 JSON, raw .bin page dump) or is a \
            factory-fresh tag of --model. --udp serves it to nfcpy's UDP contactless frontend \
            (nfcpy device path udp:HOST:PORT), so unmodified nfcpy reads and writes it with no hardware. \
            --record writes every exchange as a trace; --save writes the tag's memory when the emulator \
            stops (SIGINT/SIGTERM), so writes are not lost.
            """
    )

    @Argument(help: "Dump file of the tag to emulate (Flipper .nfc, Proxmark3 JSON, .bin).")
    var dump: String?

    @Option(name: .customLong("from-trace"), help: "Emulate the tag a trace's dissection reconstructed (UID, model, pages read or written, the password a PWD_AUTH used).")
    var fromTrace: String?

    @Option(help: "With --from-trace: the tag session to take (default: the one that showed the most memory).")
    var session: Int?

    @Option(help: "Emulate a factory-fresh tag of this model instead (ntag213, ntag215, ntag216, ul11, ul21).")
    var model: String?

    @Option(help: "UID of a --model tag, 7 bytes hex (default 04 E1 7A 20 4B 2C 80).")
    var uid: String?

    @Option(help: "Serve over nfcpy's UDP protocol at [HOST:]PORT (default host 127.0.0.1; port 0 picks a free one).")
    var udp: String

    @Option(help: "Record every exchange to this trace (format from the extension: .nfctrace, .pcap, .pcapng).")
    var record: String?

    @Option(help: "Save the tag's state to this file (Flipper .nfc) when the emulator stops.")
    var save: String?

    @Option(help: "Set the tag's password (PWD, 4 bytes hex), e.g. for a dump read without it.")
    var password: String?

    @Option(help: "Set the tag's PACK (2 bytes hex).")
    var pack: String?

    func run() throws {
        let tag = try makeTag()
        let (host, port) = try Self.address(udp)
        let server: NFCPyUDPServer
        do {
            server = try NFCPyUDPServer(tag: tag, host: host, port: port)
        } catch {
            throw CLIFailure(message: error.description, code: 74)
        }
        var writer: FrameWriter? = nil
        if let record {
            guard let format = CaptureFormat(fileExtensionOf: record) else {
                throw CLIFailure.usage("cannot tell the trace format of \"\(record)\" (.nfctrace, .pcap, .pcapng)")
            }
            var metadata = TraceMetadata()
            metadata["source"] = "nfctrace emulate over nfcpy's UDP frontend"
            metadata["tech"] = tag.technology.rawValue
            writer = try Capture.create(record, format: format, metadata: metadata, resolution: .nanoseconds)
        }
        var fieldOn = false
        var recordError: CaptureError? = nil
        func put(_ f: Frame) {
            guard recordError == nil, let writer else { return }
            do { try writer.write(f) } catch { recordError = error }
        }
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
        server.onIgnored = { CLI.warn("ignored a datagram that is no nfcpy frame: \($0)") }
        // A parent may have blocked these (processes spawned from threaded programs inherit the mask).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        signal(SIGINT) { _ in stopRequested = 1 }
        signal(SIGTERM) { _ in stopRequested = 1 }
        CLI.warn("emulating \(describe(tag)) on udp \(server.host):\(server.port) (nfcpy device udp:\(server.host):\(server.port))")
        server.serve { stopRequested != 0 }
        if let writer { try writer.finish() }
        if let recordError { throw recordError }
        if let save {
            guard let bytes = TagDump.save(tag) else { throw CLIFailure(message: "this tag cannot be saved", code: 65) }
            let out = try ByteOutput.create(save)
            out.write(bytes)
            try out.finish()
        }
    }

    func makeTag() throws -> EmulatedTag {
        var dumpValue: TagDump
        if let dump {
            let input = try ByteInput.open(dump)
            var bytes: [UInt8] = []
            while !input.isAtEnd { bytes += input.read(1 << 16) }
            do {
                dumpValue = try TagDump.load(bytes, name: dump)
            } catch {
                throw CLIFailure(message: error.description, code: 65)
            }
        } else if let fromTrace {
            dumpValue = try Self.tag(fromTrace: fromTrace, session: session)
        } else if let model {
            guard let m = Self.model(model) else { throw CLIFailure.usage("unknown model \"\(model)\" (ntag213, ntag215, ntag216, ul11, ul21)") }
            var u: [UInt8] = [0x04, 0xE1, 0x7A, 0x20, 0x4B, 0x2C, 0x80]
            if let uid {
                guard let b = Hex.parse(uid), b.count == 7 else { throw CLIFailure.usage("--uid takes 7 bytes of hex") }
                u = b
            }
            dumpValue = .type2(Type2Dump(memory: .factory(m, uid: u)))
        } else {
            throw CLIFailure.usage("give a dump file, --from-trace or --model")
        }
        for note in dumpValue.notes { CLI.warn(note) }
        if case .type2(var d) = dumpValue {
            if let password {
                guard let p = Hex.parse(password), p.count == 4, let page = d.memory.map.pwdPage else { throw CLIFailure.usage("--password takes 4 bytes of hex (and a tag with PWD)") }
                d.memory.setPage(page, p)
            }
            if let pack {
                guard let p = Hex.parse(pack), p.count == 2, let page = d.memory.map.packPage else { throw CLIFailure.usage("--pack takes 2 bytes of hex (and a tag with PACK)") }
                d.memory.setPage(page, p + [0, 0])
            }
            dumpValue = .type2(d)
        }
        guard let tag = dumpValue.makeTag() else { throw CLIFailure(message: "the dump holds no usable UID", code: 65) }
        return tag
    }

    /// The tag of one session of a trace, as its dissection reconstructed it.
    static func tag(fromTrace path: String, session wanted: Int?) throws -> TagDump {
        let reader = try Capture.open(path)
        let dissector = Dissector(detail: .summary)
        var candidates: [(session: Int, reconstruction: TagReconstruction)] = []
        let collect: (DissectionEvent) -> Void = { event in
            if case .session(let s) = event, let r = s.reconstruction { candidates.append((s.number, r)) }
        }
        while let frame = try reader.next() { dissector.process(frame, emit: collect) }
        dissector.finish(emit: collect)
        func weight(_ r: TagReconstruction) -> Int {
            switch r { case .type2(let t): return t.knownPageCount }
        }
        let chosen: (session: Int, reconstruction: TagReconstruction)
        if let wanted {
            guard let c = candidates.first(where: { $0.session == wanted }) else {
                throw CLIFailure(message: "\(path): session \(wanted) reconstructs no tag (sessions with a tag: \(candidates.map { String($0.session) }.joined(separator: ", ")))", code: 65)
            }
            chosen = c
        } else {
            guard let best = candidates.max(by: { weight($0.reconstruction) < weight($1.reconstruction) }) else {
                throw CLIFailure(message: "\(path): no tag session in this trace can be emulated", code: 65)
            }
            chosen = best
        }
        CLI.warn("\(path): emulating the tag of session \(chosen.session)")
        switch chosen.reconstruction {
        case .type2(let t): return .type2(Type2Dump(reconstruction: t))
        }
    }

    func describe(_ tag: EmulatedTag) -> String {
        if let t = tag as? Type2Tag { return "\(t.model.rawValue), UID \(Hex.string(t.memory.uid))" }
        return tag.technology.displayName
    }

    static func model(_ name: String) -> Type2TagModel? {
        switch name.lowercased() {
        case "ntag213": return .ntag213
        case "ntag215": return .ntag215
        case "ntag216": return .ntag216
        case "ul11", "mf0ul11": return .ultralightEV1_11
        case "ul21", "mf0ul21": return .ultralightEV1_21
        default: return nil
        }
    }

    static func address(_ text: String) throws -> (String, UInt16) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        guard let portText = parts.last, let port = UInt16(portText), parts.count <= 2 else {
            throw CLIFailure.usage("--udp takes [HOST:]PORT, not \"\(text)\"")
        }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}
