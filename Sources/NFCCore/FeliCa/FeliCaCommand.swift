/// Reader → card frames of FeliCa (JIS X 6319-4) and NFC Forum Type 3 Tags. protocols.md §5.3.
///
/// `decode` takes and `encode` returns the frame payload **with LEN, without CRC_F**:
/// `LEN code [IDm] parameters`. Codes without a public parameter layout (authentication,
/// issuance, mobile) are kept as `.other`: named, sized, IDm split off where the code has one.
public enum FeliCaCommand: Sendable, Hashable {
    /// `timeSlots` is the raw TSN byte: the card picks one of TSN + 1 slots (`00, 01, 03, 07, 0F`).
    case polling(systemCode: UInt16, requestCode: UInt8, timeSlots: UInt8)
    /// Node codes: areas or services, `FFFF` for the system key version.
    case requestService(idm: FeliCaIDm, nodes: [FeliCaServiceCode])
    case requestResponse(idm: FeliCaIDm)
    /// T3T "Check".
    case readWithoutEncryption(idm: FeliCaIDm, services: [FeliCaServiceCode], blocks: [FeliCaBlockListElement])
    /// T3T "Update"; `data` holds 16 bytes per block list element.
    case writeWithoutEncryption(idm: FeliCaIDm, services: [FeliCaServiceCode], blocks: [FeliCaBlockListElement], data: [UInt8])
    case searchServiceCode(idm: FeliCaIDm, index: UInt16)
    case requestSystemCode(idm: FeliCaIDm)
    /// `reserved` is `0000` in every source; kept to encode back what was sent.
    case requestSpecificationVersion(idm: FeliCaIDm, reserved: UInt16)
    /// Request: IDm + 2 reserved bytes (kormax/felicatool; protocols.md §5.3 marks it unverified).
    case getSystemStatus(idm: FeliCaIDm, reserved: UInt16)
    case resetMode(idm: FeliCaIDm, reserved: UInt16)
    /// Any other code: authentication, issuance, mobile commands, NFC-DEP, unknown codes.
    case other(code: FeliCaCode, idm: FeliCaIDm?, parameters: [UInt8])

    public var code: FeliCaCode {
        switch self {
        case .polling: return .polling
        case .requestService: return .requestService
        case .requestResponse: return .requestResponse
        case .readWithoutEncryption: return .readWithoutEncryption
        case .writeWithoutEncryption: return .writeWithoutEncryption
        case .searchServiceCode: return .searchServiceCode
        case .requestSystemCode: return .requestSystemCode
        case .requestSpecificationVersion: return .requestSpecificationVersion
        case .getSystemStatus: return .getSystemStatus
        case .resetMode: return .resetMode
        case .other(let code, _, _): return code
        }
    }

    /// The IDm the command addresses (nil for Polling and codes without one).
    public var idm: FeliCaIDm? {
        switch self {
        case .polling: return nil
        case .requestService(let idm, _), .requestResponse(let idm), .readWithoutEncryption(let idm, _, _),
             .writeWithoutEncryption(let idm, _, _, _), .searchServiceCode(let idm, _), .requestSystemCode(let idm),
             .requestSpecificationVersion(let idm, _), .getSystemStatus(let idm, _), .resetMode(let idm, _):
            return idm
        case .other(_, let idm, _): return idm
        }
    }

    /// Where the values of the commands sit, from LEN (JIS X 6319-4 §9.3, protocols.md §5.3).
    /// After the IDm, lists of 2-byte codes and block list elements follow; their places are
    /// the rules below.
    public enum Layout {
        public static let length = FieldLayout(0, 1, "LEN")
        public static let code = FieldLayout(1, 1, "command code")
        public static let idm = FieldLayout(2, 8, "IDm (8 bytes)")
        public static let systemCode = FieldLayout(2, 2, "system code (2 bytes, big endian)")
        public static let requestCode = FieldLayout(4, 1, "request code")
        public static let timeSlots = FieldLayout(5, 1, "time slot number")
        /// Number of nodes (Request Service) or of services (Read/Write Without Encryption).
        public static let count = FieldLayout(10, 1, "number of nodes or services")
        public static let index = FieldLayout(10, 2, "index (2 bytes, little endian)")
        public static let reserved = FieldLayout(10, 2, "2 reserved bytes")
        /// A command of another code: parameters after the IDm if it carries one, else after the code.
        public static func parameters(_ count: Int, afterIDm: Bool) -> Range<Int> {
            let start = afterIDm ? idm.end : code.end
            return start..<start + count
        }

        /// Node or service code `i` of a list of 2-byte codes (little endian) after `count`.
        public static func listEntry(_ i: Int) -> Range<Int> { count.end + 2 * i..<count.end + 2 * (i + 1) }
        /// The whole list of `n` codes.
        public static func list(_ n: Int) -> Range<Int> { count.end..<count.end + 2 * n }
        /// The number of blocks, after a service list of `m` codes.
        public static func blockCount(afterServices serviceCount: Int) -> FieldLayout { FieldLayout(list(serviceCount).upperBound, 1, "number of blocks") }
    }

    /// Decodes `LEN code …` (CRC_F already removed). `checkingLength: false` decodes what is there
    /// when LEN is wrong, so that a dissector can both flag LEN and show the fields.
    public static func decode(_ payload: [UInt8], checkingLength: Bool = true) throws(DecodeError) -> FeliCaCommand {
        var c = ByteCursor(payload)
        try FeliCaLength.read(&c, payloadCount: payload.count, checking: checkingLength)
        let code = FeliCaCode(try c.readUInt8(Layout.code))
        let command: FeliCaCommand
        switch code {
        case .polling:
            command = .polling(systemCode: try c.readUInt16BE(Layout.systemCode.expected),
                               requestCode: try c.readUInt8(Layout.requestCode), timeSlots: try c.readUInt8(Layout.timeSlots))
        case .requestService:
            let idm = try FeliCaIDm.read(&c)
            let n = Int(try c.readUInt8("number of nodes"))
            var nodes: [FeliCaServiceCode] = []
            for i in 0..<n { nodes.append(try FeliCaServiceCode.read(&c, "node code \(i + 1) of \(n) (2 bytes, little endian)")) }
            command = .requestService(idm: idm, nodes: nodes)
        case .requestResponse:
            command = .requestResponse(idm: try FeliCaIDm.read(&c))
        case .readWithoutEncryption, .writeWithoutEncryption:
            let idm = try FeliCaIDm.read(&c)
            let services = try readServiceList(&c)
            let blocks = try readBlockList(&c)
            if code == .readWithoutEncryption {
                command = .readWithoutEncryption(idm: idm, services: services, blocks: blocks)
            } else {
                let data = try c.readBytes(16 * blocks.count, "\(16 * blocks.count) bytes of block data (16 per block)")
                command = .writeWithoutEncryption(idm: idm, services: services, blocks: blocks, data: data)
            }
        case .searchServiceCode:
            command = .searchServiceCode(idm: try FeliCaIDm.read(&c), index: try c.readUInt16LE(Layout.index.expected))
        case .requestSystemCode:
            command = .requestSystemCode(idm: try FeliCaIDm.read(&c))
        case .requestSpecificationVersion:
            command = .requestSpecificationVersion(idm: try FeliCaIDm.read(&c), reserved: try c.readUInt16BE(Layout.reserved.expected))
        case .getSystemStatus:
            command = .getSystemStatus(idm: try FeliCaIDm.read(&c), reserved: try c.readUInt16BE(Layout.reserved.expected))
        case .resetMode:
            command = .resetMode(idm: try FeliCaIDm.read(&c), reserved: try c.readUInt16BE(Layout.reserved.expected))
        default:
            var idm: FeliCaIDm? = nil
            if code.carriesIDm == true, c.remaining >= 8 { idm = try FeliCaIDm.read(&c) }
            command = .other(code: code, idm: idm, parameters: c.readRest())
        }
        try c.expectEnd(code.name)
        return command
    }

    static func readServiceList(_ c: inout ByteCursor) throws(DecodeError) -> [FeliCaServiceCode] {
        let m = Int(try c.readUInt8("number of services"))
        var services: [FeliCaServiceCode] = []
        services.reserveCapacity(m)
        for i in 0..<m { services.append(try FeliCaServiceCode.read(&c, "service code \(i + 1) of \(m) (2 bytes, little endian)")) }
        return services
    }

    static func readBlockList(_ c: inout ByteCursor) throws(DecodeError) -> [FeliCaBlockListElement] {
        let n = Int(try c.readUInt8("number of blocks"))
        var blocks: [FeliCaBlockListElement] = []
        blocks.reserveCapacity(n)
        for i in 0..<n { blocks.append(try FeliCaBlockListElement.read(&c, index: i)) }
        return blocks
    }

    /// `LEN code …` without CRC_F.
    public func encode() -> [UInt8] {
        var body: [UInt8] = [code.rawValue]
        switch self {
        case .polling(let sc, let rc, let tsn):
            body += [UInt8(sc >> 8), UInt8(truncatingIfNeeded: sc), rc, tsn]
        case .requestService(let idm, let nodes):
            body += idm.bytes + [UInt8(truncatingIfNeeded: nodes.count)] + nodes.flatMap(\.onAir)
        case .requestResponse(let idm), .requestSystemCode(let idm):
            body += idm.bytes
        case .readWithoutEncryption(let idm, let services, let blocks):
            body += idm.bytes + Self.lists(services, blocks)
        case .writeWithoutEncryption(let idm, let services, let blocks, let data):
            body += idm.bytes + Self.lists(services, blocks) + data
        case .searchServiceCode(let idm, let index):
            body += idm.bytes + [UInt8(truncatingIfNeeded: index), UInt8(index >> 8)]
        case .requestSpecificationVersion(let idm, let r), .getSystemStatus(let idm, let r), .resetMode(let idm, let r):
            body += idm.bytes + [UInt8(r >> 8), UInt8(truncatingIfNeeded: r)]
        case .other(_, let idm, let parameters):
            body += (idm?.bytes ?? []) + parameters
        }
        return FeliCaLength.prefixed(body)
    }

    static func lists(_ services: [FeliCaServiceCode], _ blocks: [FeliCaBlockListElement]) -> [UInt8] {
        [UInt8(truncatingIfNeeded: services.count)] + services.flatMap(\.onAir)
            + [UInt8(truncatingIfNeeded: blocks.count)] + blocks.flatMap(\.bytes)
    }

    /// The service and block lists of a Read or Write Without Encryption; nil for other commands.
    public var serviceAndBlockLists: (services: [FeliCaServiceCode], blocks: [FeliCaBlockListElement])? {
        switch self {
        case .readWithoutEncryption(_, let s, let b), .writeWithoutEncryption(_, let s, let b, _): return (s, b)
        default: return nil
        }
    }

    /// List problems a card would answer with status flags (Read/Write only).
    public var listProblems: [FeliCaListProblem] {
        serviceAndBlockLists.map { FeliCaListProblem.check(services: $0.services, blocks: $0.blocks) } ?? []
    }

    /// Time slots the card may answer in (TSN + 1 for the values NFC-DIG allows).
    public static func slotCount(timeSlots tsn: UInt8) -> Int { Int(tsn) + 1 }

    /// Request code meaning (§5.3 Polling details; NFC-DIG: other values are treated as `00`).
    public static func requestCodeMeaning(_ rc: UInt8) -> String {
        switch rc {
        case 0x00: return "no request data"
        case 0x01: return "system code requested"
        case 0x02: return "communication performance requested"
        default: return "reserved, treated as 00"
        }
    }
}
