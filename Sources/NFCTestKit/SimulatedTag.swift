import Foundation
import NFCCore

/// What every simulated tag shares: the radio to its tag, the session that found it, and Core
/// NFC's preconditions for a command (session alive, tag connected, time left).
public class SimulatedTag: NFCCallbackQueue {
    weak var session: SimulatedTagReaderSession?
    let air: SimulatedAir
    let queue: DispatchQueue

    init(session: SimulatedTagReaderSession, air: SimulatedAir) {
        self.session = session
        self.air = air
        queue = session.queue
    }

    public var callbackQueue: DispatchQueue { queue }

    /// Core NFC's `isAvailable`: the tag is still in the field and the session alive.
    public var isAvailable: Bool { air.present && session?.isReady == true }

    /// The checks Core NFC makes before it sends anything for the app.
    func ready() throws {
        guard let session, session.isReady else {
            throw NFCReaderError(.readerTransceiveErrorSessionInvalidated, message: "the session was invalidated")
        }
        try session.checkTime()
        guard session.connectedObject === self else {
            throw NFCReaderError(.readerTransceiveErrorTagNotConnected, message: "connect(to:) this tag first")
        }
    }

    /// One exchange for the app: CRC handled by the air, the session's clock checked first.
    func send(_ payload: [UInt8], bits: UInt8 = 8, answerCRC: Bool = true) throws -> (bytes: [UInt8], lastByteBits: UInt8) {
        try ready()
        do {
            let answer = try air.transceive(payload, bits: bits, answerCRC: answerCRC, fromApp: session?.discovering != true)
            session?.lastAnswerFailed = answer.lastByteBits == 4 && answer.bytes.first != Type2Acknowledgement.ack.nibble
            return answer
        } catch {
            session?.lastAnswerFailed = true
            throw error
        }
    }
}

/// The ISO-DEP half-duplex block protocol (ISO/IEC 14443-4) on top of the air: I-blocks with
/// the block number toggled, the tag's chaining acknowledged with R(ACK), WTX requests granted.
/// Block layouts are NFCCore's `ISODEPFrame`.
struct ISODEPLink {
    var blockNumber: UInt8 = 0
    /// The largest frame the tag accepts (FSC from the ATS), CRC included.
    var frameSize: Int

    mutating func exchange(_ inf: [UInt8], with tag: SimulatedTag) throws -> [UInt8] {
        // The app's command, chained when it does not fit the tag's frame size.
        let room = max(1, frameSize - 3)
        var rest = inf[...]
        var answer: ISODEPFrame
        repeat {
            let part = Array(rest.prefix(room))
            rest = rest.dropFirst(part.count)
            answer = try block(ISODEPFrame(.i(chaining: !rest.isEmpty, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part), tag)
            if !rest.isEmpty {
                guard case .r(false, _, _) = answer.block else { throw Self.protocolError("the tag did not acknowledge a chained block") }
                blockNumber ^= 1
            }
        } while !rest.isEmpty
        // The tag's answer, gathered over its chain.
        var out: [UInt8] = []
        while true {
            guard case .i(let chaining, _, _, _) = answer.block else { throw Self.protocolError("the tag answered with no I-block") }
            out += answer.inf
            blockNumber ^= 1
            guard chaining else { return out }
            answer = try block(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)), tag)
        }
    }

    /// Sends one block; answers the tag's WTX requests until it answers for real.
    private func block(_ frame: ISODEPFrame, _ tag: SimulatedTag) throws -> ISODEPFrame {
        var reply = try ISODEPLink.decode(tag.send(frame.encode()).bytes)
        while case .s(.wtx, _) = reply.block {
            reply = try ISODEPLink.decode(tag.send(ISODEPFrame(.s(kind: .wtx, cidFollows: false), inf: reply.inf).encode()).bytes)
        }
        return reply
    }

    static func decode(_ bytes: [UInt8]) throws -> ISODEPFrame {
        do { return try ISODEPFrame.decode(bytes) } catch { throw protocolError("the tag's block is malformed: \(error)") }
    }

    static func protocolError(_ message: String) -> NFCReaderError {
        NFCReaderError(.readerTransceiveErrorTagResponseError, message: message)
    }

    /// An APDU exchange: the answer split into data and status word by NFCCore's `ResponseAPDU`.
    mutating func send(_ apdu: NFCISO7816APDU, with tag: SimulatedTag) throws -> (Data, UInt8, UInt8) {
        let answer = try exchange(apdu.command.encode(), with: tag)
        guard let response = try? ResponseAPDU.decode(answer) else {
            throw Self.protocolError("the answer carries no status word")
        }
        return (Data(response.data), response.status.sw1, response.status.sw2)
    }
}
