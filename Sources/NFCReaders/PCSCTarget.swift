import CPCSCLite
import NFCCore
import NFCReplay

/// A contactless card on a PC/SC reader (`replay --against pcsc[:READER]`), through pcsc-lite
/// (or macOS's PCSC framework). A PC/SC reader is no radio: it activates the card when the
/// application connects and runs the ISO-DEP block protocol itself, and it answers class-`FF`
/// pseudo-APDUs for storage cards (PC/SC Part 3). A recorded session is mapped onto that:
///
/// - activation (REQA/WUPA, anticollision, SELECT, RATS, PPS, HLTA; REQB/ATTRIB) and the
///   ISO-DEP link's own blocks (R-blocks, WTX, DESELECT, chaining) are done by the reader: the
///   recorded answers stand;
/// - ISO-DEP I-blocks carry APDUs: each command goes out whole, its response APDU is compared with
///   the recorded answer blocks put together;
/// - Type 2 READ and WRITE go through `FF B0`/`FF D6`, every other Type 2 command through ACS
///   direct transmit to the reader's PN532 (InCommunicateThru) when the reader offers it;
/// - FeliCa commands through ACS's FeliCa pass-through, ISO 15693 READ/WRITE SINGLE BLOCK
///   through `FF B0`/`FF D6`;
/// - anything else is `inexpressible`, listed before the replay starts.
///
/// A field cycle of the trace is a cold reset of the card (`SCardReconnect` with
/// `SCARD_UNPOWER_CARD`), which a reader carries out as field off and on.
public final class PCSCTarget: ReplayTarget {
    public let name: String
    public private(set) var atr: [UInt8] = []
    /// What the ATR says is on the reader.
    public private(set) var card: Card = .isoDEP
    /// Whether the reader passes PN532 commands through (`FF 00 00 00 Lc D4 …`, ACR122U family).
    public private(set) var offersDirectTransmit = false

    public enum Card: Sendable, Equatable {
        case isoDEP, type2, classic, felica, vicc

        var description: String {
            switch self {
            case .isoDEP: return "an ISO-DEP card"
            case .type2: return "a Type 2 (Ultralight/NTAG) card"
            case .classic: return "a MIFARE Classic card"
            case .felica: return "a FeliCa card"
            case .vicc: return "an ISO 15693 tag"
            }
        }
    }

    private var context: SCARDCONTEXT = 0
    private var handle: SCARDHANDLE = 0
    private var activeProtocol: DWORD = 0
    private let readerName: String
    /// A field-off was recorded: the next field-on resets the card.
    private var needsReset = false
    /// INF of reader I-blocks chained so far (a command longer than the card's frame size).
    private var chained: [UInt8] = []

    /// `reader`: a PC/SC reader name, or a part of one (case ignored); nil for the first reader.
    public init(reader: String?) throws(ReplayTargetError) {
        try Self.check(SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context), "connecting to pcscd")
        let readers: [String]
        do {
            readers = try Self.readers(context)
        } catch {
            SCardReleaseContext(context)
            throw error
        }
        let chosen = reader.map { want in
            readers.first { $0 == want } ?? readers.first { $0.lowercased().contains(want.lowercased()) }
        } ?? readers.first
        guard let chosen else {
            SCardReleaseContext(context)
            throw ReplayTargetError(readers.isEmpty
                ? "PC/SC: no reader is connected (pcsc_scan lists readers; for the emulator: vsmartcard-vpcd installed, pcscd restarted, nfctrace emulate … --vpcd)"
                : "PC/SC: no reader matches \"\(reader ?? "")\"; readers: " + readers.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        readerName = chosen
        name = "pcsc:" + chosen
        do {
            try connect()
            offersDirectTransmit = probeDirectTransmit()
        } catch {
            SCardReleaseContext(context)
            throw error
        }
    }

    deinit {
        if handle != 0 { SCardDisconnect(handle, DWORD(SCARD_UNPOWER_CARD)) }
        SCardReleaseContext(context)
    }

    /// The readers pcscd knows, in its order.
    public static func readers(_ context: SCARDCONTEXT) throws(ReplayTargetError) -> [String] {
        var length: DWORD = 0
        let rv = SCardListReaders(context, nil, nil, &length)
        if Self.code(rv) == noReaders { return [] }
        try check(rv, "listing readers")
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        try check(SCardListReaders(context, nil, &buffer, &length), "listing readers")
        // A multi-string: names separated by NUL, ended by an empty one.
        return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// The PC/SC readers pcscd sees (`nfctrace readers`), each with the ATR of the card on it (nil
    /// for none); an error when pcscd is not running.
    public static func listReaders() throws(ReplayTargetError) -> [(name: String, atr: [UInt8]?)] {
        var context: SCARDCONTEXT = 0
        try check(SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context), "connecting to pcscd")
        defer { SCardReleaseContext(context) }
        return try readers(context).map { name in
            var atr: [UInt8]? = nil
            name.withCString { cName in
                var state = SCARD_READERSTATE()
                state.szReader = cName
                state.dwCurrentState = DWORD(SCARD_STATE_UNAWARE)
                guard SCardGetStatusChange(context, 0, &state, 1) == 0, state.dwEventState & DWORD(SCARD_STATE_PRESENT) != 0 else { return }
                atr = withUnsafeBytes(of: &state.rgbAtr) { Array($0.prefix(Int(state.cbAtr))) }
            }
            return (name, atr)
        }
    }

    // MARK: PC/SC calls

    static let noReaders: UInt32 = 0x8010_002E

    static func code<T: BinaryInteger>(_ rv: T) -> UInt32 { UInt32(truncatingIfNeeded: rv) }

    /// What a PC/SC error means to someone replaying a trace (pcsclite.h).
    static func meaning(_ code: UInt32) -> String {
        switch code {
        case 0x8010_001D: return "pcscd is not running (start it: systemctl start pcscd, or pcscd --foreground)"
        case noReaders: return "no reader is connected"
        case 0x8010_000C: return "no card is on the reader"
        case 0x8010_0069: return "the card was removed"
        case 0x8010_0017: return "the reader is unavailable (unplugged?)"
        case 0x8010_0009: return "the reader is unknown to pcscd (unplugged?)"
        case 0x8010_0013, 0x8010_0003: return "the connection to pcscd was lost (was it stopped?)"
        case 0x8010_000B: return "another application holds the card (sharing violation)"
        case 0x8010_0066: return "the card does not respond"
        case 0x8010_0068: return "another application reset the card"
        case 0x8010_0067: return "the card is not powered"
        case 0x8010_000A: return "pcscd timed out"
        case 0x8010_0016: return "the reader could not exchange with the card (removed?)"
        default: return "PC/SC error 0x" + String(code, radix: 16, uppercase: true)
        }
    }

    static func check<T: BinaryInteger>(_ rv: T, _ doing: String) throws(ReplayTargetError) {
        guard rv != 0 else { return }
        throw ReplayTargetError("PC/SC, \(doing): \(meaning(code(rv)))")
    }

    private func connect() throws(ReplayTargetError) {
        try Self.check(SCardConnect(context, readerName, DWORD(SCARD_SHARE_EXCLUSIVE), DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1),
                                    &handle, &activeProtocol), "connecting to the card on \"\(readerName)\"")
        try readATR()
    }

    /// The card's state (`SCARD_PRESENT`, …) and ATR, as pcscd knows them.
    private func status(_ doing: String) throws(ReplayTargetError) -> (state: DWORD, atr: [UInt8]) {
        var state: DWORD = 0
        var proto: DWORD = 0
        var readerLength: DWORD = 0
        var bytes = [UInt8](repeating: 0, count: 64)
        var count = DWORD(bytes.count)
        try Self.check(SCardStatus(handle, nil, &readerLength, &state, &proto, &bytes, &count), doing)
        return (state, Array(bytes.prefix(Int(count))))
    }

    private func readATR() throws(ReplayTargetError) {
        atr = try status("reading the ATR").atr
        card = Self.classify(atr)
    }

    /// PC/SC Part 3 §3.1.3.2.3: a storage card's ATR names its standard and card; any other
    /// contactless ATR is an ISO-DEP card's (`3B 8n 80 01` + historical bytes).
    static func classify(_ atr: [UInt8]) -> Card {
        let rid: [UInt8] = [0xA0, 0x00, 0x00, 0x03, 0x06]
        // 3B 8F 80 01, then the historical bytes: 80, 4F (application identifier) 0C, RID, SS, C0 C1, RFU.
        guard atr.count >= 15, atr[5] == 0x4F, Array(atr[7..<12]) == rid else { return .isoDEP }
        let standard = atr[12]
        let cardName = UInt16(atr[13]) << 8 | UInt16(atr[14])
        switch standard {
        case 0x11: return .felica
        case 0x09...0x0C: return .vicc
        default:
            // Classic 1K, 4K, Mini, and Plus in SL1 (PC/SC Part 3 supplemental document, card names).
            return [0x0001, 0x0002, 0x0026, 0x0036, 0x0037, 0x0038, 0x0039].contains(cardName) ? .classic : .type2
        }
    }

    /// One APDU to the card; its answer with the status word.
    private func send(_ apdu: [UInt8]) throws(ReplayTargetError) -> ResponseAPDU {
        var pci = SCARD_IO_REQUEST(dwProtocol: activeProtocol, cbPciLength: DWORD(MemoryLayout<SCARD_IO_REQUEST>.size))
        var answer = [UInt8](repeating: 0, count: 65_538)
        var count = DWORD(answer.count)
        let rv = SCardTransmit(handle, &pci, apdu, DWORD(apdu.count), nil, &answer, &count)
        try Self.check(rv, "sending \(Hex.string(apdu.prefix(5)))…")
        let n = Int(count)
        guard n >= ResponseAPDU.Layout.statusCount else {
            try checkCardPresent()
            throw ReplayTargetError("PC/SC: the reader answered \(Hex.string(apdu.prefix(5)))… without a status word (the card gone?)")
        }
        let response = ResponseAPDU(data: Array(answer.prefix(n - 2)), status: StatusWord(answer[n - 2], answer[n - 1]))
        // A reader that lost its card may still answer its own pseudo-APDUs with an error status:
        // that is the card gone, not the tag staying silent.
        if response.status != .success { try checkCardPresent() }
        return response
    }

    /// Throws when the card is no longer on the reader (or pcscd went away).
    private func checkCardPresent() throws(ReplayTargetError) {
        guard try status("checking the card").state & DWORD(SCARD_PRESENT) != 0 else { throw ReplayTargetError("PC/SC: \(Self.meaning(0x8010_0069))") }
    }

    /// GetFirmwareVersion through ACS direct transmit: a PN532 behind it answers `D5 03 …`.
    private func probeDirectTransmit() -> Bool {
        guard card == .type2 || card == .classic || card == .isoDEP else { return false }
        let probe = PCSCPseudoAPDU.directTransmit([PN532.hostToChip, PN532.Command.getFirmwareVersion.rawValue]).encode()
        guard let answer = try? send(probe), answer.status == .success else { return false }
        return answer.data.starts(with: [PN532.chipToHost, PN532.Command.getFirmwareVersion.answerCode])
    }

    // MARK: ReplayTarget

    public var answersCarryCRC: Bool { true }

    public func fieldOn() throws(ReplayTargetError) {
        chained = []
        guard needsReset else { return }
        needsReset = false
        try Self.check(SCardReconnect(handle, DWORD(SCARD_SHARE_EXCLUSIVE), DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1),
                                      DWORD(SCARD_UNPOWER_CARD), &activeProtocol), "resetting the card")
        try readATR()
    }

    public func fieldOff() { needsReset = true }

    public func transmit(_ frame: Frame) throws(ReplayTargetError) -> Frame? {
        if case .frame(let answer) = try exchange(frame, number: 0) { return answer }
        return nil
    }

    /// The recorded MIFARE Classic session in clear, with its keys (`ClassicClearView`): set
    /// before the replay for a Classic card.
    public var classicView = ClassicClearView()

    /// Where a Classic session stands: a WRITE or value command whose second part follows, the
    /// value command and operand a TRANSFER completes. The check before the replay walks the
    /// trace with its own.
    struct ClassicProgress {
        var continuation: MIFAREClassicCommand.Continuation = .none
        var value: (command: MIFAREClassicCommand, operand: Int32?)?
    }
    private var classicProgress = ClassicProgress()
    private var classicCheck = ClassicProgress()

    /// What a reader frame is to a PC/SC reader.
    private enum Mapping {
        case byReader(String)
        case block(ISODEPFrame)
        case type2Read(page: UInt8)
        case type2Write(page: UInt8, data: [UInt8])
        case direct([UInt8], expectsAcknowledgement: Bool)
        case felica([UInt8])
        case viccRead(block: UInt8)
        case viccWrite(block: UInt8, data: [UInt8])
        /// MIFARE Classic through Part 3: LOAD KEYS + GENERAL AUTHENTICATE, READ/UPDATE BINARY, and
        /// ACS's value-block operation for a value command completed by its TRANSFER.
        case classicAuthenticate(block: UInt8, keyType: UInt8, key: UInt64)
        case classicRead(block: UInt8)
        case classicWriteData(block: UInt8, data: [UInt8])
        /// A first part the reader sends with the second (WRITE, DECREMENT/INCREMENT/RESTORE): the
        /// card's ACK is not seen through PC/SC and is taken as given.
        case classicAcknowledged
        /// The operand of a value command: the card answers nothing.
        case classicSilent
        case classicValue(PCSCPseudoAPDU)
        case impossible(String)
    }

    /// A Classic frame: the dissector's clear bytes (CRC dropped) where it decrypted it, else as sent.
    private func classicMap(_ frame: Frame, number: Int, payload: [UInt8], progress: inout ClassicProgress) -> Mapping {
        if classicView.readerAuthentications.contains(number) { return .byReader("authentication ({nR}{aR}: the reader runs Crypto1)") }
        var clear = payload
        if let d = classicView.decrypted[number] { clear = Array(CRCBytes(d, kind: .a).payloadDroppingValidCRC()) }
        let continuation = progress.continuation
        progress.continuation = .none
        guard let command = try? MIFAREClassicCommand.decode(clear, continuation: continuation) else {
            return .impossible(classicView.decrypted.isEmpty
                ? "a MIFARE Classic frame the dissector could not decrypt (no key for its sector in the trace or a key file)"
                : "no MIFARE Classic command the PC/SC pseudo-APDUs reach")
        }
        // Through PC/SC the two parts of a WRITE or value command go out at once: a first part the
        // recorded card refused (its answer, the next frame, decrypts to a NAK) cannot be tried alone.
        switch command {
        case .write, .increment, .decrement, .restore:
            if let answer = classicView.decrypted[number + 1], answer.count == 1, answer[0] & 0x0F != Type2Acknowledgement.ack.nibble {
                return .impossible("\(command.name) refused by the recorded card (NAK): through PC/SC its two parts go out at once, the first cannot be tried alone")
            }
        default:
            break
        }
        switch command {
        case .authenticate(let type, let block):
            guard let key = classicView.key(block: block, type: type) else {
                return .impossible("AUTH-\(type.rawValue) to block \(block): no key for its sector in the trace (GENERAL AUTHENTICATE needs it)")
            }
            return .classicAuthenticate(block: block, keyType: type == .a ? MIFAREClassicCommand.Code.authenticateA.rawValue : MIFAREClassicCommand.Code.authenticateB.rawValue, key: key)
        case .read(let block):
            return .classicRead(block: block)
        case .write(let block):
            progress.continuation = .writeData(block: block)
            return .classicAcknowledged
        case .writeData(let data):
            guard case .writeData(let block) = continuation else { return .impossible("WRITE data without its first part") }
            return .classicWriteData(block: block, data: data)
        case .increment(let block), .decrement(let block), .restore(let block):
            guard let code = MIFAREClassicCommand.Code(rawValue: command.encode()[0]) else { return .impossible("no value command") }
            progress.continuation = .valueOperand(code, block: block)
            progress.value = (command, nil)
            return .classicAcknowledged
        case .valueOperand(let operand):
            progress.value?.operand = operand
            return .classicSilent
        case .transfer(let target):
            guard let (value, operand) = progress.value else { return .impossible("TRANSFER without a value command before it") }
            progress.value = nil
            // ACS's VALUE BLOCK OPERATION transfers to the same block; RESTORE VALUE BLOCK to another.
            switch value {
            case .restore(let source):
                return .classicValue(.restoreValue(source: source, target: target))
            case .increment(let source), .decrement(let source):
                guard source == target else { return .impossible("\(value.name) transferred to another block: ACS's value operation transfers to the same one") }
                let operation: PCSCPseudoAPDU.ValueOperation
                if case .increment = value { operation = .increment } else { operation = .decrement }
                return .classicValue(.valueOperation(block: source, operation: operation, value: operand ?? 0))
            default:
                return .impossible("TRANSFER after \(value.name)")
            }
        case .halt:
            return .byReader("HLTA")
        default:
            return .impossible("\(command.name): no PC/SC pseudo-APDU reaches it")
        }
    }

    private func map(_ frame: Frame, number: Int, classic progress: inout ClassicProgress) -> Mapping {
        let payload = Array(frame.payloadDroppingValidCRC())
        switch (frame.technology, card) {
        case (.iso14443a, .isoDEP), (.iso14443a, .type2), (.iso14443a, .classic):
            if let activation = Self.activation14443A(payload, lastByteBits: frame.lastByteBits) { return .byReader(activation) }
        case (.iso14443b, .isoDEP):
            // REQB/WUPB, ATTRIB, HLTB (ISO/IEC 14443-3 §7).
            if let first = payload.first, ISO14443BCommand.Code(rawValue: first) != nil { return .byReader("activation (REQB, ATTRIB)") }
        case (.felica, .felica):
            return .felica(payload)
        case (.iso15693, .vicc):
            guard let request = try? ISO15693Request.decode(payload) else { return .impossible("not an ISO 15693 request") }
            switch request.command {
            case .inventory: return .byReader("activation (INVENTORY)")
            case .readSingleBlock(let block) where block <= 0xFF: return .viccRead(block: UInt8(block))
            case .writeSingleBlock(let block, let data) where block <= 0xFF: return .viccWrite(block: UInt8(block), data: data)
            default: return .impossible("PC/SC Part 3 reaches an ISO 15693 tag by READ and WRITE SINGLE BLOCK only")
            }
        default:
            return .impossible("a frame of \(frame.technology.displayName), and the card on the reader is \(card.description) (ATR \(Hex.string(atr)))")
        }
        switch card {
        case .isoDEP:
            guard let block = try? ISODEPFrame.decode(payload) else { return .impossible("no ISO-DEP block, and the card on the reader is \(card.description)") }
            return .block(block)
        case .classic:
            return classicMap(frame, number: number, payload: payload, progress: &progress)
        default:
            break
        }
        if payload.count == 2, let code = MIFAREClassicCommand.Code(rawValue: payload[0]), code == .authenticateA || code == .authenticateB {
            return .impossible("a MIFARE Classic authentication, and the card on the reader is \(card.description)")
        }
        let command = try? Type2Command.decode(payload)
        switch command {
        case .read(let page)?: return .type2Read(page: page)
        case .write(let page, let data)?: return .type2Write(page: page, data: data)
        default:
            guard offersDirectTransmit else {
                return .impossible("only READ and WRITE have PC/SC pseudo-APDUs; the rest needs the reader's direct transmit (ACR122U: FF 00 00 00 Lc D4 42 …), which this reader does not offer")
            }
            return .direct(payload, expectsAcknowledgement: command?.expectsAcknowledgement ?? false)
        }
    }

    /// REQA/WUPA, anticollision, SELECT, HLTA (ISO/IEC 14443-3), RATS and PPS (-4 §5): the reader
    /// does them when the card is connected.
    static func activation14443A(_ payload: [UInt8], lastByteBits: UInt8) -> String? {
        if ISO14443ACommand.recognises(payload, lastByteBits: lastByteBits) { return "activation (REQA/WUPA, anticollision, SELECT, HLTA)" }
        switch try? ISO14443ACommand.decode(payload, lastByteBits: lastByteBits) {
        case .rats?: return "activation (RATS)"
        case .pps(_, let pps0, _)? where pps0 & 0x0F == 0x01: return "activation (PPS)"
        default: return nil
        }
    }

    public func inexpressible(_ frame: Frame, number: Int) -> String? {
        if case .impossible(let why) = map(frame, number: number, classic: &classicCheck) { return why }
        return nil
    }

    public func exchange(_ frame: Frame, number: Int) throws(ReplayTargetError) -> TargetAnswer {
        switch map(frame, number: number, classic: &classicProgress) {
        case .byReader(let what):
            return .byReader(what)
        case .impossible(let why):
            throw ReplayTargetError("frame \(Hex.string(frame.bytes.prefix(8))): \(why)")
        case .block(let block):
            guard case .i(let chaining, _, _, _) = block.block else {
                return .byReader("ISO-DEP link blocks (R-block, WTX, DESELECT)")
            }
            chained += block.inf
            if chaining { return .byReader("ISO-DEP chaining") }
            let command = chained
            chained = []
            return .responseAPDU(try send(command).encode())
        case .type2Read(let page):
            let answer = try send(PCSCPseudoAPDU.readBinary(block: page, le: Type2Response.Layout.readLength).encode())
            guard answer.status == .success else { return .frame(nil) }
            return .frame(reply(to: frame, answer.data))
        case .type2Write(let page, let data):
            let answer = try send(PCSCPseudoAPDU.updateBinary(block: page, data: data).encode())
            // A refused write: the reader says 63 00, the tag had said NAK.
            let ack: Type2Acknowledgement = answer.status == .success ? .ack : .nak(.invalidArgument)
            return .frame(Frame(.data(.tagToReader), technology: frame.technology, bytes: [ack.nibble], lastByteBits: 4))
        case .direct(let payload, let expectsAcknowledgement):
            let thru = [PN532.hostToChip, PN532.Command.inCommunicateThru.rawValue] + payload
            let answer = try send(PCSCPseudoAPDU.directTransmit(thru).encode())
            let head = [PN532.chipToHost, PN532.Command.inCommunicateThru.answerCode]
            guard answer.status == .success, answer.data.starts(with: head), answer.data.count > head.count else {
                throw ReplayTargetError("the reader refused direct transmit (SW \(answer.status))")
            }
            guard answer.data[head.count] & 0x3F == PN532.Status.ok.rawValue else { return .frame(nil) }
            let bytes = Array(answer.data.dropFirst(head.count + 1))
            // The PN532 hands over whole bytes: the 4-bit ACK/NAK comes as one.
            if bytes.count == 1, expectsAcknowledgement || Type2Acknowledgement.looksLike(bytes, lastByteBits: 4) {
                return .frame(Frame(.data(.tagToReader), technology: frame.technology, bytes: bytes, lastByteBits: 4))
            }
            return .frame(reply(to: frame, bytes))
        case .felica(let payload):
            let answer = try send(PCSCPseudoAPDU.directTransmit(payload).encode())
            if answer.status == .success { return .frame(reply(to: frame, answer.data)) }
            if answer.status == StatusWord(0x6300) { return .frame(nil) }
            throw ReplayTargetError("the reader does not pass FeliCa commands through (ACS's FF 00 00 00 Lc …): SW \(answer.status)")
        case .viccRead(let block):
            let answer = try send(PCSCPseudoAPDU.readBinary(block: block, le: nil).encode())
            guard answer.status == .success else { return .frame(nil) }
            let response = ISO15693Response(body: .blocks(first: Int(block), [ISO15693Block(data: answer.data)]))
            return .frame(reply(to: frame, response.encode()))
        case .classicAuthenticate(let block, let keyType, let key):
            let slot: UInt8 = 0x00
            let bytes = (0..<6).reversed().map { UInt8(truncatingIfNeeded: key >> (8 * UInt64($0))) }
            guard try send(PCSCPseudoAPDU.loadKey(slot: slot, key: bytes).encode()).status == .success else {
                throw ReplayTargetError("the reader refused LOAD KEYS (FF 82)")
            }
            let answer = try send(PCSCPseudoAPDU.authenticate(block: block, keyType: keyType, slot: slot).encode())
            // Refused: the card kept its sector closed, as it had not been recorded doing.
            return answer.status == .success ? .byReader("authentication (LOAD KEYS, GENERAL AUTHENTICATE)") : .frame(nil)
        case .classicRead(let block):
            let answer = try send(PCSCPseudoAPDU.readBinary(block: block, le: MIFAREClassicLayout.blockSize).encode())
            guard answer.status == .success else { return .frame(nil) }
            return .clear(answer.data, lastByteBits: 8)
        case .classicWriteData(let block, let data):
            let answer = try send(PCSCPseudoAPDU.updateBinary(block: block, data: data).encode())
            return .clear([answer.status == .success ? Type2Acknowledgement.ack.nibble : Type2Acknowledgement.nak(.invalidArgument).nibble], lastByteBits: 4)
        case .classicAcknowledged:
            return .clear([Type2Acknowledgement.ack.nibble], lastByteBits: 4)
        case .classicSilent:
            return .frame(nil)
        case .classicValue(let apdu):
            let answer = try send(apdu.encode())
            return .clear([answer.status == .success ? Type2Acknowledgement.ack.nibble : Type2Acknowledgement.nak(.invalidArgument).nibble], lastByteBits: 4)
        case .viccWrite(let block, let data):
            let answer = try send(PCSCPseudoAPDU.updateBinary(block: block, data: data).encode())
            guard answer.status == .success else { return .frame(nil) }
            return .frame(reply(to: frame, ISO15693Response.done.encode()))
        }
    }

    /// An answer as the trace holds them: with its CRC when the request has one.
    private func reply(to request: Frame, _ payload: [UInt8]) -> Frame {
        var f = Frame(.data(.tagToReader), technology: request.technology, crcStripped: request.crcStripped)
        f.setPayload(payload, crc: request.hasValidCRC())
        return f
    }
}
