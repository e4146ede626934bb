/// The NXP PN532's host commands (UM0701-02; protocols-wave2.md §7.3 and §8): what libnfc's
/// drivers and an ACR122's direct transmit (`FF 00 00 00 Lc D4 …`) send, and the chip's answers
/// (`D5 code+1 …`). Codes and status bytes are written once, here.
public enum PN532 {
    /// TFI of a frame from the host and from the chip.
    public static let hostToChip: UInt8 = 0xD4
    public static let chipToHost: UInt8 = 0xD5

    public enum Command: UInt8, Sendable, CaseIterable {
        case diagnose = 0x00
        case getFirmwareVersion = 0x02
        case readRegister = 0x06
        case writeRegister = 0x08
        case setParameters = 0x12
        case samConfiguration = 0x14
        case powerDown = 0x16
        case rfConfiguration = 0x32
        case inDataExchange = 0x40
        case inCommunicateThru = 0x42
        case inDeselect = 0x44
        case inListPassiveTarget = 0x4A
        case inAutoPoll = 0x60
        case inRelease = 0x52
        case inSelect = 0x54

        /// The answer's code: the command's plus one.
        public var answerCode: UInt8 { rawValue &+ 1 }
    }

    /// InListPassiveTarget's BrTy.
    public enum Modulation: UInt8, Sendable {
        case typeA106 = 0x00, felica212 = 0x01, felica424 = 0x02, typeB106 = 0x03, jewel106 = 0x04
    }

    /// The status byte of InDataExchange/InCommunicateThru answers (b6…b1; libnfc's
    /// `pn53x-internal.h`).
    public enum Status: UInt8, Sendable {
        case ok = 0x00, timeout = 0x01, crc = 0x02, parity = 0x03, invalidParameter = 0x10
        case mifareAuthenticationError = 0x14, wrongContext = 0x27
    }

    /// CIU registers libnfc programs (PN532 user manual §8.6; addresses as ReadRegister takes them).
    public enum Register {
        public static let txMode: UInt16 = 0x6302
        public static let rxMode: UInt16 = 0x6303
        public static let manualRCV: UInt16 = 0x630D
        public static let bitFraming: UInt16 = 0x633D
        /// Control: RxLastBits (b2…b0) of the last frame received.
        public static let control: UInt16 = 0x633C
        /// ManualRCV b4: the CIU neither adds nor checks parity bits (the host wraps them in).
        public static let parityDisable: UInt8 = 0x10
        /// TxMode/RxMode b1…b0: 00 ISO 14443-A/MIFARE, 01 active, 10 FeliCa, 11 ISO 14443-B.
        public static let framingMask: UInt8 = 0x03
    }

    /// GetFirmwareVersion's answer of a PN532 v1.6 supporting ISO 14443-A, -B and ISO 18092.
    public static let firmwareVersion: [UInt8] = [0x32, 0x01, 0x06, 0x07]

    /// ACR122 escape `FF 00 00 00 Lc` around a PN532 frame, and `FF 00 48 00 00` asking for the
    /// reader's firmware string (answered without a status word, as ACS's manual shows).
    public static let acr122FirmwareP1: UInt8 = 0x48
    /// Status words after direct transmit (ACS ACR122 manuals): PN532 did not answer, wrong command.
    public static let acr122NoResponse = StatusWord(0x6301)
    public static let acr122WrongCommand = StatusWord(0x637F)
}

/// The PN532's frames on its serial link (UM0701-02 §6.2): normal `00 00 FF LEN LCS TFI PD… DCS
/// 00`, extended `00 00 FF FF FF LENM LENL LCS TFI PD… DCS 00`, ACK `00 00 FF 00 FF 00`, NACK
/// `00 00 FF FF 00 00`, and the error frame of a syntax error. LEN counts TFI and the data; LCS
/// makes LEN + LCS = 0 (mod 256), DCS makes TFI + data + DCS = 0.
public enum PN532Frame: Sendable, Equatable {
    /// TFI and data (`D4 cmd …` from the host, `D5 cmd+1 …` from the chip).
    case information([UInt8])
    case ack
    case nack
    /// The chip's answer to a frame it could not take (`00 00 FF 01 FF 7F 81 00`).
    case error

    public static let preamble: [UInt8] = [0x00, 0x00, 0xFF]
    public static let ackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    public static let nackBytes: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    public static let errorBytes: [UInt8] = [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]

    public func encode() -> [UInt8] {
        switch self {
        case .ack: return Self.ackBytes
        case .nack: return Self.nackBytes
        case .error: return Self.errorBytes
        case .information(let body):
            let dcs = UInt8(truncatingIfNeeded: 0x100 - Int(body.reduce(UInt8(0), &+)))
            if body.count < 0xFF {
                let len = UInt8(body.count)
                return Self.preamble + [len, 0 &- len] + body + [dcs, 0x00]
            }
            let m = UInt8(body.count >> 8), l = UInt8(body.count & 0xFF)
            return Self.preamble + [0xFF, 0xFF, m, l, 0 &- (m &+ l)] + body + [dcs, 0x00]
        }
    }

    /// The first frame in `bytes` after any wake-up bytes (`55`) and zeros before its start code:
    /// the frame and how many bytes it took; nil when the frame has not arrived whole yet.
    /// A frame whose data checksum is wrong is `.error` (the chip answers it with a NACK); a
    /// header whose length checksum is wrong starts no frame (the chip cannot know its length).
    public static func decode(_ bytes: [UInt8]) -> (frame: PN532Frame, consumed: Int)? {
        guard case .frame(let frame, _, let end) = find(in: bytes) else { return nil }
        return (frame, end)
    }

    /// What the first start code (`00 FF`) at or after `from` that begins a plausible header
    /// holds; `start` is the index of its `00`.
    public enum Found: Sendable, Equatable {
        case frame(PN532Frame, start: Int, end: Int)
        case unfinished(start: Int)
        case nothing
    }

    public static func find(in bytes: [UInt8], from: Int = 0) -> Found {
        // The start code 00 FF: the preamble's first zero may be missing.
        var i = max(0, from)
        while i + 1 < bytes.count {
            guard bytes[i] == 0x00, bytes[i + 1] == 0xFF else {
                i += 1
                continue
            }
            switch frame(in: bytes, header: i + 2) {
            case .noHeader: i += 2   // 00 FF was data or noise
            case .unfinished: return .unfinished(start: i)
            case .frame(let frame, let end): return .frame(frame, start: i, end: end)
            }
        }
        return .nothing
    }

    private enum AtHeader {
        /// A length whose checksum is wrong, or 0.
        case noHeader
        case unfinished
        /// The frame and the index after it.
        case frame(PN532Frame, end: Int)
    }

    /// The frame whose header (LEN) is at `h`.
    private static func frame(in bytes: [UInt8], header h: Int) -> AtHeader {
        guard bytes.count >= h + 2 else { return .unfinished }
        let len = bytes[h], lcs = bytes[h + 1]
        // ACK and NACK: the postamble may be missing.
        if len == 0x00, lcs == 0xFF { return .frame(.ack, end: min(bytes.count, h + 3)) }
        if len == 0xFF, lcs == 0x00 { return .frame(.nack, end: min(bytes.count, h + 3)) }
        let length: Int, body: Int
        if len == 0xFF, lcs == 0xFF {
            guard bytes.count >= h + 5 else { return .unfinished }
            let m = bytes[h + 2], l = bytes[h + 3]
            guard m &+ l &+ bytes[h + 4] == 0 else { return .noHeader }
            length = Int(m) << 8 | Int(l)
            body = h + 5
        } else {
            guard len &+ lcs == 0 else { return .noHeader }
            length = Int(len)
            body = h + 2
        }
        // Every frame has its TFI: a length of 0 is the zeros of a preamble or noise.
        guard length > 0 else { return .noHeader }
        guard bytes.count >= body + length + 1 else { return .unfinished }
        let data = Array(bytes[body..<body + length])
        let dcs = bytes[body + length]
        let end = min(bytes.count, body + length + 2)   // the postamble may be missing
        guard data.reduce(UInt8(0), &+) &+ dcs == 0 else { return .frame(.error, end: end) }
        return .frame(.information(data), end: end)
    }
}
