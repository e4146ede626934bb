import NFCCore

/// An emulated MIFARE Classic Mini/1K/2K/4K (NXP MF1S50/MF1S70; protocols-wave2.md §1–2):
/// Crypto1 authentication with the keys of its sector trailers, the access conditions of every
/// block enforced, value operations through the transfer buffer, HALT, and optionally the Gen1a
/// backdoor. Commands are decoded and answers built with the same `MIFAREClassicCommand`
/// codec and `Crypto1` the dissector uses.
public final class MIFAREClassicTag: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var dump: MIFAREClassicDump
    public private(set) var listener: ISO14443AListener

    enum Authentication {
        case none
        /// nT sent; the reader's {nR}{aR} is next.
        case challenged(cipher: Crypto1, nt: UInt32, sector: Int, keyType: MIFAREClassicCommand.KeyType)
        case authenticated(sector: Int, keyType: MIFAREClassicCommand.KeyType)
    }

    private(set) var authentication = Authentication.none
    /// The running stream once authenticated: every frame both ways goes through it.
    private var cipher: Crypto1?
    private var continuation = MIFAREClassicCommand.Continuation.none
    /// The transfer buffer: a value and the address bytes it came with.
    private var transferBuffer: (value: Int32, address: UInt8)?
    private var pendingOperation: (code: MIFAREClassicCommand.Code, block: Int, value: Int32, address: UInt8)?
    private var writeBlock: Int?
    private var nonceIndex = 0
    /// Authentications since power-on.
    private var generated = 0
    /// Gen1a: 0 locked, 1 after the 7-bit `40`, 2 unlocked by `43`.
    private var magicStage = 0

    public init?(_ dump: MIFAREClassicDump) {
        guard let listener = ISO14443AListener(uid: dump.uid, atqa: dump.atqa, sak: dump.sak) else { return nil }
        self.dump = dump
        self.listener = listener
    }

    public var memory: MIFAREClassicMemory { dump.memory }

    /// Whether frames are encrypted now (an authentication under way or done).
    public var isEncrypting: Bool {
        if case .none = authentication { return false }
        return true
    }

    public var summary: String { dump.summary }

    public func savedDump() -> [UInt8]? { Array(MIFAREClassicDumps.flipperText(dump).utf8) }

    public func fieldOn() { reset() }
    public func fieldOff() { reset() }

    private func reset() {
        listener.reset()
        endCrypto()
        magicStage = 0
        generated = 0
    }

    private func endCrypto() {
        authentication = .none
        cipher = nil
        continuation = .none
        pendingOperation = nil
        writeBlock = nil
    }

    private func fail() {
        listener.fail()
        endCrypto()
    }

    // MARK: nonces

    /// The next tag nonce: the recorded ones first (a card rebuilt from a trace), then the
    /// card generator's outputs (`MIFARENonce.emulated`), counted from power-on.
    private func nextNonce() -> UInt32 {
        if nonceIndex < dump.nonces.count {
            defer { nonceIndex += 1 }
            return dump.nonces[nonceIndex]
        }
        defer { generated += 1 }
        return MIFARENonce.emulated(generated)
    }

    // MARK: frames

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso14443a else { return nil }
        if case .challenged(var c, let nt, let sector, let keyType) = authentication {
            guard frame.bytes.count == 8, frame.lastByteBits == 8 else {
                fail()
                return nil
            }
            let encNR = MIFARENonce.value(Array(frame.bytes[0..<4])), encAR = MIFARENonce.value(Array(frame.bytes[4..<8]))
            _ = c.wordDecrypting(encNR)
            guard encAR ^ c.word() == MIFARENonce.successor(nt, 64) else {
                fail()   // a wrong answer gets no answer
                return nil
            }
            let (sent, parity) = c.encrypt(MIFARENonce.bytes(MIFARENonce.successor(nt, 96)))
            authentication = .authenticated(sector: sector, keyType: keyType)
            cipher = c
            return Frame(.data(.tagToReader), technology: technology, bytes: sent, parityErrors: Crypto1.parityErrors(sent: sent, parity: parity))
        }
        if var c = cipher, frame.lastByteBits == 8 {
            // Encrypted (short frames never are): decrypt, check the CRC on the plain text.
            var plain = frame
            plain.bytes = c.crypt(frame.bytes)
            if frame.crcStripped { _ = c.crypt([0, 0]) }
            cipher = c
            guard let payload = plain.payload(ifValidCRC: .a) else { return nak(0x1, to: frame) }
            if (try? ISO14443ACommand.decode(Array(payload))) == .hlta {
                _ = listener.handle(Array(payload), lastByteBits: 8)
                endCrypto()
                return nil
            }
            return execute(Array(payload), frame: frame)
        }
        return plainFrame(frame)
    }

    private func plainFrame(_ frame: Frame) -> Frame? {
        let bytes = frame.bytes
        if dump.gen1a {
            if bytes == [0x40], frame.lastByteBits == 7, listener.state == .idle || listener.state == .halt {
                magicStage = 1
                return acknowledgement(0x0A, to: frame)
            }
            if bytes == [0x43], frame.lastByteBits == 8, magicStage == 1 {
                magicStage = 2
                return acknowledgement(0x0A, to: frame)
            }
        }
        let activation = ISO14443ACommand.recognises(bytes, lastByteBits: frame.lastByteBits)
        let expectsCRC = activation ? ISO14443ACommand.carriesCRC(bytes, lastByteBits: frame.lastByteBits) : true
        var payload = bytes
        if expectsCRC {
            guard let p = frame.payload(ifValidCRC: .a) else {
                if listener.state == .active || magicStage == 2 { return nak(0x1, to: frame) }
                return nil
            }
            payload = Array(p)
        }
        if magicStage == 2 { return execute(payload, frame: frame) }
        switch listener.handle(payload, lastByteBits: frame.lastByteBits) {
        case .answer(let b, let crc):
            return answer(b, crc: crc, to: frame)
        case .silence:
            if listener.state != .active { endCrypto() }
            return nil
        case .command:
            return execute(payload, frame: frame)
        }
    }

    // MARK: answers

    /// Encrypted when a session is authenticated: the plain bytes and CRC go through the
    /// stream, each parity bit is the plain byte's, encrypted (§2.5).
    private func answer(_ payload: [UInt8], crc: Bool, to request: Frame) -> Frame {
        var frame = Frame(.data(.tagToReader), technology: technology, crcStripped: crc && request.crcStripped)
        frame.setPayload(payload, crc: crc)
        guard var c = cipher else { return frame }
        let plain = crc && request.crcStripped ? CRCBytes(payload: payload, kind: .a).bytes : frame.bytes
        let (sent, parity) = c.encrypt(plain)
        frame.bytes = Array(sent.prefix(frame.bytes.count))
        frame.parityErrors = Crypto1.parityErrors(sent: frame.bytes, parity: parity)
        cipher = c
        return frame
    }

    private func acknowledgement(_ value: UInt8, to request: Frame) -> Frame {
        let a = MIFAREClassicAcknowledgement(value)
        var frame = Frame(.data(.tagToReader), technology: technology, bytes: [a.value], lastByteBits: 4)
        if var c = cipher {
            frame.bytes = [c.crypt(bits: 4, of: a.value)]
            cipher = c
        }
        return frame
    }

    private func ack(to frame: Frame) -> Frame { acknowledgement(0x0A, to: frame) }

    /// A refusal: NAK, and the card leaves the session (MF1S50 §9.3: a NAK ends the command and
    /// the authentication).
    private func nak(_ value: UInt8, to frame: Frame) -> Frame {
        let answer = acknowledgement(value, to: frame)
        fail()
        return answer
    }

    // MARK: commands

    private func execute(_ payload: [UInt8], frame: Frame) -> Frame? {
        let pending = continuation
        continuation = .none
        guard let command = try? MIFAREClassicCommand.decode(payload, continuation: pending) else {
            fail()
            return nil
        }
        let magic = magicStage == 2
        switch command {
        case .authenticate(let keyType, let block):
            guard Int(block) < memory.size.blockCount else { return nak(0x4, to: frame) }
            let sector = MIFAREClassicLayout.sector(ofBlock: Int(block))
            let nt = nextNonce()
            var c = Crypto1(key: memory.key(keyType, sector: sector))
            let feed = MIFARENonce.bytes(MIFARENonce.value(Array(dump.uid.suffix(4))) ^ nt)
            var reply = Frame(.data(.tagToReader), technology: technology, bytes: MIFARENonce.bytes(nt))
            if cipher != nil {
                // Nested: nT goes out encrypted under the new key's first keystream word (§2.5).
                let (sent, parity) = c.encrypt(MIFARENonce.bytes(nt), input: feed)
                reply.bytes = sent
                reply.parityErrors = Crypto1.parityErrors(sent: sent, parity: parity)
            } else {
                c.word(input: MIFARENonce.value(feed))
            }
            cipher = nil
            authentication = .challenged(cipher: c, nt: nt, sector: sector, keyType: keyType)
            return reply
        case .read(let block):
            let b = Int(block)
            guard b < memory.size.blockCount else { return nak(0x4, to: frame) }
            if magic { return answer(memory.blocks[b], crc: true, to: frame) }
            guard let key = permitted(block: b) else { return nak(0x4, to: frame) }
            if MIFAREClassicLayout.isTrailer(b) { return answer(trailerAsRead(b, key: key), crc: true, to: frame) }
            guard MIFAREClassicAccessBits.allows(.read, condition: memory.condition(ofBlock: b)).contains(key) else { return nak(0x4, to: frame) }
            return answer(memory.blocks[b], crc: true, to: frame)
        case .write(let block):
            let b = Int(block)
            guard b < memory.size.blockCount else { return nak(0x4, to: frame) }
            if !magic {
                guard b != 0, let key = permitted(block: b) else { return nak(0x4, to: frame) }
                if !MIFAREClassicLayout.isTrailer(b) {
                    guard MIFAREClassicAccessBits.allows(.write, condition: memory.condition(ofBlock: b)).contains(key) else { return nak(0x4, to: frame) }
                }
            }
            writeBlock = b
            continuation = .writeData(block: block)
            return ack(to: frame)
        case .writeData(let data):
            guard let b = writeBlock else { fail(); return nil }
            writeBlock = nil
            if magic || !MIFAREClassicLayout.isTrailer(b) {
                dump.memory.blocks[b] = data
                return ack(to: frame)
            }
            return writeTrailer(b, data, frame: frame)
        case .decrement(let block), .increment(let block), .restore(let block):
            let b = Int(block)
            guard b < memory.size.blockCount, !MIFAREClassicLayout.isTrailer(b), let key = permitted(block: b) else { return nak(0x4, to: frame) }
            let code = command.code!
            let op: MIFAREClassicAccessBits.DataOperation = code == .increment ? .increment : .decrement
            guard MIFAREClassicAccessBits.allows(op, condition: memory.condition(ofBlock: b)).contains(key),
                  let value = MIFAREClassicValueBlock(memory.blocks[b]) else { return nak(0x4, to: frame) }
            pendingOperation = (code, b, value.value, value.address)
            continuation = .valueOperand(code, block: block)
            return ack(to: frame)
        case .valueOperand(let operand):
            guard let op = pendingOperation else { fail(); return nil }
            pendingOperation = nil
            switch op.code {
            case .increment: transferBuffer = (op.value &+ operand, op.address)
            case .decrement: transferBuffer = (op.value &- operand, op.address)
            default: transferBuffer = (op.value, op.address)
            }
            return nil   // no answer on success
        case .transfer(let block):
            let b = Int(block)
            guard b < memory.size.blockCount, !MIFAREClassicLayout.isTrailer(b), let key = permitted(block: b), let buffer = transferBuffer,
                  MIFAREClassicAccessBits.allows(.decrement, condition: memory.condition(ofBlock: b)).contains(key) else { return nak(0x4, to: frame) }
            dump.memory.blocks[b] = MIFAREClassicValueBlock(value: buffer.value, address: buffer.address).encode()
            return ack(to: frame)
        case .halt:
            endCrypto()
            return nil
        case .personalizeUIDUsage, .setModType:
            return nak(0x4, to: frame)   // Classic EV1 personalisation is not emulated
        }
    }

    /// The key an operation on `block` runs under: the block must be in the authenticated
    /// sector, and a key B that can be read is no key (NXP: the card then refuses memory access; protocols-wave2.md §1.3).
    private func permitted(block: Int) -> MIFAREClassicCommand.KeyType? {
        guard case .authenticated(let sector, let keyType) = authentication, MIFAREClassicLayout.sector(ofBlock: block) == sector else { return nil }
        let trailer = memory.condition(ofBlock: MIFAREClassicLayout.trailer(ofSector: sector))
        if keyType == .b && MIFAREClassicAccessBits.keyBReadable(trailer) { return nil }
        return keyType
    }

    /// A trailer as READ returns it: key A never, access bits and key B when the condition lets
    /// this key read them, zeros otherwise.
    private func trailerAsRead(_ b: Int, key: MIFAREClassicCommand.KeyType) -> [UInt8] {
        let t = memory.blocks[b]
        let c = memory.condition(ofBlock: b)
        var out = [UInt8](repeating: 0, count: 16)
        if MIFAREClassicAccessBits.allows(.accessRead, trailerCondition: c).contains(key) { out.replaceSubrange(MIFAREClassicTrailer.Layout.accessAndGPB.range, with: t[MIFAREClassicTrailer.Layout.accessAndGPB.range]) }
        if MIFAREClassicAccessBits.allows(.keyBRead, trailerCondition: c).contains(key) { out.replaceSubrange(MIFAREClassicTrailer.Layout.keyB.range, with: t[MIFAREClassicTrailer.Layout.keyB.range]) }
        return out
    }

    /// A trailer WRITE changes the parts the condition lets this key write; refused when none.
    private func writeTrailer(_ b: Int, _ data: [UInt8], frame: Frame) -> Frame {
        guard case .authenticated(_, let key) = authentication else { return nak(0x4, to: frame) }
        let c = memory.condition(ofBlock: b)
        var t = memory.blocks[b]
        var any = false
        if MIFAREClassicAccessBits.allows(.keyAWrite, trailerCondition: c).contains(key) { t.replaceSubrange(MIFAREClassicTrailer.Layout.keyA.range, with: data[MIFAREClassicTrailer.Layout.keyA.range]); any = true }
        if MIFAREClassicAccessBits.allows(.accessWrite, trailerCondition: c).contains(key) { t.replaceSubrange(MIFAREClassicTrailer.Layout.accessAndGPB.range, with: data[MIFAREClassicTrailer.Layout.accessAndGPB.range]); any = true }
        if MIFAREClassicAccessBits.allows(.keyBWrite, trailerCondition: c).contains(key) { t.replaceSubrange(MIFAREClassicTrailer.Layout.keyB.range, with: data[MIFAREClassicTrailer.Layout.keyB.range]); any = true }
        guard any else { return nak(0x4, to: frame) }
        dump.memory.blocks[b] = t
        return ack(to: frame)
    }
}
