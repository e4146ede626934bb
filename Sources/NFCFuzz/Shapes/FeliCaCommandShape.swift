import NFCCore

/// FeliCa reader commands as `LEN code [IDm] parameters` without CRC_F (protocols.md §5.3):
/// service lists, block lists (2- and 3-byte elements), block counts, IDm and write data.
public struct FeliCaCommandShape: ShapeMutator {
    /// The FeliCa command shape; it has no settings.
    public init() {}

    /// FeliCa magic: command codes, system codes (12FC, FE00, 88B4), service codes of NDEF and
    /// transit services, block-list element forms.
    public var dictionary: [[UInt8]] {
        [[0x06, 0x00, 0xFF, 0xFF, 0x01, 0x00], [0x12, 0xFC], [0xFC, 0x12], [0x0F, 0x09], [0x0B, 0x00], [0x09, 0x00], [0xFF, 0xFF], [0x88, 0xB4],
         [0x00, 0x03], [0xFE, 0x00], [0x06], [0x08], [0x02], [0x0C], [0x80, 0x00], [0x00, 0x00, 0x00], [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]]
    }

    /// Polling, Read and Write Without Encryption (2- and 3-byte block-list elements), Request
    /// Service, Request System Code and Search Service Code commands built with `FeliCaCommand`.
    public func seeds() -> [[UInt8]] {
        let idm = FeliCaIDm(rawValue: 0x0114_B3A1_2233_4455)
        let list = [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0), FeliCaBlockListElement(serviceOrder: 0, blockNumber: 1)]
        let commands: [FeliCaCommand] = [
            .polling(systemCode: 0x12FC, requestCode: 1, timeSlots: 0),
            .readWithoutEncryption(idm: idm, services: [.ndefRead], blocks: list),
            .readWithoutEncryption(idm: idm, services: [.cjrcHistory], blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0x0102, form: .threeByte)]),
            .writeWithoutEncryption(idm: idm, services: [.ndefWrite], blocks: list, data: [UInt8](repeating: 0xAB, count: 32)),
            .requestService(idm: idm, nodes: [.ndefRead, FeliCaServiceCode(0x1809)]),
            .requestSystemCode(idm: idm), .searchServiceCode(idm: idm, index: 3),
        ]
        return commands.map { $0.encode() }
    }

    /// A random command from the FeliCa dialect, addressed to a random IDm.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        FeliCaDialect.command(&m.random, idm: FeliCaDialect.idm(&m.random)).encode()
    }

    /// Whether the command decodes and its service and block lists have no problems (counts,
    /// elements, write data).
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let command = try? FeliCaCommand.decode(input) else { return false }
        return command.listProblems.isEmpty
    }

    /// Decodes the command and changes one typed field (IDm, services, block-list elements, write
    /// data); the encoder recomputes LEN and the counts.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? { Self.mutate(input, &m) }
    /// Breaks the command on purpose: LEN, the service or block count or the write data
    /// inconsistent, or the command cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? { Self.breakCommand(input, &m) }

    /// One typed field of the command changed; the encoder recomputes LEN and the counts.
    static func mutate(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let command = try? FeliCaCommand.decode(input) else { return nil }
        var idm = command.idm ?? FeliCaDialect.idm(&m.random)
        if m.random.chance(15) {
            // Another card, or the same card in another system (IDm's upper nibble).
            idm = m.random.bool() ? FeliCaDialect.idm(&m.random) : idm.inSystem(m.random.below(16))
        }
        let out: FeliCaCommand
        switch command {
        case .polling(let sc, let rc, let tsn):
            switch m.random.below(3) {
            case 0: out = .polling(systemCode: m.random.chance(70) ? (m.random.element(FeliCaDialect.systemCodes) ?? sc) : m.random.uint16(), requestCode: rc, timeSlots: tsn)
            case 1: out = .polling(systemCode: sc, requestCode: FuzzValues.u8(&m.random), timeSlots: tsn)
            default: out = .polling(systemCode: sc, requestCode: rc, timeSlots: m.random.pick(0, 1, 3, 7, 0x0F, 0x10, 0xFF))
            }
        case .readWithoutEncryption(_, var services, var blocks), .writeWithoutEncryption(_, var services, var blocks, _):
            switch m.random.below(5) {
            case 0: services = FeliCaDialect.services(&m.random)
            case 1: blocks = FeliCaDialect.blocks(&m.random, services: services.count)
            case 2: if !blocks.isEmpty { let i = m.random.below(blocks.count); blocks[i].blockNumber = FuzzValues.u16(&m.random); blocks[i].form = m.random.pick(.twoByte, .threeByte) }
            case 3: blocks += FeliCaDialect.blocks(&m.random, services: services.count)
            default: if !services.isEmpty { services[m.random.below(services.count)] = FeliCaServiceCode(m.random.element(FeliCaDialect.serviceCodes) ?? 0x000B) }
            }
            if case .writeWithoutEncryption(_, _, _, let data) = command {
                out = .writeWithoutEncryption(idm: idm, services: services, blocks: blocks, data: Array((data + m.random.bytes(16 * blocks.count)).prefix(16 * blocks.count)))
            } else {
                out = .readWithoutEncryption(idm: idm, services: services, blocks: blocks)
            }
        case .requestService(_, var nodes):
            if m.random.bool() || nodes.isEmpty { nodes = FeliCaDialect.services(&m.random) } else { nodes[m.random.below(nodes.count)] = FeliCaServiceCode(m.random.uint16()) }
            out = .requestService(idm: idm, nodes: nodes)
        case .searchServiceCode: out = .searchServiceCode(idm: idm, index: FuzzValues.u16(&m.random))
        case .other(let code, _, let parameters): out = .other(code: code, idm: idm, parameters: m.mutatedField(parameters, limit: 200))
        default: out = FeliCaDialect.command(&m.random, idm: idm)
        }
        return out.encode()
    }

    /// LEN, a list count or the write data made inconsistent, or the command cut.
    static func breakCommand(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let command = try? FeliCaCommand.decode(input, checkingLength: false) else { return nil }
        var bytes = command.encode()
        switch m.random.below(5) {
        case 0: bytes[0] = m.random.pick(bytes[0] &+ 1, bytes[0] &- 1, 0, 0xFF)   // LEN
        case 1:
            // The service count (byte 10) or block count after the services, off by some.
            if case .readWithoutEncryption(_, let s, _) = command, bytes.count > 11 + 2 * s.count {
                let at = m.random.bool() ? 10 : 11 + 2 * s.count
                bytes[at] = bytes[at] &+ UInt8(1 + m.random.below(16))
            } else { bytes.removeLast(min(bytes.count - 1, 1 + m.random.below(3))) }
        case 2: bytes.removeLast(min(bytes.count - 1, 1 + m.random.below(max(1, bytes.count - 1))))
        case 3: bytes += m.random.bytes(1 + m.random.below(17))
        default:
            // LEN right for a body that is wrong: one byte too many in the middle.
            bytes.insert(m.random.byte(), at: min(bytes.count, 2 + m.random.below(max(1, bytes.count - 1))))
            bytes[0] = UInt8(truncatingIfNeeded: bytes.count)
        }
        return bytes
    }

    /// The service and block lists of one Read Without Encryption or Request Service with the other
    /// command's IDm; otherwise one of the two inputs.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = try? FeliCaCommand.decode(a), let y = try? FeliCaCommand.decode(b) else { return nil }
        // The lists of one command with the IDm of the other.
        switch (x, y.idm) {
        case (.readWithoutEncryption(_, let s, let l), let idm?): return FeliCaCommand.readWithoutEncryption(idm: idm, services: s, blocks: l).encode()
        case (.requestService(_, let n), let idm?): return FeliCaCommand.requestService(idm: idm, nodes: n).encode()
        default: return m.random.bool() ? a : b
        }
    }
}
