import NFCCore

/// Frames with the card data the dissector masks overwritten, for files that leave nfctrace
/// (`nfctrace convert` without `--show-secrets`): a trace shared for a bug report should not
/// carry a card number. The frames are dissected as `dissect` would, so exactly the bytes its
/// views show as `••` are replaced, by `00`: a card number keeps its first 6 and last 4 digits
/// (and dissected again it is masked the same way), a name becomes zeros. A frame that had a
/// right CRC gets the CRC of its new bytes, and a comment says what happened.
///
/// The dissector holds a frame back until the next one arrives, so frames come out one behind
/// (`finish` hands out the last).
public final class CardDataMasking {
    private let dissector: Dissector
    public private(set) var maskedFrames = 0

    public static let comment = "card data masked by nfctrace (convert --show-secrets keeps it)"

    public init(keys: KeyList = .defaults) {
        var k = keys
        k.revealCardData = false
        dissector = Dissector(detail: .summary, keys: k)
    }

    /// Takes a frame; `out` receives the frames that are ready, in order.
    public func push(_ frame: Frame, _ out: (Frame) -> Void) {
        dissector.processPending(frame) { event in
            if case .frame(let d) = event { out(masked(d)) }
        }
    }

    /// Hands out the frame still held.
    public func finish(_ out: (Frame) -> Void) {
        dissector.finishPending { event in
            if case .frame(let d) = event { out(masked(d)) }
        }
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
