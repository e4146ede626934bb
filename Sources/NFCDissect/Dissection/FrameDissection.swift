import NFCCore

/// How a frame's CRC looked.
public enum CRCStatus: Sendable, Equatable {
    /// The frame kind carries no CRC (short frames, ATQA, UID CLn, ACK/NAK, field events).
    case notExpected
    case ok(CRC.Kind)
    case mismatch(CRC.Kind, expected: [UInt8], found: [UInt8])
    /// The capture hardware removed it (pcap FA/FB, text `crc=stripped`).
    case stripped
    /// A frame of unknown kind; no CRC could be verified.
    case unknown

    public var isBad: Bool {
        if case .mismatch = self { return true }
        return false
    }
}

/// The dissection of one frame: what a user sees on its line, in its tree and in its JSON.
public struct FrameDissection: Sendable {
    /// 1-based position in the capture.
    public var number: Int
    public var frame: Frame
    /// Protocol layer the frame was read as (`ISO14443-3A`, `NTAG`, `ISO-DEP`, …).
    public var layer: String
    /// The dense annotation: `READ page 0x03`, `PACK 80 80, authenticated`.
    public var summary: String
    public var crc: CRCStatus
    /// Full field tree; empty when the dissector was asked for summaries only.
    public var fields: [Field]
    public var diagnostics: [Diagnostic]
    /// Frame number of the request this frame answers.
    public var responseTo: Int?
    /// Frame number of the answer to this request (known one frame later).
    public var responseIn: Int?
    /// Tag session this frame belongs to.
    public var session: Int?
    /// Bytes of the frame that hold a card number or cardholder data: the renderers print them
    /// as `••` (text) and `**` (JSON) unless `dissect --show-secrets` (issue 20).
    public var masked: [Range<Int>] {
        get { maskedRanges ?? [] }
        set { maskedRanges = newValue.isEmpty ? nil : newValue }
    }
    /// Nil for nearly every frame: an optional costs no reference counting where an empty array
    /// does, and dissections are moved through the pipeline a million times a second.
    private var maskedRanges: [Range<Int>]?
    /// The frame's bytes in clear when the dissector decrypted it (MIFARE Classic inside an
    /// authenticated session: commands, data, the 4-bit ACK/NAK), CRC included as it was
    /// encrypted; nil for every other frame. A reader that runs the cipher itself (PC/SC, a
    /// PN532's InDataExchange) replays these (issue 21).
    public var decrypted: [UInt8]?
    /// The tag memory this frame read or wrote, in the session's memory image (nil for most
    /// frames): the report's memory map links each byte to these frames. When one frame touched
    /// several runs of memory (a FeliCa read that mixes services or skips blocks), the first run;
    /// the others are in `moreMemory`.
    public var memory: MemoryAccess?
    /// The runs after `memory` of a frame that touched several; nil for every other frame (an
    /// optional, as for `masked`: no reference counting on the common path).
    public var moreMemory: [MemoryAccess]?

    public init(number: Int, frame: Frame, layer: String = "", summary: String = "", crc: CRCStatus = .notExpected,
                fields: [Field] = [], diagnostics: [Diagnostic] = [], responseTo: Int? = nil, session: Int? = nil) {
        self.number = number
        self.frame = frame
        self.layer = layer
        self.summary = summary
        self.crc = crc
        self.fields = fields
        self.diagnostics = diagnostics
        self.responseTo = responseTo
        self.session = session
    }

    /// Worst diagnostic severity, if any.
    public var worstSeverity: Diagnostic.Severity? {
        var worst: Diagnostic.Severity? = nil
        for d in diagnostics where worst.map({ d.severity > $0 }) ?? true { worst = d.severity }
        return worst
    }
}

/// What a tag session amounted to, emitted when it ends (field off, new activation, end of capture).
public struct SessionSummary: Sendable {
    public var number: Int
    public var technology: Technology
    public var firstFrame: Int
    public var lastFrame: Int
    /// One line: `NTAG215, UID 04 A2 2C 12 DE 5F 80, authenticated (PWD 12 34 56 78, PACK 80 80)`.
    public var headline: String
    /// Identity and state (UID, model, ATQA/SAK, authentication).
    public var tag: [Field]
    /// Memory rebuilt from what the reader read and wrote: regions, CC, TLVs, NDEF.
    public var memory: [Field]
    public var diagnostics: [Diagnostic]
    /// What the compact text view shows under the headline (memory map, NDEF records, systems),
    /// as the dissector's state at the end of the session; `Render/SessionText.swift` renders it.
    /// Nil where the fields say it all (MIFARE Classic) or the detail is `.full`.
    var content: SessionContent?
    /// The tag as far as the session showed it, for emulating it.
    public var reconstruction: TagReconstruction?

    public init(number: Int, technology: Technology, firstFrame: Int, lastFrame: Int, headline: String,
                tag: [Field] = [], memory: [Field] = [], diagnostics: [Diagnostic] = [],
                reconstruction: TagReconstruction? = nil) {
        self.number = number
        self.technology = technology
        self.firstFrame = firstFrame
        self.lastFrame = lastFrame
        self.headline = headline
        self.tag = tag
        self.memory = memory
        self.diagnostics = diagnostics
        self.reconstruction = reconstruction
    }
}

/// A session's state, kept for the compact text view: typed values, no text. The compact view
/// lays memory out as hex rows and history as columns, which the field tree of `.full` does not
/// describe; the renderer reads these instead.
enum SessionContent: Sendable {
    /// A Type 2 tag: the session and the NFC Forum layout decoded from its rebuilt memory.
    case type2(ISO14443ASession, Type2MemoryLayout?)
    /// A Type 5 tag: the session and the layout decoded from its blocks (nil when the block
    /// size is unknown or block 0 was not read).
    case iso15693(ISO15693Session, Type5MemoryLayout?)
    case feliCa(FeliCaSession)
    /// An NFC Forum Type 4 Tag: the application state with its CC and NDEF files.
    case type4(ISO7816Application)
}

public enum DissectionEvent: Sendable {
    case frame(FrameDissection)
    case session(SessionSummary)
}

/// How much a dissector builds. Summaries are enough for the one-line text view and skip the
/// field trees, which is most of the work.
public enum DissectionDetail: Sendable {
    case summary
    case full
}

/// Collects fields only when trees are wanted; building a field is skipped entirely otherwise.
public struct FieldSink {
    public let enabled: Bool
    public private(set) var fields: [Field] = []
    /// Where each field starts (`Int.max` without a range), kept beside it: putting the fields in
    /// byte order then compares integers and reads no `Field` (reading `fields[i].range` copied
    /// the whole field, strings and children retained and released, several times a frame).
    private var starts: [Int] = []

    public init(enabled: Bool) { self.enabled = enabled }

    @inline(__always)
    public mutating func add(_ make: @autoclosure () -> Field) {
        guard enabled else { return }
        // A frame has a handful of fields: room for them at once instead of growing 1, 2, 4, 8.
        if fields.capacity == 0 {
            fields.reserveCapacity(8)
            starts.reserveCapacity(8)
        }
        let field = make()
        starts.append(field.range?.lowerBound ?? Int.max)
        fields.append(field)
    }

    public mutating func add(contentsOf more: @autoclosure () -> [Field]) {
        guard enabled else { return }
        let more = more()
        starts.append(contentsOf: more.map { $0.range?.lowerBound ?? Int.max })
        fields.append(contentsOf: more)
    }

    /// The fields in byte order (stable for equal starts), whatever order they were added in;
    /// the sink is left empty.
    mutating func takeInByteOrder() -> [Field] {
        var ordered: [Field] = []
        var keys: [Int] = []
        swap(&ordered, &fields)
        swap(&keys, &starts)
        // A frame has a handful of fields, usually in byte order but for the CRC (added first,
        // at the end of the frame): a stable insertion sort from the right, so that the CRC is
        // the one field taken out and put back. Each field goes before the first field after it
        // (already in order) that starts at or after it.
        for i in keys.indices.reversed().dropFirst() {
            let key = keys[i]
            var j = i + 1
            while j < keys.count, keys[j] < key { j += 1 }
            if j > i + 1 {
                keys.remove(at: i)
                keys.insert(key, at: j - 1)
                let moving = ordered.remove(at: i)
                ordered.insert(moving, at: j - 1)
            }
        }
        return ordered
    }
}
