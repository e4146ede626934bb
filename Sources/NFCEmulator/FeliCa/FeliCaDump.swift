import NFCCore

/// A FeliCa card as a dump, a trace's reconstruction or a built-in configuration describes it.
public struct FeliCaDump: TagDumpContent, Equatable {
    public var memory: FeliCaCardMemory
    /// RD the card answers to a Polling with request code `02` (nil: no RD).
    public var communicationPerformance: UInt16?
    public var notes: [String]

    public init(memory: FeliCaCardMemory, communicationPerformance: UInt16? = FeliCaCard.defaultCommunicationPerformance,
                notes: [String] = []) {
        self.memory = memory
        self.communicationPerformance = communicationPerformance
        self.notes = notes
    }

    public var summary: String { Self.summary(memory) }

    public func makeTag() -> EmulatedTag? { FeliCaCard(memory: memory, communicationPerformance: communicationPerformance) }

    /// `FeliCa Lite-S (RC-S966), IDm 01 2E …, system 88B4 + 12FC (NDEF)`,
    /// `FeliCa Standard (RC-S915), IDm 01 01 …, systems 8E4B, FE00`.
    static func summary(_ memory: FeliCaCardMemory) -> String {
        switch memory {
        case .liteS(let m):
            let ndef = m.configuration.ndef ? " + 12FC (NDEF)" : ""
            return "\(m.pmm.icName ?? "FeliCa Lite-S"), IDm \(m.idm), system \(Hex.value(m.systemCode, digits: 4))\(ndef)"
        case .standard(let systems):
            guard let first = systems.first else { return "FeliCa Standard without systems" }
            let codes = systems.map { Hex.value($0.code, digits: 4) }.joined(separator: ", ")
            return "\(first.pmm.icName ?? "FeliCa (IC type \(Hex.byte(first.pmm.icType)))"), IDm \(first.idm), "
                + (systems.count == 1 ? "system " : "systems ") + codes
        }
    }
}
