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

/// Bytes as sent on air, CRC included unless `crcStripped`: a capture's `Frame`, or a fuzz
/// input's frame. Every consumer (dissector, emulators, replayer, cassette, UDP target, fuzz
/// targets) splits, checks, strips and appends CRCs through these members, so the rule (which
/// CRC, where, how short a frame can carry one) is written once.
public protocol CRCFramed {
    var bytes: [UInt8] { get set }
    var technology: Technology { get }
    var crcStripped: Bool { get set }
}

extension CRCFramed {
    /// The state of the frame's CRC, of `kind` (the technology's by default).
    public func crcState(_ kind: CRC.Kind? = nil) -> FrameCRC {
        if crcStripped { return .stripped }
        guard bytes.count >= 3 else { return .tooShort }
        switch CRC.check(kind ?? technology.crcKind, bytes) {
        case .ok: return .valid
        case .mismatch(let expected, let found): return .mismatch(expected: expected, found: found)
        case .tooShort: return .tooShort
        }
    }

    /// Whether the frame ends in a valid CRC (a stripped frame does not).
    public func hasValidCRC(_ kind: CRC.Kind? = nil) -> Bool {
        !crcStripped && bytes.count >= 3 && CRC.isValid(kind ?? technology.crcKind, bytes)
    }

    /// The payload of a frame that carries a CRC: the bytes before a valid CRC, all bytes of a
    /// stripped frame; nil when the CRC is wrong or missing (a tag stays silent then).
    public func payload(ifValidCRC kind: CRC.Kind? = nil) -> ArraySlice<UInt8>? {
        switch crcState(kind) {
        case .stripped: return bytes[...]
        case .valid: return bytes.dropLast(2)
        case .mismatch, .tooShort: return nil
        }
    }

    /// The bytes without a valid CRC at their end; all bytes when there is none (frames that
    /// may or may not carry one, compared or matched by their command).
    public func payloadDroppingValidCRC(_ kind: CRC.Kind? = nil) -> ArraySlice<UInt8> {
        hasValidCRC(kind) ? bytes.dropLast(2) : bytes[...]
    }

    /// Removes a valid CRC and marks the frame stripped; false (and unchanged) without one.
    @discardableResult
    public mutating func stripValidCRC(_ kind: CRC.Kind? = nil) -> Bool {
        guard hasValidCRC(kind) else { return false }
        bytes.removeLast(2)
        crcStripped = true
        return true
    }

    /// Sets the payload, followed by its CRC when `crc` and the frame is not `crcStripped`.
    public mutating func setPayload<C: Collection>(_ payload: C, crc: Bool, _ kind: CRC.Kind? = nil) where C.Element == UInt8 {
        bytes = Array(payload)
        if crc && !crcStripped { bytes += CRC.bytes(kind ?? technology.crcKind, payload) }
    }
}

extension Frame: CRCFramed {}
