/// What a dissected session tells about its tag: enough to emulate it (`nfctrace emulate
/// --from-trace`, replay against the tag rebuilt from the trace).
public enum TagReconstruction: Sendable, Equatable {
    case type2(Type2Reconstruction)
    case iso15693(ISO15693Reconstruction)
    case felica(FeliCaReconstruction)

    /// What tells this tag from another in one trace (UID, IDm).
    public var identity: [UInt8] {
        switch self {
        case .type2(let t): return t.uid
        case .iso15693(let v): return v.uid.bytes
        case .felica(let f): return f.identity
        }
    }

    /// How much of the tag the session showed (pages, blocks): picks the best session of a trace.
    public var knownUnits: Int {
        switch self {
        case .type2(let t): return t.knownPageCount
        case .iso15693(let v): return v.knownBlockCount
        case .felica(let f): return f.knownBlockCount
        }
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

    public init(uid: [UInt8], atqa: UInt16? = nil, sak: UInt8? = nil, model: Type2TagModel? = nil, version: [UInt8]? = nil,
                memory: TagMemoryImage, password: [UInt8]? = nil, pack: [UInt8]? = nil, signature: [UInt8]? = nil,
                counters: [Int: UInt32] = [:]) {
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
    }

    public var knownPageCount: Int { memory.knownPages.count }
}
