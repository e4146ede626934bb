import NFCCore

extension ISO15693Dump {
    /// The VICC a trace's dissection reconstructed (`emulate --from-trace`): its UID, DSFID, AFI
    /// and lock bits, the Get System Information fields the session saw (and only those), the
    /// blocks read or written, the lock states seen; blocks the trace never showed are zero.
    /// The block size is the dissector's: Get System Information, else the length of a read or
    /// write; the block count comes from Get System Information only.
    public init(reconstruction: ISO15693Reconstruction) {
        var notes: [String] = []
        let size: Int
        if let s = reconstruction.blockSize, (1...32).contains(s) {
            size = s
        } else {
            size = 4
            notes.append("the trace shows no block and no Get System Information; emulating 4-byte blocks")
        }
        let count: Int
        if let c = reconstruction.blockCount, (1...65536).contains(c) {
            count = c
        } else {
            // Without Get System Information the memory size is unknown: every block a 1-byte
            // block number reaches (or the highest block the trace touched).
            let highest = max(reconstruction.blocks.keys.max() ?? 0, reconstruction.locks.keys.max() ?? 0)
            count = min(65536, max(256, highest + 1))
            notes.append("the trace has no Get System Information; emulating \(count) blocks (Get System Information does not report a memory size)")
        }
        var flags: UInt8 = 0
        if let info = reconstruction.systemInformation {
            flags = info.infoFlags & 0x0F
        } else {
            if reconstruction.dsfid != nil { flags |= ISO15693SystemInformation.dsfidFlag }
            if reconstruction.afi != nil { flags |= ISO15693SystemInformation.afiFlag }
        }
        var configuration = ISO15693Dumps.configurationFor(uid: reconstruction.uid, blockCount: count, blockSize: size, slix: false, notes: &notes,
                                                           file: "trace")
        configuration.icReference = reconstruction.icReference ?? 0
        configuration.systemInformationFlags = flags
        var memory = ISO15693TagMemory(uid: reconstruction.uid, blockCount: count, blockSize: size, dsfid: reconstruction.dsfid ?? 0, afi: reconstruction.afi ?? 0,
                                       dsfidLocked: reconstruction.dsfidLocked, afiLocked: reconstruction.afiLocked,
                                       icode: configuration.nxpCustomCommands ? ICODEData(signature: reconstruction.signature ?? []) : nil)
        var odd = 0
        for (n, bytes) in reconstruction.blocks {
            if bytes.count == size && memory.contains(n) { memory.setBlock(n, bytes) } else { odd += 1 }
        }
        if odd > 0 { notes.append("\(odd) block\(odd == 1 ? "" : "s") of the trace do not fit \(count) blocks of \(size) bytes and are left out") }
        for (n, locked) in reconstruction.locks where locked { memory.setLocked(n) }
        if configuration.nxpCustomCommands && reconstruction.signature == nil {
            notes.append("the trace has no READ SIGNATURE answer: the emulated \(configuration.name) answers READ SIGNATURE with 32 zero bytes")
        }
        self.init(configuration: configuration, memory: memory, notes: notes)
    }
}
