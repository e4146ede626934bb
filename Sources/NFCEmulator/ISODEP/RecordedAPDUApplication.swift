import NFCCore

/// The application of an ISO-DEP card rebuilt from a trace (`ISODEPReconstruction`): each command
/// APDU gets the answer the trace recorded for it — the next recorded exchange when it matches,
/// else the first unused one with the same command — and asks for time when the recorded card
/// did. A command the trace never saw is answered `6D00`, as a card without it would.
public final class RecordedAPDUApplication: APDUApplication {
    public let exchanges: [ISODEPReconstruction.Exchange]
    private var used: [Bool]
    private var next = 0

    public init(_ exchanges: [ISODEPReconstruction.Exchange]) {
        self.exchanges = exchanges
        used = [Bool](repeating: false, count: exchanges.count)
    }

    public func reset() {}

    private func match(_ command: [UInt8]) -> Int? {
        if next < exchanges.count, !used[next], exchanges[next].command == command { return next }
        return exchanges.indices.first { !used[$0] && exchanges[$0].command == command }
    }

    public func needsTime(_ command: [UInt8]) -> Bool { match(command).map { exchanges[$0].askedForTime } ?? false }

    public func execute(_ command: [UInt8]) -> [UInt8] {
        guard let i = match(command) else { return ResponseAPDU(status: .instructionNotSupported).encode() }
        used[i] = true
        next = i + 1
        return exchanges[i].response
    }
}

/// An ISO-DEP card rebuilt from a trace.
public struct ISODEPCardDump: TagDumpContent {
    public var reconstruction: ISODEPReconstruction
    public var notes: [String] {
        ["an ISO-DEP card rebuilt from the trace: it answers the \(reconstruction.exchanges.count) recorded command APDU\(reconstruction.exchanges.count == 1 ? "" : "s") with the recorded answers, anything else with 6D00"]
    }
    public var summary: String { "ISO-DEP card (recorded APDUs), UID \(Hex.string(reconstruction.uid))" }

    public init(reconstruction: ISODEPReconstruction) { self.reconstruction = reconstruction }

    public func makeTag() -> EmulatedTag? {
        let r = reconstruction
        let ats = r.ats.flatMap { try? ATS.decode($0) } ?? ATS(t0: 0x78, ta1: 0x00, tb1: 0x80, tc1: 0x00)
        return ISODEPCard(uid: r.uid, atqa: ATQA(value: r.atqa ?? 0x0004), sak: SAK(r.sak ?? 0x20), ats: ats,
                          application: RecordedAPDUApplication(r.exchanges), summary: summary)
    }
}
