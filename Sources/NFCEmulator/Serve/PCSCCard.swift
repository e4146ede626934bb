#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCore

/// An emulated tag as a contactless PC/SC reader presents it to applications
/// (protocols-wave2.md §7): the reader activates the tag when the card is powered, synthesises
/// the ATR (PC/SC Part 3: the storage-card ATR for Type 2 and Classic, `3B 8n 80 01` + the ATS's
/// historical bytes for ISO-DEP), answers the Part 3 pseudo-APDUs itself (`FF CA` UID and
/// historical bytes, `FF B0`/`FF D6` read and update binary on Type 2 pages and MIFARE Classic
/// blocks, `FF 82` LOAD KEYS and `FF 86`/`FF 88` authentication, the reader running Crypto1 as a
/// reader's chip does) and passes every other APDU of an ISO-DEP card through the block
/// protocol. Frames to and from the tag carry their CRC, as on air; `onFrame` sees each one.
///
/// Classic value blocks go through ACS's `FF D7`/`FF B1`, and PN532 commands through ACR122
/// direct transmit (`FF 00 00 00 Lc D4 …`), which ACR122U-family readers offer.
///
/// A FeliCa card is found by Polling and shown with the storage-card ATR of standard `11`, name
/// `003B`; `FF CA` gives its IDm and `FF 00 00 00 Lc <FeliCa command, length byte first>` passes
/// a command through, as ACS's ACR122/ACM1252 readers do. An ISO 15693 VICC is found by
/// Inventory (standard `0B`); `FF CA` gives its UID, `FF B0`/`FF D6` read and write one block.
public final class PCSCContactlessCard {
    public let tag: EmulatedTag
    public private(set) var activation: ISO14443AActivation?
    /// A FeliCa card's Polling answer, or an ISO 15693 VICC's UID, when that is what is in the field.
    private var felica: (idm: FeliCaIDm, pmm: FeliCaPMm)?
    private var vicc: ISO15693UID?
    /// A 14443-B card's ATQB and ATTRIB answer, once the reader made it ready for ISO-DEP.
    var typeB: (atqb: ATQB, attrib: ATTRIBAnswer)?
    /// Whether the reader found its tag.
    public var isActive: Bool { activation != nil || felica != nil || vicc != nil || typeB != nil }
    var link: ISODEPReaderLink?
    /// A MIFARE Classic card's reader side: Crypto1 sessions, nested authentications.
    var classic: MIFAREClassicReader?
    private var classicForwarded = 0
    /// The keys LOAD KEYS put in the reader's volatile slots.
    private var keys: [UInt8: UInt64] = [:]
    var readerNonce: UInt32 = 0x4E46_4354
    /// Every frame both ways and the field events, as a capture holds them.
    public var onFrame: ((Frame) -> Void)?
    var fieldIsOn = false
    /// The CIU registers the host wrote (ReadRegister gives them back). Three of them change what
    /// InCommunicateThru does, as libnfc uses them: TxMode and RxMode b7 (the chip adds the CRC,
    /// checks and drops the answer's; on after reset as the firmware leaves them for readers) and
    /// BitFraming b2…b0 (valid bits of the last byte sent, 0 = 8).
    var registers: [UInt16: UInt8] = [PN532.Register.txMode: 0x80, PN532.Register.rxMode: 0x80]

    public init?(tag: EmulatedTag) {
        guard [.iso14443a, .iso14443b, .felica, .iso15693].contains(tag.technology) else { return nil }
        self.tag = tag
    }

    /// One frame to the tag (`technology`: the modulation the reader's chip is set to, the tag's
    /// own when nil). A tag does not hear another technology's modulation: such a frame is
    /// recorded and left unanswered. Nothing goes on air for an empty frame.
    func transceive(_ payload: [UInt8], _ bits: UInt8, _ crc: Bool, _ answerCRC: Bool) -> (bytes: [UInt8], lastByteBits: UInt8)? {
        transceive(payload, bits, crc, answerCRC, technology: nil)
    }

    func transceive(_ payload: [UInt8], _ bits: UInt8, _ crc: Bool, _ answerCRC: Bool, technology: Technology?) -> (bytes: [UInt8], lastByteBits: UInt8)? {
        guard !payload.isEmpty else { return nil }
        var request = Frame(.data(.readerToTag), technology: technology ?? tag.technology, lastByteBits: bits, start: Timestamp.now())
        request.setPayload(payload, crc: crc)
        guard let answer = exchange(request) else { return nil }
        guard answerCRC, answer.lastByteBits == 8 else { return (answer.bytes, answer.lastByteBits) }
        return answer.payload(ifValidCRC: tag.technology.crcKind).map { (Array($0), 8) }
    }

    /// One frame as it goes on air to the tag, and its answer; both seen by `onFrame`.
    func exchange(_ request: Frame) -> Frame? {
        guard request.technology == tag.technology else {
            onFrame?(request)
            return nil
        }
        var answer = tag.respond(to: request)
        answer?.start = Timestamp.now()
        onFrame?(request)
        if let answer { onFrame?(answer) }
        return answer
    }

    /// Field on and the tag activated (RATS too for an ISO-DEP card); false when no tag answers.
    /// An activated card stays as it is (vpcd powers on a card it already asked the ATR of); one
    /// that failed to activate gets a fresh field first, so that it starts from IDLE.
    @discardableResult
    public func powerOn() -> Bool {
        if isActive { return true }
        if fieldIsOn { powerOff() }
        fieldUp()
        switch tag.technology {
        case .felica:
            // Polling for any system, the system code asked for; one time slot.
            let polling = FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 0x01, timeSlots: 0x00)
            guard let answer = transceive(polling.encode(), 8, true, true),
                  case .polling(let idm, let pmm, _)? = try? FeliCaResponse.decode(answer.bytes, answering: polling) else { return false }
            felica = (idm, pmm)
            return true
        case .iso15693:
            let inventory = ReaderActivation.inventory15693
            guard let answer = transceive(inventory.encode(), 8, true, true),
                  case .inventory(_, let uid)? = (try? ISO15693Response.decode(answer.bytes, answering: inventory))?.body else { return false }
            vicc = uid
            return true
        case .iso14443b:
            return activateTypeB()
        default:
            break
        }
        guard var a = ReaderActivation.activate14443A(transceive) else {
            activation = nil
            return false
        }
        link = nil
        classic = nil
        if a.sak.supportsISODEP {
            a.ats = ReaderActivation.requestATS(transceive)
            link = a.ats.map { _ in ISODEPReaderLink(frameSize: a.frameSize) }
        } else if a.sak.isMIFAREClassic {
            classic = MIFAREClassicReader(tag, activatedUID: a.uid)
            classicForwarded = 0
        }
        activation = a
        return true
    }

    /// REQB and ATTRIB in the field as it is (a card deselected or halted since stays silent).
    func activateTypeB() -> Bool {
        typeB = nil
        link = nil
        guard let b = ReaderActivation.activate14443B(transceive), b.atqb.supportsISODEP else { return false }
        typeB = b
        link = ISODEPReaderLink(frameSize: ISO14443B.frameSize(code: b.atqb.maximumFrameSizeCode) ?? 256)
        return true
    }

    /// The field on, the tag powered, nothing sent yet.
    func fieldUp() {
        guard !fieldIsOn else { return }
        fieldIsOn = true
        tag.fieldOn()
        onFrame?(Frame(.fieldOn, technology: tag.technology, start: Timestamp.now()))
    }

    public func powerOff() {
        guard fieldIsOn else { return }
        fieldIsOn = false
        tag.fieldOff()
        activation = nil
        felica = nil
        vicc = nil
        typeB = nil
        link = nil
        classic = nil
        onFrame?(Frame(.fieldOff, technology: tag.technology, start: Timestamp.now()))
    }

    /// The ATR a contactless reader shows for the activated tag; nil without one.
    public var atr: [UInt8]? {
        // Storage card (PC/SC Part 3): RID A0 00 00 03 06, the standard, the card name.
        func storage(_ standard: UInt8, _ name: [UInt8]) -> [UInt8] {
            [0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, standard] + name + [0x00, 0x00, 0x00, 0x00]
        }
        let body: [UInt8]
        if let b = typeB {
            // PC/SC Part 3 §3.1.3.2.3.2: for 14443-B, the ATQB's application data and protocol
            // info, then MBLI from the ATTRIB answer (high nibble), as the historical bytes.
            let history = b.atqb.applicationData + Array(b.atqb.protocolInfo.prefix(3)) + [b.attrib.mbli << 4]
            body = [0x80 | UInt8(history.count), 0x80, 0x01] + history
        } else if felica != nil {
            body = storage(0x11, [0x00, 0x3B])
        } else if let vicc {
            // ISO 15693 part 3; ICODE SLI for an NXP VICC, no name for others.
            body = storage(0x0B, vicc.onAir[ISO15693UID.Layout.manufacturer.offset] == 0x04 ? [0x00, 0x14] : [0x00, 0x00])
        } else if let a = activation {
            if let ats = a.ats {
                let history = Array(ats.historicalBytes.prefix(15))
                body = [0x80 | UInt8(history.count), 0x80, 0x01] + history
            } else {
                let name: [UInt8]
                switch a.sak.raw {
                case 0x08, 0x88: name = [0x00, 0x01]
                case 0x18: name = [0x00, 0x02]
                case 0x09: name = [0x00, 0x26]
                default: name = [0x00, 0x03]   // Ultralight / NTAG
                }
                body = storage(0x03, name)
            }
        } else {
            return nil
        }
        return [0x3B] + body + [body.reduce(0, ^)]
    }

    static let ok = StatusWord.success
    /// What readers answer when a command to the card failed (`63 00`, ACS manuals).
    static let failed = StatusWord(0x6300)

    /// The firmware string of `FF 00 48 00 00`.
    static let acr122Firmware = Array("ACR122U215".utf8)

    /// The answer to one APDU from a PC/SC application.
    public func transmit(_ bytes: [UInt8]) -> [UInt8] {
        guard isActive else { return ResponseAPDU(status: StatusWord(0x6F00)).encode() }
        guard let apdu = try? CommandAPDU.decode(bytes) else { return ResponseAPDU(status: .wrongLength).encode() }
        let pseudo = PCSCPseudoAPDU(apdu)
        if pseudo == .readerFirmware { return Self.acr122Firmware }
        if case .directTransmit(let payload)? = pseudo {
            if felica != nil, payload.first != PN532.hostToChip { return felicaThrough(payload).encode() }
            return directTransmit(payload).encode()
        }
        if let felica { return pseudo.map { felicaPseudo($0, idm: felica.idm) }?.encode() ?? ResponseAPDU(status: .classNotSupported).encode() }
        if vicc != nil { return pseudo.map { viccPseudo($0) }?.encode() ?? ResponseAPDU(status: .classNotSupported).encode() }
        if let b = typeB {
            // FF CA 00 00 gives the PUPI; other APDUs go to the card through the block protocol.
            if case .getUID? = pseudo { return ResponseAPDU(data: b.atqb.pupi, status: Self.ok).encode() }
            if pseudo != nil { return ResponseAPDU(status: .functionNotSupported).encode() }
            return isoDEPExchange(bytes) ?? ResponseAPDU(status: StatusWord(0x6F00)).encode()
        }
        guard let a = activation else { return ResponseAPDU(status: StatusWord(0x6F00)).encode() }
        if let pseudo { return self.pseudo(pseudo, a).encode() }
        guard link != nil else { return ResponseAPDU(status: .classNotSupported).encode() }
        return isoDEPExchange(bytes) ?? ResponseAPDU(status: StatusWord(0x6F00)).encode()
    }

    /// A whole APDU (or native command) through the block protocol to the ISO-DEP card; nil when
    /// there is none or it stopped answering.
    func isoDEPExchange(_ inf: [UInt8]) -> [UInt8]? {
        guard var link else { return nil }
        defer { self.link = link }
        return try? link.exchange(inf) { block in
            guard let answer = self.transceive(block, 8, true, true) else { throw ISODEPLinkError("the card did not answer") }
            return answer.bytes
        }
    }

    /// The frames the Classic reader side sent and got since last time, stamped now.
    func forwardClassicFrames() {
        guard let classic else { return }
        for var f in classic.frames.dropFirst(classicForwarded) {
            f.start = Timestamp.now()
            f.end = nil
            onFrame?(f)
        }
        classicForwarded = classic.frames.count
    }

    /// MIFARE Classic through Part 3: authentication with a loaded key, blocks read and written
    /// in the Crypto1 session (a WRITE in its two phases).
    private func classicCommand(_ command: PCSCPseudoAPDU, _ reader: MIFAREClassicReader) -> ResponseAPDU {
        defer { forwardClassicFrames() }
        switch command {
        case .authenticate(let block, let type, let slot), .authenticateObsolete(let block, let type, let slot):
            let code = MIFAREClassicCommand.Code(rawValue: type)
            guard let key = keys[slot], code == .authenticateA || code == .authenticateB else { return ResponseAPDU(status: .securityNotSatisfied) }
            let keyType: MIFAREClassicCommand.KeyType = code == .authenticateA ? .a : .b
            readerNonce = readerNonce &* 1_103_515_245 &+ 12_345
            if reader.authenticate(keyType, block: block, key: key, nr: readerNonce) { return ResponseAPDU(status: Self.ok) }
            // A refused authentication leaves the card in IDLE: readers select it again.
            forwardClassicFrames()
            powerOff()
            powerOn()
            return ResponseAPDU(status: Self.failed)
        case .readBinary(let block, let le):
            guard let answer = reader.send(MIFAREClassicCommand.read(block: block).encode()), answer.count >= 16 else {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(data: Array(answer.prefix((le ?? 0) == 0 ? 16 : min(16, le ?? 16))), status: Self.ok)
        case .updateBinary(let block, let data):
            guard data.count == 16 else { return ResponseAPDU(status: .wrongLength) }
            guard reader.send(MIFAREClassicCommand.write(block: block).encode()) == [Type2Acknowledgement.ack.nibble],
                  reader.send(MIFAREClassicCommand.writeData(data).encode()) == [Type2Acknowledgement.ack.nibble] else {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(status: Self.ok)
        case .other(let apdu) where apdu.ins == PCSCPseudoAPDU.Instruction.readValueBlock:
            // ACS READ VALUE BLOCK: the value, most significant byte first.
            guard let answer = reader.send(MIFAREClassicCommand.read(block: apdu.p2).encode()), answer.count >= 16,
                  let value = MIFAREClassicValueBlock(Array(answer.prefix(16))) else { return ResponseAPDU(status: Self.failed) }
            let v = UInt32(bitPattern: value.value)
            return ResponseAPDU(data: (0..<4).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }, status: Self.ok)
        case .valueOperation, .restoreValue:
            return valueOperation(command, reader)
        default:
            return ResponseAPDU(status: .functionNotSupported)
        }
    }

    /// ACS's VALUE BLOCK OPERATION (store, or increment/decrement transferred to the same block)
    /// and RESTORE VALUE BLOCK (`PCSCPseudoAPDU`), as ACR122U-family readers offer them: the
    /// card's two-phase value commands, then TRANSFER.
    private func valueOperation(_ command: PCSCPseudoAPDU, _ reader: MIFAREClassicReader) -> ResponseAPDU {
        let ack: [UInt8] = [Type2Acknowledgement.ack.nibble]
        switch command {
        case .restoreValue(let source, let target):
            guard reader.send(MIFAREClassicCommand.restore(block: source).encode()) == ack else { return ResponseAPDU(status: Self.failed) }
            _ = reader.send(MIFAREClassicCommand.valueOperand(0).encode())   // the card takes the operand silently
            return reader.send(MIFAREClassicCommand.transfer(block: target).encode()) == ack ? ResponseAPDU(status: Self.ok) : ResponseAPDU(status: Self.failed)
        case .valueOperation(let block, .store, let value):
            let image = MIFAREClassicValueBlock(value: value, address: block).encode()
            guard reader.send(MIFAREClassicCommand.write(block: block).encode()) == ack,
                  reader.send(MIFAREClassicCommand.writeData(image).encode()) == ack else { return ResponseAPDU(status: Self.failed) }
            return ResponseAPDU(status: Self.ok)
        case .valueOperation(let block, let operation, let value):
            let step: MIFAREClassicCommand = operation == .increment ? .increment(block: block) : .decrement(block: block)
            guard reader.send(step.encode()) == ack else { return ResponseAPDU(status: Self.failed) }
            _ = reader.send(MIFAREClassicCommand.valueOperand(value).encode())
            return reader.send(MIFAREClassicCommand.transfer(block: block).encode()) == ack ? ResponseAPDU(status: Self.ok) : ResponseAPDU(status: Self.failed)
        default:
            return ResponseAPDU(status: .wrongLength)
        }
    }

    // MARK: FeliCa and ISO 15693

    /// A FeliCa command (length byte first, as on air without the CRC) passed to the card; its
    /// answer the same way, `63 00` when it stays silent.
    private func felicaThrough(_ command: [UInt8]) -> ResponseAPDU {
        guard let answer = transceive(command, 8, true, true) else { return ResponseAPDU(status: Self.failed) }
        return ResponseAPDU(data: answer.bytes, status: Self.ok)
    }

    private func felicaPseudo(_ command: PCSCPseudoAPDU, idm: FeliCaIDm) -> ResponseAPDU {
        guard case .getUID = command else { return ResponseAPDU(status: .functionNotSupported) }
        return ResponseAPDU(data: idm.bytes, status: Self.ok)
    }

    /// `FF CA 00`: the UID as the VICC sends it (least significant byte first); `FF B0 00 block
    /// Le` and `FF D6 00 block Lc data`: READ and WRITE SINGLE BLOCK, unaddressed.
    private func viccPseudo(_ command: PCSCPseudoAPDU) -> ResponseAPDU {
        guard let vicc else { return ResponseAPDU(status: StatusWord(0x6F00)) }
        let flags = ISO15693RequestFlags(rawValue: ISO15693RequestFlags.dataRateMask)
        switch command {
        case .getUID:
            return ResponseAPDU(data: vicc.onAir, status: Self.ok)
        case .readBinary(let block, _):
            let request = ISO15693Request(flags: flags, command: .readSingleBlock(block: UInt16(block)))
            guard let answer = transceive(request.encode(), 8, true, true),
                  case .blocks(_, let blocks)? = (try? ISO15693Response.decode(answer.bytes, answering: request))?.body, let block = blocks.first else {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(data: block.data, status: Self.ok)
        case .updateBinary(let block, let data):
            let request = ISO15693Request(flags: flags, command: .writeSingleBlock(block: UInt16(block), data: data))
            guard let answer = transceive(request.encode(), 8, true, true), let response = try? ISO15693Response.decode(answer.bytes, answering: request) else {
                return ResponseAPDU(status: Self.failed)
            }
            if case .error = response.body {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(status: Self.ok)
        default:
            return ResponseAPDU(status: .functionNotSupported)
        }
    }

    /// PC/SC Part 3 commands the reader answers itself.
    private func pseudo(_ command: PCSCPseudoAPDU, _ a: ISO14443AActivation) -> ResponseAPDU {
        func trimmed(_ data: [UInt8], _ le: Int?) -> [UInt8] { (le ?? 0) == 0 || (le ?? 0) >= data.count ? data : Array(data.prefix(le ?? 0)) }
        let storage = a.ats == nil && !a.sak.isMIFAREClassic
        if let classic {
            switch command {
            case .authenticate, .authenticateObsolete, .readBinary, .updateBinary, .valueOperation, .restoreValue, .other: return classicCommand(command, classic)
            default: break
            }
        }
        switch command {
        case .loadKey(let slot, let key):
            keys[slot] = key.reduce(0) { $0 << 8 | UInt64($1) }
            return ResponseAPDU(status: Self.ok)
        case .getUID(let le):
            return ResponseAPDU(data: trimmed(a.uid, le), status: Self.ok)
        case .getHistoricalBytes(let le):
            guard let ats = a.ats else { return ResponseAPDU(status: .functionNotSupported) }
            return ResponseAPDU(data: trimmed(ats.historicalBytes, le), status: Self.ok)
        case .readBinary(let page, let le) where storage:
            guard let answer = transceive(Type2Command.read(page: page).encode(), 8, true, true), answer.lastByteBits == 8 else {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(data: trimmed(answer.bytes, le), status: Self.ok)
        case .updateBinary(let page, let data) where storage:
            guard data.count == 4 else { return ResponseAPDU(status: .wrongLength) }
            guard let answer = transceive(Type2Command.write(page: page, data: data).encode(), 8, true, false), answer.lastByteBits == 4,
                  Type2Acknowledgement(nibble: answer.bytes.first ?? 0) == .ack else {
                return ResponseAPDU(status: Self.failed)
            }
            return ResponseAPDU(status: Self.ok)
        default:
            break
        }
        return ResponseAPDU(status: .functionNotSupported)
    }
}
