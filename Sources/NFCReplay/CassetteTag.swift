import NFCCore
import NFCEmulator

/// A recorded trace standing in for a tag: each reader frame that matches a recorded command
/// gets the recorded answer. Reader code recorded once against a real tag then runs in CI
/// without one.
///
/// Commands are matched without their CRC, so a trace recorded with CRCs answers a reader that
/// sends none (nfcpy's UDP frontend) and the other way round.
public final class CassetteTag: EmulatedTag {
    public enum Order: String, Sendable, CaseIterable {
        /// The next recorded command, and only it.
        case strict
        /// Any unused recorded exchange with an identical command; when all are used, the last
        /// one used again (readers repeat activation after a re-sense).
        case relaxed
    }

    public enum Unknown: String, Sendable, CaseIterable { case silence, nak }

    public struct Exchange: Sendable {
        public var number: Int
        public var request: Frame
        public var answer: Frame?
        public var uses = 0
    }

    public let technology: Technology
    public let order: Order
    public let unknown: Unknown
    public private(set) var exchanges: [Exchange]
    private var cursor = 0
    /// Reader frames that matched no recorded command, in order.
    public private(set) var unknownRequests: [Frame] = []
    /// Called for each unknown request (to report it as it happens).
    public var onUnknown: ((Frame) -> Void)?
    /// Answers served by reusing an exchange (relaxed order only).
    public private(set) var reuses = 0

    /// The exchanges of `frames` (a whole trace): each reader frame with the tag frame after it.
    public init?(frames: [Frame], order: Order = .relaxed, unknown: Unknown = .silence) {
        var list: [Exchange] = []
        var tech: Technology?
        for (i, f) in frames.enumerated() {
            switch f.event {
            case .data(.readerToTag):
                tech = tech ?? f.technology
                list.append(Exchange(number: i + 1, request: f, answer: nil))
            case .data(.tagToReader):
                if let last = list.indices.last, list[last].answer == nil, list[last].number == i { list[last].answer = f }
            default:
                break
            }
        }
        guard let tech, !list.isEmpty else { return nil }
        technology = tech
        exchanges = list
        self.order = order
        self.unknown = unknown
    }

    public var summary: String { "cassette of \(exchanges.count) recorded exchanges (\(technology.displayName), \(order.rawValue) order)" }

    public func fieldOn() {}
    public func fieldOff() {}
    public func savedDump() -> [UInt8]? { nil }

    /// A frame's command without its CRC.
    static func command(_ f: Frame) -> ArraySlice<UInt8> { f.payloadDroppingValidCRC() }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event else { return nil }
        let wanted = Self.command(frame)
        var hit: Int? = nil
        switch order {
        case .strict:
            if cursor < exchanges.count, Self.command(exchanges[cursor].request) == wanted {
                hit = cursor
                cursor += 1
            }
        case .relaxed:
            hit = exchanges.firstIndex { $0.uses == 0 && Self.command($0.request) == wanted }
            if hit == nil, let reused = exchanges.lastIndex(where: { $0.uses > 0 && Self.command($0.request) == wanted }) {
                hit = reused
                reuses += 1
            }
        }
        guard let i = hit else {
            unknownRequests.append(frame)
            onUnknown?(frame)
            return unknownAnswer(to: frame)
        }
        exchanges[i].uses += 1
        guard var answer = exchanges[i].answer else { return nil }
        // A reader whose transport drops CRCs gets the recorded answer without its CRC.
        if frame.crcStripped { answer.stripValidCRC() }
        answer.start = nil
        answer.end = nil
        return answer
    }

    private func unknownAnswer(to frame: Frame) -> Frame? {
        guard unknown == .nak else { return nil }
        switch technology {
        case .iso14443a:
            return Frame(.data(.tagToReader), bytes: [Type2Acknowledgement.nak(.invalidArgument).nibble], lastByteBits: 4)
        case .iso15693:
            var answer = Frame(.data(.tagToReader), technology: .iso15693, crcStripped: frame.crcStripped)
            answer.setPayload(ISO15693Response.error(.unknownError).encode(), crc: true)
            return answer
        case .felica, .iso14443b, .iclass: return nil   // no generic negative answer: silence
        }
    }

    /// Recorded exchanges no reader asked for.
    public var unused: [Exchange] { exchanges.filter { $0.uses == 0 } }
}
