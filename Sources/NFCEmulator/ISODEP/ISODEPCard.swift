import NFCCore

/// What runs on an ISO-DEP card: it takes each whole command APDU and gives its answer.
/// `needsTime` says whether the card asks for more time (S(WTX)) before answering that command.
public protocol APDUApplication: AnyObject {
    func execute(_ command: [UInt8]) -> [UInt8]
    func needsTime(_ command: [UInt8]) -> Bool
    /// Power loss or DESELECT: the application's volatile state goes.
    func reset()
}

extension APDUApplication {
    public func needsTime(_ command: [UInt8]) -> Bool { false }
}

/// An ISO/IEC 14443-4 PICC of type A (protocols-wave2.md §3): ISO 14443-3 activation, RATS/ATS,
/// and the block protocol — chaining both ways, R(ACK)/R(NAK) with retransmission and presence
/// check, S(WTX) when the application needs time, S(DESELECT) — around an `APDUApplication`.
/// Blocks are decoded and encoded with `ISODEPFrame`, the codec the dissector uses.
public final class ISODEPCard: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var listener: ISO14443AListener
    public let ats: ATS
    public let application: APDUApplication
    /// RATS answered: frames are ISO-DEP blocks.
    public private(set) var isoDEPActive = false
    /// The PICC's block number (rule C: 1 after activation; rule D: it takes each I-block's).
    private var blockNumber: UInt8 = 1
    /// The last block sent, for a retransmission asked by R(NAK) or R(ACK) of our number.
    private var lastSent: ISODEPFrame?
    private var commandChain: [UInt8] = []
    /// The rest of an answer too long for one block, sent on each R(ACK).
    private var pendingAnswer: [UInt8] = []
    /// A command whose answer waits for the reader's S(WTX) reply.
    private var awaitingTime: [UInt8]?
    /// Largest frame the reader takes (FSD from RATS), CRC included.
    private var fsd = 256
    public let summary: String
    private let save: (() -> [UInt8]?)?

    public init?(uid: [UInt8], atqa: ATQA = ATQA(value: 0x0344), sak: SAK = SAK(0x20), ats: ATS, application: APDUApplication,
                 summary: String, save: (() -> [UInt8]?)? = nil) {
        guard let listener = ISO14443AListener(uid: uid, atqa: atqa, sak: sak) else { return nil }
        self.listener = listener
        self.ats = ats
        self.application = application
        self.summary = summary
        self.save = save
    }

    public func savedDump() -> [UInt8]? { save?() }

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
        awaitingTime = nil
        application.reset()
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
            return answer(ats.encode(), to: frame)
        }
    }

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
            if application.needsTime(command) {
                awaitingTime = command
                return send(ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: [0x01]), to: frame)
            }
            pendingAnswer = application.execute(command)
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
        case .s(.wtx, _):
            // The reader granted the time: now the answer.
            guard let command = awaitingTime else { return nil }
            awaitingTime = nil
            pendingAnswer = application.execute(command)
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
}
