import NFCCore

/// A node of a system's file system: an area (number range from its code to its end code) or a
/// service (protocols.md §5.4). Search Service Code walks the nodes in the order the system keeps.
public enum FeliCaCardNode: Sendable, Equatable {
    case area(FeliCaServiceCode, end: FeliCaServiceCode, keyVersion: UInt16)
    case service(FeliCaServiceCode, keyVersion: UInt16)

    public var code: FeliCaServiceCode {
        switch self {
        case .area(let c, _, _), .service(let c, _): return c
        }
    }

    public var keyVersion: UInt16 {
        switch self {
        case .area(_, _, let v), .service(_, let v): return v
        }
    }

    public var isService: Bool {
        if case .service = self { return true }
        return false
    }

    /// What Search Service Code answers for this node.
    public var searchResult: FeliCaSearchResult {
        switch self {
        case .area(let c, let end, _): return .area(c, end: end)
        case .service(let c, _): return .service(c)
        }
    }
}

/// One system of a FeliCa Standard card: its code, the IDm and PMm it answers Polling with, its
/// areas and services, and the block data of its services.
public struct FeliCaCardSystem: Sendable, Equatable {
    public var code: UInt16
    /// Byte 0's upper nibble is the system number (§5.2): system n answers with it set to n.
    public var idm: FeliCaIDm
    public var pmm: FeliCaPMm
    /// Answered to Request Service for node `FFFF`.
    public var keyVersion: UInt16
    /// Areas and services in Search Service Code order.
    public var nodes: [FeliCaCardNode]
    /// Block data per service number: overlap services (same number, another attribute, §5.4)
    /// address the same blocks. For a cyclic service block 0 is the newest record.
    public var blocks: [UInt16: [[UInt8]]]
    /// Keys a dump carried (node → key; `FFFF` = the system key). Kept to be written back; this
    /// emulator does no authentication.
    public var keys: [FeliCaServiceCode: [UInt8]]

    public init(code: UInt16, idm: FeliCaIDm, pmm: FeliCaPMm, keyVersion: UInt16 = 0, nodes: [FeliCaCardNode] = [],
                blocks: [UInt16: [[UInt8]]] = [:], keys: [FeliCaServiceCode: [UInt8]] = [:]) {
        self.code = code
        self.idm = idm
        self.pmm = pmm
        self.keyVersion = keyVersion
        self.nodes = nodes
        self.blocks = blocks
        self.keys = keys
    }

    /// The root area `0000`–`FFFE` every system has (Flipper's and nfcpy's dumps start with it).
    public static let rootArea = FeliCaCardNode.area(FeliCaServiceCode(0x0000), end: FeliCaServiceCode(0xFFFE), keyVersion: 0)

    /// Adds a service (after the nodes already there) and its blocks, unless the service number
    /// already holds blocks (an overlap service then shares them).
    public mutating func addService(_ code: FeliCaServiceCode, keyVersion: UInt16 = 0, blocks data: [[UInt8]] = []) {
        if !nodes.contains(where: { $0.code == code }) { nodes.append(.service(code, keyVersion: keyVersion)) }
        if blocks[code.number] == nil || !data.isEmpty { blocks[code.number] = data.map(Self.block) }
    }

    /// 16 bytes: padded with zeros or cut.
    static func block(_ data: [UInt8]) -> [UInt8] {
        Array((data + [UInt8](repeating: 0, count: 16)).prefix(16))
    }

    public var services: [FeliCaServiceCode] { nodes.filter(\.isService).map(\.code) }

    public func node(_ code: FeliCaServiceCode) -> FeliCaCardNode? { nodes.first { $0.code == code } }

    public func hasService(_ code: FeliCaServiceCode) -> Bool { node(code)?.isService == true }

    /// Request Service (§5.3): the node's key version, the system's for `FFFF`, `FFFF` when absent.
    public func keyVersion(of code: FeliCaServiceCode) -> UInt16 {
        if code == .systemKeyVersionRequest { return keyVersion }
        return node(code)?.keyVersion ?? 0xFFFF
    }

    public func blockCount(_ service: FeliCaServiceCode) -> Int { blocks[service.number]?.count ?? 0 }

    public func block(_ service: FeliCaServiceCode, _ number: Int) -> [UInt8]? {
        guard let b = blocks[service.number], number >= 0, number < b.count else { return nil }
        return b[number]
    }

    mutating func setBlock(_ service: FeliCaServiceCode, _ number: Int, _ data: [UInt8]) {
        guard var b = blocks[service.number], number >= 0, number < b.count else { return }
        b[number] = Self.block(data)
        blocks[service.number] = b
    }

    /// A cyclic write: the new record becomes block 0, the others move one up, the oldest is lost.
    mutating func pushRecord(_ service: FeliCaServiceCode, _ data: [UInt8]) {
        guard let b = blocks[service.number], !b.isEmpty else { return }
        blocks[service.number] = [Self.block(data)] + b.dropLast()
    }

    public var knownBlockCount: Int { blocks.values.reduce(0) { $0 + $1.count } }

    /// Blocks one service may hold here. Block numbers go to 65535 on air (3-byte elements,
    /// §5.5), but a whole FeliCa Standard chip holds a few hundred blocks; a bound keeps a dump
    /// or trace that names block 65535 from allocating a megabyte of zeros per service.
    public static let maximumBlocksPerService = 1024
}
