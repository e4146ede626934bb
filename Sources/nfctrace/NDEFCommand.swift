import ArgumentParser
import NFCCapture
import NFCCore
import NFCDissect
import NFCEmulator

struct NDEFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ndef",
        abstract: "Decode or build NDEF messages and tag memory images.",
        subcommands: [Decode.self, Encode.self]
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode an NDEF message, or a Type 2/3/5 tag memory image holding one.",
            discussion: """
                The input kind is recognised by content (a Type 2 CC at byte 12, a Type 5 CC at byte 0, a \
                Type 3 attribute block with a valid checksum; otherwise a raw NDEF message); --as forces it. \
                Lenient mode (default) decodes as much as it can and lists what it tolerated; --strict reports \
                every breach of the NDEF rules and exits 1 when the message breaks one.
                """
        )

        @Argument(help: "File to read, or - for standard input.")
        var file: String = "-"

        @Flag(help: "The input is hex text, two digits a byte (spaces, colons and line breaks allowed), rather than bytes.")
        var hex = false

        @Option(name: .customLong("as"), help: "Input kind: ndef, type2, type3, type5 (default: detected).")
        var kind: NDEFInspection.Kind?

        @Flag(help: "Strict validation: every rule breach makes the message invalid (exit 1).")
        var strict = false

        @Option(help: "Output format: text or json.")
        var format: OutputFormat = .text

        func run() throws {
            let input = try ByteInput.open(file)
            var bytes = try input.readAll(limit: hex ? InputLimit.ndefHex : InputLimit.ndef, what: hex ? "NDEF hex text" : "an NDEF message or tag memory image")
            if hex {
                guard let parsed = Hex.parse(String(decoding: bytes, as: UTF8.self), pairsOnly: true) else {
                    throw CLIFailure(message: "\(input.name): --hex input holds something other than pairs of hex digits and separators (a lone digit means the text was cut)", code: .dataError)
                }
                bytes = parsed
            }
            guard !bytes.isEmpty else { throw CLIFailure(message: "\(input.name): no bytes to decode", code: .dataError) }
            var kind = self.kind
            if !hex, kind == nil, let (image, imageKind) = try Self.dumpImage(bytes, name: input.name) {
                // A dump file (Flipper .nfc, Proxmark3 JSON): its memory, not its text, holds the NDEF.
                bytes = image
                kind = imageKind
            }
            let mode: NDEFValidation = strict ? .strict : .lenient
            let inspection = NDEFInspection.inspect(bytes, as: kind, mode: mode)
            let out = ByteOutput.standardOutput()
            var text: [UInt8] = []
            if format == .json {
                inspection.json(mode: mode, into: &text)
            } else {
                inspection.text(mode: mode, into: &text)
                PrintableText.makeTerminalSafe(&text, from: 0, keepingLines: true)
            }
            out.write(text)
            try out.finish()
            if strict && !inspection.isValid { throw CLIFailure.findings("invalid under strict NDEF rules") }
        }

        /// The memory image of a Flipper `.nfc` or Proxmark3 JSON dump and its kind; nil when the
        /// bytes are no such dump. A dump whose tag keeps NDEF elsewhere (FeliCa services, MIFARE
        /// Classic sectors) is refused (65) rather than decoded as text.
        static func dumpImage(_ bytes: [UInt8], name: String) throws -> ([UInt8], NDEFInspection.Kind)? {
            let head = String(decoding: bytes.prefix(64), as: UTF8.self)
            let json = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == 0x7B
                && String(decoding: bytes.prefix(4096), as: UTF8.self).contains("\"FileType\"")
            guard head.hasPrefix("Filetype:") || json else { return nil }
            let dump: TagDump
            do {
                dump = try TagDump.load(bytes, name: name)
            } catch {
                throw CLIFailure(message: "\(error)", code: .dataError)
            }
            switch dump.content {
            case let t as Type2Dump: return (t.memory.pages, .type2)
            case let v as ISO15693Dump: return (v.memory.data, .type5)
            default:
                throw CLIFailure(message: "\(name): a dump of \(dump.summary): ndef decode reads Type 2 and Type 5 memory from dumps; emulate it and read it, or give the NDEF bytes", code: .dataError)
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build an NDEF message, as raw bytes, hex, or a tag memory image ready to write.",
            discussion: """
                Records come in this order: every --record, then --uri, --text, --mime, --aar. \
                --record takes uri:URI, text:LANG:TEXT, mime:TYPE:TEXT, aar:PACKAGE, or external:DOMAIN:TYPE:HEX. \
                --output type2 builds a whole Type 2 memory image (header, CC, NDEF TLV, terminator, \
                configuration pages) for --model, ready to write page by page; type5 a Type 5 image (CC + \
                TLVs) of --memory-size bytes. --format says whether bytes or hex text come out.
                """
        )

        enum Output: String, ExpressibleByArgument, CaseIterable { case ndef, type2, type5 }
        enum Format: String, ExpressibleByArgument, CaseIterable { case hex, raw }

        @Option(parsing: .singleValue, help: "A record: uri:…, text:LANG:…, mime:TYPE:…, aar:…, external:DOMAIN:TYPE:HEX (repeatable).")
        var record: [String] = []

        @Option(parsing: .singleValue, help: "A URI record (the shortest encoding of its prefix is chosen).")
        var uri: [String] = []

        @Option(parsing: .singleValue, help: "A Text record (language from --lang).")
        var text: [String] = []

        @Option(help: "Language code of --text records.")
        var lang = "en"

        @Option(parsing: .singleValue, help: "A MIME record TYPE:FILE, payload read from FILE.")
        var mime: [String] = []

        @Option(help: "An Android Application Record for this package.")
        var aar: String?

        @Option(help: "What to build: ndef (the message), type2 or type5 (a memory image holding it).")
        var output: Output = .ndef

        @Option(help: "hex (text, default) or raw (bytes).")
        var format: Format = .hex

        @Option(help: "Tag model of a type2 image: ntag213, ntag215, ntag216.")
        var model = "ntag215"

        @Option(name: .customLong("memory-size"), help: "Size in bytes of a type5 image.")
        var memorySize = 512

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var out = "-"

        func run() throws {
            // The output is checked first: not one of the --mime files, and a place that takes a file.
            let mimeFiles = mime.compactMap { m in m.firstIndex(of: ":").map { String(m[m.index(after: $0)...]) } }
            try OutputCheck.refuseOverwriting(out, inputs: mimeFiles, option: "--out")
            let o = try ByteOutput.create(out)
            var records: [NDEFRecord] = []
            for spec in record { records.append(try Self.parse(spec)) }
            records += uri.map { NDEFRecord.uri($0) }
            for t in text {
                do {
                    records.append(try NDEFRecord.text(t, language: lang))
                } catch {
                    throw CLIFailure.usage("--text: \(error)")
                }
            }
            for m in mime {
                guard let colon = m.firstIndex(of: ":") else { throw CLIFailure.usage("--mime takes TYPE:FILE") }
                let payload = try InputLimit.read(String(m[m.index(after: colon)...]), limit: InputLimit.mimePayload, what: "a MIME payload")
                records.append(NDEFRecord.mime(String(m[..<colon]), payload: payload))
            }
            if let aar { records.append(NDEFRecord.androidApplication(aar)) }
            guard !records.isEmpty else { throw CLIFailure.usage("give at least one record (--uri, --text, --mime, --aar, --record)") }
            let message: [UInt8]
            do {
                message = try NDEFMessage(records).encode()
            } catch {
                throw CLIFailure.usage("cannot encode: \(error)")
            }
            var bytes: [UInt8]
            switch output {
            case .ndef:
                bytes = message
            case .type2:
                guard let m = [Type2TagModel.ntag213, .ntag215, .ntag216].first(where: { $0.rawValue.lowercased() == model.lowercased() }) else {
                    throw CLIFailure.usage("--model takes ntag213, ntag215 or ntag216")
                }
                // The header of a factory tag (an NXP UID 04 …, its BCCs, the internal byte):
                // no NXP tag has the all-zero UID (issue 18).
                let header = Type2FactoryImage.header(uid: Type2Dump.defaultUID)
                do { bytes = try Type2Memory.image(model: m, message: message, header: header) } catch { throw CLIFailure.usage("\(error)") }
            case .type5:
                do { bytes = try Type5Memory.image(message: message, memorySize: memorySize) } catch { throw CLIFailure.usage("\(error)") }
            }
            if format == .hex { o.write(Hex.string(bytes) + "\n") } else { o.write(bytes) }
            try o.finish()
        }

        static func parse(_ spec: String) throws -> NDEFRecord {
            let parts = spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw CLIFailure.usage("--record \"\(spec)\": expected KIND:VALUE") }
            let value = parts[1]
            switch parts[0] {
            case "uri": return NDEFRecord.uri(value)
            case "text":
                let t = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard t.count == 2 else { throw CLIFailure.usage("--record text:LANG:TEXT") }
                do { return try NDEFRecord.text(t[1], language: t[0]) } catch { throw CLIFailure.usage("--record \(spec): \(error)") }
            case "mime":
                let t = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard t.count == 2 else { throw CLIFailure.usage("--record mime:TYPE:TEXT") }
                return NDEFRecord.mime(t[0], payload: Array(t[1].utf8))
            case "aar": return NDEFRecord.androidApplication(value)
            case "external":
                let t = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard t.count == 3, let payload = Hex.parse(t[2]) else { throw CLIFailure.usage("--record external:DOMAIN:TYPE:HEX") }
                return NDEFRecord.external("\(t[0]):\(t[1])", payload: payload)
            default:
                throw CLIFailure.usage("--record kind \"\(parts[0])\" is none of uri, text, mime, aar, external")
            }
        }
    }
}

extension NDEFInspection.Kind: ExpressibleByArgument {}
