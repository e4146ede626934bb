import NFCCore

/// What the frame-sequence shape needs to know about one technology: how a session goes,
/// how to generate, mutate and break a reader command through its codec, and how a tag answers.
protocol FrameDialect: Sendable {
    var technology: Technology { get }
    /// A whole plausible session (activation, then reads of a memory image made by the
    /// technology's memory shape), so that dissectors reach memory and NDEF decoding.
    func session(_ m: inout MutationContext) -> [FuzzFrame]
    /// A generated reader frame.
    func readerFrame(_ m: inout MutationContext) -> FuzzFrame
    /// The reader frame's command changed in one typed field; nil when it does not decode.
    func mutateReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame?
    /// The reader frame's command encoded with an inconsistency (length, count, cut), CRC valid.
    func breakReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame?
    /// A plausible tag answer to `request` (or to nothing in particular).
    func answer(to request: FuzzFrame?, _ m: inout MutationContext) -> FuzzFrame?
    /// Whether a reader frame carries a command the codec decodes (with a good CRC where one belongs).
    func decodes(_ frame: FuzzFrame) -> Bool
    /// Whether every reader frame of a sequence decodes, read in order (a dialect with
    /// encrypted sessions decrypts as it goes).
    func readerFramesDecode(_ frames: [FuzzFrame]) -> Bool
}

extension FrameDialect {
    func readerFramesDecode(_ frames: [FuzzFrame]) -> Bool {
        frames.allSatisfy { $0.kind != .reader || decodes($0) }
    }
}

extension FrameDialect {
    /// A payload mutated at the byte level, with the CRC recomputed so the frame is not simply
    /// dropped by a CRC check.
    func mutatedPayload(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame {
        let hadCRC = frame.hasValidCRC()
        var payload = Array(frame.payloadDroppingValidCRC())
        m.mutateBytes(&payload, limit: 253)
        var out = FuzzFrame.data(frame.kind, technology, payload: payload, crc: hadCRC, lastByteBits: frame.lastByteBits)
        out.crcStripped = frame.crcStripped
        return out
    }
}

/// ISO/IEC 14443-A with NFC Forum Type 2 / NTAG21x commands on top (protocols.md §1, §2).
struct NFCADialect: FrameDialect {
    let technology = Technology.iso14443a
    let memory = Type2Shape()

    func session(_ m: inout MutationContext) -> [FuzzFrame] {
        if m.random.chance(30) { return MIFAREClassicSessions.session(&m) }
        let image = memory.sessionContent(&m)
        let header = Array((image + [UInt8](repeating: 0, count: 16)).prefix(16))
        let uid = Array(header[0..<3]) + Array(header[4..<8])
        let levels = UIDLevelData.levels(forUID: uid) ?? []
        // Every frame through its codec: the reader's commands, the tag's answers.
        func r(_ command: ISO14443ACommand) -> FuzzFrame {
            let (bytes, bits) = command.encode()
            return .data(.reader, technology, payload: bytes, crc: ISO14443ACommand.carriesCRC(bytes, lastByteBits: bits), lastByteBits: bits)
        }
        func r(_ command: Type2Command) -> FuzzFrame { .data(.reader, technology, payload: command.encode(), crc: true) }
        func t(_ p: [UInt8], crc: Bool = true) -> FuzzFrame { .data(.tag, technology, payload: p, crc: crc) }
        func t(_ answer: Type2Response) -> FuzzFrame {
            let (bytes, bits) = answer.encode()
            return .data(.tag, technology, payload: bytes, crc: answer.carriesCRC, lastByteBits: bits)
        }
        let sak = SAK(0x00)
        var frames: [FuzzFrame] = [FuzzFrame(.fieldOn, technology), r(.reqa), t(ATQA(value: 0x0044).encode(), crc: false)]
        for (i, level) in zip([CascadeLevel.one, .two], levels) {
            frames += [r(.anticollision(level: i, nvb: NVB(bytes: 2, bits: 0), knownBits: [])), t(level.bytes + [level.bcc], crc: false),
                       r(.select(level: i, uid: level)), t((i == .one ? SAK.cascade(sak) : sak).encode())]
        }
        if m.random.chance(60) {
            frames += [r(.getVersion), t(.version(Type2Version(bytes: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, m.random.pick(0x0F, 0x11, 0x13), 0x03])))]
        }
        if m.random.chance(20) { frames += [r(.pwdAuth(password: m.random.bytes(4))), t(.pack([0x80, 0x80]))] }
        let pages = image.count / 4
        if m.random.chance(50) {
            var page = 3
            while page < min(pages, 3 + 4 * 12) {
                frames += [r(.read(page: UInt8(page))), t(Self.read(image, page: page))]
                page += 4
            }
        } else {
            let end = min(pages - 1, 3 + m.random.below(40))
            let lower = min(12, image.count)
            frames += [r(.fastRead(start: 0x03, end: UInt8(clamping: max(3, end)))), t(Array(image[lower..<max(lower, min(image.count, (end + 1) * 4))]))]
        }
        if m.random.chance(20) { frames += [r(.write(page: 0x04, data: m.random.bytes(4))), t(.acknowledgement(.ack))] }
        if m.random.chance(70) { frames.append(r(.hlta)) }
        frames.append(FuzzFrame(.fieldOff, technology))
        return frames
    }

    /// READ's answer: 4 pages from `page`, wrapping to page 0 at the end (NTAG21x datasheet §10.2).
    static func read(_ image: [UInt8], page: Int) -> [UInt8] {
        guard !image.isEmpty else { return [UInt8](repeating: 0, count: 16) }
        return (0..<16).map { image[(page * 4 + $0) % image.count] }
    }

    static func command(_ r: inout FuzzRandom) -> (payload: [UInt8], bits: UInt8, crc: Bool) {
        let page = r.pick(0, 3, 4, 5, 0x29, 0x2B, 0x83, 0x86, r.byte())
        let iso: ISO14443ACommand? = r.below(3) == 0 ? r.pick(.reqa, .wupa, .hlta, .rats(fsdi: UInt8(r.below(16)), cid: UInt8(r.below(16))),
            .anticollision(level: r.pick(.one, .two, .three), nvb: NVB(r.pick(0x20, 0x30, 0x41, 0x67, r.byte())), knownBits: r.bytes(r.below(5))),
            .select(level: r.pick(.one, .two), uid: UIDLevelData(bytes: r.bytes(4))), .pps(cid: 0, pps0: r.pick(0x11, 0x01), pps1: r.pick(nil, 0x0A))) : nil
        if let iso {
            let (bytes, bits) = iso.encode()
            return (bytes, bits, ISO14443ACommand.carriesCRC(bytes, lastByteBits: bits))
        }
        let command: Type2Command = r.pick(.getVersion, .read(page: page), .fastRead(start: page, end: r.pick(page, page &+ 4, 0xFF, r.byte())),
            .write(page: page, data: r.bytes(4)), .compatibilityWrite(page: page), .readCounter(counter: UInt8(r.below(4))),
            .incrementCounter(counter: 2, increment: UInt32(r.below(1 << 24)), ignored: 0), .pwdAuth(password: r.pick([0xFF, 0xFF, 0xFF, 0xFF], r.bytes(4))),
            .readSignature(address: 0), .writeSignature(block: UInt8(r.below(9)), data: r.bytes(4)), .lockSignature(argument: UInt8(r.below(4))),
            .checkTearingEvent(counter: UInt8(r.below(4))), .vcsl(installationIdentifier: r.bytes(16), pcdCapabilities: r.bytes(4)),
            .sectorSelect, .authenticate(keyNumber: 0), .authenticateContinue(r.bytes(16)))
        if r.chance(8) { return ([r.pick(0x02, 0x03, 0x0A, 0xB2, 0xC2)] + r.bytes(r.below(12)), 8, true) }   // ISO-DEP blocks
        return (command.encode(), 8, true)
    }

    func readerFrame(_ m: inout MutationContext) -> FuzzFrame {
        let c = Self.command(&m.random)
        return .data(.reader, technology, payload: c.payload, crc: c.crc, lastByteBits: c.bits)
    }

    func mutateReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        let payload = Array(frame.payloadDroppingValidCRC())
        guard let command = try? Type2Command.decode(payload) else {
            // Not a Type 2 command: an activation frame gets a new one of its kind.
            guard (try? ISO14443ACommand.decode(payload, lastByteBits: frame.lastByteBits)) != nil else { return nil }
            return readerFrame(&m)
        }
        let b = FuzzValues.u8(&m.random)
        let mutated: Type2Command
        switch command {
        case .read: mutated = .read(page: b)
        case .fastRead(let s, let e): mutated = m.random.bool() ? .fastRead(start: b, end: e) : .fastRead(start: s, end: b)
        case .write(let p, let d): mutated = m.random.bool() ? .write(page: b, data: d) : .write(page: p, data: m.random.bytes(4))
        case .pwdAuth: mutated = .pwdAuth(password: m.random.bytes(4))
        case .readCounter: mutated = .readCounter(counter: b)
        case .incrementCounter(let n, _, let x): mutated = .incrementCounter(counter: n, increment: UInt32(truncatingIfNeeded: m.random.next()) & 0xFF_FFFF, ignored: x)
        case .compatibilityWrite: mutated = .compatibilityWrite(page: b)
        case .readSignature: mutated = .readSignature(address: b)
        case .checkTearingEvent: mutated = .checkTearingEvent(counter: b)
        default: return readerFrame(&m)
        }
        return .data(.reader, technology, payload: mutated.encode(), crc: !frame.crcStripped)
    }

    /// Frames in clear decode one by one; a MIFARE Classic authentication opened with a
    /// published key is followed, and the frames after it must decrypt to Classic commands.
    func readerFramesDecode(_ frames: [FuzzFrame]) -> Bool {
        MIFAREClassicSessions.readerFramesDecode(frames) { decodes($0) }
    }

    func decodes(_ frame: FuzzFrame) -> Bool {
        if frame.crcStripped || !ISO14443ACommand.carriesCRC(frame.bytes, lastByteBits: frame.lastByteBits) {
            return (try? ISO14443ACommand.decode(frame.bytes, lastByteBits: frame.lastByteBits)) != nil || (try? Type2Command.decode(frame.bytes)) != nil
        }
        guard let payload = frame.payload(ifValidCRC: nil).map(Array.init) else { return false }
        return (try? ISO14443ACommand.decode(payload)) != nil || (try? Type2Command.decode(payload)) != nil
            || (try? MIFAREClassicCommand.decode(payload)) != nil || [0x02, 0x03, 0x0A, 0xB2, 0xC2].contains(payload.first ?? 0)
    }

    func breakReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        var payload = Array(frame.payloadDroppingValidCRC())
        guard !payload.isEmpty else { return nil }
        // A command one byte short or long of its fixed length, or CRC where none belongs.
        if m.random.bool() { payload.removeLast() } else { payload.append(m.random.byte()) }
        return .data(.reader, technology, payload: payload, crc: m.random.chance(80), lastByteBits: m.random.chance(10) ? 7 : 8)
    }

    func answer(to request: FuzzFrame?, _ m: inout MutationContext) -> FuzzFrame? {
        let payload = request.map { Array($0.payloadDroppingValidCRC()) } ?? []
        func t(_ p: [UInt8], crc: Bool = true) -> FuzzFrame { .data(.tag, technology, payload: p, crc: crc) }
        // Answers through their codecs, as the session seeds are built.
        func t(_ answer: Type2Response) -> FuzzFrame {
            let (bytes, bits) = answer.encode()
            return .data(.tag, technology, payload: bytes, crc: answer.carriesCRC, lastByteBits: bits)
        }
        if let iso = try? ISO14443ACommand.decode(payload, lastByteBits: request?.lastByteBits ?? 8) {
            switch iso {
            case .reqa, .wupa: return t(ATQA(value: m.random.pick(0x0044, 0x0004, 0x0042)).encode(), crc: false)
            case .anticollision:
                let level = UIDLevelData(bytes: [ISO14443A.cascadeTag] + m.random.bytes(3))
                return t(level.bytes + [level.bcc], crc: false)
            case .select: return t(SAK(m.random.pick(0x00, 0x04, 0x20, 0x08)).encode())
            case .rats: return t(ATS(t0: 0x78, ta1: 0x80, tb1: 0x70, tc1: 0x02).encode())
            default: return nil
            }
        }
        let acknowledgements: [Type2Acknowledgement] = [.ack, .nak(.invalidArgument), .nak(.parityOrCRCError), .nak(.authenticationCounterOverflow)]
        switch try? Type2Command.decode(payload) {
        case .read?: return t(.pages(firstPage: 0, data: Array(memory.generate(&m).prefix(16))))
        case .fastRead(let s, let e)?: return t(.pages(firstPage: s, data: m.random.bytes(min(252, 4 * max(1, Int(e) - Int(s) + 1)))))
        case .write?, .compatibilityWrite?, .writeSignature?, .incrementCounter?: return t(.acknowledgement(m.random.pick(acknowledgements[0], acknowledgements[1], acknowledgements[2], acknowledgements[3])))
        case .getVersion?: return t(.version(Type2Version(bytes: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, m.random.pick(0x0F, 0x11, 0x13, 0x0B), 0x03])))
        case .pwdAuth?: return t(.pack(m.random.bytes(2)))
        case .readSignature?: return t(.signature(m.random.bytes(32)))
        case .readCounter?: return t(m.random.bytes(3))
        case .checkTearingEvent?: return t(.tearingFlag(0xBD))
        default: return t(.acknowledgement(m.random.pick(acknowledgements[1], acknowledgements[0], acknowledgements[2])))
        }
    }
}
