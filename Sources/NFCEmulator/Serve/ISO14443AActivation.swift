import NFCCore

/// What a reader learnt of a 14443-A tag while activating it.
public struct ISO14443AActivation: Sendable, Hashable {
    public var atqa: ATQA
    public var sak: SAK
    public var uid: [UInt8]
    public var ats: ATS?
    /// GET_VERSION's answer on a Type 2 tag (nil when not asked or NAKed).
    public var version: [UInt8]?

    public init(atqa: ATQA, sak: SAK, uid: [UInt8], ats: ATS? = nil, version: [UInt8]? = nil) {
        self.atqa = atqa
        self.sak = sak
        self.uid = uid
        self.ats = ats
        self.version = version
    }

    /// The largest frame the tag takes (FSC from the ATS), CRC included.
    public var frameSize: Int { ISO14443ACommand.frameSize(forIndex: (ats?.t0 ?? 0x02) & 0x0F) }
}
