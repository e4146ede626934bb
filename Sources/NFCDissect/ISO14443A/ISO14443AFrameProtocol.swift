import NFCCore

/// A protocol carried in ISO 14443-A frames (activation, Type 1, Type 2, MIFARE Classic,
/// ISO-DEP, Apple ECP …), registered in `ISO14443AFrameProtocols.table` instead of being wired
/// into the dissector: the dissector asks each entry in turn whether it claims a reader frame,
/// given what the session knows, lets the first that does describe it, and hands the tag's
/// answer to the protocol that asked. A protocol keeps its own state in a slice of the session
/// (`ISO14443ASession.slices`, see `SessionSlice`).
protocol ISO14443AFrameProtocol: SendableMetatype {
    /// Whether this protocol reads the reader frame. `activation`: `ISO14443ACommand.recognises`
    /// said it is a REQA/WUPA/ANTICOLLISION/SELECT/HLTA shape. Must not change anything.
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool
    /// Describes the claimed reader frame and says what the answer will be read against (by
    /// setting `s.pending`; `.frameProtocol(Self.id)` sends the answer to `describeResponse`).
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector)
    /// The tag's answer to a request this protocol left pending as `.frameProtocol(id)`.
    static func describeResponse(_ ctx: inout FrameContext, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector)
    /// Adds this protocol's part of the end-of-session summary (headline parts, tag and memory
    /// fields, diagnostics). Protocols with nothing to add keep the default.
    static func summarise(_ s: ISO14443ASession, detail: DissectionDetail, into summary: inout ISO14443ASummaryParts)
}

extension ISO14443AFrameProtocol {
    static var id: ObjectIdentifier { ObjectIdentifier(Self.self) }
    static func describeResponse(_ ctx: inout FrameContext, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {}
    static func summarise(_ s: ISO14443ASession, detail: DissectionDetail, into summary: inout ISO14443ASummaryParts) {}
}

/// What a registered protocol adds to an ISO 14443-A session summary.
struct ISO14443ASummaryParts {
    var headline: [String] = []
    var tag: [Field] = []
    var memory: [Field] = []
    var diagnostics: [Diagnostic] = []
}

/// The frame protocols of ISO 14443-A, in the order they are asked. Order matters where two
/// could read one frame: an authenticated MIFARE Classic session owns every whole-byte frame
/// (they are encrypted), activation commands come before any upper layer, Type 1 before the
/// layers that need a SELECT, ISO-DEP before Classic (a RATS switches a Classic card to
/// ISO-DEP), and Type 2 last: it reads what nobody else claimed, as the dissector always did.
enum ISO14443AFrameProtocols {
    static let table: [any ISO14443AFrameProtocol.Type] = [
        MIFAREClassicCryptoFrameProtocol.self,
        ActivationFrameProtocol.self,
        Type1Frames.self,
        ISODEPFrameProtocol.self,
        MIFAREClassicFrameProtocol.self,
        AppleECPFrameProtocol.self,
        Type2FrameProtocol.self,
    ]

    static func named(_ id: ObjectIdentifier) -> (any ISO14443AFrameProtocol.Type)? {
        table.first { ObjectIdentifier($0) == id }
    }
}

/// A protocol's own part of a session (Type 1's header ROM and memory, say), kept in the
/// session by type so that the session struct does not list every upper layer's state.
protocol SessionSlice: Sendable {
    init()
}

/// The slices of one session, one per registered protocol that keeps state.
struct SessionSlices: Sendable {
    private var storage: [ObjectIdentifier: any SessionSlice] = [:]

    var isEmpty: Bool { storage.isEmpty }

    /// The slice of type `S`, nil when the protocol has not kept state in this session.
    subscript<S: SessionSlice>(_ type: S.Type) -> S? {
        storage[ObjectIdentifier(type)] as? S
    }

    /// Runs `body` on the slice of type `S` (made empty when absent). The slice is taken out of
    /// the storage while `body` runs, so that it is changed in place, not copied.
    mutating func modify<S: SessionSlice, R>(_ type: S.Type, _ body: (inout S) -> R) -> R {
        var slice = (storage.removeValue(forKey: ObjectIdentifier(type)) as? S) ?? S()
        defer { storage[ObjectIdentifier(type)] = slice }
        return body(&slice)
    }
}

// MARK: the layers that were wired into the dissector, registered

/// Reader frames of a MIFARE Classic session in Crypto1: encrypted, so only Classic reads them.
enum MIFAREClassicCryptoFrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool {
        MIFAREClassicFrames.ownsReaderFrame(frame, s)
    }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        dissector.classicRequest(&ctx, &s)
    }
}

/// ISO 14443-3 activation (REQA … SELECT, HLTA) and the ISO 14443-4 RATS and PPS.
enum ActivationFrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool {
        activation || ISO14443ADissector.isRATS(frame, s) || ISO14443ADissector.isPPS(frame, s)
    }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        dissector.activationRequest(&ctx, activation: activation, &s)
    }
}

/// ISO-DEP blocks: after an ATS, when inferred from an I-block carrying an APDU, or a lone
/// S(DESELECT) of an earlier session.
enum ISODEPFrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool {
        s.isoDEPActive || ISODEPFrames.inferable(frame, s) || ISODEPFrames.isLoneDeselect(frame)
    }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        if !s.isoDEPActive, ISODEPFrames.inferable(ctx.frame, s) {
            s.isoDEPInferred = true
            ctx.note("ISO-DEP inferred: no RATS in the capture")
        }
        if s.isoDEPActive, ISODEPFrames.describeFragment(&ctx) { return }
        if !s.isoDEPActive { ctx.note("S(DESELECT) without an ATS in this session: the reader is still in the ISO-DEP state of an earlier one") }
        let block = ISODEPFrames.describeRequest(&ctx, session: &s)
        s.pending = (ctx.number, block.map { .isoDEP($0) } ?? .unknown)
    }
}

/// MIFARE Classic commands in clear, once the SAK named a Classic card (or a magic wake-up).
enum MIFAREClassicFrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool { s.isMIFAREClassic }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        dissector.classicRequest(&ctx, &s)
    }
}

/// Apple ECP: a reader broadcast that decodes as one (`6A` is no Type 2 command).
enum AppleECPFrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool {
        frame.bytes.first == AppleECP.header && ISO14443ADissector.decodesAsECP(frame)
    }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        _ = dissector.describeECP(&ctx)
        s.pending = nil
    }
}

/// Type 2 (NTAG, Ultralight) commands: whatever no other protocol claimed.
enum Type2FrameProtocol: ISO14443AFrameProtocol {
    static func claims(_ frame: Frame, activation: Bool, in s: ISO14443ASession) -> Bool { true }
    static func describeRequest(_ ctx: inout FrameContext, activation: Bool, _ s: inout ISO14443ASession, in dissector: ISO14443ADissector) {
        Type2Frames.describeRequest(&ctx, session: &s, keys: dissector.keys)
    }
}
