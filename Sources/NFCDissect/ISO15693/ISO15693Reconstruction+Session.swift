import NFCCore

extension ISO15693SessionSummary {
    /// The VICC as far as the session showed it, for emulating it; nil until a UID was seen.
    /// Only what the session trusted goes in: answers with a correct CRC, acknowledged writes.
    /// A block read before the session wrote it keeps what it held then, so that a replay of
    /// the session finds the tag as the reader found it.
    static func reconstruction(_ s: ISO15693Session) -> TagReconstruction? {
        guard let uid = s.uid else { return nil }
        var blocks: [Int: [UInt8]] = [:]
        var locks = s.memory.lockOnly
        for n in s.memory.sortedNumbers {
            guard let b = s.memory[n] else { continue }
            blocks[n] = b.initial ?? b.data
            if let locked = b.locked { locks[n] = locked }
        }
        return .iso15693(ISO15693Reconstruction(
            uid: uid, dsfid: s.dsfid, afi: s.afi, dsfidLocked: s.dsfidLocked, afiLocked: s.afiLocked,
            systemInformation: s.systemInformation, blockSize: s.blockSize, blockCount: s.blockCount, blocks: blocks, locks: locks,
            signature: s.signature))
    }
}
