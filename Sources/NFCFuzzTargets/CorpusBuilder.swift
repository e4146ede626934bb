import NFCCapture
import NFCCore
import NFCDissect
import NFCEmulator
import NFCFuzz

/// Seeds for `Corpus/<target>/`: the shape's own seeds (built with the encoders), seeds taken
/// from the project's traces (`Traces/`: the files themselves, their frames, the memory their
/// sessions rebuilt, the commands they carry) and the dumps of the built-in tags. Deterministic:
/// the same traces give the same files with the same names.
public enum CorpusBuilder {
    /// A trace of `Traces/`: its file name and bytes.
    public struct Trace: Sendable {
        public var name: String
        public var bytes: [UInt8]
        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// Seeds are kept small so that the committed corpus stays small and fuzzing starts fast.
    public static let maximumSeedSize = 8192
    public static let maximumSeedsPerTarget = 24
    /// The dissector and emulator targets of one technology get a seed per trace, and one per
    /// tag session of a trace whose frames take more than `maximumTraceSeedSize` bytes: more
    /// seeds, and short ones. libFuzzer lets inputs grow from the longest seed on
    /// (`-len_control`), and a dissect target's execution costs about what its input's frames
    /// cost, so a long trace as a seed would let every input reach kilobytes at once.
    public static let maximumSessionSeedsPerTarget = 64
    public static let maximumTraceSeedSize = 640
    /// Enough for an activation, an authentication and some reads.
    public static let framesPerSessionSeed = 32

    /// `(file name, bytes)` for every seed of `target`; names are content hashes.
    public static func seeds(for target: FuzzTargetInfo, traces: [Trace]) -> [(name: String, bytes: [UInt8])] {
        var all = StructuredMutator(shape: target.shape).seeds()
        all += fromTraces(target, traces.sorted { $0.name < $1.name })
        var seen = Set<[UInt8]>()
        let unique = all.filter { !$0.isEmpty && $0.count <= maximumSeedSize && seen.insert($0).inserted }
        let limit = sessionTechnology(target.shape) == nil ? maximumSeedsPerTarget : maximumSessionSeedsPerTarget
        return unique.prefix(limit).map { (name(for: $0), $0) }
    }

    /// The technology whose traces give the shape a seed per session.
    static func sessionTechnology(_ shape: FuzzShape) -> Technology? {
        switch shape {
        case .framesNFCA: return .iso14443a
        case .framesFeliCa: return .felica
        case .framesISO15693: return .iso15693
        default: return nil
        }
    }

    /// A trace's frames cut into its tag sessions as the dissector tracks them (frames outside
    /// any session go with the session around them), each cut to its first
    /// `framesPerSessionSeed` frames.
    static func sessions(_ frames: [Frame]) -> [[Frame]] {
        var out: [[Frame]] = []
        var current: [Frame] = []
        var currentSession: Int?
        var index = 0
        for event in Dissector.dissect(frames, detail: .summary) {
            guard case .frame(let d) = event else { continue }
            if let s = d.session, s != currentSession {
                if currentSession != nil, !current.isEmpty { out.append(current); current = [] }
                currentSession = s
            }
            if current.count < framesPerSessionSeed { current.append(frames[index]) }
            index += 1
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Every trace as a frame-sequence seed, a long one as its sessions, taken in turn from each
    /// trace (first sessions first), so that a capped seed list still holds every trace. The
    /// selector picks the renderer of a dissect target and the tag model of an emulator one: the
    /// first pass gives each piece one of three values in turn, two more passes the other two,
    /// as far as the cap allows.
    static func sessionSeeds(_ traces: [[Frame]]) -> [[UInt8]] {
        let perTrace = traces.map { frames in
            FrameSequence.encode(selector: 0, frames: fuzzFrames(frames)).count <= maximumTraceSeedSize ? [frames] : sessions(frames)
        }
        var order: [[Frame]] = []
        for round in 0..<(perTrace.map(\.count).max() ?? 0) {
            for sessions in perTrace where round < sessions.count { order.append(sessions[round]) }
        }
        return (0..<3).flatMap { pass in
            order.enumerated().map { n, session in FrameSequence.encode(selector: UInt8((n + pass) % 3), frames: fuzzFrames(session)) }
        }
    }

    /// FNV-1a 64, hex: a stable content name (libFuzzer names its own files by SHA-1 the same way).
    public static func name(for bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return "seed-" + Hex.value(h, digits: 16).lowercased()
    }

    static func frames(_ trace: Trace) -> [Frame] {
        guard let reader = try? Capture.open(ByteInput.memory(trace.bytes, name: trace.name)) else { return [] }
        var out: [Frame] = []
        while let f = try? reader.next() { out.append(f) }
        return out
    }

    static func fuzzFrames(_ frames: [Frame]) -> [FuzzFrame] {
        frames.map { f in
            FuzzFrame(FuzzFrame.Kind(f.event), f.technology, bytes: Array(f.bytes.prefix(255)), crcStripped: f.crcStripped, lastByteBits: f.lastByteBits)
        }
    }

    /// The memory images the trace's sessions rebuilt, as the memory shapes read them.
    static func images(_ frames: [Frame]) -> [TagReconstruction] {
        var out: [TagReconstruction] = []
        for event in Dissector.dissect(frames, detail: .summary) {
            if case .session(let s) = event, let r = s.reconstruction { out.append(r) }
        }
        return out
    }

    static func image(_ r: TagReconstruction) -> [UInt8]? {
        switch r {
        case .type2(let t):
            guard let last = t.memory.knownPages.last else { return nil }
            return t.memory.prefix((last + 1) * TagMemoryImage.type2PageSize).bytes
        case .iso15693(let v):
            guard let size = v.blockSize, let last = v.blocks.keys.max() else { return nil }
            return (0...last).flatMap { v.blocks[$0] ?? [UInt8](repeating: 0, count: size) }
        case .felica(let f):
            guard let blocks = f.systems.lazy.compactMap({ $0.blocks[.ndefRead] }).first, let last = blocks.keys.max() else { return nil }
            return (0...last).flatMap { blocks[$0] ?? [UInt8](repeating: 0, count: 16) }
        case .mifareClassic(let m):
            guard let last = m.blocks.keys.max() else { return nil }
            return (0...last).flatMap { m.blocks[$0] ?? [UInt8](repeating: 0, count: 16) }
        case .type4(let t):
            return t.ndefFile.count > 0 ? t.ndefFile.bytes : nil
        case .isoDEP, .iso14443b, .iclass:
            return nil
        }
    }

    static func fromTraces(_ target: FuzzTargetInfo, _ traces: [Trace]) -> [[UInt8]] {
        let text = traces.filter { $0.name.hasSuffix(".nfctrace") }
        switch target.name {
        case "FuzzTextTrace": return text.map(\.bytes)
        case "FuzzPcap": return traces.filter { $0.name.hasSuffix(".pcap") || $0.name.hasSuffix(".pcapng") }.map(\.bytes)
        default: break
        }
        if let wanted = sessionTechnology(target.shape) {
            return sessionSeeds(text.map(frames).filter { $0.first(where: { $0.isReaderFrame })?.technology == wanted })
        }
        var out: [[UInt8]] = []
        for trace in text {
            let frames = frames(trace)
            guard let technology = frames.first(where: { $0.isReaderFrame })?.technology else { continue }
            switch target.shape {
            case .framesISODEP:
                // The traces that activate ISO-DEP (a RATS); a seed per ISO-DEP model of the emulator target.
                if technology == .iso14443a, frames.contains(where: { $0.isReaderFrame && $0.bytes.first == ISO14443A.rats }) {
                    for selector in 0..<3 { out.append(FrameSequence.encode(selector: UInt8(selector), frames: fuzzFrames(frames))) }
                }
            case .proxmark3:
                let output = ByteOutput.inMemory()
                let writer = Proxmark3TraceWriter(output: output, times: .wrap)   // the device counter's own wrap: any trace makes a seed
                if (try? frames.forEach { try writer.write($0) }) != nil, (try? writer.finish()) != nil, let bytes = output.memory { out.append(bytes) }
            case .pcapRecord:
                out += frames.prefix(12).compactMap { technology == .iso14443a ? ISO14443PseudoHeader.encode($0) : NFCTracePseudoHeader.encode($0) }
            case .felica where technology == .felica, .iso15693 where technology == .iso15693:
                // A reader frame whose CRC is wrong is no command the codec would take.
                out += frames.filter(\.isReaderFrame).compactMap { $0.payload(ifValidCRC: nil).map(Array.init) }.prefix(16)
            case .ndef, .type2, .type3, .type5:
                for r in images(frames) {
                    guard let image = image(r) else { continue }
                    switch (target.shape, r) {
                    case (.type2, .type2), (.type5, .iso15693), (.type3, .felica): out.append(image)
                    case (.ndef, _):
                        let message = Type2Memory.decode(TagMemoryImage(bytes: image)).ndef?.tlv.value
                            ?? Type5Memory.decode(TagMemoryImage(bytes: image)).ndef?.tlv.value
                        if let message, !message.isEmpty { out.append(message) }
                    default: break
                    }
                }
            case .proxmark3Listing, .nfcLaboratory:
                // The trace's frames of its first technology, as the other tool writes them.
                let listing = target.shape == .proxmark3Listing
                let model: [ForeignFrame] = frames.filter { $0.technology == technology && (!listing || $0.isReaderFrame || $0.isTagFrame) }.map { f in
                    let kind = FuzzFrame.Kind(f.event)
                    let start = (listing ? f.start?.converted(to: .carrierCycles)?.value : f.start?.nanoseconds) ?? 0
                    let end = (listing ? f.end?.converted(to: .carrierCycles)?.value : f.end?.nanoseconds) ?? start
                    return ForeignFrame(kind: kind, technology: f.technology, bytes: (listing && f.technology == .felica ? [0xB2, 0x4D] : []) + f.bytes,
                                        lastByteBits: f.lastByteBits, start: max(0, start), end: max(0, end), bitRate: listing ? nil : f.bitRate)
                }
                if !model.isEmpty { out.append(listing ? ForeignCaptureShape.listing(model) : ForeignCaptureShape.laboratory(model)) }
            case .dump:
                for r in images(frames) { if let saved = TagDump(reconstruction: r).makeTag()?.savedDump() { out.append(saved) } }
            default: break
            }
        }
        if target.shape == .dump {
            out += BuiltInTag.all.compactMap { $0.make().makeTag()?.savedDump() }
        }
        return out
    }
}
