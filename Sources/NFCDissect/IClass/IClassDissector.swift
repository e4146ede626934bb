import NFCCore

/// One iClass / PicoPass card's conversation: its CSN, the blocks read (by page), the e-purse
/// and whether the reader's CHECK was answered.
struct IClassSession: DissectorSession {
    var number: Int
    var firstFrame: Int
    var lastFrame: Int
    var csn: [UInt8]?
    var page: UInt8 = 0
    var blocks: [UInt8: [UInt8]] = [:]
    /// Blocks as first read before any write: the card's starting state.
    var blocksAsFound: [UInt8: [UInt8]] = [:]
    var written = Set<UInt8>()
    /// Each CHECK's reader bytes with the card MAC that answered it.
    var checks: [[UInt8]: [UInt8]] = [:]
    var authenticated: Bool?
    var keyUsed: String?
    /// The well-known master key the last CHECK's reader MAC was made with, and the card key it
    /// diversifies to (the card's MAC is checked with it).
    var identifiedKey: (master: [UInt8], name: String, cardKey: [UInt8])?
    var pending: (frame: Int, command: IClassCommand?)?
    var diagnostics: [Diagnostic] = []

    init(number: Int, frame: Int) {
        self.number = number
        firstFrame = frame
        lastFrame = frame
    }

    var configuration: IClass.Configuration? { blocks[IClass.configurationBlock].flatMap { try? IClass.Configuration.decode($0) } }
}

/// HID iClass / PicoPass (ISO 15693 air interface, own command set and CRC): every command and
/// answer named as the Proxmark3 names them, the iClass CRC checked where frames carry one
/// (reader frames over all but the opcode), and the blocks read gathered into a memory map with
/// the configuration block decoded. Nothing is decrypted: CHECK's MACs and the HID credential
/// blocks are shown as they are, said to be encrypted. Sessions start at ACTALL or the first
/// frame and end at field off.
final class IClassDissector: SessionDissector {
    let detail: DissectionDetail
    let counter: SessionCounter
    var session: IClassSession?

    static let layer = "iClass"

    init(detail: DissectionDetail, counter: SessionCounter) {
        self.detail = detail
        self.counter = counter
    }

    static func summary(of session: IClassSession, detail: DissectionDetail) -> SessionSummary {
        IClassSessionSummary.make(session)
    }

    func dataFrame(_ ctx: inout FrameContext, direction: Direction) -> EndedSession? {
        var ended: EndedSession?
        if direction == .readerToTag, ctx.frame.bytes == IClassCommand.actall.encode(), session?.csn != nil { ended = endSession() }
        if session == nil { session = IClassSession(number: counter.take(), frame: ctx.number) }
        withSession { s in
            if direction == .readerToTag { readerFrame(&ctx, &s) } else { tagFrame(&ctx, &s) }
        }
        return ended
    }

    private func readerFrame(_ ctx: inout FrameContext, _ s: inout IClassSession) {
        let bytes = ctx.frame.bytes
        let withCRC = IClass.readerFrameCarriesCRC(length: bytes.count)
        let split = withCRC ? CRCSplit(ctx.frame, kind: .iclass, coveringFrom: IClass.crcStart(fromReader: true))
                            : CRCSplit(ctx.frame, expected: false, kind: .iclass)
        ctx.apply(split, field: .iclass.crc)
        guard let command = try? IClassCommand.decode(split.payload) else {
            ctx.summary = bytes.first.map { "unknown command \(Hex.byte($0))" } ?? "SOF only"
            if !bytes.isEmpty { ctx.warn("no iClass command of \(bytes.count) bytes starts with \(Hex.byte(bytes[0]))") }
            ctx.sink.add(Field(.iclass.data, Hex.string(split.payload), range: split.payload.indices))
            s.pending = (ctx.number, nil)
            return
        }
        typealias L = IClassCommand.Layout
        ctx.sink.add(Field(.iclass.command, command.name, range: L.code.range))
        switch command {
        case .actall: ctx.summary = "ACTALL: cards in the field wake up"
        case .identify: ctx.summary = "IDENTIFY: anticollision"
        case .select(let csn):
            ctx.sink.add(Field(.iclass.csn, Hex.string(csn), range: L.csn.range))
            ctx.summary = "SELECT \(Hex.string(csn))"
        case .read(let b), .read4(let b):
            ctx.sink.add(Field(.iclass.block, blockName(b, s), range: L.block.range))
            ctx.summary = "\(command.name): \(blockName(b, s))"
        case .readCheck(let b, let credit):
            ctx.sink.add(Field(.iclass.block, blockName(b, s), range: L.block.range))
            ctx.sink.add(Field(.iclass.key, credit ? "Kc (credit)" : "Kd (debit)", range: L.code.range))
            s.keyUsed = credit ? "Kc" : "Kd"
            ctx.summary = "\(command.name): the e-purse, to authenticate with \(credit ? "Kc" : "Kd")"
        case .check(let nr, let mac):
            ctx.sink.add(Field(.iclass.nr, Hex.string(nr) + " (encrypted)", range: L.nr.range))
            ctx.sink.add(Field(.iclass.mac, Hex.string(mac), range: L.readerMAC.range))
            ctx.summary = "CHECK: the reader's MAC over the e-purse and NR"
            s.identifiedKey = nil
            if let csn = s.csn, let epurse = s.blocks[IClass.epurseBlock],
               let known = IClassKeys.identify(csn: csn, epurse: epurse, nr: nr, readerMAC: mac) {
                // The Proxmark3 names a well-known key on CHECK the same way (standard diversification).
                s.identifiedKey = (known.key, known.name, IClassCipher.diversifiedKey(csn: csn, masterKey: known.key))
                ctx.summary = "CHECK with \(known.name) \(Hex.string(known.key, separator: ""))"
                ctx.sink.add(Field(.iclass.keyIdentified, "\(Hex.string(known.key, separator: "")) (\(known.name), standard diversification): the reader MAC is right for it",
                                   range: L.readerMAC.range))
            }
        case .update(let b, let data, let mac):
            ctx.sink.add(Field(.iclass.block, blockName(b, s), range: L.block.range))
            ctx.sink.add(Field(.iclass.data, Hex.string(data), range: L.data.range))
            if let mac { ctx.sink.add(Field(.iclass.mac, label: "MAC", Hex.string(mac), range: L.updateMAC.range)) }
            ctx.summary = "\(command.name): \(Hex.string(data))\(mac == nil ? "" : " (MACed)")"
        case .pageSelect(let p):
            ctx.sink.add(Field(.iclass.page, "\(p)", range: L.page.range))
            ctx.summary = "PAGESEL(\(p))"
            s.page = p
        case .halt: ctx.summary = "HALT"
        case .detect: ctx.summary = "DETECT"
        case .act: ctx.summary = "ACT"
        }
        s.pending = (ctx.number, command)
    }

    private func blockName(_ b: UInt8, _ s: IClassSession) -> String {
        switch b {
        case IClass.csnBlock: return "0 (CSN)"
        case IClass.configurationBlock: return "1 (configuration)"
        case IClass.epurseBlock: return "2 (e-purse)"
        case IClass.debitKeyBlock: return "3 (Kd, debit key)"
        case IClass.creditKeyBlock: return "4 (Kc, credit key)"
        case IClass.issuerBlock: return "5 (application issuer area)"
        default:
            if let limit = s.configuration?.applicationLimit { return b <= limit ? "\(b) (application area 1)" : "\(b) (application area 2)" }
            return "\(b)"
        }
    }

    private func tagFrame(_ ctx: inout FrameContext, _ s: inout IClassSession) {
        let pending = s.pending
        s.pending = nil
        if let p = pending { ctx.responseTo = p.frame }
        let bytes = ctx.frame.bytes
        guard let command = pending?.command, let expected = command.answer, bytes.count == expected.length + (expected.crc ? 2 : 0) || ctx.frame.crcStripped else {
            let split = CRCSplit(unknownFrame: ctx.frame, kind: .iclass)
            ctx.apply(split, field: .iclass.crc)
            ctx.summary = bytes.isEmpty ? "SOF only" : pending == nil ? "answer without a request" : "unexpected answer"
            if !bytes.isEmpty { ctx.warn("\(bytes.count) bytes that are no answer to the command before them") }
            ctx.sink.add(Field(.iclass.data, Hex.string(split.payload), range: split.payload.indices))
            return
        }
        let split = expected.crc ? CRCSplit(ctx.frame, kind: .iclass, coveringFrom: IClass.crcStart(fromReader: false))
                                 : CRCSplit(ctx.frame, expected: false, kind: .iclass)
        ctx.apply(split, field: .iclass.crc)
        let data = split.payload
        let range = data.indices
        switch command {
        case .identify:
            ctx.sink.add(Field(.iclass.anticollisionCsn, Hex.string(data), range: range))
            ctx.summary = "anticollision CSN \(Hex.string(data))"
        case .select:
            s.csn = data
            s.blocks[IClass.csnBlock] = data
            s.blocksAsFound[IClass.csnBlock] = data
            ctx.sink.add(Field(.iclass.csn, Hex.string(data), range: range))
            ctx.summary = "CSN \(Hex.string(data)): selected"
        case .read(let b), .update(let b, _, _):
            s.blocks[b] = data
            if case .update = command { s.written.insert(b) } else if s.blocksAsFound[b] == nil, !s.written.contains(b) { s.blocksAsFound[b] = data }
            var access = MemoryAccess(offset: Int(b) * data.count, count: data.count, write: false)
            if case .update = command { access.write = true }
            ctx.memory = access
            describeBlock(b, data, range, &ctx, s)
        case .read4(let b):
            for i in 0..<4 {
                let block = Array(data[(i * 8)..<(i * 8 + 8)])
                s.blocks[b &+ UInt8(i)] = block
                if s.blocksAsFound[b &+ UInt8(i)] == nil { s.blocksAsFound[b &+ UInt8(i)] = block }
            }
            ctx.sink.add(Field(.iclass.data, label: "Blocks \(b)–\(Int(b) + 3)", Hex.string(data), range: range))
            ctx.summary = "blocks \(b)–\(Int(b) + 3)"
        case .pageSelect:
            s.blocks[IClass.configurationBlock] = data
            describeBlock(IClass.configurationBlock, data, range, &ctx, s)
            ctx.summary = "page \(s.page): " + ctx.summary
        case .readCheck:
            s.blocks[IClass.epurseBlock] = data
            if s.blocksAsFound[IClass.epurseBlock] == nil { s.blocksAsFound[IClass.epurseBlock] = data }
            ctx.sink.add(Field(.iclass.epurse, Hex.string(data), range: range))
            ctx.summary = "e-purse \(Hex.string(data))"
        case .check(let nr, let mac):
            s.authenticated = true
            s.checks[IClassCommand.check(nr: nr, mac: mac).encode()] = data
            ctx.sink.add(Field(.iclass.mac, label: "Card MAC", Hex.string(data), range: range))
            ctx.summary = "CHECK SUCCESS: the card's MAC (authenticated with \(s.keyUsed ?? "a key"))"
            if let known = s.identifiedKey, let epurse = s.blocks[IClass.epurseBlock] {
                let expected = IClassCipher.cardMAC(key: known.cardKey, epurse: epurse, nr: nr)
                if expected == data {
                    ctx.summary += ", \(known.name)"
                } else {
                    ctx.warn("card MAC \(Hex.string(data)), \(known.name) gives \(Hex.string(expected))", range: range)
                }
            }
        case .actall, .halt, .detect, .act:
            break
        }
    }

    private func describeBlock(_ b: UInt8, _ data: [UInt8], _ range: Range<Int>, _ ctx: inout FrameContext, _ s: IClassSession) {
        ctx.sink.add(Field(.iclass.data, label: "Block \(blockName(b, s))", Hex.string(data), range: range))
        ctx.summary = "block \(blockName(b, s)): \(Hex.string(data))"
        if b == IClass.configurationBlock, let c = try? IClass.Configuration.decode(data) {
            typealias L = IClass.Configuration.Layout
            ctx.sink.add(Field(.iclass.configAppLimit, "block \(c.applicationLimit) ends application area 1", range: L.applicationLimit.range(at: range.lowerBound)))
            ctx.sink.add(Field(.iclass.configCard, c.cardType, range: L.cardType.range(at: range.lowerBound)))
            ctx.sink.add(Field(.iclass.configCrypt, IClassSessionSummary.cryptModeName(c.cryptMode), range: L.fuses.range(at: range.lowerBound)))
        }
        if b > IClass.issuerBlock, let limit = s.configuration?.applicationLimit, b <= limit, b >= 7, b <= 9,
           let enc = s.blocks[6]?.last, enc == 0x15 || enc == 0x17 {
            ctx.note("HID credential block, \(enc == 0x17 ? "3DES" : "DES")-encrypted (block 6): shown as stored")
        }
    }
}

/// The end-of-session summary of an iClass card: CSN, configuration, authentication and the
/// blocks read.
enum IClassSessionSummary {
    static func cryptModeName(_ mode: UInt8) -> String {
        switch mode {
        case 0: return "no authentication (read only if read access is set)"
        case 1: return "non-secured page"
        case 2: return "secured page, keys locked"
        default: return "secured page, keys changeable"
        }
    }

    static func make(_ s: IClassSession) -> SessionSummary {
        var parts = ["iClass / PicoPass"]
        var tag: [Field] = []
        if let csn = s.csn {
            parts.append("CSN \(Hex.string(csn))")
            tag.append(Field(.tag.csn, .hex(csn)))
        }
        if let c = s.configuration {
            parts.append(c.cardType)
            tag.append(Field(.tag.card, c.cardType))
            tag.append(Field(.tag.security, cryptModeName(c.cryptMode)))
            tag.append(Field(.tag.applicationLimit, "blocks 6–\(c.applicationLimit)"))
        }
        if s.authenticated == true {
            parts.append("authenticated with \(s.keyUsed ?? "a key") (CHECK answered)" + (s.identifiedKey.map { ", \($0.name) \(Hex.string($0.master, separator: ""))" } ?? ""))
        }
        var memory: [Field] = []
        let addresses = s.blocks.keys.sorted()
        if !addresses.isEmpty {
            memory.append(Field(.memory.blocks, "\(addresses.count) of 8 bytes (\(s.written.count) written)"))
            for b in addresses {
                let mark = s.written.contains(b) ? " (written)" : ""
                memory.append(Field(.memory.block, label: FieldName("Block \(b)"), Hex.string(s.blocks[b] ?? []) + mark))
            }
        }
        if parts.count == 1 && s.blocks.isEmpty { parts.append("no card answered") }
        let reconstruction = s.csn.map { TagReconstruction.iclass(IClassReconstruction(csn: $0, blocks: s.blocksAsFound, checks: s.checks)) }
        return SessionSummary(number: s.number, technology: .iclass, firstFrame: s.firstFrame, lastFrame: s.lastFrame,
                              headline: parts.joined(separator: ", "), tag: tag, memory: memory, diagnostics: s.diagnostics,
                              reconstruction: reconstruction)
    }
}
