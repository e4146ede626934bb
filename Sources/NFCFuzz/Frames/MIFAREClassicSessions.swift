import NFCCore

/// MIFARE Classic sessions for the 14443-A frame dialect: activation with a Classic SAK, a
/// Crypto1 authentication whose frames are computed for both sides with a published default key
/// (so that the dissector can open them, and the emulator's built-in blank cards accept them),
/// then encrypted commands and answers; sometimes a nested authentication, a wrong key, or frames
/// left in clear. Mutations then break the stream at random points.
enum MIFAREClassicSessions {
    static let keys: [UInt64] = [0xFFFF_FFFF_FFFF, 0xA0A1_A2A3_A4A5, 0xD3F7_D3F7_D3F7]

    /// One stream for both directions, as on the air.
    struct Stream {
        var frames: [FuzzFrame] = []
        var cipher: Crypto1?

        mutating func add(_ kind: FuzzFrame.Kind, _ payload: [UInt8], crc: Bool = true, bits: UInt8 = 8) {
            var bytes = crc ? CRCBytes(payload: payload, kind: .a).bytes : payload
            if var c = cipher {
                bytes = bits == 4 ? [c.crypt(bits: 4, of: bytes.first ?? 0)] : c.crypt(bytes)
                cipher = c
            }
            frames.append(FuzzFrame(kind, .iso14443a, bytes: bytes, lastByteBits: bits))
        }
    }

    static func session(_ m: inout MutationContext) -> [FuzzFrame] {
        let uid: [UInt8] = m.random.chance(70) ? [0x4E, 0x2A, 0x91, 0xC3] : m.random.bytes(4)
        let bcc = uid.reduce(0, ^)
        var s = Stream(frames: [FuzzFrame(.fieldOn, .iso14443a)])
        s.add(.reader, [0x52], crc: false, bits: 7)
        s.add(.tag, [0x04, 0x00], crc: false)
        s.add(.reader, [0x93, 0x20], crc: false)
        s.add(.tag, uid + [bcc], crc: false)
        s.add(.reader, [0x93, 0x70] + uid + [bcc])
        s.add(.tag, [m.random.pick(0x08, 0x08, 0x18, 0x09, 0x88)])
        let u = MIFARENonce.value(uid)
        for round in 0..<(1 + m.random.below(3)) {
            let block = UInt8(m.random.pick(0, 1, 4, 7, 8, 63, m.random.byte()))
            let keyType: MIFAREClassicCommand.KeyType = m.random.chance(80) ? .a : .b
            let cardKey = m.random.element(keys) ?? keys[0]
            let readerKey = m.random.chance(85) ? cardKey : (m.random.element(keys) ?? keys[0])
            s.add(.reader, MIFAREClassicCommand.authenticate(keyType, block: block).encode())
            // Mostly the nonce an emulated card sends for this authentication, so the emulator
            // targets get past it; sometimes another one.
            let nt = m.random.chance(70) ? MIFARENonce.emulated(round) : UInt32(truncatingIfNeeded: m.random.next())
            var card = Crypto1(key: Crypto1.key(cardKey))
            let ks0 = card.word(input: u ^ nt)
            let nested = s.cipher != nil
            s.cipher = nil
            s.add(.tag, MIFARENonce.bytes(nested ? nt ^ ks0 : nt), crc: false)
            var reader = Crypto1(key: Crypto1.key(readerKey))
            reader.word(input: u ^ nt)
            let nr = UInt32(truncatingIfNeeded: m.random.next())
            let encNR = nr ^ reader.word(input: nr)
            let encAR = MIFARENonce.successor(nt, 64) ^ reader.word()
            s.add(.reader, MIFARENonce.bytes(encNR) + MIFARENonce.bytes(encAR), crc: false)
            _ = card.wordDecrypting(encNR)
            guard card.word() ^ encAR == MIFARENonce.successor(nt, 64) else { break }   // the card stays silent
            s.add(.tag, MIFARENonce.bytes(MIFARENonce.successor(nt, 96) ^ card.word()), crc: false)
            s.cipher = card
            let first = Int(block) / 4 * 4
            for _ in 0..<(1 + m.random.below(4)) {
                let b = UInt8(truncatingIfNeeded: first + m.random.below(4))
                switch m.random.below(6) {
                case 0, 1, 2:
                    s.add(.reader, MIFAREClassicCommand.read(block: b).encode())
                    if m.random.chance(85) { s.add(.tag, m.random.bytes(16)) } else { s.add(.tag, [0x04], crc: false, bits: 4) }
                case 3:
                    s.add(.reader, MIFAREClassicCommand.write(block: b).encode())
                    s.add(.tag, [0x0A], crc: false, bits: 4)
                    s.add(.reader, MIFAREClassicCommand.writeData(m.random.bytes(16)).encode())
                    s.add(.tag, [0x0A], crc: false, bits: 4)
                case 4:
                    s.add(.reader, MIFAREClassicCommand.decrement(block: b).encode())
                    s.add(.tag, [0x0A], crc: false, bits: 4)
                    s.add(.reader, MIFAREClassicCommand.valueOperand(Int32(m.random.below(1_000))).encode())
                    s.add(.reader, MIFAREClassicCommand.transfer(block: b).encode())
                    s.add(.tag, [0x0A], crc: false, bits: 4)
                default:
                    s.add(.reader, MIFAREClassicCommand.restore(block: b).encode())
                    s.add(.tag, [0x0A], crc: false, bits: 4)
                    s.add(.reader, MIFAREClassicCommand.valueOperand(0).encode())
                }
            }
            if round > 0 && m.random.chance(50) { break }
        }
        if m.random.chance(60) { s.add(.reader, MIFAREClassicCommand.halt.encode()) }
        s.frames.append(FuzzFrame(.fieldOff, .iso14443a))
        return s.frames
    }

    /// Walks a sequence as the dissector would: in clear each reader frame must decode
    /// (`decodesInClear`); after AUTH, nT and {nR}{aR} that a published key opens, every frame
    /// is decrypted and the reader's must be Classic commands with a good CRC (a nested AUTH
    /// is followed through its encrypted nonce); an authentication no key opens ends the walk
    /// (what follows cannot be read, so nothing more is claimed).
    static func readerFramesDecode(_ frames: [FuzzFrame], decodesInClear: (FuzzFrame) -> Bool) -> Bool {
        var cipher: Crypto1?
        var uid: UInt32 = 0
        var auth: (nonce: MIFAREClassicAuthentication.TagNonce?, nested: Bool)?
        var awaitingAT = false
        var continuation = MIFAREClassicCommand.Continuation.none
        let wellKnown = MIFAREClassicKey.wellKnown
        for f in frames {
            switch f.kind {
            case .fieldOn, .fieldOff:
                cipher = nil
                auth = nil
            case .tag:
                awaitingAT = false
                if let a = auth, a.nonce == nil, f.bytes.count == 4 {
                    let v = MIFARENonce.value(f.bytes)
                    auth = (a.nested ? .encrypted(v) : .plain(v), a.nested)
                } else if f.bytes.count == 5, f.lastByteBits == 8, cipher == nil, auth == nil {
                    uid = MIFARENonce.value(Array(f.bytes.prefix(4)))   // UID CL1 of a 4-byte UID
                } else if var c = cipher {
                    // Consumes the keystream the tag's frame used (4 bits, or 8 a byte).
                    if f.lastByteBits == 4 { _ = c.crypt(bits: 4, of: f.bytes.first ?? 0) } else { _ = c.crypt(f.bytes) }
                    cipher = c
                }
            case .reader:
                if let a = auth, let nonce = a.nonce, f.bytes.count == 8 {
                    guard let opened = MIFAREClassicAuthentication.open(uid: uid, nonce: nonce, encryptedNR: MIFARENonce.value(Array(f.bytes[0..<4])),
                                                                         encryptedAR: MIFARENonce.value(Array(f.bytes[4..<8])), keys: wellKnown) else { return true }
                    cipher = opened.cipher   // {aT} comes next, encrypted like any tag frame
                    awaitingAT = true
                    auth = nil
                    continue
                }
                if awaitingAT {
                    // The card did not answer {nR}{aR}: no session, the reader goes on in clear.
                    cipher = nil
                    awaitingAT = false
                }
                guard var c = cipher else {
                    guard decodesInClear(f) else { return false }
                    if let p = f.payload(ifValidCRC: .a), case .authenticate? = try? MIFAREClassicCommand.decode(Array(p)) { auth = (nil, false) }
                    continue
                }
                let plain = c.crypt(f.bytes)
                guard let payload = CRCBytes(plain, kind: .a).payload(ifValidCRC: .a),
                      let command = try? MIFAREClassicCommand.decode(Array(payload), continuation: continuation) else { return false }
                continuation = command.continuation
                cipher = c
                if case .authenticate = command {
                    cipher = nil
                    auth = (nil, true)
                }
            }
        }
        return true
    }
}
