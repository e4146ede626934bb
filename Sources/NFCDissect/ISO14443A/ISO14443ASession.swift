import NFCCore

/// Pages of a Type 2 tag as a reader saw them in one session: read back, or written.
public struct Type2MemoryImage: Sendable, Equatable {
    public static let maxPages = 256
    public private(set) var bytes = [UInt8](repeating: 0, count: maxPages * 4)
    public private(set) var known = [Bool](repeating: false, count: maxPages)
    public private(set) var written = [Bool](repeating: false, count: maxPages)

    public init() {}

    public var isEmpty: Bool { !known.contains(true) }
    public var knownPageCount: Int { known.lazy.filter { $0 }.count }

    public mutating func store(page: Int, data: ArraySlice<UInt8>, written w: Bool = false) {
        guard page >= 0, page < Self.maxPages, data.count == 4 else { return }
        bytes.replaceSubrange(page * 4..<page * 4 + 4, with: data)
        known[page] = true
        if w { written[page] = true }
    }

    /// Records the pages of a READ/FAST_READ answer. READ wraps at the last page when the
    /// model is known (NTAG213/215/216 datasheet §10.2: "roll-over to page 0").
    public mutating func storeRead(firstPage: Int, data: [UInt8], totalPages: Int?) {
        let count = data.count / 4
        for i in 0..<count {
            var page = firstPage + i
            if let total = totalPages, total > 0 { page %= total }
            store(page: page, data: data[i * 4..<i * 4 + 4])
        }
    }

    public func page(_ p: Int) -> [UInt8]? {
        guard p >= 0, p < Self.maxPages, known[p] else { return nil }
        return Array(bytes[p * 4..<p * 4 + 4])
    }

    /// The per-byte "known" mask memory decoders take.
    public var knownBytes: [Bool] { knownBytes(count: known.count * 4) }

    /// The mask of the first `count` bytes, written in place (once per session summary).
    func knownBytes(count: Int) -> [Bool] {
        let n = max(0, min(count, known.count * 4))
        return [Bool](unsafeUninitializedCapacity: n) { mask, initialized in
            known.withUnsafeBufferPointer { pages in
                for i in 0..<n { (mask.baseAddress! + i).initialize(to: pages[i >> 2]) }
            }
            initialized = n
        }
    }

    /// Every page (256 × 4 bytes), unknown ones as zeros.
    public var allBytes: [UInt8] { bytes }
}

/// Authentication state of a Type 2 session.
enum Type2Authentication: Equatable {
    case none
    case authenticated(password: [UInt8], pack: [UInt8])
    case refused(password: [UInt8], nak: Type2Acknowledgement.NAK)
    /// Ultralight C / AES mutual authentication finished (keys are not recovered).
    case mutuallyAuthenticated

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
        case .mutuallyAuthenticated: return "mutually authenticated (AUTHENTICATE)"
        }
    }
}

/// What the reader last asked, so that the tag's answer can be read in its context.
enum ISO14443APending {
    case activation(ISO14443ACommand)
    case type2(Type2Command)
    case isoDEP(ISODEPBlock)
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
    var memory = Type2MemoryImage()
    var pending: (frame: Int, request: ISO14443APending)? {
        didSet { if let p = pending { lastRequest = p.request } }
    }
    /// The most recent request, answered or not (PPS is only valid right after RATS/ATS).
    var lastRequest: ISO14443APending?
    var continuation = Type2Command.Continuation.none
    /// Page of a COMPATIBILITY_WRITE whose data packet was sent and awaits its ACK.
    var compatibilityWritePage: UInt8?
    var signature: [UInt8]?
    var counters: [Int: UInt32] = [:]
    /// Whether anything answered: a REQA after this starts a new session.
    var tagAnswered = false
    var diagnostics: [Diagnostic] = []

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

    /// Whether frames should be read as ISO-DEP blocks (only after an ATS, never by guessing).
    var isoDEPActive: Bool { ats != nil }

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
