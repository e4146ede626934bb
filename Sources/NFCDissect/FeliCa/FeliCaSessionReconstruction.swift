import NFCCore

/// The card a FeliCa session showed, for `emulate --from-trace` and replay against the trace's own
/// card: systems (number, code, IDm), PMm, key versions, services and the blocks read or written.
enum FeliCaSessionReconstruction {
    /// Nil until a card answered with an IDm.
    static func make(_ s: FeliCaSession) -> TagReconstruction? {
        guard let idm = s.idm else { return nil }
        var systems: [Int: FeliCaReconstruction.System] = [:]
        func system(_ n: Int) -> FeliCaReconstruction.System {
            systems[n] ?? FeliCaReconstruction.System(number: n, code: nil, idm: idm.inSystem(n))
        }
        for sys in s.systems {
            var r = system(sys.number)
            r.code = sys.code
            r.idm = sys.idm
            systems[sys.number] = r
        }
        if systems.isEmpty { systems[idm.systemNumber] = system(idm.systemNumber) }
        for k in s.keyVersions {
            var r = system(k.system)
            r.keyVersions[k.node] = k.version
            systems[k.system] = r
        }
        for service in s.services {
            var r = system(service.system)
            r.blocks[service.service, default: [:]].merge(service.blocks) { _, new in new }
            r.services.insert(service.service)
            systems[service.system] = r
        }
        for (n, services) in s.knownServices {
            var r = system(n)
            r.services.formUnion(services)
            systems[n] = r
        }
        for (n, results) in s.searchResults {
            var r = system(n)
            r.searchResults.merge(results) { old, _ in old }
            systems[n] = r
        }
        return .felica(FeliCaReconstruction(pmm: s.pmm, systems: systems.keys.sorted().compactMap { systems[$0] },
                                            listedSystemCodes: s.listedSystemCodes, communicationPerformance: s.communicationPerformance))
    }
}
