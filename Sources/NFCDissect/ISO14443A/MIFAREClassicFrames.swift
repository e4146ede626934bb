import NFCCore

/// MIFARE Classic frames in an ISO 14443-A session whose SAK named a Classic card: commands in
/// clear, the three-pass authentication, and once a key fits every later frame decrypted and
/// dissected; without a key, encrypted frames are said to be so (protocols-wave2.md §1–2).
enum MIFAREClassicFrames {
    static let layer = "MIFARE Classic"

    /// Whether a reader frame belongs to the Classic dissector rather than to the activation:
    /// inside an authentication or an encrypted session every whole-byte frame does (a 7-bit
    /// REQA/WUPA still starts over).
    static func ownsReaderFrame(_ frame: Frame, _ s: ISO14443ASession) -> Bool {
        frame.lastByteBits == 8 && s.classic?.inSession == true
    }

    // MARK: reader frames

    static func describeRequest(_ ctx: inout FrameContext, session s: inout ISO14443ASession, keys: KeyRing, uid: UInt32) -> ISO14443APending {
        ctx.layer = layer
        // Moved out and back: a copy left in `s.classic` made every write to the block map,
        // nonce list and key list below copy them whole (copy on write), once per frame.
        var c = s.classic.take() ?? MIFAREClassicSession()
        defer { s.classic = c }
        if let auth = c.authentication {
            if auth.nonce != nil, auth.opened == nil, !auth.readerAnswered, ctx.frame.bytes.count == 8, !ctx.frame.crcStripped {
                return readerAnswer(&ctx, &c, keys: keys, uid: uid)
            }
            if auth.nonce == nil {
                ctx.note("the authentication of frame \(auth.frame) got no tag nonce; it is abandoned")
            } else if auth.readerAnswered {
                ctx.note("the tag did not answer {nR}{aR} of the authentication in frame \(auth.frame): the reader's answer was wrong (wrong key)")
                c.failedAuthentications.append((auth.frame, auth.sector, auth.keyType))
            } else {
                ctx.note("the reader did not answer the tag nonce of frame \(auth.frame); the authentication is abandoned")
            }
            c.authentication = nil
            c.encrypted = nil
            c.cipher = nil
        }
        if let (sector, _) = c.encrypted {
            guard var cipher = c.cipher else {
                ctx.summary = "encrypted (\(noKey(sector)))"
                ctx.crc = .unknown
                ctx.sink.add(Field(.mfc.encrypted, Hex.string(ctx.frame.bytes), range: ctx.frame.bytes.indices))
                return .classic(.undecryptable(frame: ctx.number, length: ctx.frame.bytes.count))
            }
            let plain = decryptFrame(&ctx, &cipher)
            c.cipher = cipher
            return command(plain, &ctx, &c, &s, encrypted: true)
        }
        if let magic = magicCommand(ctx.frame) {
            ctx.summary = magic
            ctx.sink.add(Field(.mfc.magic, .byte(ctx.frame.bytes[0], note: magic)))
            return .classic(.magic)
        }
        return command(ctx.frame, &ctx, &c, &s, encrypted: false)
    }

    /// 7-bit backdoor wake-ups of "magic" Classic clones (protocols-wave2.md §1.1).
    static func magicShortFrame(_ b: UInt8) -> String? {
        switch b {
        case 0x40: return "magic wake-up 1 (Gen1a backdoor)"
        case 0x20: return "magic wake-up 1 (GDM/USCUID)"
        default: return nil
        }
    }

    /// Gen1a backdoor commands: one whole byte without CRC, unauthenticated.
    static func magicCommand(_ frame: Frame) -> String? {
        guard frame.bytes.count == 1, frame.lastByteBits == 8 else { return nil }
        switch frame.bytes[0] {
        case 0x43: return "magic wake-up 2 (Gen1a backdoor)"
        case 0x41: return "magic wipe (Gen1a)"
        case 0x23: return "magic wake-up 2 (GDM/USCUID)"
        default: return nil
        }
    }

    /// `{nR}{aR}`: with a key that fits, the plain reader nonce and its answer.
    static func readerAnswer(_ ctx: inout FrameContext, _ c: inout MIFAREClassicSession, keys: KeyRing, uid: UInt32) -> ISO14443APending {
        guard var auth = c.authentication, let nonce = auth.nonce else { return .unknown }
        let bytes = ctx.frame.bytes
        let nrRange = MIFAREClassicAuthentication.Layout.readerNonce.range, arRange = MIFAREClassicAuthentication.Layout.readerAnswer.range
        let encNR = MIFARENonce.value(Array(bytes[nrRange])), encAR = MIFARENonce.value(Array(bytes[arRange]))
        auth.readerAnswer = (ctx.number, encNR, encAR)
        var opened = MIFAREClassicAuthentication.open(uid: uid, nonce: nonce, encryptedNR: encNR, encryptedAR: encAR,
                                                      keys: keys.candidates(uid: uid, sector: auth.sector, keyType: auth.keyType))
        if opened == nil, case .plain(let nt) = nonce,
           let key = keys.recoverFromPartial(uid: uid, auth: auth, frame: ctx.number, answer: .init(nt: nt, encryptedNR: encNR, encryptedAR: encAR)) {
            opened = MIFAREClassicAuthentication.open(uid: uid, nonce: nonce, encryptedNR: encNR, encryptedAR: encAR, key: key)
        }
        auth.answerParity = airParity(ctx.frame, plainMeansUntrusted: true)
        var nr = Field(.mfc.authNr, .hex(bytes[nrRange]), range: nrRange)
        var ar = Field(.mfc.authAr, .hex(bytes[arRange]), range: arRange)
        if let o = opened, case .encrypted(let e) = nonce, !cardCouldSend(o.nt, auth, uid: uid, c) {
            // The reader decrypted {nT} with its own key and answered that: the answer fits its
            // key, but the nonce is none the card could have sent, so the card holds another key.
            auth.readerKey = o.key
            opened = nil
            ctx.summary = "{nR}{aR}: made with key \(keys.text(o.key)) (\(auth.target)), which the card does not hold"
            ctx.note("key \(keys.text(o.key)) decrypts {nT} to \(Hex.string(MIFARENonce.bytes(o.nt))), no nonce the card could have sent: the reader tries a wrong key")
            ctx.sink.add(nr)
            ctx.sink.add(ar)
            ctx.sink.add(Field(.mfc.authReaderKey, "\(keys.text(o.key)) (\(o.key.source)); the card holds another"))
            // The key the trace proved for this sector tells the nonce the card did send.
            if let proven = keys.provenKey(uid: uid, sector: auth.sector, keyType: auth.keyType), proven.value != o.key.value {
                var cipher = Crypto1(key: proven.bytes)
                let nt = cipher.wordDecrypting(e, xor: uid)
                if cardCouldSend(nt, auth, uid: uid, c), let i = auth.nonceIndex, i < c.nonces.count {
                    c.nonces[i] = nt
                    ctx.sink.add(Field(.mfc.authNtPlain, label: "nT (decrypted with the key the trace proved for this sector)", .hex(MIFARENonce.bytes(nt))))
                }
            }
        } else if let opened {
            auth.opened = opened
            nr.children.append(Field(.mfc.authNrPlain, .hex(MIFARENonce.bytes(opened.nr)), range: nrRange))
            ar.children.append(Field(.mfc.authArPlain, .hex(MIFARENonce.bytes(opened.ar), suffix: " = suc64(nT) (correct)"), range: arRange))
            ctx.summary = "{nR}{aR}: made with key \(keys.text(opened.key)) (\(auth.target))"
            ctx.sink.add(nr)
            ctx.sink.add(ar)
            if case .encrypted = nonce {
                ctx.sink.add(Field(.mfc.authNtPlain, .hex(MIFARENonce.bytes(opened.nt))))
            }
            ctx.sink.add(Field(.mfc.authKey, "\(keys.text(opened.key)) (\(opened.key.source))"))
        } else {
            ctx.summary = "{nR}{aR} (\(noKey(auth.sector)) yet)"
            ctx.sink.add(nr)
            ctx.sink.add(ar)
        }
        c.authentication = auth
        return .classic(.tagAnswer)
    }

    /// The parity bits a frame went on the air with, when the capture kept them. Encrypted parity
    /// is wrong about every second byte; `plainMeansUntrusted`: all of a long frame's right is a
    /// software reader's plain parity, which tells nothing (nil then).
    static func airParity(_ frame: Frame, plainMeansUntrusted: Bool) -> [UInt8]? {
        guard let errors = frame.parityErrors else { return nil }
        if plainMeansUntrusted, errors.isEmpty, frame.bytes.count >= 8 { return nil }
        return Parity.bits(frame.bytes, errors: errors)
    }

    /// Whether the card could have sent `nt` in this nested authentication: one of its generator's
    /// outputs when its plain nonces were, and the parity bits of {nT} agree.
    static func cardCouldSend(_ nt: UInt32, _ auth: MIFAREClassicSession.Authentication, uid: UInt32, _ c: MIFAREClassicSession) -> Bool {
        if c.weakGenerator == true, !MIFARENonce.isGeneratorOutput(nt) { return false }
        guard case .encrypted(let e)? = auth.nonce, let parity = auth.nonceParity else { return true }
        return Crypto1Recovery.nonceFitsParity(nt, .init(uid: uid, encryptedNT: e, ntParity: parity, encryptedNR: 0, encryptedAR: 0,
                                                          answerParity: nil, encryptedAT: 0, atParity: nil))
    }

    static func noKey(_ sector: Int?) -> String { sector.map { "no key for sector \($0)" } ?? "no key" }

    /// Decrypts the frame with the running cipher; checks the encrypted parity where the
    /// capture kept parity bits. Returns the frame in clear.
    static func decryptFrame(_ ctx: inout FrameContext, _ cipher: inout Crypto1) -> Frame {
        var plain = ctx.frame
        let bytes = ctx.frame.bytes
        let received = ctx.frame.parityErrors.map { Parity.bits(bytes, errors: $0) }
        let (clear, parityOK) = cipher.decrypt(bytes, parity: received)
        plain.bytes = clear
        ctx.decrypted = clear
        plain.parityErrors = parityOK.map { ok in ok.indices.filter { !ok[$0] } }
        if ctx.frame.crcStripped { _ = cipher.crypt([0, 0]) }   // the CRC went on the air, encrypted
        ctx.sink.add(Field(.mfc.encrypted, Hex.string(bytes), range: bytes.indices))
        if let wrong = plain.parityErrors, !wrong.isEmpty {
            ctx.warn("encrypted parity wrong on byte\(wrong.count == 1 ? "" : "s") \(wrong.map(String.init).joined(separator: ", ")): the frame does not decrypt with this stream")
        }
        return plain
    }

    /// A reader command in clear (or decrypted): CRC, decode, fields, what the session expects next.
    static func command(_ frame: Frame, _ ctx: inout FrameContext, _ c: inout MIFAREClassicSession, _ s: inout ISO14443ASession, encrypted: Bool) -> ISO14443APending {
        let split = CRCSplit(frame, expected: true, kind: .a)
        if encrypted { ctx.apply(split, of: frame, field: .mfc.crc) } else { ctx.apply(split, field: .mfc.crc) }
        let continuation = c.continuation
        c.continuation = .none
        let command: MIFAREClassicCommand
        do {
            command = try MIFAREClassicCommand.decode(split.payload, continuation: continuation)
        } catch {
            let first = split.payload.first.map(Hex.byte) ?? "(empty)"
            if let b = split.payload.first, let code = MIFAREClassicCommand.Code(rawValue: b) {
                ctx.summary = "malformed \(code.name)"
                ctx.diagnostics.append(Diagnostic(.error, "\(code.name) \(error)"))
            } else {
                ctx.summary = "unknown command \(first)"
                ctx.warn("\(first) is no MIFARE Classic command")
            }
            ctx.sink.add(Field(.mfc.data, Hex.string(split.payload), range: split.payload.indices))
            return .unknown
        }
        ctx.summary = summary(command)
        if let code = command.code {
            ctx.sink.add(Field(.mfc.command, .named(code.name, code: code.rawValue)))
        }
        if let block = command.block {
            let sector = MIFAREClassicLayout.sector(ofBlock: Int(block))
            let trailer = MIFAREClassicLayout.isTrailer(Int(block)) ? ", sector trailer" : ""
            ctx.sink.add(Field(.mfc.block, .byte(block, note: "sector \(sector)\(trailer)")))
        }
        switch command {
        case .authenticate(let keyType, let block):
            c.authentication = MIFAREClassicSession.Authentication(keyType: keyType, block: block, frame: ctx.number, nested: encrypted)
            c.encrypted = nil
            c.cipher = nil
            return .classic(.nonce)
        case .writeData(let data):
            ctx.sink.add(Field(.mfc.data, Hex.string(data), range: MIFAREClassicCommand.Layout.data.range))
            if case .writeData(let block) = continuation { c.writingBlock = Int(block) }
        case .valueOperand(let v):
            ctx.sink.add(Field(.mfc.operand, "\(v)"))
            c.transferBuffer = nil
            if case .valueOperand(let code, let block) = continuation, let data = c.blocks[Int(block)], let source = MIFAREClassicValueBlock(data) {
                let result: Int32 = code == .increment ? source.value &+ v : code == .decrement ? source.value &- v : source.value
                c.transferBuffer = MIFAREClassicValueBlock(value: result, address: source.address)
            }
        case .halt:
            s.halted = true
            c = MIFAREClassicSession(keepingFrom: c)
        case .personalizeUIDUsage(let o):
            ctx.sink.add(Field(.mfc.option, .byte(o, note: uidUsage(o))))
        case .setModType(let m):
            ctx.sink.add(Field(.mfc.option, label: "Modulation", .byte(m, note: m == 1 ? "strong load modulation" : m == 0 ? "normal" : "RFU")))
        default:
            break
        }
        return .classic(.answer(command))
    }

    static func uidUsage(_ o: UInt8) -> String {
        switch o {
        case 0x00: return "UIDF0: double-size UID"
        case 0x40: return "UIDF1: double-size UID, NUID from it"
        case 0x20: return "UIDF2: single-size random ID"
        case 0x60: return "UIDF3: single-size NUID"
        default: return "RFU"
        }
    }

    static func summary(_ command: MIFAREClassicCommand) -> String {
        switch command {
        case .authenticate(let t, let b): return "AUTH-\(t.rawValue) block \(Hex.byte(b)) (sector \(MIFAREClassicLayout.sector(ofBlock: Int(b))))"
        case .writeData(let d): return "WRITE data \(Hex.string(d))"
        case .valueOperand(let v): return "value operand \(v)"
        case .halt: return "HALT"
        case .personalizeUIDUsage(let o): return "PERSONALIZE_UID_USAGE \(Hex.byte(o))"
        case .setModType(let m): return "SET_MOD_TYPE \(Hex.byte(m))"
        default: return "\(command.name) block \(Hex.byte(command.block ?? 0))"
        }
    }

    // MARK: tag frames

    static func describeResponse(_ expecting: MIFAREClassicSession.Expecting, _ ctx: inout FrameContext, session s: inout ISO14443ASession,
                                 keys: KeyRing, uid: UInt32) {
        ctx.layer = layer
        var c = s.classic.take() ?? MIFAREClassicSession()   // moved, as in describeRequest
        defer { s.classic = c }
        switch expecting {
        case .nonce: nonce(&ctx, &c)
        case .tagAnswer: tagAnswer(&ctx, &c, keys: keys, uid: uid)
        case .undecryptable(let frame, let length):
            ctx.crc = .unknown
            if length == 4, ctx.frame.bytes.count == 4, ctx.frame.lastByteBits == 8 {
                // Only AUTH gets a 4-byte answer: a READ gets 18 bytes, the rest 4 bits.
                c.authentication = MIFAREClassicSession.Authentication(keyType: nil, block: nil, frame: frame, nested: true,
                                                                       nonce: .encrypted(MIFARENonce.value(ctx.frame.bytes)), nonceIndex: c.nonces.count,
                                                                       nonceParity: airParity(ctx.frame, plainMeansUntrusted: false))
                c.nonces.append(nil)
                c.encrypted = nil
                c.cipher = nil
                ctx.summary = "{nT} \(Hex.string(ctx.frame.bytes)) (encrypted tag nonce: frame \(frame) was a nested AUTH)"
                ctx.sink.add(Field(.mfc.authNtEncrypted, .hex(ctx.frame.bytes)))
                return
            }
            ctx.summary = "encrypted answer (\(noKey(c.encrypted?.sector ?? nil)))"
            ctx.sink.add(Field(.mfc.encrypted, Hex.string(ctx.frame.bytes), range: ctx.frame.bytes.indices))
        case .magic:
            acknowledgement(ctx.frame, &ctx) { _ in }
        case .answer(let command):
            if c.encrypted != nil {
                guard var cipher = c.cipher else {
                    ctx.summary = "encrypted answer (no key)"
                    return
                }
                if ctx.frame.bytes.count == 1, ctx.frame.lastByteBits == 4 {
                    var plain = ctx.frame
                    plain.bytes = [cipher.crypt(bits: 4, of: ctx.frame.bytes[0])]
                    ctx.decrypted = plain.bytes
                    ctx.sink.add(Field(.mfc.encrypted, "\(Hex.value(ctx.frame.bytes[0] & 0x0F, digits: 1)) (4 bits)", range: MIFAREClassicAcknowledgement.layout.range))
                    c.cipher = cipher
                    answer(to: command, plain, &ctx, &c)
                    return
                }
                let plain = decryptFrame(&ctx, &cipher)
                c.cipher = cipher
                answer(to: command, plain, &ctx, &c)
            } else {
                answer(to: command, ctx.frame, &ctx, &c)
            }
        }
    }

    static func nonce(_ ctx: inout FrameContext, _ c: inout MIFAREClassicSession) {
        guard var auth = c.authentication else { return }
        let bytes = ctx.frame.bytes
        guard bytes.count == 4, ctx.frame.lastByteBits == 8 else {
            if bytes.count == 1, ctx.frame.lastByteBits == 4 {
                ctx.summary = "\(MIFAREClassicAcknowledgement(bytes[0])) to AUTH"
            } else {
                ctx.summary = "unexpected answer to AUTH (\(bytes.count) bytes)"
                ctx.warn("a tag answers AUTH with a 4-byte nonce")
            }
            c.authentication = nil
            return
        }
        let value = MIFARENonce.value(bytes)
        auth.nonceIndex = c.nonces.count
        c.nonces.append(auth.nested ? nil : value)
        if auth.nested {
            auth.nonce = .encrypted(value)
            auth.nonceParity = airParity(ctx.frame, plainMeansUntrusted: false)
            if let i = auth.nonceIndex {
                c.nestedNonces[i] = .init(encrypted: value, sector: auth.sector, keyType: auth.keyType?.rawValue, parity: auth.nonceParity)
            }
            ctx.summary = "{nT} \(Hex.string(bytes)) (encrypted tag nonce, nested authentication)"
            ctx.sink.add(Field(.mfc.authNtEncrypted, .hex(bytes)))
        } else {
            auth.nonce = .plain(value)
            ctx.summary = "nT \(Hex.string(bytes)) (tag nonce)"
            let generated = MIFARENonce.isGeneratorOutput(value)
            c.weakGenerator = (c.weakGenerator ?? false) || generated
            c.lastPlainNonce = value
            ctx.sink.add(Field(.mfc.authNt, .hex(bytes, suffix: generated ? "" : " (not an output of the card's 16-bit generator)")))
        }
        c.authentication = auth
    }

    static func tagAnswer(_ ctx: inout FrameContext, _ c: inout MIFAREClassicSession, keys: KeyRing, uid: UInt32) {
        guard var auth = c.authentication else { return }
        c.authentication = nil
        let bytes = ctx.frame.bytes
        guard bytes.count == 4, ctx.frame.lastByteBits == 8 else {
            ctx.summary = "unexpected answer to {nR}{aR} (\(bytes.count) bytes)"
            ctx.warn("a tag answers a correct {nR}{aR} with the 4-byte {aT}")
            return
        }
        var at = Field(.mfc.authAt, .hex(bytes))
        c.encrypted = (auth.sector, auth.keyType)
        let openedBefore = auth.opened != nil
        // A whole authentication that no key opened: the key follows from it (mfkey64).
        if auth.opened == nil, case .plain(let nt)? = auth.nonce, let answer = auth.readerAnswer,
           let key = keys.recoverFromWhole(uid: uid, nt: nt, encryptedNR: answer.encryptedNR, encryptedAR: answer.encryptedAR,
                                           encryptedAT: MIFARENonce.value(bytes), frames: auth.frame...ctx.number) {
            auth.opened = MIFAREClassicAuthentication.open(uid: uid, nonce: .plain(nt), encryptedNR: answer.encryptedNR, encryptedAR: answer.encryptedAR, key: key)
            if let opened = auth.opened {
                ctx.sink.add(Field(.mfc.authKey, "\(keys.text(opened.key)) (\(opened.key.source))"))
                ctx.note("key \(auth.target) recovered from this authentication: \(keys.text(opened.key))")
            }
        }
        // A nested one: the card's weak generator and the parity bits leave few nonces to try.
        if auth.opened == nil, case .encrypted(let e)? = auth.nonce, let answer = auth.readerAnswer {
            if c.weakGenerator == false {
                ctx.note("no nested key recovery: the card's nonces are no outputs of the 16-bit generator (a hardened card; hardnested needs the card)")
            } else if auth.nonceParity == nil {
                ctx.note("no nested key recovery: the capture holds no parity bits of {nT}")
            } else {
                let a = Crypto1Recovery.NestedAuthentication(uid: uid, encryptedNT: e, ntParity: auth.nonceParity, encryptedNR: answer.encryptedNR,
                                                             encryptedAR: answer.encryptedAR, answerParity: auth.answerParity,
                                                             encryptedAT: MIFARENonce.value(bytes), atParity: airParity(ctx.frame, plainMeansUntrusted: false))
                switch keys.recoverNested(a, near: c.lastPlainNonce, frames: auth.frame...ctx.number) {
                case .success(let found):
                    auth.opened = MIFAREClassicAuthentication.open(uid: uid, nonce: .encrypted(e), encryptedNR: answer.encryptedNR, encryptedAR: answer.encryptedAR, key: found.key)
                    if let opened = auth.opened {
                        ctx.sink.add(Field(.mfc.authKey, "\(keys.text(opened.key)) (\(opened.key.source))"))
                        ctx.sink.add(Field(.mfc.authNtPlain, .hex(MIFARENonce.bytes(opened.nt))))
                        ctx.note("key \(auth.target) recovered from this nested authentication: \(keys.text(opened.key))")
                    }
                case .failure(.tooManyCandidates(let n)):
                    ctx.note("no nested key recovery: the parity bits leave \(n) nonces to try (more than \(KeyRing.nestedSearchLimit))")
                case .failure(.budget):
                    break
                case .failure(.notFound(let n)):
                    ctx.note("no nested key recovery: none of the \(n) nonces the parity bits leave gives a key")
                }
            }
        }
        let recoveredHere = !openedBefore && auth.opened != nil
        guard var opened = auth.opened else {
            ctx.summary = "{aT} (\(noKey(auth.sector))): authenticated, encrypted from here"
            if keys.lastSearchRefused {
                ctx.note("no key search for this authentication: the capture's \(keys.given.keySearchBudget) searches are spent; give the key with --keys")
            }
            ctx.sink.add(at)
            c.cipher = nil
            return
        }
        if recoveredHere, let answer = auth.readerAnswer {
            // The frame before said no key fitted: it is still held back, so it is told now.
            ctx.amends = (answer.frame, "{nR}{aR}: made with key \(keys.text(opened.key)) (\(auth.target)), recovered at frame \(ctx.number)")
        }
        let plain = MIFARENonce.value(bytes) ^ opened.cipher.word()
        let expected = MIFARENonce.successor(opened.nt, 96)
        at.children.append(Field(.mfc.authAtPlain, .hex(MIFARENonce.bytes(plain), suffix: plain == expected ? " = suc96(nT) (correct)" : " (wrong, expected \(Hex.string(MIFARENonce.bytes(expected))))")))
        ctx.sink.add(at)
        if plain != expected { ctx.warn("aT is not suc96(nT): the tag does not hold this key") }
        ctx.summary = "{aT}: authenticated (\(auth.target)) with \(keys.text(opened.key))"
        c.cipher = opened.cipher
        // The tag's answer proves the key, and with it the nonce (a rebuilt tag sends it).
        if plain == expected {
            if let i = auth.nonceIndex, i < c.nonces.count { c.nonces[i] = opened.nt }
            keys.proved(opened.key, uid: uid, sector: auth.sector, keyType: auth.keyType)
        } else {
            keys.fits(opened.key)
        }
        if !c.keys.contains(where: { $0.sector == auth.sector && $0.keyType == auth.keyType }) {
            c.keys.append(MIFAREClassicSession.FoundKey(sector: auth.sector, keyType: auth.keyType, key: opened.key, frame: auth.frame, shown: keys.text(opened.key)))
        }
    }

    /// A 4-bit ACK/NAK; `onAck` runs for an ACK.
    static func acknowledgement(_ frame: Frame, _ ctx: inout FrameContext, onAck: (inout FrameContext) -> Void) {
        guard frame.bytes.count == 1, frame.lastByteBits == 4 else {
            ctx.summary = "unexpected answer (\(frame.bytes.count) bytes)"
            ctx.warn("expected a 4-bit ACK or NAK")
            return
        }
        let a = MIFAREClassicAcknowledgement(frame.bytes[0])
        ctx.summary = a.description
        ctx.sink.add(Field(.mfc.ack, .byte(a.value, note: a.description), range: MIFAREClassicAcknowledgement.layout.range))
        if a == .ack { onAck(&ctx) }
    }

    static func answer(to command: MIFAREClassicCommand, _ frame: Frame, _ ctx: inout FrameContext, _ c: inout MIFAREClassicSession) {
        switch command {
        case .read(let block):
            if frame.bytes.count == 1, frame.lastByteBits == 4 {
                acknowledgement(frame, &ctx) { _ in }
                return
            }
            let split = CRCSplit(frame, expected: true, kind: .a)
            if ctx.decrypted != nil { ctx.apply(split, of: frame, field: .mfc.crc) } else { ctx.apply(split, field: .mfc.crc) }
            guard split.payload.count == 16 else {
                ctx.summary = "READ answer of \(split.payload.count) bytes"
                ctx.warn("a READ answer holds 16 bytes")
                ctx.sink.add(Field(.mfc.data, Hex.string(split.payload), range: split.payload.indices))
                return
            }
            ctx.summary = "block \(Hex.byte(block)): \(Hex.string(split.payload))"
            ctx.sink.add(Field(.mfc.data, label: "Block \(Hex.byte(block))", Hex.string(split.payload), range: split.payload.indices))
            if !split.status.isBad {
                ctx.memory = MemoryAccess(offset: Int(block) * 16, count: 16, write: false)
                c.blocks[Int(block)] = split.payload
                if c.firstRead[Int(block)] == nil && !c.written.contains(Int(block)) { c.firstRead[Int(block)] = split.payload }
            }
        case .write(let block):
            acknowledgement(frame, &ctx) { _ in c.continuation = .writeData(block: block) }
        case .writeData(let data):
            acknowledgement(frame, &ctx) { ctx in
                if let b = c.writingBlock {
                    c.blocks[b] = data
                    c.written.insert(b)
                    ctx.memory = MemoryAccess(offset: b * 16, count: 16, write: true)
                }
            }
            c.writingBlock = nil
        case .decrement(let b), .increment(let b), .restore(let b):
            let code = command.code ?? .restore
            acknowledgement(frame, &ctx) { _ in c.continuation = .valueOperand(code, block: b) }
        case .valueOperand:
            ctx.summary = "answer to a value operand (the card answers only on error)"
            if frame.bytes.count == 1, frame.lastByteBits == 4 { acknowledgement(frame, &ctx) { _ in } }
        case .transfer(let b):
            // The transfer buffer went into the block: what was read of it before is history.
            acknowledgement(frame, &ctx) { ctx in
                c.written.insert(Int(b))
                c.blocks[Int(b)] = c.transferBuffer?.encode()
                ctx.memory = MemoryAccess(offset: Int(b) * 16, count: 16, write: true)
            }
        case .personalizeUIDUsage, .setModType:
            acknowledgement(frame, &ctx) { _ in }
        case .halt:
            ctx.summary = "answer to HALT"
            ctx.warn("a card must not answer HALT")
        case .authenticate:
            break
        }
    }
}
