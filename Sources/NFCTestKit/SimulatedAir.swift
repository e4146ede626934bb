import Foundation
import NFCCore
import NFCEmulator

/// When the simulated tag leaves the field: fault injection for the "tag removed mid-read" path.
public enum TagRemoval: Sendable, Hashable {
    case never
    /// The tag answers `n` exchanges of the app (discovery excluded), then is gone.
    case afterExchanges(Int)
    /// The tag is gone when the app sends a command starting with these bytes (CRC excluded).
    case atCommand([UInt8])
    /// Each exchange of the app finds the tag gone with `probability`; `seed` makes it repeatable.
    case random(probability: Double, seed: UInt64)
}

/// The time limits Core NFC imposes, in simulated seconds. Apple documents the session's 60 s;
/// it documents no limit for one connection, so that one is off unless a test sets it.
public struct SimulatedLimits: Sendable, Hashable {
    /// Seconds from `begin()` until Core NFC ends the session with
    /// `readerSessionInvalidationErrorSessionTimeout` (60 s on iOS).
    public var session: Double
    /// Seconds a connection may last, nil for no limit (Apple documents none).
    public var connection: Double?
    /// Limits of `session` seconds and, when given, `connection` seconds.
    public init(session: Double = 60, connection: Double? = nil) {
        self.session = session
        self.connection = connection
    }
}

/// The radio between the simulated reader and one tag: CRCs added to what the app sends and
/// checked (and removed) on what the tag answers, as Core NFC does, every frame recorded with
/// a simulated time, the tag removed when the fault rule says so. One exchange at a time: the
/// session's queue (discovery, invalidation) and the app's tasks (commands) both use it, and
/// Core NFC serialises them too.
final class SimulatedAir {
    private let lock = NSRecursiveLock()
    let tag: EmulatedTag
    var technology: Technology { tag.technology }
    /// Every frame both ways and the field events, as a capture would hold them.
    var frames: [Frame] { lock.withLock { recorded } }
    private var recorded: [Frame] = []
    /// Microseconds of simulated time since the session began.
    private(set) var clock: Int64 = 0
    private(set) var appExchanges = 0
    var removal: TagRemoval
    private var rng: SplitMix64
    private(set) var present = true
    private var fieldIsOn = false

    init(tag: EmulatedTag, removal: TagRemoval = .never) {
        self.tag = tag
        self.removal = removal
        if case .random(_, let seed) = removal { rng = SplitMix64(seed: seed) } else { rng = SplitMix64(seed: 0) }
    }

    func advance(seconds: Double) { lock.withLock { clock += Int64(seconds * 1_000_000) } }

    private func event(_ e: Frame.Event) {
        clock += 1_000
        recorded.append(Frame(e, technology: technology, start: Timestamp(clock, .microseconds)))
    }

    func fieldOn() {
        lock.lock()
        defer { lock.unlock() }
        guard !fieldIsOn else { return }
        fieldIsOn = true
        event(.fieldOn)
        if present { tag.fieldOn() }
    }

    func fieldOff() {
        lock.lock()
        defer { lock.unlock() }
        guard fieldIsOn else { return }
        fieldIsOn = false
        if present { tag.fieldOff() }
        event(.fieldOff)
    }

    /// Microseconds one bit takes on air at the technology's usual rate (14443-A with parity,
    /// 106 kbit/s; FeliCa 212 kbit/s; ISO 15693 high data rate 26.48 kbit/s).
    private var bitTime: Double {
        switch technology {
        case .iso14443a, .iso14443b: return 9.44
        case .felica: return 4.72
        case .iso15693, .iclass: return 37.76
        }
    }

    private func record(_ frame: Frame, after gap: Int64) {
        var f = frame
        clock += gap
        f.start = Timestamp(clock, .microseconds)
        let bits = technology == .iso14443a ? f.bitCount + f.bitCount / 8 : f.bitCount
        clock += Int64((Double(bits) * bitTime).rounded())
        f.end = Timestamp(clock, .microseconds)
        if technology == .felica { f.bitRate = 212 }
        recorded.append(f)
    }

    /// The tag's answer to `payload`, CRC checked and removed when `answerCRC`.
    /// `fromApp` counts the exchange for the removal rule (discovery frames do not).
    func transceive(_ payload: [UInt8], bits: UInt8 = 8, crc: Bool = true, answerCRC: Bool = true,
                    fromApp: Bool = true) throws(NFCReaderError) -> (bytes: [UInt8], lastByteBits: UInt8) {
        lock.lock()
        defer { lock.unlock() }
        var request = Frame(.data(.readerToTag), technology: technology, lastByteBits: bits)
        request.setPayload(payload, crc: crc)
        if fromApp, present, removed(payload) {
            present = false
            tag.fieldOff()
        }
        if fromApp { appExchanges += 1 }
        record(request, after: 300)
        guard present else {
            throw NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "the tag left the field (fault injection)")
        }
        guard let answer = tag.respond(to: request) else {
            throw NFCReaderError(.readerTransceiveErrorTagConnectionLost, message: "no answer from the tag")
        }
        record(answer, after: 90)
        guard answerCRC, answer.lastByteBits == 8 else { return (answer.bytes, answer.lastByteBits) }
        guard let body = answer.payload(ifValidCRC: technology.crcKind) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the tag's answer has a wrong CRC")
        }
        return (Array(body), 8)
    }

    private func removed(_ payload: [UInt8]) -> Bool {
        switch removal {
        case .never: return false
        case .afterExchanges(let n): return appExchanges >= n
        case .atCommand(let prefix): return payload.starts(with: prefix)
        case .random(let p, _): return Double(rng.next() >> 11) / Double(1 << 53) < p
        }
    }
}
