import NFCCore

/// Blocks of an ISO 15693 tag as a reader saw them in one session: read back, or written and
/// acknowledged. Sparse, because 2-byte block numbers reach 65536 blocks.
struct ISO15693BlockStore {
    struct Block {
        var data: [UInt8]
        /// What the block held when the session first read it, before any write of the session:
        /// the state a tag rebuilt for replay starts from.
        var initial: [UInt8]?
        var written = false
        var read = false
        /// From a security status byte, Get Multiple Block Security Status or Lock Block.
        var locked: Bool?
        /// Frame that last wrote or read the block.
        var frame: Int
    }

    private(set) var blocks: [Int: Block] = [:]

    var isEmpty: Bool { blocks.isEmpty }
    var count: Int { blocks.count }
    var sortedNumbers: [Int] { blocks.keys.sorted() }

    subscript(block: Int) -> Block? { blocks[block] }

    /// Records a block that was read; returns the bytes that were written earlier in the session
    /// when the read disagrees with them.
    mutating func storeRead(block: Int, data: [UInt8], securityStatus: UInt8?, frame: Int) -> [UInt8]? {
        var b = blocks[block] ?? Block(data: data, frame: frame)
        let mismatch = b.written && b.data != data ? b.data : nil
        if !b.written && b.initial == nil { b.initial = data }
        b.data = data
        b.read = true
        b.frame = frame
        if let s = securityStatus { b.locked = s & 0x01 != 0 }
        blocks[block] = b
        return mismatch
    }

    mutating func storeWrite(block: Int, data: [UInt8], frame: Int) {
        var b = blocks[block] ?? Block(data: data, frame: frame)
        b.data = data
        b.written = true
        b.read = false
        b.frame = frame
        blocks[block] = b
    }

    /// Lock state without data (Lock Block, Get Multiple Block Security Status).
    mutating func setLocked(block: Int, _ locked: Bool, frame: Int) {
        if var b = blocks[block] {
            b.locked = locked
            blocks[block] = b
        } else {
            lockOnly[block] = locked
        }
    }

    /// Lock states of blocks whose data was never seen.
    private(set) var lockOnly: [Int: Bool] = [:]

    func isLocked(_ block: Int) -> Bool? { blocks[block]?.locked ?? lockOnly[block] }

    /// The memory from byte 0, `blockSize` bytes per block, with unknown bytes marked; nil when
    /// block 0 (the Type 5 CC) is unknown. At most `limit` bytes.
    func image(blockSize: Int, blockCount: Int?, limit: Int) -> TagMemoryImage? {
        guard blockSize > 0, blocks[0]?.data.count == blockSize else { return nil }
        let last = blockCount.map { $0 - 1 } ?? (blocks.keys.max() ?? 0)
        let size = min(limit, (last + 1) * blockSize)
        var bytes = [UInt8](repeating: 0, count: size)
        var known = [Bool](repeating: false, count: size)
        for (n, b) in blocks where b.data.count == blockSize {
            let start = n * blockSize
            guard start < size else { continue }
            let end = min(size, start + blockSize)
            bytes.replaceSubrange(start..<end, with: b.data.prefix(end - start))
            for i in start..<end { known[i] = true }
        }
        return TagMemoryImage(bytes: bytes, known: known)
    }
}

/// What the VICC's state machine is in, as far as the trace shows it (protocols.md §6.4).
enum ISO15693VICCState: String {
    case ready = "Ready"
    case quiet = "Quiet"
    case selected = "Selected"
}

/// Everything the dissector knows about the VICC of the current session.
struct ISO15693Session: DissectorSession {
    var number: Int
    var firstFrame: Int
    var lastFrame: Int
    /// The VICC the reader talks to: from an Inventory answer or an addressed request.
    var uid: ISO15693UID?
    /// Every UID Inventory answers brought (several in 16-slot inventories), first seen first.
    var inventoried: [ISO15693UID] = []
    var dsfid: UInt8?
    var afi: UInt8?
    var dsfidLocked = false
    var afiLocked = false
    var icReference: UInt8?
    var systemInformation: ISO15693SystemInformation?
    var systemInformationFrame: Int?
    /// From Get System Information, or inferred from a read or write.
    var blockSize: Int?
    var blockSizeInferred = false
    var blockCount: Int?
    var state = ISO15693VICCState.ready
    /// Frame of the Stay Quiet or Select that set `state`.
    var stateFrame: Int?
    var memory = ISO15693BlockStore()
    /// The request waiting for its answer; `request` nil when it could not be decoded.
    var pending: (frame: Int, request: ISO15693Request?)?
    /// A non-inventory request was sent: an Inventory that finds another UID starts a new session.
    var conversed = false
    /// From an NXP READ SIGNATURE answer.
    var signature: [UInt8]?
    var diagnostics: [Diagnostic] = []

    init(number: Int, frame: Int) {
        self.number = number
        self.firstFrame = frame
        self.lastFrame = frame
    }

    static let maxInventoried = 16

    mutating func noteInventoried(_ uid: ISO15693UID) {
        if !inventoried.contains(uid), inventoried.count < Self.maxInventoried { inventoried.append(uid) }
    }

    /// `E0 04 … (NXP Semiconductors)`.
    static func uidText(_ uid: ISO15693UID) -> String {
        "\(uid) (\(manufacturerText(uid.manufacturerCode)))"
    }

    static func manufacturerText(_ code: UInt8) -> String {
        ISO15693UID.manufacturerName(code).map { "\($0)" } ?? "manufacturer \(Hex.byte(code))"
    }

    /// The tag's name as far as the UID tells: the ICODE type, else the manufacturer.
    var tagName: String? {
        guard let uid else { return nil }
        if let icode = uid.nxpICODEType { return icode }
        if let maker = uid.manufacturerName { return "\(maker) tag" }
        return nil
    }
}
