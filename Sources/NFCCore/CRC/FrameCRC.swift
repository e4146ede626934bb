/// What the end of a frame says about its CRC.
public enum FrameCRC: Equatable, Sendable {
    /// The capture (or the transport, such as nfcpy's UDP frontend) removed the CRC: the bytes
    /// are the payload.
    case stripped
    /// The last two bytes are the CRC of the bytes before them.
    case valid
    /// The last two bytes are not the CRC of the bytes before them; `expected` is what they
    /// should be (transmission order).
    case mismatch(expected: [UInt8], found: [UInt8])
    /// Fewer than three bytes: no payload byte and a CRC after it.
    case tooShort
}

/// Bytes as sent on air, CRC included unless `crcStripped`: a capture's `Frame`, a fuzz
/// input's frame, or bytes that are no frame of a trace but end in a CRC all the same
/// (`CRCBytes`). Every consumer (dissector, emulators, replayer, cassette, transports, fuzz
/// targets) splits, checks, strips and appends CRCs through these members, so the rule (which
/// CRC, where, what it covers, how short a frame can carry one) is written once.
public protocol CRCFramed {
    var bytes: [UInt8] { get set }
    var crcStripped: Bool { get set }
    /// The CRC the frame carries unless a call names another (the technology's).
    var crcKind: CRC.Kind { get }
}

extension CRC {
    /// Every CRC here is two bytes at the end of the frame.
    public static let width = 2
}

extension CRCFramed {
    /// The state of the frame's CRC, of `kind` (the technology's by default).
    public func crcState(_ kind: CRC.Kind? = nil) -> FrameCRC {
        if crcStripped { return .stripped }
        guard bytes.count >= CRC.width + 1 else { return .tooShort }
        switch CRC.check(kind ?? crcKind, bytes) {
        case .ok: return .valid
        case .mismatch(let expected, let found): return .mismatch(expected: expected, found: found)
        case .tooShort: return .tooShort
        }
    }

    /// The state of a CRC that covers the bytes from `start` on, not the whole frame (iClass
    /// reader frames leave the opcode out: `IClass.crcStart`). A frame whose covered bytes are
    /// the CRC alone has one (over nothing); fewer bytes are `.tooShort`.
    public func crcState(_ kind: CRC.Kind? = nil, coveringFrom start: Int) -> FrameCRC {
        if crcStripped { return .stripped }
        switch CRC.check(kind ?? crcKind, bytes, range: min(max(0, start), bytes.count)..<bytes.count) {
        case .ok: return .valid
        case .mismatch(let expected, let found): return .mismatch(expected: expected, found: found)
        case .tooShort: return .tooShort
        }
    }

    /// Whether the frame ends in a valid CRC (a stripped frame does not).
    public func hasValidCRC(_ kind: CRC.Kind? = nil) -> Bool {
        !crcStripped && bytes.count >= CRC.width + 1 && CRC.isValid(kind ?? crcKind, bytes)
    }

    /// Where the CRC sits when the frame carries one: its last two bytes (nil when shorter).
    public var crcRange: Range<Int>? {
        bytes.count >= CRC.width ? bytes.count - CRC.width..<bytes.count : nil
    }

    /// The bytes before the CRC's place, whatever the CRC's state (a wrong CRC is still where
    /// the CRC goes: the dissector describes both parts).
    public var bytesBeforeCRC: ArraySlice<UInt8> { bytes.dropLast(CRC.width) }

    /// How many bytes of the frame a CRC takes: two, none when the capture stripped it.
    public var crcWidth: Int { crcStripped ? 0 : CRC.width }

    /// The payload of a frame that carries a CRC: the bytes before a valid CRC, all bytes of a
    /// stripped frame; nil when the CRC is wrong or missing (a tag stays silent then).
    public func payload(ifValidCRC kind: CRC.Kind? = nil) -> ArraySlice<UInt8>? {
        switch crcState(kind) {
        case .stripped: return bytes[...]
        case .valid: return bytesBeforeCRC
        case .mismatch, .tooShort: return nil
        }
    }

    /// The same for a CRC covering the bytes from `start` on (iClass reader frames).
    public func payload(ifValidCRC kind: CRC.Kind? = nil, coveringFrom start: Int) -> ArraySlice<UInt8>? {
        switch crcState(kind, coveringFrom: start) {
        case .stripped: return bytes[...]
        case .valid: return bytesBeforeCRC
        case .mismatch, .tooShort: return nil
        }
    }

    /// The bytes without a valid CRC at their end; all bytes when there is none (frames that
    /// may or may not carry one, compared or matched by their command).
    public func payloadDroppingValidCRC(_ kind: CRC.Kind? = nil) -> ArraySlice<UInt8> {
        hasValidCRC(kind) ? bytesBeforeCRC : bytes[...]
    }

    /// Removes a valid CRC and marks the frame stripped; false (and unchanged) without one.
    @discardableResult
    public mutating func stripValidCRC(_ kind: CRC.Kind? = nil) -> Bool {
        guard hasValidCRC(kind) else { return false }
        bytes.removeLast(CRC.width)
        crcStripped = true
        return true
    }

    /// Sets the payload, followed by its CRC when `crc` and the frame is not `crcStripped`;
    /// the CRC covers the payload from `start` on (0: all of it; iClass reader frames: 1).
    public mutating func setPayload<C: Collection>(_ payload: C, crc: Bool, _ kind: CRC.Kind? = nil, coveringFrom start: Int = 0) where C.Element == UInt8 {
        bytes = Array(payload)
        if crc && !crcStripped { bytes += CRC.bytes(kind ?? crcKind, bytes[min(max(0, start), bytes.count)...]) }
    }
}

extension Frame: CRCFramed {
    public var crcKind: CRC.Kind { technology.crcKind }
}

/// Bytes that end in a CRC but are no frame of a trace: a frame being built (a codec's
/// `frame()`), a decrypted MIFARE Classic frame, an answer a reader or transport hands back.
/// They check, strip and append through the same `CRCFramed` members as frames.
public struct CRCBytes: CRCFramed, Sendable, Hashable {
    public var bytes: [UInt8]
    public var crcStripped: Bool
    public let crcKind: CRC.Kind

    /// Bytes as they are (CRC included, if any).
    public init<C: Collection>(_ bytes: C, kind: CRC.Kind, crcStripped: Bool = false) where C.Element == UInt8 {
        self.bytes = Array(bytes)
        self.crcKind = kind
        self.crcStripped = crcStripped
    }

    /// `payload` followed by its CRC (covering the payload from `start` on).
    public init<C: Collection>(payload: C, kind: CRC.Kind, coveringFrom start: Int = 0) where C.Element == UInt8 {
        self.init([], kind: kind)
        setPayload(payload, crc: true, coveringFrom: start)
    }
}

extension MIFAREApplicationDirectory {
    /// The MAD's CRC-8 over its body (NXP AN10787 §3.7; `CRC.mad`): what byte 0 must be.
    public static func crc<C: Collection>(of body: C) -> UInt8 where C.Element == UInt8 { CRC.mad(body) }
}
