import NFCCore
import NFCCrypto

/// An emulated NTAG213/215/216, MIFARE Ultralight EV1 (MF0UL11/21), Ultralight C or
/// Ultralight AES that behaves like the NXP datasheets (protocols.md §2.6). Commands are decoded and answers encoded with the same
/// `Type2Command` / `Type2Response` codec the dissector uses.
public final class Type2Tag: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var memory: Type2TagMemory
    public private(set) var listener: ISO14443AListener
    /// PWD_AUTH or AUTHENTICATE succeeded in this activation.
    public private(set) var authenticated = false
    /// An AUTHENTICATE between its challenge and the reader's answer.
    private var pendingAuthentication: PendingAuthentication?
    /// AUTHENTICATE challenges drawn so far (seeds the next RndB).
    private var challengesDrawn: UInt64 = 0

    private struct PendingAuthentication {
        var auth: UltralightAuthentication?
        var rndB: [UInt8]?
        var ekRndB: [UInt8]
        var recorded: UltralightExchange?
    }
    private var continuation = Type2Command.Continuation.none
    private var compatibilityWritePage: UInt8?
    private var nfcCounterCountedThisSession = false

    public init?(memory: Type2TagMemory, atqa: ATQA = ATQA(value: 0x0044), sak: SAK = SAK(0x00)) {
        guard let listener = ISO14443AListener(uid: memory.uid, atqa: atqa, sak: sak) else { return nil }
        self.memory = memory
        self.listener = listener
    }

    public var model: Type2TagModel { memory.model }

    public var summary: String { "\(model.rawValue), UID \(Hex.string(memory.uid))" }

    public func savedDump() -> [UInt8]? {
        Array(Type2Dumps.flipperText(Type2Dump(memory: memory, atqa: listener.atqa, sak: listener.finalSAK)).utf8)
    }

    public func fieldOn() { powerReset() }

    public func fieldOff() { powerReset() }

    private func powerReset() {
        listener.reset()
        authenticated = false
        pendingAuthentication = nil
        continuation = .none
        compatibilityWritePage = nil
        nfcCounterCountedThisSession = false
    }

    /// Leaves the ACTIVE state after an error: IDLE or HALT, authentication and pending parts lost.
    private func fail() {
        listener.fail()
        authenticated = false
        pendingAuthentication = nil
        continuation = .none
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso14443a else { return nil }
        let bytes = frame.bytes
        let activation = ISO14443ACommand.recognises(bytes, lastByteBits: frame.lastByteBits)
        // Every frame but short frames and ANTICOLLISION carries CRC_A (§1.2).
        let expectsCRC = activation ? ISO14443ACommand.carriesCRC(bytes, lastByteBits: frame.lastByteBits) : true
        var payload = bytes
        if expectsCRC {
            guard let p = frame.payload(ifValidCRC: .a) else {
                // A corrupted frame: the PICC never answers in READY (§1.7); an active NTAG says NAK 1.
                if listener.state == .active {
                    fail()
                    return nak(.parityOrCRCError, to: frame)
                }
                return nil
            }
            payload = Array(p)
        }
        let inCommandState = listener.state == .active
        switch listener.handle(payload, lastByteBits: frame.lastByteBits) {
        case .answer(let b, let crc):
            return answer(b, crc: crc, to: frame)
        case .silence:
            if inCommandState && listener.state != .active { authenticated = false }   // HLTA ends authentication
            return nil
        case .command:
            return execute(payload, frame: frame)
        }
    }

    /// Every answer of the tag, written by its codec (`Type2Response.encode`).
    private func answer(_ response: Type2Response, to frame: Frame) -> Frame {
        let (bytes, bits) = response.encode()
        return answer(bytes, lastByteBits: bits, crc: response.carriesCRC, to: frame)
    }

    private func nak(_ n: Type2Acknowledgement.NAK, to frame: Frame) -> Frame {
        answer(.acknowledgement(.nak(n)), to: frame)
    }

    private func ack(to frame: Frame) -> Frame {
        answer(.acknowledgement(.ack), to: frame)
    }

    /// A refusal: NAK, then IDLE/HALT (datasheet §9.3 and §8.4).
    private func refuse(_ n: Type2Acknowledgement.NAK, to frame: Frame) -> Frame {
        fail()
        return nak(n, to: frame)
    }

    private func execute(_ payload: [UInt8], frame: Frame) -> Frame? {
        let pending = continuation
        continuation = .none
        let authenticationStep = pendingAuthentication
        pendingAuthentication = nil
        guard let command = try? Type2Command.decode(payload, continuation: pending), supports(command) else {
            // Unknown or malformed data in ACTIVE is an error: no answer, back to IDLE/HALT (§8.4.4).
            fail()
            return nil
        }
        switch command {
        case .getVersion:
            return answer(.version(Type2Version(bytes: memory.version)), to: frame)
        case .read(let page):
            return read(Int(page), frame: frame)
        case .fastRead(let start, let end):
            return fastRead(Int(start), Int(end), frame: frame)
        case .write(let page, let data):
            return write(Int(page), data, frame: frame)
        case .compatibilityWrite(let page):
            guard let refusal = writeRefusal(Int(page)) else {
                continuation = .compatibilityWriteData(page: page)
                compatibilityWritePage = page
                return ack(to: frame)
            }
            return refuse(refusal, to: frame)
        case .compatibilityWriteData(let data):
            guard let page = compatibilityWritePage else { fail(); return nil }
            compatibilityWritePage = nil
            return write(Int(page), Array(data.prefix(4)), frame: frame)   // only the first 4 bytes are written (§10.5)
        case .readCounter(let n):
            return readCounter(Int(n), frame: frame)
        case .incrementCounter(let n, let increment, _):
            guard n <= 2 else { return refuse(.invalidArgument, to: frame) }
            let value = UInt64(memory.counters[Int(n)]) + UInt64(increment)
            // MF0ULx1 datasheet §8.7: the counter cannot overflow. PM3 answers NAK 4 here, Flipper
            // NAK 0 (protocols.md §9 #4); the datasheet gives no code, we follow PM3's "not allowed".
            guard value <= 0xFF_FFFF else { return refuse(.authenticationCounterOverflow, to: frame) }
            memory.counters[Int(n)] = UInt32(value)
            return ack(to: frame)
        case .pwdAuth(let password):
            return pwdAuth(password, frame: frame)
        case .readSignature:
            return answer(.signature(memory.signature), to: frame)
        case .checkTearingEvent(let n):
            guard n <= 2 else { return refuse(.invalidArgument, to: frame) }
            return answer(.tearingFlag(memory.tearing[Int(n)]), to: frame)
        case .vcsl:
            return answer(.vctid(memory.configuration?.vctid ?? 0x05), to: frame)
        case .authenticate(let keyNumber):
            return authenticate(keyNumber: keyNumber, frame: frame)
        case .authenticateContinue(let message):
            guard let step = authenticationStep else { fail(); return nil }
            return authenticateContinue(message, step, frame: frame)
        default:
            fail()
            return nil
        }
    }

    /// The command set of the model (protocols.md §2.1): every Type 2 tag has READ and WRITE;
    /// NTAG21x and Ultralight EV1 add GET_VERSION, FAST_READ, READ_CNT, READ_SIG and PWD_AUTH;
    /// only EV1 has INCR_CNT, CHECK_TEARING_EVENT and VCSL (Flipper answering CHECK_TEARING_EVENT
    /// on NTAG is §9 #5; we follow the datasheet).
    private func supports(_ c: Type2Command) -> Bool {
        let ev1 = model == .ultralightEV1_11 || model == .ultralightEV1_21
        switch c {
        case .read, .write, .compatibilityWrite, .compatibilityWriteData:
            return true
        case .getVersion, .fastRead, .readCounter, .readSignature:
            return model.version != nil
        case .pwdAuth:
            return model.hasPasswordProtection
        case .incrementCounter, .checkTearingEvent, .vcsl:
            return ev1
        case .authenticate, .authenticateContinue:
            return model == .ultralightC || model == .ultralightAES
        default:
            return false
        }
    }

    // MARK: reading

    private var readProtectedFrom: Int? {
        guard !authenticated else { return nil }
        if let ulc = memory.ultralightCProtection { return ulc.reads ? ulc.fromPage : nil }
        guard let config = memory.configuration, config.readProtected else { return nil }
        return Int(config.auth0)
    }

    /// The pages READ returns: an Ultralight C never returns its key (pages 2C–2F): a READ
    /// there is refused and a READ before it rolls over to page 0 at 2C (MF0ICU2 READ).
    private var readablePages: Int { model == .ultralightC ? (memory.map.pages(of: .key)?.lowerBound ?? memory.map.totalPages) : memory.map.totalPages }

    /// A page as READ returns it: PWD and PACK are never readable (§8.8.1).
    private func readable(_ p: Int) -> [UInt8] {
        let map = memory.map
        if p == map.pwdPage || p == map.packPage { return [0, 0, 0, 0] }
        return memory.page(p)
    }

    private func countNFCRead() {
        guard !nfcCounterCountedThisSession, model.isNTAG, let config = memory.configuration, config.nfcCounterEnabled else { return }
        nfcCounterCountedThisSession = true
        memory.counters[2] = min(memory.counters[2] + 1, 0xFF_FFFF)   // saturates (§8.7)
    }

    private func read(_ page: Int, frame: Frame) -> Frame {
        guard page < readablePages else { return refuse(.invalidArgument, to: frame) }
        if let auth0 = readProtectedFrom, page >= auth0 { return refuse(.invalidArgument, to: frame) }
        countNFCRead()
        var data: [UInt8] = []
        for i in 0..<4 {
            var p = (page + i) % readablePages   // roll-over at the last page (§10.2)
            // Read-protected area: the roll-over happens at AUTH0 instead (§10.2).
            if let auth0 = readProtectedFrom, page + i >= auth0 { p = (page + i - auth0) % max(1, auth0) }
            data += readable(p)
        }
        return answer(.pages(firstPage: UInt8(page), data: data), to: frame)
    }

    private func fastRead(_ start: Int, _ end: Int, frame: Frame) -> Frame {
        let map = memory.map
        guard start <= end, end <= map.lastPage else { return refuse(.invalidArgument, to: frame) }
        if let auth0 = readProtectedFrom, end >= auth0 { return refuse(.invalidArgument, to: frame) }
        countNFCRead()
        var data: [UInt8] = []
        data.reserveCapacity((end - start + 1) * 4)
        for p in start...end { data += readable(p) }
        return answer(.pages(firstPage: UInt8(start), data: data), to: frame)
    }

    // MARK: writing

    /// Why a WRITE of `page` is refused, or nil when it may proceed.
    private func writeRefusal(_ page: Int) -> Type2Acknowledgement.NAK? {
        let map = memory.map
        guard page <= map.lastPage, page >= 2 else { return .invalidArgument }   // pages 0–1: UID, read-only
        if let ulc = memory.ultralightCProtection, page >= ulc.fromPage, !authenticated { return .invalidArgument }
        if let config = memory.configuration {
            if page >= Int(config.auth0), !authenticated { return .invalidArgument }   // AUTH0 guards writes whatever PROT says
            if config.configLocked, page == map.cfg0Page || page == map.cfg1Page { return .invalidArgument }   // CFGLCK
        }
        if memory.isLocked(page) { return .invalidArgument }
        return nil
    }

    private func write(_ page: Int, _ data: [UInt8], frame: Frame) -> Frame {
        if let refusal = writeRefusal(page) { return refuse(refusal, to: frame) }
        let map = memory.map
        let old = memory.page(page)
        switch page {
        case 2:
            // Only the lock bytes are written, OR-ed in; the block-locking bits freeze their groups (§8.5.2).
            var new = old
            let bl = old[2] & 0x07
            var add2 = data[2]
            if bl & 0x01 != 0 { add2 &= ~0x08 }
            if bl & 0x02 != 0 { add2 &= ~0xF0 }
            new[2] |= add2
            if bl & 0x04 == 0 { new[3] |= data[3] }
            memory.setPage(2, new)
        case 3:
            memory.setPage(3, zip(old, data).map { $0 | $1 })   // CC bytes are OTP (§8.5.6)
        case map.dynamicLockPage:
            var new = old
            for i in 0..<3 { new[i] |= data[i] }
            memory.setPage(page, new)
        default:
            memory.setPage(page, data)
        }
        return ack(to: frame)
    }

    // MARK: counters and authentication

    private func readCounter(_ n: Int, frame: Frame) -> Frame {
        if model.isNTAG {
            // NTAG21x: only counter 2, only when NFC_CNT_EN, and behind PWD when NFC_CNT_PWD_PROT (§10.6).
            guard n == 2, let config = memory.configuration, config.nfcCounterEnabled else { return refuse(.invalidArgument, to: frame) }
            if config.nfcCounterPasswordProtected && !authenticated { return refuse(.invalidArgument, to: frame) }
        } else {
            guard n <= 2 else { return refuse(.invalidArgument, to: frame) }
        }
        let v = memory.counters[n]
        return answer(.counter(v), to: frame)
    }

    private func pwdAuth(_ password: [UInt8], frame: Frame) -> Frame? {
        guard let config = memory.configuration, let pwd = memory.password, let pack = memory.pack else {
            fail()
            return nil
        }
        let limit = Int(config.authenticationLimit)
        // Once AUTHLIM wrong attempts are reached, every PWD_AUTH is refused for good (§8.8.3).
        if limit > 0 && memory.failedAuthentications >= limit { return refuse(.authenticationCounterOverflow, to: frame) }
        guard password == pwd else {
            if limit > 0 { memory.failedAuthentications += 1 }
            // The datasheet only says NAK; Flipper and PM3 send NAK 0 (protocols.md §9 #3).
            return refuse(.invalidArgument, to: frame)
        }
        memory.failedAuthentications = 0
        authenticated = true
        return answer(.pack(pack), to: frame)
    }

    // MARK: Ultralight C / AES authentication

    /// The key AUTHENTICATE `keyNumber` uses: the 3DES key of pages 2C–2F (key 0 only) or an AES key.
    private func authentication(keyNumber: UInt8) -> UltralightAuthentication? {
        switch model {
        case .ultralightC:
            guard keyNumber == 0, let key = memory.ultralightCKey else { return nil }
            return UltralightAuthentication(kind: .tripleDES, key: key)
        case .ultralightAES:
            guard Int(keyNumber) < memory.aesKeys.count else { return nil }
            return UltralightAuthentication(kind: .aes, key: memory.aesKeys[Int(keyNumber)])
        default:
            return nil
        }
    }

    /// `1A keyNo` → `AF` ek(RndB). A tag rebuilt from a trace answers with the challenges the
    /// trace recorded, in order; otherwise RndB comes from a generator seeded by the UID, so a
    /// replay is reproducible.
    private func authenticate(keyNumber: UInt8, frame: Frame) -> Frame {
        let kind: UltralightCipherKind = model == .ultralightC ? .tripleDES : .aes
        let auth = authentication(keyNumber: keyNumber)
        if auth == nil, memory.recordedChallenges.first?.keyNumber != keyNumber { return refuse(.invalidArgument, to: frame) }
        var step: PendingAuthentication
        if !memory.recordedChallenges.isEmpty, memory.recordedChallenges[0].kind == kind {
            let recorded = memory.recordedChallenges.removeFirst()
            step = PendingAuthentication(auth: auth, rndB: auth?.cipher.decryptCBC(recorded.ekRndB, iv: [UInt8](repeating: 0, count: kind.blockSize)),
                                         ekRndB: recorded.ekRndB, recorded: recorded)
        } else {
            guard let auth else { return refuse(.invalidArgument, to: frame) }
            var rng = SplitMix64(seed: memory.uid.reduce(challengesDrawn) { $0 << 8 ^ UInt64($1) })
            challengesDrawn += 1
            let rndB = (0..<kind.blockSize).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            step = PendingAuthentication(auth: auth, rndB: rndB, ekRndB: auth.challenge(rndB: rndB), recorded: nil)
        }
        pendingAuthentication = step
        return answer(.authenticationChallenge(step.ekRndB), to: frame)
    }

    /// `AF` ek(RndA ‖ RndB′) → `00` ek(RndA′) when RndB′ is right, NAK otherwise. The reader
    /// answer a trace recorded gets the answer the trace recorded, whether or not the key is known.
    private func authenticateContinue(_ message: [UInt8], _ step: PendingAuthentication, frame: Frame) -> Frame {
        if let recorded = step.recorded, recorded.readerMessage == message, let answerRecorded = recorded.ekRndAPrime {
            authenticated = true
            return answer(.authenticationResult(answerRecorded), to: frame)
        }
        guard let auth = step.auth, let rndB = step.rndB,
              let rndA = auth.readerRndA(message, rndB: rndB, ekRndB: step.ekRndB) else {
            return refuse(.invalidArgument, to: frame)
        }
        authenticated = true
        return answer(.authenticationResult(auth.answer(rndA: rndA, readerMessage: message)), to: frame)
    }
}
