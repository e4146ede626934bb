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
