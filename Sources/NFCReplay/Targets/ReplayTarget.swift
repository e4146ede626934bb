import NFCCore
import NFCEmulator

/// Something a trace's reader frames can be sent to: an emulated tag, a tag behind nfcpy's UDP
/// protocol, and next a real reader (PC/SC, libnfc) — the replayer only sees this interface.
public protocol ReplayTarget: AnyObject {
    /// How reports name it: `emulator (NTAG215, UID …)`, `udp:127.0.0.1:54321`.
    var name: String { get }
    /// Whether answers come back with their CRC (an emulator: yes; nfcpy's UDP frontend: no).
    var answersCarryCRC: Bool { get }
    func fieldOn() throws(ReplayTargetError)
    func fieldOff() throws(ReplayTargetError)
    /// Sends one reader frame as recorded (with its CRC when the trace has it); returns the
    /// answer, or nil when the target stayed silent.
    func transmit(_ frame: Frame) throws(ReplayTargetError) -> Frame?
    /// What the target made of a reader frame: a reader that cannot put every frame on air
    /// (PC/SC) activates the card and runs the ISO-DEP link itself, and answers commands, not
    /// blocks. `number` is the frame's number in the trace. Default: the frame transmitted as is.
    func exchange(_ frame: Frame, number: Int) throws(ReplayTargetError) -> TargetAnswer
    /// Why this reader frame (number `number` of the trace) cannot be sent through the target at
    /// all (listed before a replay starts); nil when it can. Called for the reader frames in order.
    /// Default: every frame can.
    func inexpressible(_ frame: Frame, number: Int) -> String?
}

extension ReplayTarget {
    public func exchange(_ frame: Frame, number: Int) throws(ReplayTargetError) -> TargetAnswer { .frame(try transmit(frame)) }
    public func inexpressible(_ frame: Frame, number: Int) -> String? { nil }
}

/// A target's answer to one reader frame.
public enum TargetAnswer: Sendable {
    /// The answer as on air; nil for silence.
    case frame(Frame?)
    /// The reader did this itself (activation when the card is connected, the blocks of the
    /// ISO-DEP link): there is no answer of the target's to compare; the recorded one stands.
    /// The text names what, for the report.
    case byReader(String)
    /// An APDU-level reader: the response APDU to the command the ISO-DEP I-blocks carried. It
    /// is compared with the recorded answer blocks' INF put together, whatever their chaining.
    case responseAPDU([UInt8])
    /// A reader that runs the cipher itself (MIFARE Classic through PC/SC): the card's answer in
    /// clear (no CRC), compared with the recorded answer as the dissector decrypted it
    /// (`Replayer.clearView`).
    case clear([UInt8], lastByteBits: UInt8)
}

public struct ReplayTargetError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An emulated tag driven in-process.
public final class EmulatorTarget: ReplayTarget {
    public let tag: EmulatedTag
    public let name: String

    public init(tag: EmulatedTag, name: String? = nil) {
        self.tag = tag
        self.name = name ?? "emulator (\(tag.summary))"
    }

    public var answersCarryCRC: Bool { true }
    public func fieldOn() { tag.fieldOn() }
    public func fieldOff() { tag.fieldOff() }
    public func transmit(_ frame: Frame) -> Frame? { tag.respond(to: frame) }
}
