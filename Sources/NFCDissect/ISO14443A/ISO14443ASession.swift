import NFCCore

/// Authentication state of a Type 2 session.
enum Type2Authentication: Equatable {
    case none
    case authenticated(password: [UInt8], pack: [UInt8])
    case refused(password: [UInt8], nak: Type2Acknowledgement.NAK)
    /// Ultralight C / AES mutual authentication finished.
    case mutuallyAuthenticated(UltralightAuthenticationOutcome)
    /// The tag answered AUTHENTICATE part 2 with a NAK.
    case mutualAuthenticationRefused(nak: Type2Acknowledgement.NAK)

    /// Whether an authentication succeeded and still holds (a NAK ends it).
    var isInForce: Bool {
        switch self {
        case .authenticated, .mutuallyAuthenticated: return true
        case .none, .refused, .mutualAuthenticationRefused: return false
        }
    }

    var summary: String? {
        switch self {
        case .none: return nil
        case .authenticated(let p, let k):
            var w = TextWriter(capacity: 48)
            w.write("authenticated (PWD ")
            w.hexBytes(p)
            w.write(", PACK ")
            w.hexBytes(k)
            w.write(")")
            return w.string
        case .refused(let p, let n): return "PWD_AUTH refused (PWD \(Hex.string(p)), NAK \(n.rawValue))"
        case .mutuallyAuthenticated(let outcome): return outcome.summary
        case .mutualAuthenticationRefused(let n): return "AUTHENTICATE refused (NAK \(n.rawValue))"
        }
    }
}

/// What the reader last asked, so that the tag's answer can be read in its context.
enum ISO14443APending {
    case activation(ISO14443ACommand)
    case type2(Type2Command)
    case isoDEP(ISODEPBlock)
    case classic(MIFAREClassicSession.Expecting)
    /// A registered frame protocol's request: its answer goes to that protocol, which keeps
    /// what it asked in its own session slice.
    case frameProtocol(ObjectIdentifier)
    case unknown
}

/// Everything the dissector knows about the tag of the current session.
struct ISO14443ASession: DissectorSession {
    var number: Int
    var firstFrame: Int
    var lastFrame: Int
    var atqa: ATQA?
    /// Cascade levels completed by SELECT, in order.
    var levels: [UIDLevelData] = []
    /// UID CLn answered to the last ANTICOLLISION, waiting for its SELECT.
    var anticollisionAnswer: UIDLevelData?
    var sak: SAK?
    var ats: ATS?
    var halted = false
    var version: Type2Version?
    var model: Type2TagModel?
    var authentication = Type2Authentication.none
    /// Pages the reader read back or wrote.
    var memory = TagMemoryImage.type2Pages()
    /// Pages the reader wrote.
    var writtenPages = Set<Int>()
    var pending: (frame: Int, request: ISO14443APending)? {
        didSet { if let p = pending { lastRequest = p.request } }
    }
    /// The most recent request, answered or not (PPS is only valid right after RATS/ATS).
    var lastRequest: ISO14443APending?
    var continuation = Type2Command.Continuation.none
    /// Page of a COMPATIBILITY_WRITE whose data packet was sent and awaits its ACK.
    var compatibilityWritePage: UInt8?
    var signature: [UInt8]?
    /// The MIFARE Classic side of the session, once a Classic card sent its first command.
    var classic: MIFAREClassicSession?
    var counters: [Int: UInt32] = [:]
    /// The Ultralight C / AES authentication in progress, the recorded ones and the key proved.
    var ultralightAuthentication: UltralightAuthenticationState?
    /// An Ultralight AES that was sent a command with a CMAC: its answers carry one too.
    var secureMessaging = false
    var ultralightExchanges: [UltralightExchange] = []
    var ultralightKey: [UInt8]?
    /// The ISO-DEP conversation after an ATS: block numbers, chains, APDUs, the application.
    var isoDEP = ISODEPState()
    /// Whether anything answered: a REQA after this starts a new session.
    var tagAnswered = false
    var diagnostics: [Diagnostic] = []
    /// The state registered frame protocols keep (`ISO14443AFrameProtocol`), one slice each.
    var slices = SessionSlices()

    init(number: Int, frame: Int) {
        self.number = number
        self.firstFrame = frame
        self.lastFrame = frame
    }

    /// The UID once every cascade level is selected.
    var uid: [UInt8]? {
        guard let sak, !sak.uidIncomplete, !levels.isEmpty else { return nil }
        return levelUIDBytes
    }

    /// The UID bytes of the levels selected so far, cascade tags left out (the whole UID once
    /// every level is). Appended slice by slice: `levels.flatMap(\.uidBytes)` made an array
    /// per level and a key-path call each, several times per session.
    var levelUIDBytes: [UInt8] {
        var uid: [UInt8] = []
        uid.reserveCapacity(10)
        for level in levels { uid.append(contentsOf: level.uidSlice) }
        return uid
    }

    /// The model's map, or a generic one when GET_VERSION was not seen.
    var memoryMap: Type2MemoryMap { model?.memoryMap ?? .generic() }

    /// Whether reader frames are MIFARE Classic commands: the SAK named a Classic card and no
    /// RATS switched it to ISO-DEP.
    var isMIFAREClassic: Bool { ats == nil && (sak?.isMIFAREClassic == true || magicWakeUp) }
    /// A magic card's 7-bit backdoor wake-up was sent: Classic commands follow, in clear.
    var magicWakeUp = false

    /// The UID word Crypto1 takes: the 4 bytes of the last cascade level (protocols-wave2.md §1.7).
    var cryptoUID: UInt32? {
        guard let last = levels.last else { return nil }
        return MIFARENonce.value(Array(last.uidSlice.suffix(4)))
    }

    /// The capture has no RATS, but the SAK announced ISO-DEP (or no activation was captured at
    /// all) and a reader frame is an I-block carrying an APDU (`ISODEPFrames.inferable`).
    var isoDEPInferred = false

    /// Whether frames should be read as ISO-DEP blocks: after an ATS, or inferred as above —
    /// never from a first byte alone.
    var isoDEPActive: Bool { ats != nil || isoDEPInferred }

    /// The tag family as far as activation tells (used when GET_VERSION is absent).
    var familyFromActivation: String? {
        guard let sak else { return nil }
        if sak.uidIncomplete { return nil }
        if sak.isType2Platform {
            if atqa?.value == 0x0044 { return "MIFARE Ultralight / NTAG family (Type 2 Tag)" }
            return "Type 2 Tag platform"
        }
        if let hint = sak.mifareClassicHint { return hint }
        if sak.supportsISODEP { return "ISO/IEC 14443-4 (ISO-DEP) card" }
        return nil
    }
}

extension ISO14443ASession: ISODEPCarrier {
    var crcKind: CRC.Kind { .a }
    var frameWaitingInteger: UInt8? { ats?.fwi }
    var announcesDESFire: Bool { atqa?.value == 0x0344 && sak?.raw == 0x20 }
    var announcesMIFAREPlus: Bool { ats?.historicalBytes.starts(with: MIFAREPlus.historicalBytesPrefix) == true }
    mutating func awaitAnswer(frame: Int, block: ISODEPBlock) { pending = (frame, .isoDEP(block)) }
    var activationSeen: Bool { ats != nil }
}
