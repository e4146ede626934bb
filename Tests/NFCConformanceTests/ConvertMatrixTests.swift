import Foundation
import Testing
import NFCCapture
import NFCConvert
import NFCCore
import NFCDissect

/// Issue 44, point 3: every input trace converted to every output format (pcap and pcapng with
/// both link types) reads back, dissects, and differs from the original only in what the
/// conversion's notes name; each note names something that did change; the read-back converted
/// again to every format reads back too (`convert A B; convert B C` never makes a file nfctrace
/// refuses). The comparison here is the test's own, not the writers' (`LossLedger`), so that
/// either can catch the other.
@Suite struct ConvertMatrixTests {
    // MARK: inputs and outputs

    static let root = String(#filePath.split(separator: "/Tests/")[0])
    static let shared: String? = FileManager.default.fileExists(atPath: root + "/../shared") ? root + "/../shared" : nil

    /// Traces/, the Proxmark3 traces, nfc-laboratory exports and Proxmark3 listings of
    /// ../shared, and the listings written here (an iClass sniff with bare SOFs, an ISO 15693
    /// exchange with a reader EOF, a listing whose times wrap).
    static var inputs: [String] {
        var paths = files(in: root + "/Traces", suffixes: [".nfctrace", ".pcap", ".pcapng"])
        if let shared {
            paths += files(in: shared + "/pm3-traces", suffixes: [".trace"])
            paths += files(in: shared + "/captures/nfc-laboratory", suffixes: [".json"])
            paths += files(in: shared + "/captures/proxmark3-listings", suffixes: [".txt"])
        }
        return paths + Listings.all.map(Listings.path)
    }

    static func files(in folder: String, suffixes: [String]) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { n in suffixes.contains(where: n.hasSuffix) }.sorted().map { folder + "/" + $0 }
    }

    /// The technology a Proxmark3 trace of ../shared holds (the file does not say).
    static func readOptions(_ path: String) -> CaptureReadOptions {
        CaptureReadOptions(technology: path.hasSuffix(".trace") && path.contains("_14b_") ? .iso14443b : nil)
    }

    struct Output: CustomStringConvertible, Sendable {
        var format: CaptureFormat
        var linkType: PcapEncapsulation? = nil
        var times: Proxmark3Times? = nil
        var description: String { [format.rawValue, linkType?.rawValue, times?.rawValue].compactMap { $0 }.joined(separator: "/") }
        var fileExtension: String { format == .nfcLaboratory ? "json" : format == .proxmark3 ? "trace" : format.rawValue }
    }

    static let outputs: [Output] = [
        Output(format: .pcap, linkType: .iso14443), Output(format: .pcap, linkType: .nfctrace),
        Output(format: .pcapng, linkType: .iso14443), Output(format: .pcapng, linkType: .nfctrace),
        Output(format: .nfctrace), Output(format: .proxmark3), Output(format: .proxmark3, times: .first), Output(format: .nfcLaboratory),
    ]

    // MARK: the matrix

    @Test func theSharedFolderIsThereOrSaidMissing() {
        // CI always has ../shared (DESIGN.md); a developer's machine without it runs Traces/ only.
        if Self.shared == nil { print("ConvertMatrixTests: ../shared is not beside this checkout: its traces are left out") }
        #expect(Self.inputs.count >= (Self.shared == nil ? 20 : 35))
    }

    @Test(arguments: inputs)
    func everyFormatKeepsOrNotesAndReadsBack(input: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try Self.read(input, options: Self.readOptions(input))
        #expect(original.damage == nil, "\(input): \(String(describing: original.damage))")
        for output in Self.outputs {
            let label = "\(Self.name(input)) → \(output)"
            let path = "\(folder)/\(output.description.replacingOccurrences(of: "/", with: "-")).\(output.fileExtension)"
            guard let (notes, back) = try Self.convert(input, options: Self.readOptions(input), to: output, path: path, source: original, label: label) else { continue }
            var found = Self.differences(original, back, output: output, label: label)
            // A .trace does not say its technology: read it again as the note says, with --tech,
            // once for each technology the trace holds, and compare that technology's frames.
            if output.format == .proxmark3 {
                for t in Set(original.frames.filter { $0.direction != nil }.map(\.technology)) where t != .iso14443a {
                    let told = try Self.read(path, options: CaptureReadOptions(technology: t))
                    let more = Self.differences(original, told, output: output, label: label + " (--tech \(t.rawValue))", only: t)
                    #expect(!more.contains(.technology), "\(label): read with --tech \(t.rawValue), the technology comes back")
                    found.formUnion(more.subtracting([.technology]))
                }
            }
            Self.check(found, notes: notes, label: label)
            // Every read-back dissects, frame by frame, without damage.
            let events = Dissector.dissect(back.frames, detail: .summary)
            #expect(events.contains { if case .frame = $0 { return true } else { return false } } || back.frames.isEmpty, "\(label): nothing dissected")
            // The second hop: B → C for every C reads back, and differs from B only as noted.
            for next in Self.outputs {
                let label2 = "\(label) → \(next)"
                let path2 = "\(folder)/hop2.\(next.fileExtension)"
                if let (notes2, again) = try Self.convert(path, options: CaptureReadOptions(), to: next, path: path2, source: back, label: label2) {
                    // Only what the notes name may change; a .trace's other technologies are
                    // compared on the first hop.
                    let found = Self.differences(back, again, output: next, label: label2)
                    for kind in found.subtracting(notes2.map(\.kind)) { Issue.record("\(label2): \(kind.rawValue) changed without a note") }
                }
                try? FileManager.default.removeItem(atPath: path2)
            }
        }
    }

    // MARK: converting

    struct ReadBack {
        var frames: [Frame]
        var metadata: TraceMetadata
        var commentLines: [String]
        var damage: CaptureError?
    }

    static func read(_ path: String, options: CaptureReadOptions) throws -> ReadBack {
        let reader = try Capture.open(path, options: options)
        var frames: [Frame] = []
        var lines: [String] = []
        do {
            while let f = try reader.next() {
                frames.append(f)
                lines += reader.takeComments()
            }
            lines += reader.takeComments()
            return ReadBack(frames: frames, metadata: reader.metadata, commentLines: lines, damage: nil)
        } catch {
            return ReadBack(frames: frames, metadata: reader.metadata, commentLines: lines, damage: error)
        }
    }

    /// Converts and reads back; nil when the output refuses the trace, which it must do exactly
    /// where the format cannot hold a frame (and then leave no file).
    static func convert(_ input: String, options: CaptureReadOptions, to output: Output, path: String, source: ReadBack,
                        label: String) throws -> (notes: [FrameLoss], back: ReadBack)? {
        let refusal = expectedRefusal(source.frames, output)
        do {
            let result = try Conversion.run(input: input, output: path, options: ConversionOptions(
                format: output.format, read: options, linkType: output.linkType, proxmark3Times: output.times, showSecrets: true))
            #expect(refusal == nil, "\(label): written, although \(refusal ?? "")")
            #expect(result.damage == nil, "\(label): \(String(describing: result.damage))")
            #expect(result.frames == source.frames.count, "\(label)")
            for note in result.notes { #expect(note.detail != FormatLimits.undocumented, "\(label): \(note)") }
            let back = try read(path, options: CaptureReadOptions())
            #expect(back.damage == nil, "\(label): the output does not read back: \(String(describing: back.damage))")
            return (result.notes, back)
        } catch let error as CaptureError {
            guard case .unrepresentable = error else { throw error }
            #expect(refusal != nil, "\(label): refused: \(error)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(label): a refused conversion left a file")
            return nil
        }
    }

    /// Why `output` cannot hold these frames, if it cannot.
    static func expectedRefusal(_ frames: [Frame], _ output: Output) -> String? {
        let data = frames.filter { $0.direction != nil }
        switch output.format {
        case .pcap, .pcapng:
            if output.linkType == .iso14443, data.contains(where: { $0.technology != .iso14443a && $0.technology != .iso14443b }) {
                return "LINKTYPE_ISO_14443 has ISO 14443 only"
            }
            if frames.contains(where: { ($0.start?.nanoseconds ?? 0) < 0 }) { return "pcap has no time before 1970" }
        case .nfcLaboratory:
            if data.contains(where: { $0.technology == .iclass }) { return "the lab has no iClass" }
        case .proxmark3 where output.times == nil:
            let outside = frames.contains { f in f.direction != nil && f.start.map { !(0...0xFFFF_FFFF).contains($0.converted(to: .carrierCycles)?.value ?? -1) } ?? false }
            if outside { return "a time is outside the 32-bit carrier counter" }
        default: break
        }
        return nil
    }

    // MARK: comparing

    /// Each kind of difference must be a note, and each note a kind of difference.
    static func check(_ found: Set<FrameLoss.Kind>, notes: [FrameLoss], label: String) {
        for kind in found.subtracting(notes.map(\.kind)) { Issue.record("\(label): \(kind.rawValue) changed without a note") }
        for note in notes where !found.contains(note.kind) { Issue.record("\(label): a note for what did not change: \(note)") }
    }

    /// The kinds of difference between a trace and its read-back; with `only`, of the frames
    /// of that technology (a .trace read with --tech).
    static func differences(_ original: ReadBack, _ back: ReadBack, output: Output, label: String, only: Technology? = nil) -> Set<FrameLoss.Kind> {
        var kinds = Set<FrameLoss.Kind>()
        // What the format drops as a whole: field events (Proxmark3), malformed records
        // (Proxmark3, nfc-laboratory).
        var frames = original.frames
        if output.format == .proxmark3, frames.contains(where: { $0.event == .fieldOn || $0.event == .fieldOff }) {
            kinds.insert(.fieldEvents)
            frames.removeAll { $0.event == .fieldOn || $0.event == .fieldOff }
        }
        if output.format == .proxmark3 || output.format == .nfcLaboratory, frames.contains(where: isMalformed) {
            kinds.insert(.malformed)
            frames.removeAll(where: isMalformed)
        }
        guard frames.count == back.frames.count else {
            Issue.record("\(label): \(frames.count) frames kept, \(back.frames.count) read back")
            return kinds
        }
        // --pm3-times first counts from the trace's start: times are compared from a frame of both.
        let reference = output.times == .first ? zip(frames, back.frames).lazy.compactMap { o, b in
            o.start.flatMap { s in b.start.map { (s, $0) } } }.first : nil
        if let (o, b) = reference, b.nanoseconds != o.nanoseconds { kinds.insert(.timeOrigin) }
        for (o, b) in zip(frames, back.frames) {
            if let only, o.direction == nil || o.technology != only { continue }
            if o.direction != nil, o.technology != b.technology {
                kinds.insert(.technology)
                continue   // read as another technology, the rest of the frame means other things
            }
            if o.event != b.event {
                kinds.insert(isMalformed(o) || isMalformed(b) ? .malformed : .bytes)
            } else if o.bytes != b.bytes {
                kinds.insert(.bytes)
            }
            if o.lastByteBits != b.lastByteBits, !o.bytes.isEmpty { kinds.insert(.lastByteBits) }
            if o.direction != nil, o.crcStripped != b.crcStripped { kinds.insert(.crcFlag) }
            // A single short byte has no parity bit: "unknown" and "none wrong" say the same.
            let short = o.bytes.count == 1 && o.lastByteBits != 8
            if short ? (o.parityErrors ?? []) != (b.parityErrors ?? []) : o.parityErrors != b.parityErrors { kinds.insert(.parity) }
            if o.bitRate != b.bitRate { kinds.insert(.bitRate) }
            if (o.comment ?? "").isEmpty ? !(b.comment ?? "").isEmpty : o.comment != b.comment { kinds.insert(.comments) }
            let scale: Int64 = b.technology == .iso15693 || b.technology == .iclass ? 32 : 1
            if let k = timeDifference(o.start, b.start, from: reference, precision: precision(output, o.start), missing: .startTimes) { kinds.insert(k) }
            if let k = timeDifference(o.end, b.end, from: reference, precision: precision(output, o.end) * (output.format == .proxmark3 ? scale : 1), missing: .endTimes) {
                kinds.insert(k)
            }
        }
        if only != nil { return kinds }
        let strip = { (lines: [String]) in lines.map { $0.drop { $0 == "#" || $0 == " " } } }
        if strip(original.commentLines) != strip(back.commentLines) { kinds.insert(.commentLines) }
        // What the output's reader adds of its own (an export's "source") is no loss.
        let kept = described(back.metadata)
        if !described(original.metadata).allSatisfy(kept.contains) { kinds.insert(.metadata) }
        return kinds
    }

    static func isMalformed(_ f: Frame) -> Bool { if case .malformed = f.event { return true } else { return false } }

    /// The metadata a trace says of itself, without what describes the format.
    static func described(_ m: TraceMetadata) -> [TraceMetadata.Entry] {
        m.entries.filter { !["tech", "timebase", "origin", "link-type", "parity"].contains($0.key) }
    }

    /// Nanoseconds a time may move in `output` by rounding alone.
    static func precision(_ output: Output, _ t: Timestamp?) -> Int64 {
        switch output.format {
        case .pcap, .pcapng: return 1000   // µs, or ns where the input counts finer
        case .proxmark3: return 74         // a carrier period
        case .nfcLaboratory: return max(1, Int64(clamping: (t?.nanoseconds.magnitude ?? 0) >> 51))
        default: return 0
        }
    }

    /// How a time came back: kept (the same in the unit it was captured in, counted from
    /// `reference` where the output counts from the trace's start), rounded, or changed.
    static func timeDifference(_ o: Timestamp?, _ b: Timestamp?, from reference: (Timestamp, Timestamp)?, precision: Int64,
                               missing: FrameLoss.Kind) -> FrameLoss.Kind? {
        guard let o, let b else { return o == nil && b == nil ? nil : missing }
        if let (ro, rb) = reference {
            // Kept: the same after a trip through the output's unit, and as far from the
            // reference there as here.
            guard let oc = o.converted(to: b.unit), let roc = ro.converted(to: b.unit), let rbc = rb.converted(to: b.unit) else { return missing }
            if oc.converted(to: o.unit) == o, oc.value - roc.value == b.value - rbc.value { return nil }
            let d = (b.nanoseconds - rb.nanoseconds) - (o.nanoseconds - ro.nanoseconds)
            return d.magnitude <= 2 * precision ? .timePrecision : missing
        }
        if b.converted(to: o.unit) == o { return nil }
        return (b.nanoseconds - o.nanoseconds).magnitude <= 2 * precision ? .timePrecision : missing
    }

    // MARK: files

    /// A folder for one input's outputs: in memory where the system has one (/dev/shm), since
    /// every write is flushed to the disk (`fsync`) and the matrix writes thousands of files.
    static func folder() throws -> String {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        let path = base + "nfctrace-matrix-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func name(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
