import Foundation
import Testing
import NFCCapture
import NFCConvert
import NFCCore
import NFCDissect
import NFCReport

/// Issue 44, point 2, as an invariant: no output of nfctrace — the text view, -V, JSON, the HTML
/// report, and every format `convert` writes — holds a card number, track 2 or a cardholder's
/// name of any trace in Traces/ or ../shared unless asked (`--show-secrets`), for the trace as
/// captured and for every damaged variant of it: each frame dropped, each frame recorded twice,
/// each block of the tag sent again after R(NAK). The secrets are what the dissector shows of
/// the trace with `--show-secrets` (so the check finds them wherever they are), searched in
/// every spelling an output can have: raw bytes, hex with or without separators, the digits,
/// the text.
@Suite struct MaskingInvariantTests {
    static let root = String(#filePath.split(separator: "/Tests/")[0])

    static var traces: [String] {
        var paths = ConvertMatrixTests.files(in: root + "/Traces", suffixes: [".nfctrace", ".pcap", ".pcapng"])
        if let shared = ConvertMatrixTests.shared {
            paths += ConvertMatrixTests.files(in: shared + "/pm3-traces", suffixes: [".trace"])
            paths += ConvertMatrixTests.files(in: shared + "/captures/nfc-laboratory", suffixes: [".json"])
            paths += ConvertMatrixTests.files(in: shared + "/captures/proxmark3-listings", suffixes: [".txt"])
        }
        return paths
    }

    static func frames(_ path: String) throws -> [Frame] {
        let reader = try Capture.open(path, options: ConvertMatrixTests.readOptions(path))
        var out: [Frame] = []
        while let f = try reader.next() { out.append(f) }
        return out
    }

    // MARK: the secrets

    /// The values of the card-data tags the dissector shows with `--show-secrets`.
    static func secrets(_ frames: [Frame]) -> [[UInt8]] {
        var keys = KeyList.defaults
        keys.revealCardData = true
        var found = Set<[UInt8]>()
        func walk(_ fields: [Field]) {
            for f in fields {
                if f.key == "apdu.tlv", f.value.hasSuffix("(shown: --show-secrets)"),
                   let bytes = Hex.parse(String(f.value.dropLast(" (shown: --show-secrets)".count))), bytes.count >= 4 {
                    found.insert(bytes)
                }
                walk(f.children)
            }
        }
        for case .frame(let d) in Dissector.dissect(frames, keys: keys) { walk(d.fields) }
        return found.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Every spelling of a secret an output can hold: the bytes, hex with a space, a colon or
    /// nothing between bytes (upper and lower case), the BCD digits before a separator (a card
    /// number), the text (a name).
    static func needles(_ secret: [UInt8]) -> [Data] {
        var out = [secret]
        for separator in [" ", ":", ""] {
            let hex = Hex.string(secret, separator: separator)
            out += [Array(hex.utf8), Array(hex.lowercased().utf8)]
        }
        var digits = ""
        for b in secret {
            guard b >> 4 <= 9 else { break }
            digits.append(Character(String(b >> 4)))
            guard b & 0x0F <= 9 else { break }
            digits.append(Character(String(b & 0x0F)))
        }
        if digits.count >= 12 { out.append(Array(digits.utf8)) }
        if secret.allSatisfy({ (0x20...0x7E).contains($0) }) { out.append(secret) }
        return out.map { Data($0) }
    }

    static func leaks(_ output: [UInt8], _ needles: [Data]) -> Bool {
        let haystack = Data(output)
        return needles.contains { !$0.isEmpty && haystack.range(of: $0) != nil }
    }

    // MARK: the variants

    /// The trace and each damaged variant of it.
    static func variants(_ frames: [Frame]) -> [(String, [Frame])] {
        var out: [(String, [Frame])] = [("as captured", frames)]
        for i in frames.indices {
            var dropped = frames
            dropped.remove(at: i)
            out.append(("frame \(i + 1) dropped", dropped))
            var doubled = frames
            doubled.insert(frames[i], at: i)
            out.append(("frame \(i + 1) twice", doubled))
            // A tag I-block sent again after the reader's R(NAK) of its number.
            let f = frames[i]
            guard f.direction == .tagToReader, let pcb = f.bytes.first, case .i(_, let cid, _, let n)? = ISODEPBlock(pcb: pcb) else { continue }
            var nak = Frame(.data(.readerToTag), technology: f.technology, crcStripped: f.crcStripped)
            nak.setPayload(ISODEPFrame(.r(nak: true, cidFollows: cid, blockNumber: n), cid: cid ? f.bytes.dropFirst().first : nil).encode(), crc: true)
            var again = frames
            again.insert(contentsOf: [nak, f], at: i + 1)
            out.append(("frame \(i + 1) sent again after R(NAK)", again))
        }
        return out
    }

    // MARK: the outputs

    /// Text, -V and JSON of the dissection, the report's two parts, and every format convert writes.
    /// `sourceRefused`: given, a trace the text writer refuses (times more than 2⁶³ ns apart)
    /// is passed to it and the converts, which read that text trace, are left out.
    static func outputs(_ frames: [Frame], folder: String, sourceRefused: ((Error) -> Void)? = nil) throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for (name, detail, json, verbose) in [("text", DissectionDetail.summary, false, false), ("-V", .full, false, true), ("json", .full, true, false)] {
            var bytes: [UInt8] = []
            let text = TextRenderer(verbose: verbose, color: false)
            let renderer = JSONRenderer()
            for e in Dissector.dissect(frames, detail: detail) { if json { renderer.render(e, into: &bytes) } else { text.render(e, into: &bytes) } }
            out.append((name, bytes))
        }
        var i = 0
        let (tab, _) = HTMLReport.Trace.dissecting({ defer { i += 1 }; return i < frames.count ? frames[i] : nil },
                                                   name: "variant", source: "variant", keys: .defaults, detailLimit: 50_000)
        out.append(("report data", tab.data))
        out.append(("report frames", tab.detail))
        let source = folder + "/variant.nfctrace"
        do {
            let writer = TextTraceWriter(output: try ByteOutput.create(source))
            for f in frames { try writer.write(f) }
            try writer.finish()
        } catch {
            guard let sourceRefused else { throw error }
            sourceRefused(error)
            return out
        }
        for output in ConvertMatrixTests.outputs {
            let path = "\(folder)/out-\(output.description.replacingOccurrences(of: "/", with: "-")).\(output.fileExtension)"
            var options = ConversionOptions(format: output.format)
            options.linkType = output.linkType
            options.proxmark3Times = output.times
            // A frame the format cannot hold makes the conversion fail: nothing is written then.
            guard (try? Conversion.run(input: source, output: path, options: options)) != nil,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            out.append(("convert → \(output)", [UInt8](data)))
        }
        return out
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "nfctrace-masking-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    // MARK: the invariant

    @Test func someTracesHoldCardData() throws {
        // Without traces that hold card data the invariant would hold of nothing.
        let holding = try Self.traces.filter { !Self.secrets(try Self.frames($0)).isEmpty }
        #expect(holding.count >= 3, "\(holding)")
        let emv = try Self.secrets(try Self.frames(Self.root + "/Traces/emv-test-card-nfcpy.nfctrace"))
        #expect(emv.contains([0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11]) && emv.contains(Array("TEST/NFCTRACE".utf8)), "\(emv)")
    }

    @Test(arguments: traces)
    func noOutputOfAnyVariantShowsTheCard(trace: String) throws {
        let frames = try Self.frames(trace)
        let secrets = Self.secrets(frames)
        guard !secrets.isEmpty else { return }   // nothing to leak; the other outputs' tests cover them
        let needles = secrets.flatMap(Self.needles)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var checked = 0
        for (variant, damaged) in Self.variants(frames) {
            for (output, bytes) in try Self.outputs(damaged, folder: folder) {
                checked += 1
                #expect(!Self.leaks(bytes, needles), "\(trace), \(variant), \(output): card data in clear")
            }
        }
        #expect(checked > 100, "\(trace): \(checked) outputs")
    }

    /// The check finds card data where it is: the same outputs with --show-secrets show it.
    @Test func theCheckSeesCardDataInClear() throws {
        let frames = try Self.frames(Self.root + "/Traces/emv-test-card-nfcpy.nfctrace")
        let needles = Self.secrets(frames).flatMap(Self.needles)
        var keys = KeyList.defaults
        keys.revealCardData = true
        var bytes: [UInt8] = []
        let text = TextRenderer(verbose: true, color: false)
        for e in Dissector.dissect(frames, keys: keys) { text.render(e, into: &bytes) }
        #expect(Self.leaks(bytes, needles))
        #expect(Self.leaks(Array("x 41:11:11:11:11:11:11:11 y".utf8), needles) && Self.leaks(Array("4111111111111111".utf8), needles))
    }
}
