import NFCCore

/// Frame sequences of one technology (dissector and emulator targets; format in
/// `FrameSequence`). Structure-aware at three levels: whole sessions synthesised around a
/// mutated memory image, single frames mutated through the technology's codec, and the
/// sequence itself (order, field events, answers regenerated for their requests).
public struct FramesShape: ShapeMutator {
    /// The air interface whose frames the sequences carry.
    public let technology: Technology
    let dialect: any FrameDialect

    /// ISO 14443-A sessions that speak ISO-DEP (APDUs, DESFire, EMV, Type 4) instead of Type 2.
    public let isoDEP: Bool

    /// Sequences of `technology`; `isoDEP` (14443-A only) makes sessions that speak ISO-DEP instead
    /// of Type 2.
    public init(technology: Technology, isoDEP: Bool = false) {
        self.technology = technology
        self.isoDEP = isoDEP && technology == .iso14443a
        if self.isoDEP {
            dialect = ISODEPDialect()
            return
        }
        switch technology {
        case .felica: dialect = FeliCaDialect()
        // iClass shares ISO 15693's air interface; its frames are fuzzed through 15693's dialect
        // until it has a dialect of its own (the dissector takes any bytes).
        case .iso15693, .iclass: dialect = ISO15693Dialect()
        case .iso14443a, .iso14443b: dialect = NFCADialect()
        }
    }

    /// Magic of the technology's frames: 14443-A REQA/WUPA, anticollision and SELECT, READ and
    /// PWD_AUTH; the FeliCa or 15693 command dictionary; for ISO-DEP, APDU and DESFire/EMV values.
    public var dictionary: [[UInt8]] {
        if isoDEP { return ISO7816Shape().dictionary + [[0xE0, 0x80], [0x90, 0x60, 0x00, 0x00], [0x91, 0xAF], [0x5A, 0x08], [0x57], [0x5F, 0x20], [0x80, 0xA8], [0x70, 0x00, 0x40]] }
        switch technology {
        case .felica: return FeliCaCommandShape().dictionary
        case .iso15693, .iclass: return ISO15693RequestShape().dictionary
        case .iso14443a, .iso14443b: return [[0x26], [0x52], [0x93, 0x20], [0x93, 0x70], [0x95, 0x20], [0x50, 0x00], [0x30, 0x03], [0x3A, 0x00], [0x60], [0x1B], [0x44, 0x00], [0x88], [0xE1, 0x10]]
        }
    }

    /// Four sessions of the technology's dialect, selectors 0 to 3.
    public func seeds() -> [[UInt8]] {
        var m = MutationContext(seed: 0x4652_414D + UInt64(FrameSequence.technologies.firstIndex(of: technology) ?? 0) + (isoDEP ? 0x100 : 0), maxSize: 4096)
        return (0..<4).map { i in FrameSequence.encode(selector: UInt8(i), frames: dialect.session(&m)) }
    }

    /// A fresh session (sometimes two) of the dialect with a random selector.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        var frames = dialect.session(&m)
        if m.random.chance(20) { frames += dialect.session(&m) }
        return FrameSequence.encode(selector: m.random.byte(), frames: frames)
    }

    /// The sequence decodes completely, every frame is of this technology, and every reader
    /// frame carries a command its codec decodes (CRC correct where one belongs).
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        let decoded = FrameSequence.decode(input)
        return decoded.complete && !decoded.frames.isEmpty
            && decoded.frames.allSatisfy { $0.technology == technology } && dialect.readerFramesDecode(decoded.frames)
    }

    /// Indices of frames of a kind.
    private func indices(_ frames: [FuzzFrame], _ kind: FuzzFrame.Kind) -> [Int] {
        frames.indices.filter { frames[$0].kind == kind }
    }

    /// Changes the sequence: a reader frame through its codec (its answer regenerated), frames
    /// inserted, removed, repeated or reordered, field events, the CRC stripped or put back.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        let decoded = FrameSequence.decode(input)
        guard !decoded.frames.isEmpty else { return nil }
        var frames = decoded.frames
        var selector = decoded.selector
        let readers = indices(frames, .reader)
        let tags = indices(frames, .tag)
        let i = m.random.below(frames.count)
        switch m.random.weighted([25, 12, 12, 8, 12, 8, 5, 5, 5, 4, 4]) {
        case 0:
            guard let r = m.random.element(readers) else { frames.insert(dialect.readerFrame(&m), at: i); break }
            frames[r] = dialect.mutateReader(frames[r], &m) ?? dialect.readerFrame(&m)
            // The answer now belongs to another request: regenerate it.
            if r + 1 < frames.count, frames[r + 1].kind == .tag, let a = dialect.answer(to: frames[r], &m) { frames[r + 1] = a }
        case 1:
            guard let t = m.random.element(tags) else { frames += dialect.answer(to: nil, &m).map { [$0] } ?? []; break }
            let request = t > 0 && frames[t - 1].kind == .reader ? frames[t - 1] : nil
            frames[t] = dialect.answer(to: request, &m) ?? dialect.mutatedPayload(frames[t], &m)
        case 2:
            let request = dialect.readerFrame(&m)
            let at = m.random.below(frames.count + 1)
            frames.insert(contentsOf: [request] + (dialect.answer(to: request, &m).map { [$0] } ?? []), at: at)
        case 3: return FrameSequence.encode(selector: selector, frames: dialect.session(&m))
        case 4:
            guard let t = m.random.element(tags) else { frames[i] = dialect.mutatedPayload(frames[i], &m); break }
            frames[t] = dialect.mutatedPayload(frames[t], &m)   // block data, UIDs, status bytes
        case 5: frames.remove(at: i)
        case 6: frames.insert(frames[i], at: m.random.below(frames.count + 1))
        case 7: frames.insert(FuzzFrame(m.random.pick(.fieldOff, .fieldOn), technology), at: m.random.below(frames.count + 1))
        case 8:
            // CRC stripped by the capture (nfcpy's frontend, pcap FA/FB events), or put back.
            if !frames[i].stripValidCRC(), frames[i].crcStripped {
                frames[i] = .data(frames[i].kind, technology, payload: frames[i].bytes, crc: true, lastByteBits: frames[i].lastByteBits)
            }
        case 9: selector = m.random.byte()
        default:
            let session = dialect.session(&m)
            frames.insert(contentsOf: session, at: m.random.below(frames.count + 1))
        }
        return FrameSequence.encode(selector: selector, frames: Array(frames.prefix(256)))
    }

    /// Breaks one frame on purpose, mostly a reader frame: a command broken through its codec, a
    /// CRC that does not match (as after a bit error on air), wrong valid bits, an answer without a
    /// request, bytes cut, another technology, noise bytes.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        let decoded = FrameSequence.decode(input)
        guard !decoded.frames.isEmpty else { return nil }
        var frames = decoded.frames
        // Mostly reader frames: what the dissector and the emulators act on.
        let readers = indices(frames, .reader)
        let i = m.random.chance(75) ? (m.random.element(readers) ?? 0) : m.random.below(frames.count)
        switch m.random.weighted([30, 20, 12, 10, 12, 8, 8]) {
        case 0:
            guard let r = m.random.element(indices(frames, .reader)) else { frames[i].bytes.append(m.random.byte()); break }
            frames[r] = dialect.breakReader(frames[r], &m) ?? frames[r]
        case 1:
            // A CRC that does not match, as after a collision or a bit error on air.
            if frames[i].bytes.isEmpty { frames[i].bytes = [m.random.byte()] } else { frames[i].bytes[frames[i].bytes.count - 1] ^= UInt8(1 << m.random.below(8)) }
        case 2: frames[i].lastByteBits = UInt8(1 + m.random.below(7))
        case 3: frames[i].kind = frames[i].kind == .reader ? .tag : .reader   // an answer without a request
        case 4: frames[i].bytes.removeLast(frames[i].bytes.isEmpty ? 0 : 1 + m.random.below(frames[i].bytes.count))
        case 5: frames[i].technology = FrameSequence.technologies[m.random.below(4)]
        default: frames[i].bytes = m.random.bytes(m.random.length(upTo: 255))   // field events with data, or noise
        }
        return FrameSequence.encode(selector: decoded.selector, frames: frames)
    }

    /// Frames from the front of one sequence and the back of the other, at most 256, with the first
    /// one's selector; nil when either has no frame.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        let x = FrameSequence.decode(a), y = FrameSequence.decode(b)
        guard !x.frames.isEmpty, !y.frames.isEmpty else { return nil }
        let frames = Array(x.frames.prefix(m.random.below(x.frames.count + 1))) + Array(y.frames.suffix(m.random.below(y.frames.count + 1)))
        return FrameSequence.encode(selector: x.selector, frames: Array(frames.prefix(256)))
    }
}
