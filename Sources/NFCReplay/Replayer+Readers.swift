import NFCCore
import NFCDissect

/// What readers add to a replay (issue 21): the check of what a target cannot send, the response
/// APDUs of APDU-level readers compared with the recorded answer blocks put together, the answers
/// in clear of readers that run Crypto1 themselves, and the card's blocks of a response APDU for
/// a recording.
extension Replayer {
    /// The reader frames among those `next` delivers that `target` cannot send, found without
    /// sending anything (a damaged trace: those before the damage).
    public static func inexpressibleFrames(for target: ReplayTarget, next: () throws -> Frame?) -> [InexpressibleFrame] {
        var out: [InexpressibleFrame] = []
        var number = 0
        while let frame = try? next() {
            number += 1
            guard frame.event == .data(.readerToTag), let why = target.inexpressible(frame, number: number) else { continue }
            out.append(InexpressibleFrame(frame: number, bytes: frame.bytes, reason: why))
        }
        return out
    }

    /// A response APDU in one I-block answering `request` (its block number and CID, its CRC state).
    static func wholeAnswer(_ response: [UInt8], to request: Frame) -> Frame {
        var block = ISODEPFrame(.i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 0), inf: response)
        if let r = iBlock(request), case .i(_, let cid, _, let n) = r.frame.block {
            block = ISODEPFrame(.i(chaining: false, cidFollows: cid, nadFollows: false, blockNumber: n), cid: r.frame.cid, inf: response)
        }
        var f = Frame(.data(.tagToReader), technology: request.technology, crcStripped: request.crcStripped)
        f.setPayload(block.encode(), crc: request.hasValidCRC())
        return f
    }

    /// A response APDU as a card sends it to `request`: I-blocks of at most `frameSize` bytes (PCB,
    /// CID, INF and CRC), chained, each acknowledged by the reader's R(ACK) (ISO/IEC 14443-4
    /// §7.5.3: the R(ACK) toggles the block number, the card's next block follows it).
    static func answerBlocks(_ response: [UInt8], to request: Frame, frameSize: Int) -> [Frame] {
        guard let r = iBlock(request), case .i(_, let cidFollows, _, var number) = r.frame.block else { return [wholeAnswer(response, to: request)] }
        let crc = request.hasValidCRC() || request.crcStripped
        let room = max(1, frameSize - 1 - (cidFollows ? 1 : 0) - (crc ? 2 : 0))
        func frame(_ block: ISODEPFrame, _ direction: Direction) -> Frame {
            var f = Frame(.data(direction), technology: request.technology, crcStripped: request.crcStripped)
            f.setPayload(block.encode(), crc: request.hasValidCRC())
            return f
        }
        var out: [Frame] = []
        var rest = response[...]
        repeat {
            let part = Array(rest.prefix(room))
            rest = rest.dropFirst(part.count)
            out.append(frame(ISODEPFrame(.i(chaining: !rest.isEmpty, cidFollows: cidFollows, nadFollows: false, blockNumber: number), cid: r.frame.cid, inf: part), .tagToReader))
            if !rest.isEmpty {
                number ^= 1
                out.append(frame(ISODEPFrame(.r(nak: false, cidFollows: cidFollows, blockNumber: number), cid: r.frame.cid), .readerToTag))
            }
        } while !rest.isEmpty
        return out
    }

    /// An I-block of a recorded tag frame (its CRC, when valid, dropped), with the frame's CRC state.
    static func iBlock(_ frame: Frame) -> (frame: ISODEPFrame, hadCRC: Bool)? {
        let hadCRC = frame.hasValidCRC()
        guard let block = try? ISODEPFrame.decode(Array(frame.payloadDroppingValidCRC())), case .i = block.block else { return nil }
        return (block, hadCRC)
    }

    /// A response APDU against the recorded answer blocks put together. When they differ, the
    /// target's answer is shown as the recorded last block would have carried it whole, and
    /// judged field by field (the rules apply as to any answer).
    func judge(_ a: APDUExchange, recordedLast: Frame?, number: Int) -> ReplayDivergence? {
        guard let recordedLast, let last = Self.iBlock(recordedLast) else {
            // The recording ends (or the field goes) before the card's answer was complete.
            let (rec, _) = dissectWindows(recordedLast: nil, actualLast: nil)
            let actual = Self.wholeAnswer(a.actual, to: a.pending.sent)
            let act = dissectWindows(recordedLast: nil, actualLast: actual).act
            let reason = a.recorded.isEmpty ? "the tag stayed silent, the target answered" : "the recorded answer is incomplete; the target answered whole"
            return ReplayDivergence(frame: a.pending.number, reason: reason,
                                    request: rec.request ?? FrameDissection(number: a.pending.number, frame: a.pending.request),
                                    sent: a.pending.sent, recorded: nil, actual: act, differences: [], history: rec.history)
        }
        if a.recorded == a.actual { return nil }
        var whole = last.frame
        if case .i(_, let cid, let nad, let n) = whole.block { whole.block = .i(chaining: false, cidFollows: cid, nadFollows: nad, blockNumber: n) }
        whole.inf = a.actual
        var actual = recordedLast
        actual.setPayload(whole.encode(), crc: last.hadCRC)
        var p = a.pending
        p.answer = actual
        return judge(p, recorded: recordedLast, recordedNumber: number)
    }

    /// An answer in clear against the recorded one as the dissector decrypted it (its CRC aside).
    func judgeClear(_ p: Pending, _ clear: (bytes: [UInt8], lastByteBits: UInt8), recorded: Frame, number: Int) -> ReplayDivergence? {
        let recordedClear = clearView.decrypted[number] ?? recorded.bytes
        let expected = recorded.lastByteBits == 8 ? Array(CRCBytes(recordedClear, kind: .a).payloadDroppingValidCRC()) : recordedClear
        if clear.lastByteBits == 4 || recorded.lastByteBits == 4 {
            if clear.lastByteBits == recorded.lastByteBits, (clear.bytes.first ?? 0) & 0x0F == (expected.first ?? 0) & 0x0F { return nil }
        } else if clear.bytes == expected {
            return nil
        }
        let (rec, _) = dissectWindows(recordedLast: recorded, actualLast: nil, lastNumber: number)
        var shown = Frame(.data(.tagToReader), technology: recorded.technology, bytes: clear.bytes, lastByteBits: clear.lastByteBits)
        shown.comment = "in clear"
        let actual = FrameDissection(number: number, frame: shown, layer: "MIFARE Classic (in clear)",
                                     summary: "in clear: \(Hex.string(clear.bytes))" + (clear.lastByteBits == 4 ? " (4 bits)" : ""))
        return ReplayDivergence(frame: number, reason: "the card's answer in clear differs from the recorded one decrypted (\(Hex.string(expected)))",
                                request: rec.request ?? FrameDissection(number: p.number, frame: p.request), sent: p.sent,
                                recorded: rec.answer, actual: actual, differences: [], history: rec.history)
    }
}
