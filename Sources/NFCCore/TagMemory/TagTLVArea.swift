/// The TLV area of a Type 2 or Type 5 tag, walked: every TLV, the lock and reserved areas the
/// control TLVs name, and the first NDEF message decoded.
public struct TagTLVArea: Sendable, Equatable {
    public var tlvs: [TagTLV]
    /// Areas from Lock Control and Memory Control TLVs (Type 2 only), in the order found.
    public var controlAreas: [Type2ControlArea]
    /// The message of the first NDEF Message TLV: the one readers use (T2T §2.3.3).
    public var ndef: TagNDEFMessage?
    /// Where the area starts and where its last byte lies (skipped areas inside included).
    public var range: Range<Int>
    public var issues: [TagMemoryIssue]

    public init(tlvs: [TagTLV], controlAreas: [Type2ControlArea], ndef: TagNDEFMessage?, range: Range<Int>,
                issues: [TagMemoryIssue]) {
        self.tlvs = tlvs
        self.controlAreas = controlAreas
        self.ndef = ndef
        self.range = range
        self.issues = issues
    }
}

/// Walks TLVs byte by byte through a ByteCursor, skipping lock and reserved areas, stopping at
/// unknown bytes and at the end of the data area. Linear in the area size.
struct TagTLVWalker {
    enum Flavor {
        /// MIFARE Classic's NFC Forum mapping uses the Type 2 TLVs.
        /// Type 1 uses the Type 2 TLVs too (T1T Operation §2.3), around its reserved blocks.
        case type1, type2, type5, mifareClassic
        var prefix: String {
            switch self {
            case .type1: return "t1t"
            case .type2: return "t2t"
            case .type5: return "t5t"
            case .mifareClassic: return "mfc"
            }
        }
    }

    private enum Step {
        case byte(UInt8, at: Int)
        case end(at: Int)
        case unknown(at: Int)
    }

    let image: TagMemoryImage
    let flavor: Flavor
    let start: Int
    private var cursor: ByteCursor
    /// Data-area bytes still to walk (lock and reserved bytes do not count).
    private var remaining: Int
    private var skips: [Range<Int>] = []
    private var issues: [TagMemoryIssue] = []

    /// `skips`: areas outside the data area from the start (Type 1's reserved and lock blocks).
    init(image: TagMemoryImage, start: Int, size: Int, flavor: Flavor, skips: [Range<Int>] = []) {
        self.image = image
        self.flavor = flavor
        self.start = start
        self.cursor = ByteCursor(image.bytes, range: min(start, image.count)..<image.count, origin: 0)
        self.remaining = max(0, size)
        self.skips = skips
    }

    private mutating func next() -> Step {
        while let area = skips.first(where: { $0.contains(cursor.index) }) {
            guard (try? cursor.skip(area.upperBound - cursor.index, "reserved area")) != nil else {
                return .unknown(at: area.upperBound)
            }
        }
        let at = cursor.index
        // Past the last byte of the image there is no memory: the area ends there.
        guard remaining > 0, !cursor.isAtEnd else { return .end(at: at) }
        guard image.isKnown(at), let b = try? cursor.readUInt8("TLV byte") else { return .unknown(at: at) }
        remaining -= 1
        return .byte(b, at: at)
    }

    /// Where `count` more data-area bytes from `at` would lie (skipped areas jumped over).
    private func span(from at: Int, count: Int) -> Range<Int> {
        var position = at
        var left = min(count, remaining + 1)
        var last = at
        while left > 0 {
            if let area = skips.first(where: { $0.contains(position) }) { position = area.upperBound; continue }
            last = position
            position += 1
            left -= 1
        }
        return at..<(last + 1)
    }

    private mutating func issue(_ severity: TagMemoryIssue.Severity, _ rule: String, _ message: String, _ range: Range<Int>) {
        issues.append(TagMemoryIssue(severity, "\(flavor.prefix).\(rule)", message, range: range))
    }

    /// Unknown runs of `range`, lock and reserved areas left out.
    private func unreadRuns(in range: Range<Int>) -> [Range<Int>] {
        image.unknownRuns(in: range).flatMap { run -> [Range<Int>] in
            var pieces = [run]
            for s in skips {
                pieces = pieces.flatMap { p -> [Range<Int>] in
                    guard p.overlaps(s) else { return [p] }
                    return [p.lowerBound..<max(p.lowerBound, s.lowerBound), min(p.upperBound, s.upperBound)..<p.upperBound]
                        .filter { !$0.isEmpty }
                }
            }
            return pieces
        }
    }

    mutating func walk() -> TagTLVArea {
        var tlvs: [TagTLV] = []
        var controlAreas: [Type2ControlArea] = []
        var ndef: TagNDEFMessage?
        var sawTerminator = false
        var stoppedUnread = false
        var lastByte = start

        walking: while true {
            let step = next()
            guard case .byte(let t, let at) = step else {
                if case .unknown(let at) = step {
                    stoppedUnread = true
                    issue(.warning, "tlv.unread", "the TLV walk stops at byte \(at), which was not read", at..<(at + 1))
                }
                break walking
            }
            var tag = TagTLV.Tag(byte: t)
            if flavor == .type5, tag == .lockControl || tag == .memoryControl { tag = .rfu(t) }
            switch tag {
            case .null:
                if var previous = tlvs.last, previous.tag == .null, previous.range.upperBound == at {
                    previous.range = previous.range.lowerBound..<(at + 1)
                    previous.repeatCount += 1
                    tlvs[tlvs.count - 1] = previous
                } else {
                    tlvs.append(TagTLV(tag: .null, tagOffset: at, range: at..<(at + 1)))
                }
                lastByte = at + 1
                continue walking
            case .terminator:
                tlvs.append(TagTLV(tag: .terminator, tagOffset: at, range: at..<(at + 1)))
                lastByte = at + 1
                sawTerminator = true
                break walking
            default:
                break
            }

            guard var tlv = readBlock(tag, at: at) else {
                stoppedUnread = issues.last?.rule.hasSuffix("tlv.unread") ?? false
                break walking
            }
            lastByte = tlv.range.upperBound
            let index = tlvs.count
            switch tag {
            case .lockControl, .memoryControl:
                if ndef != nil || tlvs.contains(where: { $0.tag == .proprietary }) {
                    issue(.warning, "tlv.control-order", "\(tag.name) after an NDEF or Proprietary TLV (T2T §2.3: control TLVs come first)", tlv.range)
                }
                if tlv.isComplete, let area = Type2ControlArea(tag == .lockControl ? .lock : .reserved, value: tlv.value) {
                    if tlv.length != 3 {
                        issue(.warning, "tlv.control-length", "\(tag.name) with L=\(tlv.length ?? 0), expected 3 (extra bytes ignored)", tlv.range)
                    }
                    if area.range.overlaps(start..<tlv.range.upperBound) {
                        issue(.warning, "tlv.control-behind", "\(tag.name) names bytes \(TagMemoryImage.describe([area.range])), which the walk has passed", tlv.range)
                    }
                    skips.append(area.range)
                    controlAreas.append(area)
                } else if tlv.isComplete {
                    issue(.error, "tlv.control-length", "\(tag.name) with L=\(tlv.length ?? 0), expected 3", tlv.range)
                }
            case .ndef:
                if ndef == nil {
                    var result = NDEFMessage.decode(tlv.value, mode: .lenient)
                    if tlv.length == 0 {
                        // L = 0 is the formatted-but-empty state (T2T §2.3.3), not a broken message.
                        result = NDEFDecodeResult(records: [], issues: [], mode: .lenient, byteCount: 0, unparsedRange: nil)
                        issue(.note, "tlv.ndef-empty", "NDEF Message TLV with L=0: the tag holds no NDEF message", tlv.range)
                    }
                    ndef = TagNDEFMessage(tlvIndex: index, tlv: tlv, result: result)
                } else {
                    issue(.note, "tlv.ndef-extra", "another NDEF Message TLV: readers use the first one", tlv.range)
                }
            case .rfu(let b):
                issue(.warning, "tlv.rfu", "TLV type \(Hex.byte(b)) is reserved; skipped by its length", tlv.range)
            default:
                break
            }
            tlv.repeatCount = 1
            tlvs.append(tlv)
            if !tlv.isComplete {
                stoppedUnread = issues.last?.rule.hasSuffix("tlv.unread") ?? false
                break walking
            }
        }

        // Issue ranges are never empty: an empty walk points at the first data-area byte.
        let walked = start..<max(start + 1, lastByte)
        if ndef == nil {
            issue(.warning, "tlv.no-ndef", "no NDEF Message TLV in the data area" + (stoppedUnread ? " bytes that were read" : ""), walked)
        }
        if !sawTerminator, case .end = next() {
            issue(.note, "tlv.no-terminator", "the data area ends without a Terminator TLV", (walked.upperBound - 1)..<walked.upperBound)
        }
        return TagTLVArea(tlvs: tlvs, controlAreas: controlAreas, ndef: ndef, range: start..<max(start, lastByte), issues: issues)
    }

    /// Reads L and V after a T byte at `at`. Nil when even L could not be read (issue added).
    private mutating func readBlock(_ tag: TagTLV.Tag, at: Int) -> TagTLV? {
        var lengthBytes: [(UInt8, Int)] = []
        func readLengthByte() -> Bool {
            switch next() {
            case .byte(let b, let p): lengthBytes.append((b, p)); return true
            case .end(let p):
                issue(.error, "tlv.truncated", "\(tag.name) at byte \(at): the length field runs past the data area", at..<max(p, at + 1))
                return false
            case .unknown(let p):
                issue(.warning, "tlv.unread", "\(tag.name) at byte \(at): its length byte \(p) was not read", p..<(p + 1))
                return false
            }
        }
        guard readLengthByte(), let first = lengthBytes.first else { return nil }
        var length = Int(first.0)
        if first.0 == 0xFF {
            guard readLengthByte(), readLengthByte(), lengthBytes.count == 3 else { return nil }
            length = Int(lengthBytes[1].0) << 8 | Int(lengthBytes[2].0)
            let lengthRange = first.1..<(lengthBytes[2].1 + 1)
            if length == 0xFFFF {
                issue(.error, "tlv.length-rfu", "\(tag.name) at byte \(at): length FF FF FF is reserved", lengthRange)
            } else if length < 0xFF {
                issue(.warning, "tlv.length-form", "\(tag.name) at byte \(at): 3-byte length for \(length) bytes (T2T §2.3: 1 byte up to 254)", lengthRange)
            }
        }
        let lengthRange = first.1..<((lengthBytes.last?.1 ?? first.1) + 1)
        var value: [UInt8] = []
        value.reserveCapacity(min(length, image.count))
        var segments: [Range<Int>] = []
        var end = lengthRange.upperBound
        var complete = true
        // The usual case in one piece: the whole value read, inside the data area, with no lock
        // or reserved area in it. What `next()` would find byte by byte, without the steps.
        let from = cursor.index
        if length > 0, length <= remaining, length <= cursor.endIndex - from,
           !skips.contains(where: { $0.overlaps(from..<(from + length)) }),
           (from..<(from + length)).allSatisfy({ image.isKnown($0) }),
           (try? cursor.skip(length, "TLV value")) != nil {
            value.append(contentsOf: image.bytes[from..<(from + length)])
            segments.append(from..<(from + length))
            remaining -= length
            end = from + length
        }
        while value.count < length {
            switch next() {
            case .byte(let b, let p):
                value.append(b)
                if let last = segments.last, last.upperBound == p {
                    segments[segments.count - 1] = last.lowerBound..<(p + 1)
                } else {
                    segments.append(p..<(p + 1))
                }
                end = p + 1
            case .end(let p):
                complete = false
                issue(.error, tag == .ndef ? "tlv.ndef-past-area" : "tlv.past-area",
                      "\(tag.name) at byte \(at) declares \(length) bytes, the data area holds \(value.count) (it ends at byte \(p))",
                      at..<max(end, p))
            case .unknown(let p):
                complete = false
                let rest = span(from: p, count: length - value.count)
                let runs = unreadRuns(in: rest)
                issue(.warning, "tlv.unread",
                      "\(tag.name) continues into bytes \(TagMemoryImage.describe(runs.isEmpty ? [rest] : runs)), which were not read",
                      rest)
            }
            if !complete { break }
        }
        return TagTLV(tag: tag, tagOffset: at, range: at..<end, lengthRange: lengthRange, length: length,
                      valueSegments: segments, value: value, isComplete: complete)
    }
}
