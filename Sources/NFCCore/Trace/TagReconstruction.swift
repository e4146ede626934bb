/// What a dissected session tells about its tag: enough to emulate it (`nfctrace emulate
/// --from-trace`, replay against the tag rebuilt from the trace).
public enum TagReconstruction: Sendable, Equatable {
    case type2(Type2Reconstruction)
    case iso15693(ISO15693Reconstruction)
    case felica(FeliCaReconstruction)
    case mifareClassic(MIFAREClassicReconstruction)
    case type4(Type4Reconstruction)
    case isoDEP(ISODEPReconstruction)
    case iso14443b(ISO14443BReconstruction)
    case iclass(IClassReconstruction)

    /// What tells this tag from another in one trace (UID, IDm).
    public var identity: [UInt8] {
        switch self {
        case .type2(let t): return t.uid
        case .iso15693(let v): return v.uid.bytes
        case .felica(let f): return f.identity
        case .mifareClassic(let m): return m.uid
        case .type4(let t): return t.uid
        case .isoDEP(let c): return c.uid
        case .iso14443b(let b): return b.identity
        case .iclass(let c): return c.csn
        }
    }

    /// This session followed by a later one of the same tag, for a tag that plays a whole trace:
    /// a Type 2 page or Type 4 byte keeps the value first seen (later sessions read what earlier
    /// ones wrote), a Classic card's nonces and an ISO-DEP card's exchanges follow in order. Nil
    /// for kinds that do not merge (a rebuilt ISO 15693 or FeliCa tag takes its best session) and
    /// for sessions of different kinds.
    public func followed(by later: TagReconstruction) -> TagReconstruction? {
        switch (self, later) {
        case (.type2(let a), .type2(let b)): return .type2(a.filled(from: b))
        case (.mifareClassic(let a), .mifareClassic(let b)): return .mifareClassic(a.followed(by: b))
        case (.type4(let a), .type4(let b)):
            var out = a
            out.ccFile = a.ccFile.fillingBytes(from: b.ccFile, limit: Type4Reconstruction.fileLimit)
            out.ndefFile = a.ndefFile.fillingBytes(from: b.ndefFile, limit: Type4Reconstruction.fileLimit)
            out.ats = a.ats ?? b.ats
            return .type4(out)
        case (.isoDEP(var a), .isoDEP(let b)):
            a.exchanges += b.exchanges
            return .isoDEP(a)
        case (.iso14443b(var a), .iso14443b(let b)):
            a.exchanges += b.exchanges
            a.blocks.merge(b.blocks) { first, _ in first }
            a.atqb = a.atqb ?? b.atqb
            a.attribAnswer = a.attribAnswer ?? b.attribAnswer
            a.chipID = a.chipID ?? b.chipID
            a.uid = a.uid ?? b.uid
            return .iso14443b(a)
        default:
            return nil
        }
    }

    /// How much of the tag the session showed (pages, blocks): picks the best session of a trace.
    public var knownUnits: Int {
        switch self {
        case .type2(let t): return t.knownPageCount
        case .iso15693(let v): return v.knownBlockCount
        case .felica(let f): return f.knownBlockCount
        case .mifareClassic(let m): return m.blocks.count
        case .type4(let t): return t.knownByteCount
        case .isoDEP(let c): return c.exchanges.count
        case .iso14443b(let b): return b.exchanges.count + b.blocks.count + (b.atqb == nil ? 0 : 1)
        case .iclass(let c): return c.blocks.count
        }
    }
}

/// An NFC Forum Type 4 Tag as a session saw it: identity, the ATS, and the CC and NDEF files
/// as first read (what was written later is the session's doing, not the tag's start).
public struct Type4Reconstruction: Sendable, Equatable {
    public var uid: [UInt8]
    public var atqa: UInt16?
    public var sak: UInt8?
    public var ats: [UInt8]?
    public var ccFile: TagMemoryImage
    public var ndefFile: TagMemoryImage

    public init(uid: [UInt8], atqa: UInt16? = nil, sak: UInt8? = nil, ats: [UInt8]? = nil, ccFile: TagMemoryImage, ndefFile: TagMemoryImage) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.ccFile = ccFile
        self.ndefFile = ndefFile
    }

    /// Files are rebuilt up to this size: an offset from a hostile frame claims no more.
    public static let fileLimit = 1 << 16 + 4

    public var knownByteCount: Int {
        var n = 0
        for i in 0..<ndefFile.count where ndefFile.isKnown(i) { n += 1 }
        for i in 0..<ccFile.count where ccFile.isKnown(i) { n += 1 }
        return n
    }
}

/// An ISO-DEP card whose application nfctrace does not model (EMV, DESFire, …) as a session saw
/// it: identity, ATS, and each whole command APDU with the answer it got, in order, and whether
/// the card asked for more time (S(WTX)) first. A card rebuilt from it answers those commands.
public struct ISODEPReconstruction: Sendable, Equatable {
    public struct Exchange: Sendable, Equatable {
        public var command: [UInt8]
        public var response: [UInt8]
        public var askedForTime: Bool
        public init(command: [UInt8], response: [UInt8], askedForTime: Bool) {
            self.command = command
            self.response = response
            self.askedForTime = askedForTime
        }
    }

    public var uid: [UInt8]
    public var atqa: UInt16?
    public var sak: UInt8?
    public var ats: [UInt8]?
    public var exchanges: [Exchange]

    public init(uid: [UInt8], atqa: UInt16? = nil, sak: UInt8? = nil, ats: [UInt8]? = nil, exchanges: [Exchange]) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
        self.exchanges = exchanges
    }
}

/// A Type 2 tag as a session saw it: identity, the pages it read or wrote, the password it used.
public struct Type2Reconstruction: Sendable, Equatable {
    public var uid: [UInt8]
    public var atqa: UInt16?
    public var sak: UInt8?
    public var model: Type2TagModel?
    public var version: [UInt8]?
    /// The pages it read or wrote (`TagMemoryImage.type2Pages()`, page by page).
    public var memory: TagMemoryImage
    /// The password of a successful PWD_AUTH and the PACK the tag answered.
    public var password: [UInt8]?
    public var pack: [UInt8]?
    public var signature: [UInt8]?
    /// Counter values seen in READ_CNT answers, by counter number.
    public var counters: [Int: UInt32]
    /// Ultralight C / AES authentications, in order: a rebuilt tag answers with these challenges.
    public var ultralightExchanges: [UltralightExchange]
    /// The Ultralight C / AES key both sides proved to hold.
    public var ultralightKey: [UInt8]?

    public init(uid: [UInt8], atqa: UInt16? = nil, sak: UInt8? = nil, model: Type2TagModel? = nil, version: [UInt8]? = nil,
                memory: TagMemoryImage, password: [UInt8]? = nil, pack: [UInt8]? = nil, signature: [UInt8]? = nil,
                counters: [Int: UInt32] = [:], ultralightExchanges: [UltralightExchange] = [], ultralightKey: [UInt8]? = nil) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.model = model
        self.version = version
        self.memory = memory
        self.password = password
        self.pack = pack
        self.signature = signature
        self.counters = counters
        self.ultralightExchanges = ultralightExchanges
        self.ultralightKey = ultralightKey
    }

    public var knownPageCount: Int { memory.knownPages.count }

    /// `self`, with what `b` (a later session of the same tag) showed and `self` did not.
    public func filled(from other: Type2Reconstruction) -> Type2Reconstruction {
        var out = self
        out.memory = out.memory.filled(from: other.memory)
        out.model = out.model ?? other.model
        out.version = out.version ?? other.version
        out.password = out.password ?? other.password
        out.pack = out.pack ?? other.pack
        out.signature = out.signature ?? other.signature
        out.atqa = out.atqa ?? other.atqa
        out.sak = out.sak ?? other.sak
        for (k, v) in other.counters where out.counters[k] == nil { out.counters[k] = v }
        out.ultralightExchanges += other.ultralightExchanges
        out.ultralightKey = out.ultralightKey ?? other.ultralightKey
        return out
    }
}

/// One Ultralight C / AES authentication as recorded: the tag's challenge, the reader's answer
/// and the tag's, as far as the trace has them.
public struct UltralightExchange: Sendable, Equatable {
    public var keyNumber: UInt8
    public var ekRndB: [UInt8]
    public var readerMessage: [UInt8]?
    public var ekRndAPrime: [UInt8]?

    public init(keyNumber: UInt8, ekRndB: [UInt8], readerMessage: [UInt8]? = nil, ekRndAPrime: [UInt8]? = nil) {
        self.keyNumber = keyNumber
        self.ekRndB = ekRndB
        self.readerMessage = readerMessage
        self.ekRndAPrime = ekRndAPrime
    }

    public var kind: UltralightCipherKind? { UltralightCipherKind(challengeLength: ekRndB.count) }
}

/// A MIFARE Classic card as a trace showed it: the blocks read (their first value), the keys
/// that opened its sectors, and the nonces it answered authentications with, in order — what a
/// rebuilt card needs so that the recorded reader frames decrypt when replayed.
public struct MIFAREClassicReconstruction: Sendable, Equatable {
    public struct Key: Sendable, Hashable {
        public var sector: Int
        /// `A` or `B`.
        public var keyType: String
        public var value: UInt64
        public init(sector: Int, keyType: String, value: UInt64) {
            self.sector = sector
            self.keyType = keyType
            self.value = value
        }
    }

    public var uid: [UInt8]
    public var atqa: UInt16?
    public var sak: UInt8?
    public var blocks: [Int: [UInt8]]
    public var keys: [Key]
    /// nil where a nested nonce could not be decrypted.
    public var nonces: [UInt32?]
    /// The nested authentications' encrypted nonces, by their place in `nonces`: one no key
    /// opened when it came (a reader that first tried a wrong key) is decrypted with the key the
    /// trace proved for its sector, later or in another session (`resolvedNonces`).
    public var encryptedNonces: [Int: EncryptedNonce]

    public struct EncryptedNonce: Sendable, Hashable {
        public var encrypted: UInt32
        public var sector: Int?
        /// `A` or `B`.
        public var keyType: String?
        /// The parity bits {nT} went on the air with, when the capture has them.
        public var parity: [UInt8]?
        public init(encrypted: UInt32, sector: Int?, keyType: String?, parity: [UInt8]?) {
            self.encrypted = encrypted
            self.sector = sector
            self.keyType = keyType
            self.parity = parity
        }
    }

    public init(uid: [UInt8], atqa: UInt16?, sak: UInt8?, blocks: [Int: [UInt8]], keys: [Key], nonces: [UInt32?],
                encryptedNonces: [Int: EncryptedNonce] = [:]) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.blocks = blocks
        self.keys = keys
        self.nonces = nonces
        self.encryptedNonces = encryptedNonces
    }

    /// This session followed by `later`, a later session of the same card: blocks keep their
    /// first value, keys add up, nonces follow each other.
    public func followed(by later: MIFAREClassicReconstruction) -> MIFAREClassicReconstruction {
        var out = self
        for (b, d) in later.blocks where out.blocks[b] == nil { out.blocks[b] = d }
        for k in later.keys where !out.keys.contains(where: { $0.sector == k.sector && $0.keyType == k.keyType }) { out.keys.append(k) }
        for (i, n) in later.encryptedNonces { out.encryptedNonces[out.nonces.count + i] = n }
        out.nonces += later.nonces
        out.atqa = out.atqa ?? later.atqa
        out.sak = out.sak ?? later.sak
        return out
    }

    /// `nonces` with each nested one no key opened when it came decrypted with the key the trace
    /// proved for its sector, where the card could have sent the result (one of its generator's
    /// outputs when its other nonces are, and its parity bits agree).
    public func resolvedNonces() -> [UInt32?] {
        var out = nonces
        let word = MIFARENonce.value(Array(uid.suffix(4)))
        let weak = nonces.contains { $0.map(MIFARENonce.isGeneratorOutput) ?? false }
        for (i, n) in encryptedNonces where i < out.count && out[i] == nil {
            guard let key = keys.first(where: { $0.sector == n.sector && $0.keyType == n.keyType }) else { continue }
            var cipher = Crypto1(key: Crypto1.key(key.value))
            let nt = cipher.wordDecrypting(n.encrypted, xor: word)
            let parityFits = n.parity.map {
                Crypto1Recovery.nonceFitsParity(nt, .init(uid: word, encryptedNT: n.encrypted, ntParity: $0, encryptedNR: 0, encryptedAR: 0,
                                                          answerParity: nil, encryptedAT: 0, atParity: nil))
            } ?? true
            if parityFits, !weak || MIFARENonce.isGeneratorOutput(nt) { out[i] = nt }
        }
        return out
    }
}

/// An ISO 14443-B card as a session saw it: its ATQB and ATTRIB answer with the ISO-DEP
/// exchanges after them, or, for an ST SRx card, its Chip_ID, UID and the blocks as first seen.
public struct ISO14443BReconstruction: Sendable, Equatable {
    public var atqb: [UInt8]?
    public var attribAnswer: [UInt8]?
    public var exchanges: [ISODEPReconstruction.Exchange]
    public var chipID: UInt8?
    /// SRx UID as sent (least significant byte first).
    public var uid: [UInt8]?
    public var blocks: [UInt8: [UInt8]]

    public init(atqb: [UInt8]? = nil, attribAnswer: [UInt8]? = nil, exchanges: [ISODEPReconstruction.Exchange] = [],
                chipID: UInt8? = nil, uid: [UInt8]? = nil, blocks: [UInt8: [UInt8]] = [:]) {
        self.atqb = atqb
        self.attribAnswer = attribAnswer
        self.exchanges = exchanges
        self.chipID = chipID
        self.uid = uid
        self.blocks = blocks
    }

    /// PUPI, else the SRx UID, else the Chip_ID.
    public var identity: [UInt8] {
        if let atqb, atqb.count >= ATQB.Layout.pupi.end { return Array(atqb[ATQB.Layout.pupi.range]) }
        return uid ?? chipID.map { [$0] } ?? []
    }
}

/// An iClass / PicoPass card as a session saw it: its CSN, the blocks as first read, and each
/// CHECK (reader bytes) with the card MAC it got: a card rebuilt from it answers that CHECK again
/// (the MAC needs the card's key, which no trace holds).
public struct IClassReconstruction: Sendable, Equatable {
    public var csn: [UInt8]
    public var blocks: [UInt8: [UInt8]]
    public var checks: [[UInt8]: [UInt8]]

    public init(csn: [UInt8], blocks: [UInt8: [UInt8]] = [:], checks: [[UInt8]: [UInt8]] = [:]) {
        self.csn = csn
        self.blocks = blocks
        self.checks = checks
    }
}
