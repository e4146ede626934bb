import NFCCore

/// nfctrace's own pcap encapsulation for technologies without a registered link type
/// (FeliCa, ISO 15693, ISO 14443-B, and 14443-A when bit counts matter), on the private
/// LINKTYPE_USER3 (150). Specified in docs/trace-format.md; contrib/wireshark/nfctrace.lua
/// shows it in Wireshark.
///
/// ```
/// offset size field
///  0     2    magic "NF" (4E 46)
///  2     1    version (1)
///  3     1    technology: 0A ISO 14443-A, 0B ISO 14443-B, 0F FeliCa, 05 ISO 15693, 0C iClass
///  4     1    event: 00 reader→tag, 01 tag→reader, 02 field on, 03 field off
///  5     1    flags: b0 CRC included in the data, b1…b3 reserved (0), b4…b7 valid bits of the last byte (0 = 8)
///  6     2    bit rate in kbit/s, big-endian (0 = unknown)
///  8     2    data length, big-endian
/// 10     n    data as sent on air (FeliCa from the LEN byte, no preamble or sync code)
/// ```
public enum NFCTracePseudoHeader {
    public static let linkType: Int32 = 150   // LINKTYPE_USER3
    public static let magic: [UInt8] = [0x4E, 0x46]
    public static let version: UInt8 = 1
    public static let headerLength = 10

    static func code(_ t: Technology) -> UInt8 {
        switch t {
        case .iso14443a: return 0x0A
        case .iso14443b: return 0x0B
        case .felica: return 0x0F
        case .iso15693: return 0x05
        case .iclass: return 0x0C
        }
    }

    static func technology(_ code: UInt8) -> Technology? {
        switch code {
        case 0x0A: return .iso14443a
        case 0x0B: return .iso14443b
        case 0x0F: return .felica
        case 0x05: return .iso15693
        case 0x0C: return .iclass
        default: return nil
        }
    }

    /// Turns a record into a frame; never fails, a bad header becomes `.malformed`.
    public static func decode(_ record: UnsafeRawBufferPointer, fallback: Technology) -> Frame {
        let bytes = record.bindMemory(to: UInt8.self)
        var (frame, payload) = header(bytes, fallback: fallback)
        frame.bytes = Array(UnsafeBufferPointer(rebasing: bytes[payload]))
        return frame
    }

    /// The frame a record holds but for its bytes, and where they are in the record (for a
    /// malformed record, all of it): `decode`, and the writers' check of what they wrote.
    static func header(_ bytes: UnsafeBufferPointer<UInt8>, fallback: Technology) -> (Frame, Range<Int>) {
        func malformed(_ reason: String) -> (Frame, Range<Int>) {
            (Frame(.malformed(reason: reason), technology: fallback), 0..<bytes.count)
        }
        guard bytes.count >= 2, bytes[0] == magic[0], bytes[1] == magic[1] else {
            return malformed("nfctrace pseudo-header must start with 4E 46 (\"NF\")")
        }
        guard bytes.count > 2, bytes[2] == version else {
            return malformed("nfctrace pseudo-header version \(bytes.count > 2 ? String(bytes[2]) : "missing"), expected \(version)")
        }
        guard bytes.count > 3, let technology = technology(bytes[3]) else {
            return malformed("nfctrace pseudo-header technology \(bytes.count > 3 ? Hex.byte(bytes[3]) : "missing") is none of 0A, 0B, 0F, 05, 0C")
        }
        guard bytes.count > 4, bytes[4] <= 3 else {
            return malformed("nfctrace pseudo-header event \(bytes.count > 4 ? Hex.byte(bytes[4]) : "missing") is none of 00…03")
        }
        let event = bytes[4]
        guard bytes.count >= headerLength else {
            return malformed("record of \(bytes.count) bytes is shorter than the 10-byte nfctrace pseudo-header")
        }
        let flags = bytes[5]
        let rate = UInt16(bytes[6]) << 8 | UInt16(bytes[7])
        let length = Int(bytes[8]) << 8 | Int(bytes[9])
        guard length == bytes.count - headerLength else {
            return malformed("length field says \(length) bytes, the record holds \(bytes.count - headerLength)")
        }
        let bits = flags >> 4
        guard bits <= 8 else { return malformed("valid-bit count \(bits) in the flags is above 8") }
        var frame: Frame
        switch event {
        case 0, 1: frame = Frame(.data(event == 0 ? .readerToTag : .tagToReader), technology: technology)
        case 2: frame = Frame(.fieldOn, technology: technology)
        default: frame = Frame(.fieldOff, technology: technology)
        }
        if event >= 2, length > 0 { return malformed("field event with \(length) data bytes, expected none") }
        frame.crcStripped = event < 2 && flags & 0x01 == 0
        frame.lastByteBits = bits == 0 ? 8 : bits
        if rate != 0 { frame.bitRate = Int(rate) }
        return (frame, headerLength..<bytes.count)
    }

    public static func encode(_ frame: Frame) -> [UInt8]? {
        let event: UInt8
        var data: [UInt8] = []
        switch frame.event {
        case .malformed: return frame.bytes
        case .fieldOn: event = 2
        case .fieldOff: event = 3
        case .data(let d):
            event = d == .readerToTag ? 0 : 1
            data = frame.bytes
        }
        guard data.count <= PcapEncapsulation.frameLimit else { return nil }
        var flags: UInt8 = 0
        if case .data = frame.event, !frame.crcStripped { flags |= 0x01 }
        if frame.lastByteBits != 8 { flags |= frame.lastByteBits << 4 }
        let rate = UInt16(clamping: frame.bitRate ?? 0)
        return magic + [version, code(frame.technology), event, flags, UInt8(rate >> 8), UInt8(rate & 0xFF),
                        UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
    }
}

/// The link types nfctrace writes.
public enum PcapEncapsulation: String, Sendable, CaseIterable {
    /// LINKTYPE_ISO_14443 (264): ISO 14443 frames only; Wireshark dissects it natively.
    case iso14443
    /// LINKTYPE_USER3 (150) with the nfctrace pseudo-header: every technology, bit counts, rates.
    case nfctrace

    public var linkType: Int32 {
        switch self {
        case .iso14443: return ISO14443PseudoHeader.linkType
        case .nfctrace: return NFCTracePseudoHeader.linkType
        }
    }

    /// The encapsulation a trace needs, judged from its first frame: ISO 14443 frames fit 264.
    public static func suited(to frame: Frame) -> PcapEncapsulation {
        frame.technology == .iso14443a || frame.technology == .iso14443b ? .iso14443 : .nfctrace
    }

    /// The snapshot length nfctrace's pcap and pcapng files declare: libpcap's largest
    /// (MAXIMUM_SNAPLEN), which covers the longest record a pseudo-header describes (65,535
    /// bytes behind it); a file that declared 65535 held records longer than its own limit, and
    /// its readers took them for records cut short (issue 51).
    static let snapshotLength = 262_144

    /// The longest frame a record holds: both pseudo-headers count the data in 16 bits.
    static let frameLimit = 0xFFFF

    func encode(_ frame: Frame) -> [UInt8]? {
        let record: [UInt8]?
        switch self {
        case .iso14443: record = ISO14443PseudoHeader.encode(frame)
        case .nfctrace: record = NFCTracePseudoHeader.encode(frame)
        }
        // A malformed frame is written as its raw record, which may be any length.
        guard let record, record.count <= Self.snapshotLength else { return nil }
        return record
    }

    /// Why `encode` gave no record: the length first, which holds whatever the technology.
    func refusal(_ frame: Frame) -> String {
        if case .malformed = frame.event {
            return "its record of \(frame.bytes.count) bytes is longer than the \(Self.snapshotLength) bytes pcap readers take (libpcap's largest snapshot length)"
        }
        if frame.bytes.count > Self.frameLimit {
            return "its \(frame.bytes.count) bytes are more than a record holds: the \(self == .iso14443 ? "LINKTYPE_ISO_14443" : "nfctrace") pseudo-header counts at most \(Self.frameLimit) bytes"
        }
        switch self {
        case .iso14443:
            return "LINKTYPE_ISO_14443 carries ISO 14443 frames only, this one is \(frame.technology.displayName); write the whole trace with --link-type nfctrace (LINKTYPE_USER3)"
        case .nfctrace:
            return "the nfctrace pseudo-header cannot hold it"   // no other frame is refused
        }
    }
}
