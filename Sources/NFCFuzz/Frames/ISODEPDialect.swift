import NFCCore

/// ISO-DEP over ISO 14443-A for the dissector and the ISO-DEP emulators: an activation with
/// RATS and ATS, then sequences of APDUs in I-blocks as real applications send them — an NFC
/// Forum Type 4 NDEF read (and write), EMV (PPSE, SELECT, GET PROCESSING OPTIONS against the
/// card's PDOL, READ RECORD, GENERATE AC) with BER-TLV answers, DESFire native or ISO-wrapped,
/// a MIFARE Plus authentication and read. Long answers are chained over several blocks with the
/// reader's R(ACK)s, some answers come after an S(WTX), sessions end with S(DESELECT). Every
/// byte comes from the codecs' encoders (`ISODEPFrame`, `CommandAPDU`, `ResponseAPDU`,
/// `BERTLV`, `Type4CapabilityContainer`, `DESFire`, `MIFAREPlus`).
struct ISODEPDialect: FrameDialect {
    let technology = Technology.iso14443a
    let ndef = NDEFShape()

    static func r(_ p: [UInt8], crc: Bool = true, bits: UInt8 = 8) -> FuzzFrame { .data(.reader, .iso14443a, payload: p, crc: crc, lastByteBits: bits) }
    static func t(_ p: [UInt8], crc: Bool = true, bits: UInt8 = 8) -> FuzzFrame { .data(.tag, .iso14443a, payload: p, crc: crc, lastByteBits: bits) }

    /// The block layer of one conversation, as ISO/IEC 14443-4 §7.5.3 numbers blocks (rules A–E):
    /// the reader's number toggles with every tag I-block and R(ACK) of the same number.
    struct Conversation {
        var number: UInt8 = 0
        /// How many INF bytes the tag puts in one block (its answers longer than this chain).
        var chunk: Int
        var frames: [FuzzFrame] = []

        /// A command and its whole answer: the answer split into chained blocks (each continued
        /// by the reader's R(ACK)), sometimes after an S(WTX).
        mutating func exchange(_ command: [UInt8], _ answer: [UInt8], wtx: Bool) {
            frames.append(ISODEPDialect.r(ISODEPFrame(.i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: number), inf: command).encode()))
            if wtx {
                let request = ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: [0x01]).encode()
                frames += [ISODEPDialect.t(request), ISODEPDialect.r(request)]
            }
            var rest = answer[...]
            repeat {
                let part = rest.prefix(chunk)
                rest = rest.dropFirst(part.count)
                frames.append(ISODEPDialect.t(ISODEPFrame(.i(chaining: !rest.isEmpty, cidFollows: false, nadFollows: false, blockNumber: number), inf: Array(part)).encode()))
                number ^= 1
                if !rest.isEmpty {
                    frames.append(ISODEPDialect.r(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: number)).encode()))
                }
            } while !rest.isEmpty
        }
    }

    /// Activation of a 4-byte-UID card with SAK 20, RATS and an ATS with `historical` bytes.
    static func activation(atqa: [UInt8], historical: [UInt8], _ r: inout FuzzRandom) -> [FuzzFrame] {
        let uid = r.bytes(4)
        let cl1 = uid + [UIDLevelData.bcc(of: uid)]
        let ats = ATS(t0: 0x78, ta1: 0x80, tb1: 0x70, tc1: 0x02, historicalBytes: historical).encode()
        return [FuzzFrame(.fieldOn, .iso14443a), Self.r([0x26], crc: false, bits: 7), Self.t(atqa, crc: false),
                Self.r([0x93, 0x20], crc: false), Self.t(cl1, crc: false), Self.r([0x93, 0x70] + cl1), Self.t([0x20]),
                Self.r(ISO14443ACommand.rats(fsdi: 8, cid: 0).encode().bytes), Self.t(ats)]
    }

    func session(_ m: inout MutationContext) -> [FuzzFrame] {
        let kind = m.random.below(4)
        let desfire = kind == 2
        let plus = kind == 3
        var frames = Self.activation(atqa: desfire ? [0x44, 0x03] : [0x04, 0x00], historical: plus ? MIFAREPlus.historicalBytesPrefix + [0x01, 0xBC, 0xD6] : [0x80], &m.random)
        var c = Conversation(chunk: m.random.pick(16, 59, 124, 252))
        switch kind {
        case 0: type4(&c, &m)
        case 1: emv(&c, &m)
        case 2: Self.desfire(&c, wrapped: m.random.bool(), &m.random)
        default: Self.plus(&c, &m.random)
        }
        frames += c.frames
        frames.append(Self.r(ISODEPFrame(.s(kind: .deselect, cidFollows: false)).encode()))
        frames.append(Self.t(ISODEPFrame(.s(kind: .deselect, cidFollows: false)).encode()))
        frames.append(FuzzFrame(.fieldOff, .iso14443a))
        return frames
    }

    static let ok = StatusWord(0x90, 0x00)

    static func apdu(_ cla: UInt8, _ ins: UInt8, _ p1: UInt8, _ p2: UInt8, _ data: [UInt8] = [], le: Int? = nil) -> [UInt8] {
        CommandAPDU(cla: cla, ins: ins, p1: p1, p2: p2, data: data, le: le).encode()
    }

    static func answer(_ data: [UInt8], _ sw: StatusWord = ok) -> [UInt8] { ResponseAPDU(data: data, status: sw).encode() }

    /// SELECT the NDEF application, the CC file, READ BINARY it, the NDEF file, NLEN, the
    /// message (in MLe-sized reads), sometimes UPDATE BINARY of a new message.
    func type4(_ c: inout Conversation, _ m: inout MutationContext) {
        typealias I = ISO7816Instruction
        let message = Array(ndef.generate(&m).prefix(400))
        let file = [UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
        let mle = m.random.pick(0x3B, 0xFF, 0x10)
        let cc = Type4CapabilityContainer(mappingVersion: 0x20, maxReadLength: UInt16(mle), maxWriteLength: 0x34,
                                          ndefFile: .init(fileID: Type4Tag.defaultNDEFFile, maxSize: 2048), otherTLVs: []).encode()
        let fid = { (id: UInt16) in [UInt8(id >> 8), UInt8(id & 0xFF)] }
        c.exchange(Self.apdu(0x00, I.select, 0x04, 0x00, m.random.chance(80) ? Type4Tag.ndefApplication : Type4Tag.ndefApplicationV1, le: 256), Self.answer([]), wtx: false)
        c.exchange(Self.apdu(0x00, I.select, 0x00, 0x0C, fid(Type4Tag.ccFile)), Self.answer([]), wtx: false)
        c.exchange(Self.apdu(0x00, I.readBinary, 0x00, 0x00, le: cc.count), Self.answer(cc), wtx: false)
        c.exchange(Self.apdu(0x00, I.select, 0x00, 0x0C, fid(Type4Tag.defaultNDEFFile)), Self.answer([]), wtx: false)
        var offset = 0
        while offset < file.count {
            let n = min(mle, file.count - offset)
            c.exchange(Self.apdu(0x00, I.readBinary, UInt8(offset >> 8), UInt8(offset & 0xFF), le: n), Self.answer(Array(file[offset..<offset + n])), wtx: m.random.chance(10))
            offset += n
        }
        if m.random.chance(30) {
            c.exchange(Self.apdu(0x00, I.updateBinary, 0x00, 0x00, [0x00, 0x00]), Self.answer([]), wtx: false)
            c.exchange(Self.apdu(0x00, I.updateBinary, 0x00, 0x02, Array(message.prefix(0x34))), Self.answer([]), wtx: m.random.chance(20))
        }
    }

    /// Track 2 data for a random 16-digit card number: PAN, D, YYMM, service code, discretionary.
    static func track2(_ pan: [UInt8], _ r: inout FuzzRandom) -> [UInt8] {
        pan + [0xD2, 0x81, 0x22, 0x01] + r.bytes(3) + [0x0F]
    }

    /// PPSE, a scheme's SELECT answered with a PDOL, GET PROCESSING OPTIONS with the PDOL's values,
    /// READ RECORD with card data and CDOL1, GENERATE AC with CDOL1's values.
    func emv(_ c: inout Conversation, _ m: inout MutationContext) {
        typealias I = ISO7816Instruction
        let tlv = BERTLV.encode
        let scheme = m.random.element(EMV.schemes)?.0 ?? [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]
        let pdol: [(UInt32, Int)] = [(0x9F66, 4), (0x9F02, 6), (0x9F37, 4), (0x5F2A, 2)]
        let cdol: [(UInt32, Int)] = [(0x9F02, 6), (0x9F37, 4), (0x95, 5), (0x9A, 3)]
        let dol = { (entries: [(UInt32, Int)]) in entries.flatMap { BERTLV.encode(tag: $0.0, value: []).dropLast() + [UInt8($0.1)] } }
        let values = { (entries: [(UInt32, Int)], r: inout FuzzRandom) in entries.flatMap { r.bytes($0.1) } }
        let ppse = tlv(0x6F, tlv(0x84, EMV.ppse) + tlv(0xA5, tlv(0xBF0C, tlv(0x61, tlv(0x4F, scheme) + tlv(0x50, Array("CARD".utf8)) + tlv(0x87, [0x01])))))
        c.exchange(Self.apdu(0x00, I.select, 0x04, 0x00, EMV.ppse, le: 256), Self.answer(ppse), wtx: false)
        let fci = tlv(0x6F, tlv(0x84, scheme) + tlv(0xA5, tlv(0x50, Array("CARD".utf8)) + tlv(0x9F38, dol(pdol)) + tlv(0xBF0C, tlv(0x9F7C, m.random.bytes(m.random.pick(4, 200))))))
        c.exchange(Self.apdu(0x00, I.select, 0x04, 0x00, scheme, le: 256), Self.answer(fci), wtx: false)
        let pdolValues = values(pdol, &m.random)
        let gpo = tlv(0x77, tlv(0x82, [0x20, 0x00]) + tlv(0x94, [0x08, 0x01, 0x01, 0x00]) + tlv(0x9F6C, m.random.bytes(2)))
        c.exchange(Self.apdu(0x80, 0xA8, 0x00, 0x00, tlv(0x83, pdolValues), le: 256), Self.answer(gpo), wtx: m.random.chance(40))
        let pan = m.random.bytes(8).map { ($0 >> 4) % 10 << 4 | ($0 & 0x0F) % 10 }
        let record = tlv(0x70, tlv(0x57, Self.track2(pan, &m.random)) + tlv(0x5A, pan) + tlv(0x5F20, Array("TEST/CARD".utf8)) + tlv(0x8C, dol(cdol))
                         + (m.random.chance(50) ? tlv(0x9F4A, [0x82]) + tlv(0x8F, [0x01]) + tlv(0x90, m.random.bytes(m.random.pick(64, 176))) : []))
        c.exchange(Self.apdu(0x00, I.readRecord, 0x01, 0x0C, le: 256), Self.answer(record), wtx: false)
        let ac = tlv(0x77, tlv(0x9F27, [0x80]) + tlv(0x9F36, m.random.bytes(2)) + tlv(0x9F26, m.random.bytes(8)))
        c.exchange(Self.apdu(0x80, 0xAE, 0x80, 0x00, values(cdol, &m.random), le: 256), Self.answer(ac), wtx: m.random.chance(30))
    }

    /// A DESFire command in its native form (`CMD data` → `STATUS data`) or ISO-wrapped
    /// (`90 CMD 00 00 [Lc data] 00` → `data 91 STATUS`).
    static func desfire(_ c: inout Conversation, wrapped: Bool, _ code: UInt8, _ data: [UInt8], _ status: UInt8, _ answer: [UInt8]) {
        if wrapped {
            c.exchange(apdu(DESFire.wrappedClass, code, 0, 0, data, le: 256), ResponseAPDU(data: answer, status: StatusWord(DESFire.statusSW1, status)).encode(), wtx: false)
        } else {
            c.exchange([code] + data, [status] + answer, wtx: false)
        }
    }

    /// GET VERSION in three parts, SELECT APPLICATION, GET FILE IDS, GET FILE SETTINGS, READ DATA,
    /// AUTHENTICATE AES with its two answers.
    static func desfire(_ c: inout Conversation, wrapped: Bool, _ r: inout FuzzRandom) {
        let af = DESFire.additionalFrame
        desfire(&c, wrapped: wrapped, 0x60, [], af, [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05])
        desfire(&c, wrapped: wrapped, af, [], af, [0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05])
        desfire(&c, wrapped: wrapped, af, [], 0x00, r.bytes(7) + r.bytes(5) + [0x12, 0x21])
        desfire(&c, wrapped: wrapped, 0x5A, DESFire.littleEndian(Int(r.pick(0x5A4E54, 0xD3494F, Int(r.next() & 0xFFFFFF))), count: 3), 0x00, [])
        desfire(&c, wrapped: wrapped, 0x6F, [], 0x00, [0x00, 0x01, 0x02])
        let file = UInt8(r.below(3))
        let comm = r.pick(UInt8(0x00), 0x01, 0x03)
        desfire(&c, wrapped: wrapped, 0xF5, [file], 0x00, [0x00, comm, 0xE0, 0xEE] + DESFire.littleEndian(32, count: 3))
        let length = r.pick(0, 8, 32)
        desfire(&c, wrapped: wrapped, 0xBD, [file] + DESFire.littleEndian(0, count: 3) + DESFire.littleEndian(length, count: 3),
                r.chance(80) ? 0x00 : 0x9D, r.bytes(length == 0 ? 32 : length) + (comm == 0x01 ? r.bytes(8) : []))
        if r.chance(60) {
            desfire(&c, wrapped: wrapped, 0xAA, [UInt8(r.below(2))], af, r.bytes(16))
            desfire(&c, wrapped: wrapped, af, r.bytes(32), r.chance(80) ? 0x00 : 0xAE, r.bytes(16))
        }
    }

    /// FIRST AUTHENTICATE to a sector key, its second part, a plain read with MACs.
    static func plus(_ c: inout Conversation, _ r: inout FuzzRandom) {
        let key = 0x4000 + r.below(0x50)
        c.exchange([MIFAREPlus.firstAuthenticate] + DESFire.littleEndian(key, count: 2) + [0x00], [MIFAREPlus.ok] + r.bytes(16), wtx: false)
        c.exchange([MIFAREPlus.authenticateContinue] + r.bytes(32), [MIFAREPlus.ok] + r.bytes(32), wtx: false)
        let block = r.below(256)
        c.exchange([r.pick(0x33, 0x31, 0x37)] + DESFire.littleEndian(block, count: 2) + [0x01] + r.bytes(8), [MIFAREPlus.ok] + r.bytes(16 + 8), wtx: false)
    }

    // MARK: single frames

    static func command(_ r: inout FuzzRandom) -> [UInt8] {
        switch r.below(5) {
        case 0: return [r.pick(0x60, 0x5A, 0x6F, 0xF5, 0xBD, 0xAA, 0xAF)] + r.bytes(r.below(8))   // DESFire native
        case 1: return [r.pick(MIFAREPlus.firstAuthenticate, MIFAREPlus.followingAuthenticate, 0x33, 0xA1)] + r.bytes(2 + r.below(20))
        default: return ISO7816Shape.command(&r)
        }
    }

    func readerFrame(_ m: inout MutationContext) -> FuzzFrame {
        let n = UInt8(m.random.below(2))
        switch m.random.below(6) {
        case 0: return Self.r(ISODEPFrame(.r(nak: m.random.bool(), cidFollows: false, blockNumber: n)).encode())
        case 1: return Self.r(ISODEPFrame(.s(kind: m.random.pick(.deselect, .wtx), cidFollows: false), inf: m.random.chance(50) ? [0x01] : []).encode())
        default:
            var f = ISODEPFrame(.i(chaining: m.random.chance(15), cidFollows: m.random.chance(10), nadFollows: false, blockNumber: n), inf: Self.command(&m.random))
            if case .i(_, true, _, _) = f.block { f.cid = 0 }
            return Self.r(f.encode())
        }
    }

    /// The command inside an I-block changed in one typed field (class, instruction, parameter,
    /// data, Le); the block keeps its PCB.
    func mutateReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let payload = frame.payload(ifValidCRC: nil), var block = try? ISODEPFrame.decode(Array(payload)) else { return nil }
        guard case .i = block.block, var apdu = try? CommandAPDU.decode(block.inf) else { return readerFrame(&m) }
        switch m.random.below(5) {
        case 0: apdu.cla = m.random.pick(0x00, 0x80, 0x90, 0x0C, 0x10, m.random.byte())
        case 1: apdu.ins = m.random.pick(ISO7816Instruction.select, ISO7816Instruction.readBinary, ISO7816Instruction.readRecord, 0xA8, 0xAE, m.random.byte())
        case 2: if m.random.bool() { apdu.p1 = m.random.byte() } else { apdu.p2 = m.random.byte() }
        case 3: apdu.data = m.random.chance(30) ? [] : Array((apdu.data + m.random.bytes(4)).prefix(m.random.length(upTo: 300)))
        default: apdu.le = m.random.pick(nil, 1, 15, 256, 257, 65536)
        }
        block.inf = apdu.encode()
        return Self.r(block.encode())
    }

    /// A command with a length that does not fit its data, a PCB that is no block, or the CRC cut.
    func breakReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let payload = frame.payload(ifValidCRC: nil), var block = try? ISODEPFrame.decode(Array(payload)) else {
            return frame.bytes.count > 1 ? Self.r(Array(frame.bytes.dropLast()), crc: false) : nil
        }
        switch m.random.below(3) {
        case 0 where block.inf.count > 4:
            // Lc beyond the bytes that follow (an APDU, and as a native command no known code).
            block.inf[0] = 0x00
            block.inf[4] = UInt8(clamping: block.inf.count + 2)
            return Self.r(block.encode())
        case 1:
            var bytes = block.encode()
            bytes[0] = m.random.pick(0x22, 0x62, 0x26, 0x46)   // b6 of an I-block set, or no block type
            return Self.r(bytes)
        default:
            return Self.r(Array(frame.bytes.dropLast()), crc: false)
        }
    }

    func answer(to request: FuzzFrame?, _ m: inout MutationContext) -> FuzzFrame? {
        guard let request, let payload = request.payload(ifValidCRC: nil) else { return Self.t(Self.answer([])) }
        if let iso = try? ISO14443ACommand.decode(Array(payload), lastByteBits: request.lastByteBits) {
            switch iso {
            case .reqa, .wupa: return Self.t([0x04, 0x00], crc: false)
            case .select: return Self.t([0x20])
            case .rats: return Self.t(ATS(t0: 0x78, ta1: 0x80, tb1: 0x70, tc1: 0x02, historicalBytes: [0x80]).encode())
            default: return nil
            }
        }
        guard let block = try? ISODEPFrame.decode(Array(payload)) else { return nil }
        switch block.block {
        case .i(_, _, _, let n), .r(_, _, let n):
            let data = m.random.chance(70) ? ISO7816Shape.tlv(&m.random, depth: 0) : m.random.bytes(m.random.below(40))
            let sw = m.random.pick(Self.ok, StatusWord(0x61, 0x10), StatusWord(0x6A, 0x82), StatusWord(0x91, 0xAF), StatusWord(0x91, 0x00))
            return Self.t(ISODEPFrame(.i(chaining: m.random.chance(15), cidFollows: false, nadFollows: false, blockNumber: n), inf: Self.answer(data, sw)).encode())
        case .s(let kind, _):
            return Self.t(ISODEPFrame(.s(kind: kind, cidFollows: false), inf: kind == .wtx ? block.inf : []).encode())
        }
    }

    /// An activation command, or an ISO-DEP block whose I-block INF is an APDU or a native
    /// DESFire / MIFARE Plus command; with a right CRC where one belongs.
    func decodes(_ frame: FuzzFrame) -> Bool {
        if frame.crcStripped || !ISO14443ACommand.carriesCRC(frame.bytes, lastByteBits: frame.lastByteBits) {
            return (try? ISO14443ACommand.decode(frame.bytes, lastByteBits: frame.lastByteBits)) != nil
        }
        guard let payload = frame.payload(ifValidCRC: nil).map(Array.init) else { return false }
        if (try? ISO14443ACommand.decode(payload)) != nil { return true }
        guard let block = try? ISODEPFrame.decode(payload) else { return false }
        guard case .i = block.block, let first = block.inf.first else { return true }
        return (try? CommandAPDU.decode(block.inf)) != nil || DESFire.commandNames[first] != nil || MIFAREPlus.name(first) != nil
    }
}
