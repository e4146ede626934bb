import NFCCore

/// One frame of a fuzz input: what a capture would hold, in a compact form the fuzzer edits.
public struct FuzzFrame: Sendable, Equatable {
    /// What a frame is: reader to tag, tag to reader, field on or field off (the kind's 2 bits in
    /// the sequence format).
    public enum Kind: UInt8, Sendable, CaseIterable {
        case reader = 0, tag = 1, fieldOn = 2, fieldOff = 3

        /// A capture frame's event as a kind (a malformed record counts as field off: no data).
        public init(_ event: Frame.Event) {
            switch event {
            case .data(.readerToTag): self = .reader
            case .data(.tagToReader): self = .tag
            case .fieldOn: self = .fieldOn
            case .fieldOff, .malformed: self = .fieldOff
            }
        }

        /// The capture event this kind stands for.
        public var event: Frame.Event {
            switch self {
            case .reader: return .data(.readerToTag)
            case .tag: return .data(.tagToReader)
            case .fieldOn: return .fieldOn
            case .fieldOff: return .fieldOff
            }
        }
    }

    /// Direction or field event.
    public var kind: Kind
    /// The air interface the frame was sent on.
    public var technology: Technology
    /// The bytes as on air: with the technology's CRC unless `crcStripped`.
    public var bytes: [UInt8]
    /// Whether the capture removed the CRC (nfcpy's frontend, pcap FA/FB events).
    public var crcStripped: Bool
    /// Valid bits of the last byte (1…8).
    public var lastByteBits: UInt8

    /// A frame of `kind` on `technology` with its bytes as on air.
    public init(_ kind: Kind, _ technology: Technology, bytes: [UInt8] = [], crcStripped: Bool = false, lastByteBits: UInt8 = 8) {
        self.kind = kind
        self.technology = technology
        self.bytes = bytes
        self.crcStripped = crcStripped
        self.lastByteBits = lastByteBits
    }

    /// A data frame from a payload: the CRC is appended when `crc` (and the frame keeps it).
    public static func data(_ kind: Kind, _ technology: Technology, payload: [UInt8], crc: Bool, lastByteBits: UInt8 = 8) -> FuzzFrame {
        var frame = FuzzFrame(kind, technology, lastByteBits: lastByteBits)
        frame.setPayload(payload, crc: crc)
        return frame
    }
}

/// CRCs are split, checked and appended as for capture frames (NFCCore's `CRCFramed`).
extension FuzzFrame: CRCFramed {
    /// The CRC a frame of this technology carries (CRC_A, CRC_B, FeliCa's, ISO 15693's, iClass's).
    public var crcKind: CRC.Kind { technology.crcKind }
}

/// The binary format of frame-sequence fuzz inputs (dissector and emulator targets):
///
/// ```
/// byte 0     selector: picks the tag model of emulator targets, the renderer of dissector targets
/// then per frame:
///   kind     b1–b0 event (0 reader→tag, 1 tag→reader, 2 field on, 3 field off)
///            b3–b2 technology (0 14443-A, 1 14443-B, 2 FeliCa, 3 15693)
///            b4 CRC stripped, b7–b5 valid bits of the last byte (0 = 8)
///   length   1 byte
///   bytes    `length` bytes as on air
/// ```
/// Decoding is lenient: a record cut short ends the sequence, so every input means something.
public enum FrameSequence {
    static let technologies: [Technology] = [.iso14443a, .iso14443b, .felica, .iso15693]

    /// A fuzz input of `frames` after `selector`, in the format above; bytes beyond 255 per frame
    /// are cut (the length is one byte).
    public static func encode(selector: UInt8, frames: [FuzzFrame]) -> [UInt8] {
        var out: [UInt8] = [selector]
        for f in frames {
            let tech = UInt8(technologies.firstIndex(of: f.technology) ?? 0)
            let bits = f.lastByteBits >= 8 || f.lastByteBits == 0 ? 0 : f.lastByteBits & 0x07
            out.append(f.kind.rawValue | tech << 2 | (f.crcStripped ? 0x10 : 0) | bits << 5)
            let bytes = f.bytes.prefix(255)
            out.append(UInt8(bytes.count))
            out += bytes
        }
        return out
    }

    /// Selector and frames; `complete` is false when bytes were left over (a cut record).
    public static func decode(_ input: [UInt8]) -> (selector: UInt8, frames: [FuzzFrame], complete: Bool) {
        var c = ByteCursor(input)
        guard let selector = try? c.readUInt8("selector") else { return (0, [], false) }
        var frames: [FuzzFrame] = []
        while !c.isAtEnd {
            guard let kind = try? c.readUInt8("kind"), let n = try? c.readUInt8("length"),
                  let bytes = try? c.readBytes(Int(n), "frame bytes") else { return (selector, frames, false) }
            let bits = kind >> 5
            frames.append(FuzzFrame(FuzzFrame.Kind(rawValue: kind & 0x03) ?? .reader, technologies[Int(kind >> 2 & 0x03)],
                                    bytes: bytes, crcStripped: kind & 0x10 != 0, lastByteBits: bits == 0 ? 8 : bits))
        }
        return (selector, frames, true)
    }

    /// The frames as NFCCore frames with made-up but monotonic timestamps (µs); `technology`
    /// overrides each frame's own (targets for one technology's dissector or emulator).
    public static func frames(_ input: [UInt8], technology: Technology? = nil) -> (selector: UInt8, frames: [Frame]) {
        let decoded = decode(input)
        var time: Int64 = 0
        let frames = decoded.frames.map { f -> Frame in
            let event = f.kind.event
            let start = time
            time += 100 + Int64(f.bytes.count) * 75
            let isData = f.kind == .reader || f.kind == .tag
            return Frame(event, technology: technology ?? f.technology, bytes: isData ? f.bytes : [],
                         lastByteBits: isData ? f.lastByteBits : 8, crcStripped: isData && f.crcStripped,
                         start: Timestamp(start, .microseconds), end: Timestamp(time - 50, .microseconds))
        }
        return (decoded.selector, frames)
    }
}
