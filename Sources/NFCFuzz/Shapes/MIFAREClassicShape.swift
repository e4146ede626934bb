import NFCCore

/// MIFARE Classic structures for the codec target, one per input, chosen by byte 0:
/// 0 a reader command (byte 1: 0 plain, 1 WRITE data, 2 value operand), 1 a sector trailer,
/// 2 a value block, 3 a MAD v1 (32 bytes) followed by the data blocks of the sectors it names.
public struct MIFAREClassicShape: ShapeMutator {
    /// The MIFARE Classic codec shape; it has no settings.
    public init() {}

    /// MIFARE Classic magic: command codes (AUTH 60/61, READ 30, WRITE A0, value operations),
    /// transport access bits FF 07 80 69, MAD AIDs (03E1 NDEF).
    public var dictionary: [[UInt8]] {
        [[0x60], [0x61], [0x30], [0xA0], [0xC0], [0xC1], [0xC2], [0xB0], [0x50, 0x00], [0xFF, 0x07, 0x80, 0x69], [0x78, 0x77, 0x88, 0xC1],
         [0x7F, 0x07, 0x88, 0x40], [0x08, 0x77, 0x8F], [0x03, 0xE1], [0x01, 0x3D], [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7], [0x03], [0xFE], [0xD1, 0x01]]
    }

    static func command(_ r: inout FuzzRandom) -> [UInt8] {
        let b = r.pick(0, 3, 4, 7, 63, 128, 255, r.byte())
        let c: MIFAREClassicCommand = r.pick(.authenticate(.a, block: b), .authenticate(.b, block: b), .read(block: b), .write(block: b), .decrement(block: b),
                                             .increment(block: b), .restore(block: b), .transfer(block: b), .halt, .personalizeUIDUsage(option: r.pick(0, 0x20, 0x40, 0x60)),
                                             .setModType(r.pick(0, 1)))
        return [0, 0] + c.encode()
    }

    static func trailer(_ r: inout FuzzRandom) -> [UInt8] {
        let conditions = (0..<4).map { _ in UInt8(r.below(8)) }
        return [1] + r.bytes(6) + MIFAREClassicAccessBits(conditions: conditions).bytes + [r.pick(0x69, 0xC1, 0x40, r.byte())] + r.bytes(6)
    }

    static func value(_ r: inout FuzzRandom) -> [UInt8] {
        [2] + MIFAREClassicValueBlock(value: Int32(truncatingIfNeeded: r.pick(0, 1, -1, 100, Int(Int32.max), Int(Int32.min), Int(r.next() & 0xFFFF_FFFF))),
                                      address: r.byte()).encode()
    }

    static func mad(_ r: inout FuzzRandom) -> [UInt8] {
        var body: [UInt8] = [r.pick(0x01, 0x02, r.byte() & 0x3F)]
        var ndefSectors = 0
        for _ in 0..<15 {
            let aid: UInt16 = r.pick(0, 0, MIFAREApplicationDirectory.ndefAID, 0x3D01, 0x0005, UInt16(truncatingIfNeeded: r.next()))
            if aid == MIFAREApplicationDirectory.ndefAID { ndefSectors += 1 }
            body += [UInt8(aid & 0xFF), UInt8(aid >> 8)]
        }
        let uri = Array("nfctrace.example/\(r.below(1000))".utf8)
        let record: [UInt8] = [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x04] + uri
        var data: [UInt8] = [0x03, UInt8(record.count)] + record + [0xFE]
        data += [UInt8](repeating: 0, count: max(0, min(3, ndefSectors) * 48 - data.count))
        return [3, MIFAREApplicationDirectory.crc(of: body)] + body + data
    }

    /// Reader commands, sector trailers (one with transport access bits), value blocks and MADs
    /// with NDEF sectors.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x4D46_4331)
        return [Self.command(&r), Self.command(&r), Self.trailer(&r), [1, 0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                Self.value(&r), Self.mad(&r), Self.mad(&r)]
    }

    /// A fresh input of a random mode.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        switch m.random.below(4) {
        case 0: return Self.command(&m.random)
        case 1: return Self.trailer(&m.random)
        case 2: return Self.value(&m.random)
        default: return Self.mad(&m.random)
        }
    }

    /// Byte 1 of a command input: 0 a command, 1 WRITE's data part, 2 a value operand.
    public static func continuation(_ selector: UInt8) -> MIFAREClassicCommand.Continuation {
        switch selector {
        case 1: return .writeData(block: 0)
        case 2: return .valueOperand(.decrement, block: 0)
        default: return .none
        }
    }

    /// Whether the input decodes as its mode says: a command, a trailer with consistent access
    /// bits, a value block whose copies agree, a MAD v1 with a correct CRC.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let mode = input.first else { return false }
        switch mode {
        case 0:
            return input.count > 2 && (try? MIFAREClassicCommand.decode(Array(input.dropFirst(2)), continuation: Self.continuation(input[1]))) != nil
        case 1: return input.count == 17 && MIFAREClassicAccessBits(Array(input[7..<10])).isConsistent
        case 2: return input.count == 17 && MIFAREClassicValueBlock(Array(input.dropFirst())) != nil
        case 3: return input.count >= 33 && MIFAREApplicationDirectory(Array(input[1..<33]))?.crcIsValid == true
        default: return false
        }
    }

    /// Changes one thing and keeps the structure valid: a fresh command, one block's access
    /// condition (the bit copies kept consistent), a value and address, a sector's AID (the MAD CRC
    /// recomputed).
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard isWellFormed(input) else { return nil }
        var out = input
        switch input[0] {
        case 0: return Self.command(&m.random)
        case 1:
            // One block's condition changed, the copies kept consistent.
            var bits = MIFAREClassicAccessBits(Array(input[7..<10]))
            var conditions = (0..<4).map { bits.condition($0) }
            conditions[m.random.below(4)] = UInt8(m.random.below(8))
            bits = MIFAREClassicAccessBits(conditions: conditions)
            out.replaceSubrange(7..<10, with: bits.bytes)
        case 2:
            guard let v = MIFAREClassicValueBlock(Array(input.dropFirst())) else { return nil }
            out = [2] + MIFAREClassicValueBlock(value: m.random.chance(50) ? v.value &+ (Int32(m.random.below(200)) &- 100) : v.value, address: m.random.byte()).encode()
        default:
            // Another AID for a sector, the CRC recomputed.
            let at = 3 + 2 * m.random.below(15)
            out[at] = m.random.pick(0x03, 0x01, 0x00, m.random.byte())
            out[at + 1] = m.random.pick(0xE1, 0x3D, 0x00, m.random.byte())
            out[1] = MIFAREApplicationDirectory.crc(of: out[2..<33])
        }
        return out
    }

    /// Breaks the input on purpose: a command cut, access-bit copies that disagree, a value block's
    /// inverted copy wrong, a MAD CRC wrong.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard input.count > 2 else { return nil }
        var out = input
        switch input[0] {
        case 0: out.removeLast()
        case 1 where input.count == 17: out[7 + m.random.below(3)] ^= UInt8(1) << UInt8(m.random.below(8))   // the copies disagree
        case 2 where input.count == 17: out[1 + 4 + m.random.below(4)] ^= 0x01                                 // ¬value wrong
        case 3 where input.count >= 33: out[1] ^= 0xFF                                                           // MAD CRC wrong
        default: return nil
        }
        return out
    }

    /// No crossover: the modes share no structure to splice (always nil).
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? { nil }
}
