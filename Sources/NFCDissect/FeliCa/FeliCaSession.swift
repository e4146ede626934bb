import NFCCore

/// One system of the card as the session saw it: its number (IDm byte 0 upper nibble), its code
/// when a Polling or RD named it, and the IDm it answers with.
struct FeliCaSystem: Equatable {
    var number: Int
    var code: UInt16?
    var idm: FeliCaIDm
    /// Frame of the Polling answer that selected it first.
    var frame: Int

    /// `FE00 (system 1)`, `system 1` when the code was never named.
    var label: String {
        code.map { "\(Hex.value($0, digits: 4)) (system \(number))" } ?? "system \(number)"
    }
}

/// A move from one system of the card to another, made by a Polling for another system code.
struct FeliCaSystemSwitch: Equatable {
    var frame: Int
    var from: FeliCaSystem
    var to: FeliCaSystem
}

/// Blocks of one service of one system, as read or written in the session.
struct FeliCaServiceBlocks {
    var system: Int
    var systemCode: UInt16?
    var service: FeliCaServiceCode
    var blocks: [UInt16: [UInt8]] = [:]
    var written: Set<UInt16> = []
}

/// What the reader asked, so that the card's answer can be read in its context.
struct FeliCaPending {
    var frame: Int
    /// Nil when the request could not be decoded.
    var command: FeliCaCommand?
    /// Polling may be answered once per time slot; other commands once.
    var answers = 0
}

/// Everything the dissector knows about the card of the current session.
struct FeliCaSession: DissectorSession {
    /// Blocks kept per session at most, so that memory stays bounded on endless captures.
    static let maximumStoredBlocks = 4096

    var number: Int
    var firstFrame: Int
    var lastFrame: Int
    /// The IDm the card answers with now (its current system's).
    var idm: FeliCaIDm?
    /// Whether `idm` came from a Polling answer (otherwise from the first command that named one).
    var idmFromPolling = false
    var pmm: FeliCaPMm?
    var systems: [FeliCaSystem] = []
    var currentSystem: Int?
    var switches: [FeliCaSystemSwitch] = []
    /// The Request System Code answer, when there was one.
    var listedSystemCodes: [UInt16]?
    /// Request Service answers: node → key version (`FFFF` = absent), per system.
    var keyVersions: [(system: Int, node: FeliCaServiceCode, version: UInt16)] = []
    var services: [FeliCaServiceBlocks] = []
    var storedBlocks = 0
    /// For the reconstruction (`emulate --from-trace`): services the card showed it has, per
    /// system number, and Search Service Code answers per system and index (bounded together
    /// with the blocks by `maximumStoredBlocks`).
    var knownServices: [Int: Set<FeliCaServiceCode>] = [:]
    var searchResults: [Int: [UInt16: FeliCaSearchResult]] = [:]
    var reconstructionEntries = 0
    /// RD of a Polling answer to request code 02.
    var communicationPerformance: UInt16?
    var mode: UInt8?
    /// Commands the card refused with status flags, and commands it did not answer (bounded lists).
    var refusals: [(frame: Int, status: FeliCaStatusFlags)] = []
    var unanswered: [(frame: Int, code: FeliCaCode)] = []
    static let maximumListed = 32
    var pending: FeliCaPending?
    var cardAnswered = false
    var diagnostics: [Diagnostic] = []

    init(number: Int, frame: Int) {
        self.number = number
        self.firstFrame = frame
        self.lastFrame = frame
    }

    var system: FeliCaSystem? {
        guard let n = currentSystem else { return nil }
        return systems.first { $0.number == n }
    }

    func system(_ number: Int) -> FeliCaSystem? { systems.first { $0.number == number } }

    /// The current system's code, nil when unknown (a Polling for FFFF without RC 01).
    var systemCode: UInt16? { system?.code }

    /// Notes a command that got no answer before the next reader frame or the end of the session.
    /// A Polling without answer is normal (no card, or another system) and is not listed.
    mutating func noteUnanswered(_ p: FeliCaPending?) {
        guard let p, p.answers == 0, let c = p.command, c.code != .polling, unanswered.count < Self.maximumListed else { return }
        unanswered.append((p.frame, c.code))
    }

    /// Records a system (or updates its code/IDm); returns it.
    @discardableResult
    mutating func noteSystem(number: Int, code: UInt16?, idm: FeliCaIDm, frame: Int) -> FeliCaSystem {
        if let i = systems.firstIndex(where: { $0.number == number }) {
            if let code { systems[i].code = code }
            systems[i].idm = idm
            return systems[i]
        }
        let s = FeliCaSystem(number: number, code: code, idm: idm, frame: frame)
        systems.append(s)
        systems.sort { $0.number < $1.number }
        return s
    }

    /// The current system's number, as stored blocks and known services are keyed.
    var systemNumber: Int { currentSystem ?? idm?.systemNumber ?? 0 }

    mutating func noteService(_ service: FeliCaServiceCode) {
        guard knownServices[systemNumber]?.contains(service) != true, reconstructionEntries < Self.maximumStoredBlocks else { return }
        reconstructionEntries += 1
        knownServices[systemNumber, default: []].insert(service)
    }

    mutating func noteSearchResult(_ result: FeliCaSearchResult, index: UInt16) {
        guard searchResults[systemNumber]?[index] == nil, reconstructionEntries < Self.maximumStoredBlocks else { return }
        reconstructionEntries += 1
        searchResults[systemNumber, default: [:]][index] = result
    }

    /// Where blocks of `service` in the current system are kept. T3T overlap services `0009` (write)
    /// and `000B` (read) share their blocks (protocols.md §5.4), so both land under `000B`.
    mutating func store(_ data: [UInt8], block: UInt16, service: FeliCaServiceCode, written: Bool) {
        let system = currentSystem ?? idm?.systemNumber ?? 0
        let key = service == .ndefWrite ? FeliCaServiceCode.ndefRead : service
        let index: Int
        if let i = services.firstIndex(where: { $0.system == system && $0.service == key }) {
            index = i
        } else {
            services.append(FeliCaServiceBlocks(system: system, systemCode: self.system(system)?.code, service: key))
            index = services.count - 1
        }
        if services[index].blocks[block] == nil {
            guard storedBlocks < Self.maximumStoredBlocks else { return }
            storedBlocks += 1
        }
        services[index].blocks[block] = data
        if written { services[index].written.insert(block) }
    }
}
