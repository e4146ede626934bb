import NFCCore

/// ISO-DEP and ISO 7816-4 structures for the codec target, one per input, chosen by byte 0:
/// 0 an ISO-DEP block, 1 a command APDU, 2 a response APDU whose data is a BER-TLV tree (an FCI
/// as a SELECT answers it), 3 a Type 4 CC file. Built with the codecs' encoders.
public struct ISO7816Shape: ShapeMutator {
    /// The ISO-DEP/ISO 7816-4 codec shape; it has no settings.
    public init() {}

    /// ISO 7816 magic: ISO-DEP PCBs, CLA/INS bytes, status words, FCI and EMV BER-TLV tags, the
    /// Type 4 CC file's TLV tags.
    public var dictionary: [[UInt8]] {
        [[0x02], [0x03], [0x12], [0xA2], [0xB2], [0xC2], [0xF2, 0x01], [0x00, 0xA4, 0x04, 0x00], [0x00, 0xB0], [0x00, 0xD6], [0x90, 0x00], [0x6A, 0x82],
         Type4Tag.ndefApplication, [0xE1, 0x03], [0xE1, 0x04], [0x6F], [0x84], [0xA5], [0xBF, 0x0C], [0x9F, 0x38], [0x81], [0x82], [0x00, 0x0F, 0x20], [0x04, 0x06]]
    }

    static func block(_ r: inout FuzzRandom) -> [UInt8] {
        let n = UInt8(r.below(2))
        let b: ISODEPBlock = r.pick(.i(chaining: r.chance(30), cidFollows: r.chance(20), nadFollows: r.chance(10), blockNumber: n),
                                    .r(nak: r.chance(50), cidFollows: r.chance(20), blockNumber: n), .s(kind: .deselect, cidFollows: false), .s(kind: .wtx, cidFollows: r.chance(20)))
        var f = ISODEPFrame(b, inf: [])
        if b.cidFollows { f.cid = UInt8(r.below(15)) }
        if b.nadFollows { f.nad = r.byte() }
        if case .i = b { f.inf = command(&r) } else if case .s(.wtx, _) = b { f.inf = [UInt8(1 + r.below(59))] }
        return [0] + f.encode()
    }

    static func command(_ r: inout FuzzRandom) -> [UInt8] {
        let ins: UInt8 = r.pick(ISO7816Instruction.select, ISO7816Instruction.readBinary, ISO7816Instruction.updateBinary, ISO7816Instruction.readRecord,
                                ISO7816Instruction.getData, 0xA8, r.byte())
        let data: [UInt8] = r.pick([], Type4Tag.ndefApplication, [0xE1, 0x03], r.bytes(r.below(20)), r.bytes(r.pick(255, 256, 300)))
        let le: Int? = r.pick(nil, 0, 2, 15, 256, r.below(70000))
        let apdu = CommandAPDU(cla: r.pick(0x00, 0x80, 0x90, 0x10, 0x0C, r.byte()), ins: ins, p1: r.pick(0, 4, 0x80, r.byte()), p2: r.pick(0, 0x0C, r.byte()),
                               data: data, le: le.map { $0 == 0 ? 256 : $0 })
        return apdu.encode()
    }

    static func tlv(_ r: inout FuzzRandom, depth: Int) -> [UInt8] {
        let tag: UInt32 = depth > 2 || r.chance(50) ? r.pick(0x84, 0x4F, 0x50, 0x87, 0x9F38, 0x5F2D, 0x9F0A, 0x5A, 0x57) : r.pick(0x6F, 0xA5, 0xBF0C, 0x61, 0x70, 0x77)
        let constructed = tag == 0x6F || tag == 0xA5 || tag == 0xBF0C || tag == 0x61 || tag == 0x70 || tag == 0x77
        let value = constructed ? (0..<(1 + r.below(3))).flatMap { _ in tlv(&r, depth: depth + 1) } : r.bytes(r.pick(0, 1, 7, 14, 200))
        return BERTLV.encode(tag: tag, value: value)
    }

    static func response(_ r: inout FuzzRandom) -> [UInt8] {
        [2] + ResponseAPDU(data: r.chance(80) ? tlv(&r, depth: 0) : [], status: StatusWord(r.pick(0x9000, 0x6A82, 0x6110, 0x91AF, UInt16(truncatingIfNeeded: r.next())))).encode()
    }

    static func capabilityContainer(_ r: inout FuzzRandom) -> [UInt8] {
        let extended = r.chance(30)
        let cc = Type4CapabilityContainer(mappingVersion: r.pick(0x10, 0x20, 0x30, r.byte()), maxReadLength: UInt16(r.pick(0x0F, 0x3B, 0xFF, Int(r.next() & 0xFFFF))),
                                          maxWriteLength: UInt16(r.pick(1, 0x34, 0xFF, Int(r.next() & 0xFFFF))),
                                          ndefFile: .init(tag: extended ? 0x06 : 0x04, fileID: r.pick(0xE104, UInt16(truncatingIfNeeded: r.next())),
                                                          maxSize: UInt32(r.pick(2048, 0xFFFE, extended ? 100_000 : 255)), readAccess: r.pick(0, 0xFF, r.byte()),
                                                          writeAccess: r.pick(0, 0xFF, r.byte())),
                                          otherTLVs: r.chance(20) ? [[0x05, 0x06] + r.bytes(6)] : [])
        return [3] + cc.encode()
    }

    /// Two of each mode: ISO-DEP blocks, command APDUs, response APDUs with an FCI, Type 4 CC
    /// files.
    public func seeds() -> [[UInt8]] {
        var r = FuzzRandom(seed: 0x3738_3136)
        return [Self.block(&r), Self.block(&r), [1] + Self.command(&r), [1] + Self.command(&r), Self.response(&r), Self.response(&r),
                Self.capabilityContainer(&r), [3, 0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x04, 0x00, 0x00, 0x00]]
    }

    /// A fresh input of a random mode, built with the codecs' encoders.
    public func generate(_ m: inout MutationContext) -> [UInt8] {
        switch m.random.below(4) {
        case 0: return Self.block(&m.random)
        case 1: return [1] + Self.command(&m.random)
        case 2: return Self.response(&m.random)
        default: return Self.capabilityContainer(&m.random)
        }
    }

    /// Whether the body after byte 0 decodes as its mode says: an ISO-DEP frame, a command APDU, a
    /// response APDU whose data parses as BER-TLV, a Type 4 CC file.
    public func isWellFormed(_ input: [UInt8]) -> Bool {
        guard let mode = input.first else { return false }
        let body = Array(input.dropFirst())
        switch mode {
        case 0: return (try? ISODEPFrame.decode(body)) != nil
        case 1: return (try? CommandAPDU.decode(body)) != nil
        case 2:
            guard let r = try? ResponseAPDU.decode(body) else { return false }
            return BERTLV.parse(r.data).error == nil
        case 3: return (try? Type4CapabilityContainer.decode(body)) != nil
        default: return false
        }
    }

    /// A fresh input of a random mode when this one is well formed (the modes have no field-level
    /// mutation yet); nil otherwise.
    public func mutateStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard isWellFormed(input) else { return nil }
        return generate(&m)
    }

    /// Breaks the input on purpose: Lc or Le off by one, a TLV or status word cut, the CC file's
    /// TLV length wrong, a block cut.
    public func breakStructure(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8]? {
        guard input.count > 3 else { return nil }
        var out = input
        switch input[0] {
        case 1: out[5 < out.count ? 5 : out.count - 1] ^= 0x01   // Lc or Le off by one
        case 2: out.removeLast(1 + m.random.below(min(3, out.count - 2)))   // a TLV or SW cut
        case 3 where out.count > 9: out[9] = m.random.pick(0x05, 0x07, 0xFF)   // the TLV length wrong
        default: out.removeLast()
        }
        return out
    }

    /// No crossover: the modes share no structure to splice (always nil).
    public func crossOver(_ a: [UInt8], _ b: [UInt8], _ m: inout MutationContext) -> [UInt8]? { nil }
}
