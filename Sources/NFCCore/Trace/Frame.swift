/// The radio technology a frame was exchanged on.
public enum Technology: String, Sendable, CaseIterable, Hashable {
    case iso14443a = "14443a"
    case iso14443b = "14443b"
    case felica = "felica"
    case iso15693 = "15693"
    /// HID iClass / PicoPass: ISO 15693's air interface with its own commands and CRC.
    case iclass = "iclass"

    /// The CRC that frames of this technology carry.
    public var crcKind: CRC.Kind {
        switch self {
        case .iso14443a: return .a
        case .iso14443b, .iso15693: return .b
        case .felica: return .felica
        case .iclass: return .iclass
        }
    }

    public var displayName: String {
        switch self {
        case .iso14443a: return "ISO/IEC 14443-A"
        case .iso14443b: return "ISO/IEC 14443-B"
        case .felica: return "FeliCa (NFC-F)"
        case .iso15693: return "ISO/IEC 15693 (NFC-V)"
        case .iclass: return "iClass (PicoPass)"
        }
    }

    /// Accepts the canonical names and the usual aliases (`14a`, `nfca`, `15`, `nfcv`, `nfcf` …).
    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "14443a", "14a", "iso14443a", "iso14443-a", "nfca", "nfc-a", "a": self = .iso14443a
        case "14443b", "14b", "iso14443b", "iso14443-b", "nfcb", "nfc-b", "b": self = .iso14443b
        case "felica", "nfcf", "nfc-f", "f", "18092": self = .felica
        case "15693", "15", "iso15693", "nfcv", "nfc-v", "v": self = .iso15693
        case "iclass", "picopass", "hf-iclass": self = .iclass
        default: return nil
        }
    }
}

public enum Direction: Sendable, Hashable {
    /// PCD → PICC (VCD → VICC, initiator → target).
    case readerToTag
    /// PICC → PCD.
    case tagToReader
}

/// The unit a capture counts time in; kept so that no precision is lost in conversion.
public enum TimeUnit: String, Sendable, CaseIterable {
    case nanoseconds = "ns"
    case microseconds = "us"
    /// Carrier periods of 1/13.56 MHz (≈73.75 ns), the Proxmark3 unit.
    case carrierCycles = "carrier"

    /// How many nanoseconds one unit is, as a fraction (numerator, denominator).
    var nanosecondRatio: (Int64, Int64) {
        switch self {
        case .nanoseconds: return (1, 1)
        case .microseconds: return (1000, 1)
        case .carrierCycles: return (1_000_000_000, 13_560_000)
        }
    }
}

/// A point in time in the unit of the capture it came from.
public struct Timestamp: Sendable, Hashable {
    public var value: Int64
    public var unit: TimeUnit

    public init(_ value: Int64, _ unit: TimeUnit) {
        self.value = value
        self.unit = unit
    }

    /// The same instant in nanoseconds (rounded to the nearest for carrier cycles), or nil when
    /// it lies beyond the 64-bit nanosecond range (±292 years from the epoch). Capture readers
    /// report such a time as damage, so every frame they deliver has one.
    public var checkedNanoseconds: Int64? {
        let (n, d) = unit.nanosecondRatio
        if d == 1 {
            let (product, overflow) = value.multipliedReportingOverflow(by: n)
            return overflow ? nil : product
        }
        // carrier cycles: value * 1e9 / 13.56e6, split so that realistic values never overflow
        let (whole, o1) = (value / d).multipliedReportingOverflow(by: n)
        let rest = (value % d) * n
        let (sum, o2) = whole.addingReportingOverflow((rest + d / 2) / d)
        return o1 || o2 ? nil : sum
    }

    /// `checkedNanoseconds` for a time known to be in range (every frame a capture reader
    /// delivers). Out of range it saturates at `Int64.min`/`Int64.max` on its own side of zero:
    /// callers that take times from elsewhere use `checkedNanoseconds`.
    public var nanoseconds: Int64 {
        checkedNanoseconds ?? (value < 0 ? Int64.min : Int64.max)
    }

    /// Converts to `unit`, rounding to the nearest; nil when the time is beyond the 64-bit
    /// nanosecond range.
    public func converted(to unit: TimeUnit) -> Timestamp? {
        if unit == self.unit { return self }
        guard let ns = checkedNanoseconds else { return nil }
        let (n, d) = unit.nanosecondRatio
        // ns * d / n; with d ≤ 13.56e6 and n ≥ 1000 (or d = n = 1) the product cannot overflow.
        let q = ns / n
        let r = ns % n
        return Timestamp(q * d + (r * d + n / 2) / n, unit)
    }
}

/// One event of a trace: a frame on air, or a change of the reader field.
///
/// A frame keeps everything a capture format can tell about it; formats that cannot carry a
/// property leave its default (8 valid bits, CRC included, no parity information, no end time).
public struct Frame: Sendable, Equatable {
    public enum Event: Sendable, Hashable {
        case data(Direction)
        case fieldOn
        case fieldOff
        /// A record whose encapsulation could not be read (e.g. a pcap pseudo-header with a bad
        /// length). `bytes` holds the record exactly as stored, so writing it back loses nothing.
        case malformed(reason: String)
    }

    public var event: Event
    public var technology: Technology
    /// The bytes as sent on air (CRC included unless `crcStripped`), or the raw record of a
    /// malformed event.
    public var bytes: [UInt8]
    /// Valid bits in the last byte: 8 for whole bytes, 7 for REQA/WUPA, 4 for ACK/NAK.
    public var lastByteBits: UInt8
    /// The capture hardware removed the CRC (pcap events 0xFA/0xFB, text `crc=stripped`).
    public var crcStripped: Bool
    /// Indices of bytes whose received parity bit was wrong; nil when the format has no parity.
    public var parityErrors: [Int]?
    public var start: Timestamp?
    public var end: Timestamp?
    /// Bit rate in kbit/s when the capture says (106, 212, 424, 848, 26 …).
    public var bitRate: Int?
    /// Free text attached to the frame (text traces keep it).
    public var comment: String?

    public var direction: Direction? {
        if case .data(let d) = event { return d }
        return nil
    }

    public var isReaderFrame: Bool { event == .data(.readerToTag) }
    public var isTagFrame: Bool { event == .data(.tagToReader) }

    /// Number of valid bits in the frame.
    public var bitCount: Int {
        bytes.isEmpty ? 0 : (bytes.count - 1) * 8 + Int(lastByteBits)
    }
}

extension Frame {
    /// In an extension, so that it hands everything to the implicit memberwise initializer,
    /// which builds the frame in place: assigned property by property, the frame is built in a
    /// temporary and copied out, every array and string retained and released, per frame read.
    public init(
        _ event: Event, technology: Technology = .iso14443a, bytes: [UInt8] = [],
        lastByteBits: UInt8 = 8, crcStripped: Bool = false, parityErrors: [Int]? = nil,
        start: Timestamp? = nil, end: Timestamp? = nil, bitRate: Int? = nil, comment: String? = nil
    ) {
        self.init(event: event, technology: technology, bytes: bytes, lastByteBits: lastByteBits,
                  crcStripped: crcStripped, parityErrors: parityErrors, start: start, end: end,
                  bitRate: bitRate, comment: comment)
    }
}

/// Ordered key/value metadata of a trace (tag model, source, technology …). Text traces carry
/// it in their header; other formats fill what they know.
public struct TraceMetadata: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public var entries: [Entry] = []

    public init(_ entries: [Entry] = []) { self.entries = entries }

    public subscript(key: String) -> String? {
        get { entries.last(where: { $0.key == key })?.value }
        set {
            if let i = entries.lastIndex(where: { $0.key == key }) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append(Entry(key, newValue))
            }
        }
    }
}
