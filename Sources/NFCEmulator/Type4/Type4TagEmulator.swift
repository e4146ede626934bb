import NFCCore

/// An emulated NFC Forum Type 4 Tag (protocols-wave2.md §3–4): ISO 14443-3 activation with SAK
/// 20, RATS/ATS, the ISO-DEP block protocol (chaining both ways, R(ACK)/R(NAK) and
/// retransmission, S(DESELECT)) and the NDEF application: SELECT by name and file id, READ
/// BINARY, UPDATE BINARY, with the CC's access bytes and MLe/MLc honoured. Blocks and APDUs are
/// decoded and encoded with the codecs the dissector uses.
public final class Type4TagEmulator: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var memory: Type4TagMemory
    public private(set) var listener: ISO14443AListener
    /// RATS answered: frames are ISO-DEP blocks.
    public private(set) var isoDEPActive = false
    /// The PICC's block number (rule C: 1 after activation; rule D: it takes each I-block's).
    private var blockNumber: UInt8 = 1
    /// The last block sent, for a retransmission asked by R(NAK) or R(ACK) of our number.
    private var lastSent: ISODEPFrame?
    private var commandChain: [UInt8] = []
    /// The rest of an answer too long for one block, sent on each R(ACK).
    private var pendingAnswer: [UInt8] = []
    /// Largest frame the reader takes (FSD from RATS), CRC included.
    private var fsd = 256
    private var application = Application()

    struct Application {
        var ndefSelected = false
        var file: UInt16?
    }

    public init?(memory: Type4TagMemory) {
        guard let listener = ISO14443AListener(uid: memory.uid, atqa: ATQA(value: 0x0344), sak: SAK(0x20)) else { return nil }
        self.memory = memory
        self.listener = listener
    }

    public var summary: String { "NFC Forum Type 4 Tag (mapping \(memory.capabilityContainer.versionText)), UID \(Hex.string(memory.uid))" }

    /// No dump format holds a Type 4 Tag yet (`emulate --save` says so).
    public func savedDump() -> [UInt8]? { nil }

    public func fieldOn() { powerReset() }
    public func fieldOff() { powerReset() }

    private func powerReset() {
        listener.reset()
        leaveISODEP()
    }

    private func leaveISODEP() {
        isoDEPActive = false
        blockNumber = 1
        lastSent = nil
        commandChain = []
        pendingAnswer = []
        application = Application()
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .iso14443a else { return nil }
        let bytes = frame.bytes
        let activation = ISO14443ACommand.recognises(bytes, lastByteBits: frame.lastByteBits)
        let expectsCRC = activation && !isoDEPActive ? ISO14443ACommand.carriesCRC(bytes, lastByteBits: frame.lastByteBits) : true
        var payload = bytes
        if expectsCRC {
            guard let p = frame.payload(ifValidCRC: .a) else { return nil }   // a damaged frame: no answer (ISO/IEC 14443-4 §7.5.4)
            payload = Array(p)
        }
        if isoDEPActive, listener.state == .active {
            return block(payload, frame: frame)
        }
        switch listener.handle(payload, lastByteBits: frame.lastByteBits) {
        case .answer(let b, let crc):
            return answer(b, crc: crc, to: frame)
        case .silence:
            leaveISODEP()
            return nil
        case .command:
            // ACTIVE: only RATS is valid before ISO-DEP (ISO/IEC 14443-4 §5.6).
            guard case .rats(let fsdi, _)? = try? ISO14443ACommand.decode(payload, lastByteBits: frame.lastByteBits) else {
                listener.fail()
                return nil
            }
            fsd = ISO14443ACommand.frameSize(forIndex: fsdi)
            isoDEPActive = true
            blockNumber = 1
            return answer(memory.ats.encode(), to: frame)
        }
    }

    // MARK: ISO-DEP

    private func send(_ f: ISODEPFrame, to request: Frame) -> Frame {
        lastSent = f
        return answer(f.encode(), to: request)
    }

    private func block(_ payload: [UInt8], frame: Frame) -> Frame? {
        guard let f = try? ISODEPFrame.decode(payload) else { return nil }   // no valid block: ignored (§7.5.4.2)
        switch f.block {
        case .i(let chaining, _, _, let n):
            blockNumber = n   // rule D: toggled to the received number
            commandChain += f.inf
            if chaining {
                return send(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)), to: frame)
            }
            let command = commandChain
            commandChain = []
            pendingAnswer = execute(command).encode()
            return nextAnswerBlock(to: frame)
        case .r(let nak, _, let n):
            if n == blockNumber {
                // Rules 11–12: the reader did not get our last block; send it again.
                guard let last = lastSent else { return nil }
                return send(last, to: frame)
            }
            if nak {
                // Presence check (rule 13): R(ACK) with our number.
                return send(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)), to: frame)
            }
            // Rule E: R(ACK) of the other number asks for the next part of a chained answer.
            blockNumber ^= 1
            guard !pendingAnswer.isEmpty else { return nil }
            return nextAnswerBlock(to: frame)
        case .s(.deselect, _):
            let reply = send(ISODEPFrame(.s(kind: .deselect, cidFollows: false)), to: frame)
            leaveISODEP()
            listener.halt()
            return reply
        case .s:
            return nil
        }
    }

    /// The next part of the answer: as much as fits in FSD with PCB and CRC, chained when more follows.
    private func nextAnswerBlock(to frame: Frame) -> Frame {
        let room = max(1, fsd - 3)
        let part = Array(pendingAnswer.prefix(room))
        pendingAnswer.removeFirst(part.count)
        let more = !pendingAnswer.isEmpty
        return send(ISODEPFrame(.i(chaining: more, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part), to: frame)
    }

    // MARK: the NDEF application

    private func execute(_ bytes: [UInt8]) -> ResponseAPDU {
        guard let apdu = try? CommandAPDU.decode(bytes) else { return ResponseAPDU(status: .wrongLength) }
        guard apdu.cla == 0x00 else { return ResponseAPDU(status: .classNotSupported) }
        switch apdu.ins {
        case ISO7816Instruction.select:
            return select(apdu)
        case ISO7816Instruction.readBinary:
            return readBinary(apdu)
        case ISO7816Instruction.updateBinary:
            return updateBinary(apdu)
        default:
            return ResponseAPDU(status: .instructionNotSupported)
        }
    }

    private func select(_ apdu: CommandAPDU) -> ResponseAPDU {
        switch apdu.p1 {
        case 0x04:
            // Mapping 2.0 answers the 2.0 name; the 1.0 name only a 1.0 tag (T4T 2.0 §5.5).
            let name = memory.capabilityContainer.mappingVersion >> 4 >= 2 ? Type4Tag.ndefApplication : Type4Tag.ndefApplicationV1
            guard apdu.data == name else {
                application = Application()
                return ResponseAPDU(status: .fileNotFound)
            }
            application = Application(ndefSelected: true, file: nil)
            return ResponseAPDU(status: .success)
        case 0x00:
            guard application.ndefSelected, apdu.data.count == 2 else { return ResponseAPDU(status: .fileNotFound) }
            let fid = UInt16(apdu.data[0]) << 8 | UInt16(apdu.data[1])
            guard fid == Type4Tag.ccFile || fid == memory.capabilityContainer.ndefFile.fileID else { return ResponseAPDU(status: .fileNotFound) }
            application.file = fid
            return ResponseAPDU(status: .success)
        default:
            return ResponseAPDU(status: .incorrectP1P2)
        }
    }

    /// The selected file's bytes and whether it is the NDEF file.
    private var selectedFile: (bytes: [UInt8], ndef: Bool)? {
        switch application.file {
        case Type4Tag.ccFile?: return (memory.capabilityContainer.encode(), false)
        case memory.capabilityContainer.ndefFile.fileID?: return (memory.ndefFile, true)
        default: return nil
        }
    }

    private func readBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard let (file, ndef) = selectedFile else { return ResponseAPDU(status: .commandNotAllowed) }
        guard let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return ResponseAPDU(status: .incorrectP1P2) }
        if ndef, memory.capabilityContainer.ndefFile.readAccess != 0 { return ResponseAPDU(status: .securityNotSatisfied) }
        guard offset < file.count else { return ResponseAPDU(status: .wrongP1P2) }
        let asked = apdu.le ?? 256
        let n = min(asked, Int(memory.capabilityContainer.maxReadLength), file.count - offset)
        return ResponseAPDU(data: Array(file[offset..<offset + n]), status: n < asked && offset + n == file.count ? .endOfFile : .success)
    }

    private func updateBinary(_ apdu: CommandAPDU) -> ResponseAPDU {
        guard let (file, ndef) = selectedFile else { return ResponseAPDU(status: .commandNotAllowed) }
        guard ndef else { return ResponseAPDU(status: .securityNotSatisfied) }   // the CC file is read-only
        guard memory.capabilityContainer.ndefFile.writeAccess == 0 else { return ResponseAPDU(status: .securityNotSatisfied) }
        guard let (sfi, offset) = ISO7816Instruction.binaryOffset(p1: apdu.p1, p2: apdu.p2), sfi == nil else { return ResponseAPDU(status: .incorrectP1P2) }
        guard !apdu.data.isEmpty, apdu.data.count <= Int(memory.capabilityContainer.maxWriteLength) else { return ResponseAPDU(status: .wrongLength) }
        guard offset + apdu.data.count <= file.count else { return ResponseAPDU(status: .wrongP1P2) }
        memory.ndefFile.replaceSubrange(offset..<offset + apdu.data.count, with: apdu.data)
        return ResponseAPDU(status: .success)
    }
}
