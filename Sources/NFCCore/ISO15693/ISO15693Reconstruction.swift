/// An ISO 15693 VICC as a dissected session saw it: identity, what Get System Information said,
/// the blocks read back or written (and acknowledged), the lock states seen. Enough to emulate
/// the tag the trace talked to (`emulate --from-trace`, replay against the trace's own tag).
public struct ISO15693Reconstruction: Sendable, Equatable {
    public var uid: ISO15693UID
    /// From an Inventory answer, Get System Information or an acknowledged Write DSFID.
    public var dsfid: UInt8?
    public var afi: UInt8?
    public var dsfidLocked: Bool
    public var afiLocked: Bool
    /// The Get System Information answer of the session, when there was one: its information
    /// flags say which fields the tag reports.
    public var systemInformation: ISO15693SystemInformation?
    /// From Get System Information, or inferred from the length of a read or write.
    public var blockSize: Int?
    public var blockCount: Int?
    /// Blocks whose content the session showed, by block number.
    public var blocks: [Int: [UInt8]]
    /// Lock states seen (security status bytes, Get Multiple Block Security Status, Lock Block),
    /// also for blocks whose content was never seen.
    public var locks: [Int: Bool]
    /// The 32-byte originality signature of an NXP READ SIGNATURE answer.
    public var signature: [UInt8]?

    public init(uid: ISO15693UID, dsfid: UInt8? = nil, afi: UInt8? = nil, dsfidLocked: Bool = false, afiLocked: Bool = false,
                systemInformation: ISO15693SystemInformation? = nil, blockSize: Int? = nil, blockCount: Int? = nil,
                blocks: [Int: [UInt8]] = [:], locks: [Int: Bool] = [:], signature: [UInt8]? = nil) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
        self.dsfidLocked = dsfidLocked
        self.afiLocked = afiLocked
        self.systemInformation = systemInformation
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.blocks = blocks
        self.locks = locks
        self.signature = signature
    }

    /// IC reference from Get System Information.
    public var icReference: UInt8? { systemInformation?.icReference }

    public var knownBlockCount: Int { blocks.count }
}
