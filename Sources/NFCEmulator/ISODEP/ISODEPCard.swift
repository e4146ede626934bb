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

/// The ISO/IEC 14443-4 block protocol of a PICC (protocols-wave2.md §3.3), whatever carries it
/// (Type A after RATS, Type B after ATTRIB): chaining both ways, R(ACK)/R(NAK) with
/// retransmission and presence check, S(WTX) when the application needs time, S(DESELECT),
/// around an `APDUApplication`. Blocks are decoded and encoded with `ISODEPFrame`, the codec the
/// dissector uses. It takes a block's payload (CRC off) and gives the answer block's payload.
public final class ISODEPLayer {
    public let application: APDUApplication
    /// The PICC's block number (rule C: 1 after activation; rule D: it takes each I-block's).
    private var blockNumber: UInt8 = 1
    /// The last block sent, for a retransmission asked by R(NAK) or R(ACK) of our number.
    private var lastSent: ISODEPFrame?
    private var commandChain: [UInt8] = []
    /// The rest of an answer too long for one block, sent on each R(ACK).
    private var pendingAnswer: [UInt8] = []
    /// A command whose answer waits for the reader's S(WTX) reply.
    private var awaitingTime: [UInt8]?
    /// Largest frame the reader takes (FSD from RATS or ATTRIB), CRC included.
    public var fsd = 256
    /// The CID of the reader's last block, when it carried one.
    private var cid: UInt8?

    public init(application: APDUApplication) { self.application = application }

    /// Activation (or power loss, DESELECT): block numbering starts again, the application resets.
    public func reset() {
        blockNumber = 1
        lastSent = nil
        commandChain = []
        pendingAnswer = []
        awaitingTime = nil
        application.reset()
    }

    /// What a block asks for: an answer block (with `deselected` after S(DESELECT)), or nil
    /// for silence (no valid block, nothing to send).
    public func handle(_ payload: [UInt8]) -> (answer: [UInt8], deselected: Bool)? {
        guard let f = try? ISODEPFrame.decode(payload) else { return nil }   // no valid block: ignored (§7.5.4.2)
        cid = f.block.cidFollows ? f.cid : nil
        switch f.block {
        case .i(let chaining, _, _, let n):
            blockNumber = n   // rule D: toggled to the received number
            commandChain += f.inf
            if chaining {
                return (send(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber))), false)
            }
            let command = commandChain
            commandChain = []
            if application.needsTime(command) {
                awaitingTime = command
                return (send(ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: [0x01])), false)
            }
            pendingAnswer = application.execute(command)
            return (nextAnswerBlock(), false)
        case .r(let nak, _, let n):
            if n == blockNumber {
                // Rules 11–12: the reader did not get our last block; send it again.
                guard let last = lastSent else { return nil }
                return (send(last), false)
            }
            if nak {
                // Presence check (rule 13): R(ACK) with our number.
                return (send(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber))), false)
            }
            // Rule E: R(ACK) of the other number asks for the next part of a chained answer.
            blockNumber ^= 1
            guard !pendingAnswer.isEmpty else { return nil }
            return (nextAnswerBlock(), false)
        case .s(.wtx, _):
            // The reader granted the time: now the answer.
            guard let command = awaitingTime else { return nil }
            awaitingTime = nil
            pendingAnswer = application.execute(command)
            return (nextAnswerBlock(), false)
        case .s(.deselect, _):
            let reply = send(ISODEPFrame(.s(kind: .deselect, cidFollows: false)))
            reset()
            return (reply, true)
        case .s:
            return nil
        }
    }

    private func send(_ f: ISODEPFrame) -> [UInt8] {
        // The answer carries the CID the reader's block did (§7.1.1.2).
        let answer = ISODEPFrame(f.block.withCID(cid != nil), cid: cid, nad: f.nad, inf: f.inf)
        lastSent = answer
        return answer.encode()
    }

    /// The next part of the answer: as much as fits in FSD with PCB and CRC, chained when more follows.
    private func nextAnswerBlock() -> [UInt8] {
        let room = max(1, fsd - 3)
        let part = Array(pendingAnswer.prefix(room))
        pendingAnswer.removeFirst(part.count)
        let more = !pendingAnswer.isEmpty
        return send(ISODEPFrame(.i(chaining: more, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part))
    }
}

/// An ISO/IEC 14443-4 PICC of type A (protocols-wave2.md §3): ISO 14443-3 activation, RATS/ATS,
/// then the block protocol (`ISODEPLayer`) around an `APDUApplication`.
public final class ISODEPCard: EmulatedTag {
    public let technology = Technology.iso14443a
    public private(set) var listener: ISO14443AListener
    public let ats: ATS
    public var application: APDUApplication { layer.application }
    private let layer: ISODEPLayer
    /// RATS answered: frames are ISO-DEP blocks.
    public private(set) var isoDEPActive = false
    /// Right after the ATS a PPS may come (ISO/IEC 14443-4 §5.6.3), before the first block.
    private var ppsAllowed = false
    public let summary: String
    private let save: (() -> [UInt8]?)?

    public init?(uid: [UInt8], atqa: ATQA = ATQA(value: 0x0344), sak: SAK = SAK(0x20), ats: ATS, application: APDUApplication,
                 summary: String, save: (() -> [UInt8]?)? = nil) {
        guard let listener = ISO14443AListener(uid: uid, atqa: atqa, sak: sak) else { return nil }
        self.listener = listener
        self.ats = ats
        self.layer = ISODEPLayer(application: application)
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
        layer.reset()
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
            if ppsAllowed, let pps = (try? ISO14443ACommand.decode(payload, lastByteBits: frame.lastByteBits))?.ppsResponse {
                ppsAllowed = false
                return answer(pps, to: frame)
            }
            ppsAllowed = false
            guard let (reply, deselected) = layer.handle(payload) else { return nil }
            if deselected {
                isoDEPActive = false
                listener.halt()
            }
            return answer(reply, to: frame)
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
            layer.reset()
            layer.fsd = ISO14443ACommand.frameSize(forIndex: fsdi)
            isoDEPActive = true
            ppsAllowed = true
            return answer(ats.encode(), to: frame)
        }
    }
}
