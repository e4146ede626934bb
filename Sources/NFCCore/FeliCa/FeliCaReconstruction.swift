/// A FeliCa card as a dissected session saw it: enough to emulate it (`emulate --from-trace`,
/// replay against the trace's own card). Filled by the FeliCa dissector's session summary.
public struct FeliCaReconstruction: Sendable, Equatable {
    /// One system of the card (IDm byte 0 upper nibble = `number`, protocols.md §5.2).
    public struct System: Sendable, Equatable {
        public var number: Int
        /// Nil when no Polling answer, RD or Request System Code named it.
        public var code: UInt16?
        public var idm: FeliCaIDm
        /// Request Service answers: node (area, service, `FFFF` = the system) → key version; `FFFF` = absent.
        public var keyVersions: [FeliCaServiceCode: UInt16]
        /// Blocks read or written, per service as the reader named it (`0009` writes land on `000B`).
        public var blocks: [FeliCaServiceCode: [UInt16: [UInt8]]]
        /// Services the card accepted in a Read/Write, or refused in a way that shows they exist
        /// (block number out of range, access not allowed, authentication needed).
        public var services: Set<FeliCaServiceCode>
        /// Search Service Code answers by index.
        public var searchResults: [UInt16: FeliCaSearchResult]

        public init(number: Int, code: UInt16?, idm: FeliCaIDm, keyVersions: [FeliCaServiceCode: UInt16] = [:],
                    blocks: [FeliCaServiceCode: [UInt16: [UInt8]]] = [:], services: Set<FeliCaServiceCode> = [],
                    searchResults: [UInt16: FeliCaSearchResult] = [:]) {
            self.number = number
            self.code = code
            self.idm = idm
            self.keyVersions = keyVersions
            self.blocks = blocks
            self.services = services
            self.searchResults = searchResults
        }

        public var knownBlockCount: Int { blocks.values.reduce(0) { $0 + $1.count } }
    }

    /// The last PMm a Polling answer carried.
    public var pmm: FeliCaPMm?
    public var systems: [System]
    /// The Request System Code answer, when there was one (systems in their number order).
    public var listedSystemCodes: [UInt16]?
    /// RD of a Polling answer to request code `02`.
    public var communicationPerformance: UInt16?

    public init(pmm: FeliCaPMm?, systems: [System], listedSystemCodes: [UInt16]? = nil, communicationPerformance: UInt16? = nil) {
        self.pmm = pmm
        self.systems = systems
        self.listedSystemCodes = listedSystemCodes
        self.communicationPerformance = communicationPerformance
    }

    public var knownBlockCount: Int { systems.reduce(0) { $0 + $1.knownBlockCount } }
}

extension FeliCaReconstruction {
    /// The card's IDm with the system number cleared: the same for every system of one card,
    /// so sessions that polled different systems count as one card. Empty when no system was seen.
    public var identity: [UInt8] {
        guard var bytes = systems.first?.idm.bytes else { return [] }
        bytes[0] &= 0x0F
        return bytes
    }
}
