import NFCCore

/// What a FeliCa card holds: the systems of a FeliCa Standard card, or a FeliCa Lite-S.
public enum FeliCaCardMemory: Sendable, Equatable {
    /// Systems in their number order (system n answers with IDm byte 0's upper nibble = n).
    case standard([FeliCaCardSystem])
    case liteS(FeliCaLiteSMemory)
}

/// An emulated FeliCa card (JIS X 6319-4, protocols.md §5): FeliCa Standard with one or more
/// systems, or FeliCa Lite-S. Frames are `LEN code …` + CRC_F unless `crcStripped`; commands are
/// decoded and answers encoded with the `FeliCaCommand` / `FeliCaResponse` codec the dissector uses.
///
/// The card stays silent on a wrong CRC_F, a LEN that does not count the frame, a frame that
/// does not decode, an IDm that is not the current system's, and every command it does not
/// support: Standard cards answer Polling, Request Service, Request Response, Read/Write Without
/// Encryption, Search Service Code and Request System Code; a Lite-S only Polling and Read/Write
/// Without Encryption (Sony's Lite-S command set; nfcpy's `FelicaLite` uses no other).
public final class FeliCaCard: EmulatedTag {
    public let technology = Technology.felica
    public private(set) var memory: FeliCaCardMemory
    /// RD of a Polling with request code `02`; nil: the card answers such a Polling without RD.
    public let communicationPerformance: UInt16?
    /// The system the last matching Polling selected (0 at power-on, like PM3's simulator).
    public private(set) var currentSystem = 0
    /// Request Response mode: 0 after power-on and Polling; no authentication here moves it.
    public private(set) var mode: UInt8 = 0
    var liteS: FeliCaLiteSVolatile

    /// `0083`: 212 and 424 kbit/s and automatic rate detection, as Flipper's FeliCa listener answers.
    public static let defaultCommunicationPerformance: UInt16 = 0x0083

    public init?(memory: FeliCaCardMemory, communicationPerformance: UInt16? = FeliCaCard.defaultCommunicationPerformance) {
        if case .standard(let systems) = memory, systems.isEmpty { return nil }
        self.memory = memory
        self.communicationPerformance = communicationPerformance
        if case .liteS(let m) = memory {
            liteS = FeliCaLiteSVolatile(configuration: m.configuration)
        } else {
            liteS = FeliCaLiteSVolatile(configuration: FeliCaLiteMemoryConfiguration())
        }
    }

    public var summary: String { FeliCaDump.summary(memory) }

    public func savedDump() -> [UInt8]? {
        Array(FeliCaFlipperText.text(FeliCaDump(memory: memory, communicationPerformance: communicationPerformance)).utf8)
    }

    public func fieldOn() { powerReset() }
    public func fieldOff() { powerReset() }

    private func powerReset() {
        currentSystem = 0
        mode = 0
        if case .liteS(let m) = memory { liteS = FeliCaLiteSVolatile(configuration: m.configuration) }
    }

    /// The IDm the card answers with now.
    public var idm: FeliCaIDm {
        switch memory {
        case .standard(let systems): return systems.dropFirst(currentSystem).first?.idm ?? FeliCaIDm(rawValue: 0)
        case .liteS(let m): return m.idm
        }
    }

    public func respond(to frame: Frame) -> Frame? {
        guard case .data(.readerToTag) = frame.event, frame.technology == .felica else { return nil }
        // A card that receives a damaged frame keeps silent (NFC-DIG: no answer to a CRC error).
        guard let p = frame.payload(ifValidCRC: .felica) else { return nil }
        let payload = Array(p)
        // LEN counts itself and the payload (§5.1); a frame it does not describe is not answered.
        guard FeliCaLength.check(payload) == .ok, let command = try? FeliCaCommand.decode(payload) else { return nil }
        guard let response = execute(command) else { return nil }
        return answer(response.encode(), to: frame)
    }

    func execute(_ command: FeliCaCommand) -> FeliCaResponse? {
        if case .polling(let sc, let rc, _) = command { return polling(systemCode: sc, requestCode: rc) }
        // Every other command addresses the card by the IDm of its current system (§5.2).
        guard command.idm == idm else { return nil }
        switch memory {
        case .liteS(var m):
            switch command {
            case .readWithoutEncryption(let idm, let services, let blocks):
                let (status, data) = m.read(services: services, blocks: blocks, liteS)
                return .readWithoutEncryption(idm: idm, status: status, blocks: data)
            case .writeWithoutEncryption(let idm, let services, let blocks, let data):
                let status = m.write(services: services, blocks: blocks, data: data, &liteS)
                memory = .liteS(m)
                return .writeWithoutEncryption(idm: idm, status: status)
            default:
                return nil
            }
        case .standard(var systems):
            guard let system = systems.dropFirst(currentSystem).first else { return nil }
            switch command {
            case .requestService(let idm, let nodes):
                // 1…32 nodes (PM3's simulator and Sony); otherwise no answer, the command has no status.
                guard (1...32).contains(nodes.count) else { return nil }
                return .requestService(idm: idm, keyVersions: nodes.map { system.keyVersion(of: $0) })
            case .requestResponse(let idm):
                return .requestResponse(idm: idm, mode: mode)
            case .readWithoutEncryption(let idm, let services, let blocks):
                let (status, data) = system.read(services: services, blocks: blocks)
                return .readWithoutEncryption(idm: idm, status: status, blocks: data)
            case .writeWithoutEncryption(let idm, let services, let blocks, let data):
                var changed = system
                let status = changed.write(services: services, blocks: blocks, data: data)
                if systems.indices.contains(currentSystem) { systems[currentSystem] = changed }
                memory = .standard(systems)
                return .writeWithoutEncryption(idm: idm, status: status)
            case .searchServiceCode(let idm, let index):
                let node = system.nodes.dropFirst(Int(index)).first
                return .searchServiceCode(idm: idm, result: node?.searchResult ?? .end)
            case .requestSystemCode(let idm):
                return .requestSystemCode(idm: idm, systemCodes: systems.map(\.code))
            default:
                return nil
            }
        }
    }

    /// Polling (§5.3): the first system whose code matches — `FF` in either byte of the request
    /// is a wildcard (nfcpy), `FFFF` selects system 0 — answers with its IDm and PMm and becomes
    /// the current system (a system switch when it is another one). RC `01` appends its system
    /// code, RC `02` the communication performance; other request codes count as `00` (NFC-DIG).
    /// The answer goes out in time slot 0 whatever TSN allows: slots are timing, which frames do
    /// not carry.
    func polling(systemCode sc: UInt16, requestCode rc: UInt8) -> FeliCaResponse? {
        let candidates: [(code: UInt16, idm: FeliCaIDm, pmm: FeliCaPMm, index: Int)]
        switch memory {
        case .standard(let systems):
            candidates = systems.enumerated().map { ($1.code, $1.idm, $1.pmm, $0) }
        case .liteS(let m):
            // One system; with the NDEF bit of MC (in effect) it also answers for 12FC, same IDm.
            var codes = [m.systemCode]
            if liteS.configuration.ndef && m.systemCode != FeliCaSystemCode.nfcForumType3 { codes.append(FeliCaSystemCode.nfcForumType3) }
            candidates = codes.map { ($0, m.idm, m.pmm, 0) }
        }
        guard let hit = candidates.first(where: { FeliCaSystemCode.polling(sc, matches: $0.code) }) else { return nil }
        currentSystem = hit.index
        mode = 0
        let rd: UInt16?
        switch rc {
        case 0x01: rd = hit.code
        case 0x02: rd = communicationPerformance
        default: rd = nil
        }
        return .polling(idm: hit.idm, pmm: hit.pmm, requestData: rd)
    }
}
