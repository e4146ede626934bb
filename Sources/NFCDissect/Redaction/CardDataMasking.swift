import NFCCore

/// Frames with the card data the dissector masks overwritten, for files that leave nfctrace
/// (`nfctrace convert` without `--show-secrets`): a trace shared for a bug report should not
/// carry a card number. The frames are dissected as `dissect` would, so exactly the bytes its
/// views show as `••` are replaced, by `00`: a card number keeps its first 6 and last 4 digits
/// (and dissected again it is masked the same way), a name becomes zeros. A frame that had a
/// right CRC gets the CRC of its new bytes, and a comment says what happened.
///
/// Card data travels only inside ISO-DEP, so frames pass untouched until one may start ISO-DEP
/// (a RATS, an ISO 14443-B frame, or an I-block where the SAK allows ISO-DEP or no SAK was
/// seen): dissecting every frame of a trace without any cut `convert`'s speed to less than half
/// (docs/performance.md). The frames of the current Type A session are kept until then, so the
/// dissector starts from its activation. From there on the dissector holds a frame back until
/// the next one arrives, so frames come out one behind (`finish` hands out the last).
public final class CardDataMasking {
    private let keys: KeyList
    private var dissector: Dissector?
    /// Frames of the current ISO 14443-A session, already handed out, replayed to the dissector
    /// when it starts; `skip` counts their dissections, which are not handed out again.
    private var recent: [Frame] = []
    private var skip = 0
    private var sak: UInt8?
    private var afterSelect = false
    public private(set) var maskedFrames = 0

    public static let comment = "card data masked by nfctrace (convert --show-secrets keeps it)"
    static let recentLimit = 64

    public init(keys: KeyList = .defaults) {
        var k = keys
        k.revealCardData = false
        // Card data travels inside ISO-DEP, never in an encrypted Classic session: a key search
        // (up to 0.2 s each) would find nothing to mask.
        k.keySearchBudget = 0
        self.keys = k
    }

    /// Takes a frame; `out` receives the frames that are ready, in order.
    public func push(_ frame: Frame, _ out: (Frame) -> Void) {
        if let dissector {
            dissector.processPending(frame) { take($0, out) }
            return
        }
        guard mayStartISODEP(frame) else {
            out(frame)
            return
        }
        let d = Dissector(detail: .summary, keys: keys)
        dissector = d
        skip = recent.count
        for f in recent { d.processPending(f) { take($0, out) } }
        recent = []
        d.processPending(frame) { take($0, out) }
    }

    /// Hands out the frame still held.
    public func finish(_ out: (Frame) -> Void) {
        dissector?.finishPending { take($0, out) }
    }

    private func take(_ event: consuming PendingEvent, _ out: (Frame) -> Void) {
        guard case .frame(let d) = event else { return }
        if skip > 0 {
            skip -= 1
        } else {
            out(masked(d))
        }
    }

    /// Follows the Type A activation cheaply (session start, SAK) and says whether `frame` may be
    /// the first of ISO-DEP; keeps the session's frames meanwhile.
    private func mayStartISODEP(_ frame: Frame) -> Bool {
        switch frame.technology {
        case .iso14443b: return true
        case .iso14443a: break
        default: return false
        }
        switch frame.event {
        case .fieldOn, .fieldOff:
            recent = []
            sak = nil
            return false
        case .malformed:
            return false
        case .data(let direction):
            // Lengths with and without the CRC: checking it for every frame would cost more than
            // the rest of this test.
            let bytes = frame.bytes
            guard let first = bytes.first else { return false }
            let crc = frame.crcWidth
            if direction == .readerToTag {
                if frame.lastByteBits == 7, first == ISO14443A.reqa || first == ISO14443A.wupa {
                    recent = []
                    sak = nil
                }
                afterSelect = bytes.count == NVB.select.byteCount + crc && CascadeLevel(selCode: first) != nil && bytes[1] == NVB.select.raw
                if first == ISO14443A.rats, bytes.count == 2 + crc { return true }
                if case .i? = ISODEPBlock(pcb: first), sak.map({ SAK($0).supportsISODEP }) ?? true { return true }
            } else if afterSelect, bytes.count == 1 + crc {
                sak = first
                afterSelect = false
            }
        }
        if recent.count == Self.recentLimit { recent.removeFirst(Self.recentLimit / 2) }
        recent.append(frame)
        return false
    }

    private func masked(_ d: FrameDissection) -> Frame {
        var frame = d.frame
        guard !d.masked.isEmpty else { return frame }
        maskedFrames += 1
        let crcWasRight = frame.hasValidCRC()
        var payload = Array(frame.payloadDroppingValidCRC())
        for r in d.masked {
            for i in r.clamped(to: payload.indices) { payload[i] = 0 }
        }
        if crcWasRight { frame.setPayload(payload, crc: true) } else { frame.bytes = payload }
        frame.comment = frame.comment.map { $0 + "; " + Self.comment } ?? Self.comment
        return frame
    }
}
