import NFCCore

/// ISO/IEC 15693 requests as `flags code [mfg | info] [UID] parameters` without CRC
/// (protocols.md §6.1–6.4): flags, block numbers and counts (1- and 2-byte), UIDs, AFI, masks.
public struct ISO15693RequestShape: ShapeMutator {
    /// The ISO 15693 request shape; it has no settings.
    public init() {}

    /// ISO 15693 magic: flag bytes (inventory, addressed, option), command codes, manufacturer
    /// codes, UIDs (E0 …) and AFI values.
    public var dictionary: [[UInt8]] {
        [[0x26, 0x01, 0x00], [0x02, 0x2B], [0x22, 0x20], [0x02, 0x23, 0x00, 0x03], [0x02, 0x30], [0x0A], [0x62], [0x12], [0xE0, 0x04], [0xE0, 0x02],
         [0xE0, 0x07], [0x04, 0x01], [0x02, 0xA0, 0x04], [0xB2], [0xBD], [0x3B], [0x3C], [0xFF, 0x00]]
    }

    static let flagValues: [UInt8] = [0x02, 0x22, 0x12, 0x26, 0x06, 0x36, 0x0A, 0x2A, 0x42, 0x62, 0x16, 0x03, 0x82]

    static func uid(_ r: inout FuzzRandom) -> ISO15693UID {
        ISO15693UID(value: r.pick(0xE004_0108_49D0_DC81, 0xE002_2403_6A1B_5E42, 0xE007_0000_0000_0001, r.next()))
    }

    static func command(_ r: inout FuzzRandom) -> ISO15693Command {
        let block = r.chance(70) ? UInt16(r.below(64)) : FuzzValues.u16(&r)
        let count = r.pick(1, 2, 4, 8, 64, 256, r.below(300))
        let size = r.pick(4, 4, 8, 32, 1)
        switch r.below(17) {
        case 0, 1: return .inventory(afi: r.chance(30) ? r.byte() : nil, maskLength: r.pick(0, 0, 8, 16, 64, 4, r.byte()), mask: r.bytes(r.below(9)))
        case 2, 3: return .readSingleBlock(block: block)
        case 4: return .writeSingleBlock(block: block, data: r.bytes(size))
        case 5, 6: return .readMultipleBlocks(first: block, count: count)
        case 7: return .writeMultipleBlocks(first: block, count: max(1, count % 8), data: r.bytes(size * max(1, count % 8)))
        case 8: return .getSystemInformation
        case 9: return .extendedGetSystemInformation(infoRequest: r.pick(0x3F, 0x0F, 0xFF, r.byte()))
        case 10: return r.pick(.extendedReadSingleBlock(block: block), .extendedReadMultipleBlocks(first: block, count: count), .fastExtendedReadMultipleBlocks(first: block, count: count))
        case 11: return r.pick(.getMultipleBlockSecurityStatus(first: block, count: count), .extendedGetMultipleBlockSecurityStatus(first: block, count: count), .fastReadMultipleBlocks(first: block, count: count))
        case 12: return r.pick(.stayQuiet, .select, .resetToReady, .lockAFI, .lockDSFID, .writeAFI(r.byte()), .writeDSFID(r.byte()), .lockBlock(block: block))
        case 13: return .extendedWriteSingleBlock(block: block, data: r.bytes(size))
        case 14: return .custom(code: r.pick(0xA0, 0xA1, 0xAB, 0xB2, 0xBD, 0xB3, UInt8(0xA0 + r.below(0x40))), manufacturer: r.pick(0x04, 0x02, 0x07, r.byte()), parameters: r.bytes(r.below(8)))
        case 15: return .security(r.pick(.authenticate, .challenge, .readBuffer), parameters: r.bytes(r.below(10)))
        default: return r.pick(.proprietary(code: UInt8(0xE0 + r.below(32)), parameters: r.bytes(r.below(6))), .rfu(code: r.pick(0x03, 0x1F, 0x2E, 0x40, 0x9F), parameters: r.bytes(r.below(6))))
        }
    }

    /// A request whose flags and UID agree (address flag ⇔ UID present).
    static func request(_ r: inout FuzzRandom) -> ISO15693Request {
        let command = command(&r)
        var flags = ISO15693RequestFlags(rawValue: r.element(flagValues) ?? 0x02)
        if case .inventory = command { flags.inventory = true } else { flags.inventory = false }
        return consistent(ISO15693Request(flags: flags, command: command, uid: flags.carriesUID || r.chance(20) ? uid(&r) : nil), &r)
    }

    /// Makes UID presence follow the address flag (the encoder writes a UID only when it has one).
    static func consistent(_ request: ISO15693Request, _ r: inout FuzzRandom) -> ISO15693Request {
        var q = request
        // Inventory: an AFI byte exactly when the AFI flag says so.
        if case .inventory(let afi, let length, let mask) = q.command, (afi != nil) != q.flags.afi {
            q.command = .inventory(afi: q.flags.afi ? (afi ?? r.byte()) : nil, maskLength: length, mask: mask)
        }
        if q.flags.carriesUID && q.uid == nil && q.command.takesUID { q.uid = uid(&r) }
        if !q.flags.carriesUID { q.uid = nil }
        return q
    }

    /// Inventory, addressed Get System Information, Read Multiple Blocks, Write Single Block with
    /// the option flag, Extended Read Multiple Blocks and a custom command, built with
    /// `ISO15693Request`.
    public func seeds() -> [[UInt8]] {
        let uid = ISO15693UID(value: 0xE004_0108_49D0_DC81)
        let requests: [ISO15693Request] = [
            ISO15693Request(flags: .inventory(), command: .inventory(afi: nil, maskLength: 0, mask: [])),
            ISO15693Request(flags: .addressed(), command: .getSystemInformation, uid: uid),
            ISO15693Request(flags: .nonAddressed(), command: .readMultipleBlocks(first: 0, count: 4)),
            ISO15693Request(flags: .addressed(option: true), command: .writeSingleBlock(block: 1, data: [0xE1, 0x40, 0x40, 0x01]), uid: uid),
            ISO15693Request(flags: .nonAddressed(), command: .extendedReadMultipleBlocks(first: 0x0100, count: 2)),
            ISO15693Request(flags: .nonAddressed(), command: .custom(code: 0xB2, manufacturer: 0x04, parameters: [])),
        ]
        return requests.map { $0.encode() }
    }

    /// A random request with flags consistent with its command.
    public func generate(_ m: inout MutationContext) -> [UInt8] { Self.request(&m.random).encode() }

    /// Whether the request decodes with no RFU flag set.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let q = try? ISO15693Request.decode(input) else { return false }
        return !q.flags.rfu
    }

    /// Decodes the request and changes one field: a flag that keeps its meaning, block numbers and
    /// counts, data of another block size, the UID, the AFI, a mask.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? { Self.mutate(input, &m) }

    static func mutate(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var q = try? ISO15693Request.decode(input) else { return nil }
        switch m.random.below(5) {
        case 0:
            // Flip one flag that keeps its meaning (option, data rate, protocol extension, select, address).
            q.flags.rawValue ^= m.random.pick(0x40, 0x02, 0x08, 0x01, 0x10, 0x20)
        case 1: q.uid = q.command.takesUID ? Self.uid(&m.random) : nil
        case 2:
            let b = m.random.chance(50) ? UInt16(m.random.below(256)) : FuzzValues.u16(&m.random)
            switch q.command {
            case .readSingleBlock: q.command = .readSingleBlock(block: b)
            case .readMultipleBlocks(_, let n): q.command = m.random.bool() ? .readMultipleBlocks(first: b, count: n) : .readMultipleBlocks(first: 0, count: 1 + Int(b % 256))
            case .writeSingleBlock(_, let d): q.command = .writeSingleBlock(block: b, data: d)
            case .extendedReadMultipleBlocks(let f, _): q.command = .extendedReadMultipleBlocks(first: f, count: 1 + Int(b))
            case .inventory(let afi, _, _): let n = m.random.pick(0, 8, 64, 65, 255); q.command = .inventory(afi: afi, maskLength: UInt8(n), mask: m.random.bytes((n + 7) / 8))
            default: q.command = Self.command(&m.random)
            }
        case 3: q.command = Self.command(&m.random)
        default:
            // Data of another block size (4, 8 or 32 bytes per block).
            if case .writeSingleBlock(let b, _) = q.command { q.command = .writeSingleBlock(block: b, data: m.random.bytes(m.random.pick(4, 8, 32, 2))) }
            else { q = Self.request(&m.random) }
        }
        if case .inventory = q.command { q.flags.inventory = true } else { q.flags.inventory = false }
        return consistent(q, &m.random).encode()
    }

    /// Breaks the request on purpose: the address flag without a UID (or a UID not announced), an
    /// inventory mask longer than its bytes, trailing bytes, write data that does not split into
    /// blocks.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? { Self.breakRequest(input, &m) }

    static func breakRequest(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard var q = try? ISO15693Request.decode(input) else { return nil }
        switch m.random.below(5) {
        case 0:
            // Address flag without the UID, or a UID the flags do not announce; an inventory mask
            // longer than the bytes that follow.
            if case .inventory(let afi, _, let mask) = q.command {
                q.command = .inventory(afi: afi, maskLength: UInt8(clamping: mask.count * 8 + 1 + m.random.below(64)), mask: mask)
                return q.encode()
            }
            var bytes = q.encode()
            bytes[0] ^= 0x20
            return bytes
        case 1: return Array(q.encode().dropLast(1 + m.random.below(3)))
        case 2:
            // Trailing bytes: an error for commands with fixed parameters, data that no longer
            // splits into whole blocks for writes.
            if case .writeMultipleBlocks(let f, let n, let d) = q.command, n > 1 { q.command = .writeMultipleBlocks(first: f, count: n, data: d + [0x00]); return q.encode() }
            return q.encode() + m.random.bytes(1 + m.random.below(5))
        case 3:
            if case .readMultipleBlocks(let f, _) = q.command { q.command = .readMultipleBlocks(first: f, count: m.random.pick(0, 257, 1 << 16)) }
            else { q.flags.rawValue |= 0x80 }   // RFU flag
            return q.encode()
        default:
            return [q.flags.rawValue]   // the command code itself missing
        }
    }

    /// The first request's flags and UID with the second's command, made consistent; nil when
    /// either does not decode.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard let x = try? ISO15693Request.decode(a), let y = try? ISO15693Request.decode(b) else { return nil }
        return Self.consistent(ISO15693Request(flags: x.flags, command: y.command, uid: x.uid ?? y.uid), &m.random).encode()
    }
}
