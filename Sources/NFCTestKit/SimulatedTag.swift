import Foundation
import NFCCore
import NFCEmulator

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

    /// The session's queue: completion handlers of the kit's forms run there, as Core NFC delivers
    /// on it.
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

/// The ISO-DEP block protocol on top of the air (NFCEmulator's `ISODEPReaderLink`), its errors
/// as Core NFC reports them, APDU answers split by NFCCore's `ResponseAPDU`.
struct ISODEPLink {
    var link: ISODEPReaderLink

    init(frameSize: Int) { link = ISODEPReaderLink(frameSize: frameSize) }

    mutating func exchange(_ inf: [UInt8], with tag: SimulatedTag) throws -> [UInt8] {
        do {
            return try link.exchange(inf) { block in try tag.send(block).bytes }
        } catch let e as ISODEPLinkError {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: e.description)
        }
    }

    /// An APDU exchange: the answer split into data and status word.
    mutating func send(_ apdu: NFCISO7816APDU, with tag: SimulatedTag) throws -> (Data, UInt8, UInt8) {
        let answer = try exchange(apdu.command.encode(), with: tag)
        guard let response = try? ResponseAPDU.decode(answer) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the answer carries no status word")
        }
        return (Data(response.data), response.status.sw1, response.status.sw2)
    }
}
