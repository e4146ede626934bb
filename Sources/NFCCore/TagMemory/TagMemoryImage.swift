/// Tag memory as far as it is known: the bytes, and which of them were actually read.
///
/// The dissector rebuilds memory from the pages or blocks a reader read, so some bytes are
/// unknown; decoders report structures that reach into them instead of reading zeros.
public struct TagMemoryImage: Sendable, Hashable {
    public var bytes: [UInt8]
    /// One flag per byte; nil when every byte is known. Bytes past the end of the mask are unknown.
    public var known: [Bool]?

    public init(bytes: [UInt8], known: [Bool]? = nil) {
        self.bytes = bytes
        self.known = known
    }

    public var count: Int { bytes.count }

    public func isKnown(_ offset: Int) -> Bool {
        guard offset >= 0 && offset < bytes.count else { return false }
        guard let known else { return true }
        return offset < known.count && known[offset]
    }

    /// The first byte in `range` that is unknown (or beyond the image), if any.
    public func firstUnknown(in range: Range<Int>) -> Int? {
        // Scanned in place (asking `unknownRuns` built an array per question); the same answer
        // as the first of `unknownRuns(in:)`, empty ranges outside the image included.
        if range.lowerBound < 0 { return range.lowerBound }
        let inside = min(range.upperBound, bytes.count)
        if let known {
            var i = range.lowerBound
            while i < inside {
                if i >= known.count || !known[i] { return i }
                i += 1
            }
        }
        return range.upperBound > bytes.count ? max(range.lowerBound, bytes.count) : nil
    }

    /// The unknown stretches of `range`, in order. Bytes past the end of the image are one
    /// stretch, however long `range` is: the cost follows the image, not the range.
    public func unknownRuns(in range: Range<Int>) -> [Range<Int>] {
        unknownRuns(in: range, limit: Int.max)
    }

    private func unknownRuns(in range: Range<Int>, limit: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        let lower = max(0, range.lowerBound)
        let inside = min(range.upperBound, bytes.count)
        if range.lowerBound < 0 { runs.append(range.lowerBound..<min(0, range.upperBound)) }
        if known != nil {   // without a mask every byte of the image is known
            var i = lower
            while i < inside && runs.count < limit {
                if isKnown(i) { i += 1; continue }
                let start = i
                while i < inside && !isKnown(i) { i += 1 }
                runs.append(start..<i)
            }
        }
        if range.upperBound > bytes.count && runs.count < limit {
            let start = max(lower, bytes.count)
            if let last = runs.last, last.upperBound == start {
                runs[runs.count - 1] = last.lowerBound..<range.upperBound
            } else {
                runs.append(start..<range.upperBound)
            }
        }
        return runs
    }

    /// "64–79" style text for byte ranges (inclusive ends, as people count bytes).
    public static func describe(_ runs: [Range<Int>]) -> String {
        runs.map(describe).joined(separator: ", ")
    }

    /// One range as `describe` writes it: `64` or `64–79`.
    public static func describe(_ run: Range<Int>) -> String {
        run.count == 1 ? "\(run.lowerBound)" : "\(run.lowerBound)–\(run.upperBound - 1)"
    }
}

/// Something a tag-memory decoder noticed, at absolute offsets of the memory image.
public struct TagMemoryIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case note, warning, error
    }

    public var severity: Severity
    /// Stable identifier (`t2t.cc.magic`, `t2t.tlv.ndef-past-area`, `t5t.cc.version` …).
    public var rule: String
    public var message: String
    public var range: Range<Int>

    public init(_ severity: Severity, _ rule: String, _ message: String, range: Range<Int>) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.range = range
    }

    public var description: String { "\(severity.rawValue) [\(range.lowerBound)..<\(range.upperBound)] \(message) (\(rule))" }
}

extension TagMemoryImage {
    /// Stores bytes read or written at `offset` (a file read piece by piece), growing the image;
    /// what lies beyond `limit` is left out, so a hostile offset cannot claim memory.
    public mutating func store(_ data: [UInt8], at offset: Int, limit: Int) {
        guard offset >= 0, offset < limit else { return }
        let end = min(offset + data.count, limit)
        if bytes.count < end {
            if known == nil { known = [Bool](repeating: true, count: bytes.count) }
            bytes += [UInt8](repeating: 0, count: end - bytes.count)
        }
        if known != nil, known!.count < bytes.count { known! += [Bool](repeating: false, count: bytes.count - known!.count) }
        bytes.replaceSubrange(offset..<end, with: data.prefix(end - offset))
        if known != nil { known!.replaceSubrange(offset..<end, with: repeatElement(true, count: end - offset)) }
    }

    /// Bytes 0..<n when every one of them is known.
    public func knownPrefix(_ n: Int) -> [UInt8]? {
        guard n <= bytes.count, firstUnknown(in: 0..<n) == nil else { return nil }
        return Array(bytes[0..<n])
    }

    /// This image with the bytes only `other` knows added (a byte keeps the value seen first).
    public func fillingBytes(from other: TagMemoryImage, limit: Int) -> TagMemoryImage {
        var out = self
        for i in 0..<min(other.count, limit) where other.isKnown(i) && !isKnown(i) { out.store([other.bytes[i]], at: i, limit: limit) }
        return out
    }
}
