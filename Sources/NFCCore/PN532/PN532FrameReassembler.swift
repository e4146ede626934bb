/// The host's side of a PN532 serial link cut into frames, as a chip that must keep answering
/// whatever was left on the line before: a host that died mid-frame, a header announcing 254
/// or 65,535 bytes that never come. Such a frame is given up when a later whole frame (its
/// checksums right: a command, an ACK, a NACK) or a wake-up arrives behind it, and when no byte
/// has come for `idleLimit` seconds. A real host sends a frame in one go and waits for the ACK
/// before the next, so a whole frame behind an unfinished one means the unfinished one is junk.
///
/// Time is passed in (seconds on any monotonic clock), so the rules are tested without waiting.
public struct PN532FrameReassembler: Sendable {
    /// How long an unfinished frame waits for its next byte.
    public var idleLimit: Double
    /// Bytes given up so far as parts of unfinished frames (wake-up bytes and zeros between
    /// frames are not counted: they are part of the protocol).
    public private(set) var discarded = 0
    private var buffer: [UInt8] = []
    private var lastInput: Double = 0

    /// libnfc's wake-up: `55 55` and zeros (protocols-wave2.md §8.1). Two `55` and four zeros are
    /// taken as one; six such bytes inside a frame that arrives in pieces would cut that frame,
    /// which its host then sends again after its timeout.
    static let wakeUp: [UInt8] = [0x55, 0x55, 0x00, 0x00, 0x00, 0x00]

    public init(idleLimit: Double = 0.3) {
        self.idleLimit = idleLimit
    }

    /// Bytes held: an unfinished frame, or noise not yet skipped.
    public var pendingCount: Int { buffer.count }

    /// Bytes read from the host at `time`.
    public mutating func append<C: Collection>(_ bytes: C, at time: Double) where C.Element == UInt8 {
        buffer += bytes
        lastInput = time
    }

    /// The next whole frame, nil until one has arrived. Bytes before it that start no frame
    /// are dropped; `.error` is a frame whose data checksum is wrong (answered with a NACK).
    public mutating func next() -> PN532Frame? {
        while true {
            switch PN532Frame.find(in: buffer) {
            case .nothing:
                // Keep a last 00, which may be the start code's first half.
                buffer.removeFirst(max(0, buffer.count - 1))
                return nil
            case .frame(let frame, _, let end):
                buffer.removeFirst(end)
                return frame
            case .unfinished(let start):
                guard let resume = laterStart(after: start) else {
                    buffer.removeFirst(start)
                    return nil
                }
                discarded += resume - start
                buffer.removeFirst(resume)
            }
        }
    }

    /// Where to go on when the frame at `start` is unfinished: the start of a whole frame or of
    /// a wake-up behind it; nil to wait for more bytes.
    private func laterStart(after start: Int) -> Int? {
        let wake = Self.firstWakeUp(in: buffer, from: start + 2)
        var from = start + 2
        while true {
            switch PN532Frame.find(in: buffer, from: from) {
            case .frame(let frame, let at, _) where frame != .error:
                return wake.map { min($0, at) } ?? at
            case .frame(_, let at, _), .unfinished(let at):
                from = at + 2
            case .nothing:
                return wake
            }
        }
    }

    static func firstWakeUp(in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= from + wakeUp.count else { return nil }
        var i = from
        while i + wakeUp.count <= bytes.count {
            if bytes[i] == wakeUp[0], bytes[i..<i + wakeUp.count].elementsEqual(wakeUp) { return i }
            i += 1
        }
        return nil
    }

    /// Drops what is held when nothing has arrived for `idleLimit` seconds before `time`: the
    /// next host starts afresh. Returns how many bytes of an unfinished frame were dropped.
    @discardableResult
    public mutating func expire(at time: Double) -> Int {
        guard !buffer.isEmpty, time - lastInput >= idleLimit else { return 0 }
        return dropAll()
    }

    /// Drops what is held (the port was opened again); how many bytes of an unfinished frame.
    @discardableResult
    public mutating func dropAll() -> Int {
        var n = 0
        if case .unfinished(let start) = PN532Frame.find(in: buffer) { n = buffer.count - start }
        discarded += n
        buffer.removeAll()
        return n
    }
}
