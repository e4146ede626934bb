import Testing
import NFCCore
@testable import NFCEmulator

/// Every FeliCa trace of Traces/, replayed against the card it was recorded from (a built-in, or
/// the card the trace's own dissection reconstructed): the card gives the recorded answers byte
/// for byte and stays silent where the trace has no answer. This is what the replayer will do.
@Suite struct FeliCaTraceReplayTests {
    func replay(_ trace: String, session: Int, against dump: TagDump) throws {
        let sessions = FeliCaTraces.sessions(try FeliCaTraces.frames(trace))
        let frames = try #require(sessions.dropFirst(session - 1).first, "\(trace) has no session \(session)")
        let card = try #require(dump.makeTag())
        let problems = FeliCaTraces.replay(frames, against: card)
        #expect(problems.isEmpty, "\(trace) session \(session) against \(dump.summary):\n\(problems.joined(separator: "\n"))")
        #expect(frames.contains { if case .data(.tagToReader) = $0.event { return true } else { return false } })
    }

    func builtIn(_ name: String) throws -> TagDump { try #require(BuiltInTag.named(name)).make() }

    func ownCard(_ trace: String, session: Int) throws -> TagDump {
        let r = FeliCaTraces.reconstructions(try FeliCaTraces.frames(trace))
        return TagDump(reconstruction: try #require(r[session], "\(trace): session \(session) reconstructs no card"))
    }

    @Test func suicaHistoryAgainstTheSuicaBuiltIn() throws {
        try replay("suica-history.nfctrace", session: 1, against: try builtIn("suica"))
    }

    @Test func systemSwitchAgainstTheTwoSystemBuiltIn() throws {
        try replay("felica-system-switch.nfctrace", session: 1, against: try builtIn("felica-two-systems"))
    }

    // The built-in Lite-S is the card of felica-errors session 1 with longer response times in
    // its PMm (FeliCaDump.liteSBuiltInPMm); with the chip's PMm it answers byte for byte.
    @Test func errorsSession1AgainstTheLiteSBuiltInWithTheChipsPMm() throws {
        try replay("felica-errors.nfctrace", session: 1, against: TagDump(FeliCaDump.liteS(pmm: FeliCaLiteSMemory.liteSPMm)))
        let builtIn = try #require(try builtIn("felica-lite-s").content as? FeliCaDump)
        #expect(builtIn == FeliCaDump.liteS(pmm: FeliCaDump.liteSBuiltInPMm))
        guard case .liteS(let m) = builtIn.memory else { Issue.record("not a Lite-S"); return }
        #expect(m.pmm.icType == 0xF1 && m.pmm.maximumResponseTime(.read, units: 1) > 20_000)
    }

    @Test func errorsSession3AgainstTheTwoSystemBuiltIn() throws {
        try replay("felica-errors.nfctrace", session: 3, against: try builtIn("felica-two-systems"))
    }

    // Every session of every FeliCa trace against the card its own dissection rebuilt.
    @Test(arguments: [("felica-student-id.nfctrace", 1), ("suica-history.nfctrace", 1), ("felica-system-switch.nfctrace", 1),
                      ("felica-errors.nfctrace", 1), ("felica-errors.nfctrace", 2), ("felica-errors.nfctrace", 3)])
    func againstItsOwnReconstruction(trace: String, session: Int) throws {
        try replay(trace, session: session, against: try ownCard(trace, session: session))
    }

    // The comparison finds differences: another card stays silent, one changed record shows.
    @Test func aDifferentCardDiverges() throws {
        let frames = try #require(FeliCaTraces.sessions(try FeliCaTraces.frames("suica-history.nfctrace")).first)
        let other = FeliCaTraces.replay(frames, against: try #require(try builtIn("felica-two-systems").makeTag()))
        #expect(other.count == 4 && other.allSatisfy { $0.contains("silent") }, "\(other)")
        var suica = FeliCaDump.suica()
        if case .standard(var systems) = suica.memory, var system = systems.first {
            system.setBlock(.cjrcHistory, 11, [UInt8](repeating: 0xEE, count: 16))
            systems[0] = system
            suica.memory = .standard(systems)
        }
        let changed = FeliCaTraces.replay(frames, against: try #require(suica.makeTag()))
        #expect(changed.count == 1 && changed.first?.contains("EE EE") == true, "\(changed)")
    }

    @Test func theReconstructionKeepsWhatTheTraceShowed() throws {
        let errors = FeliCaTraces.reconstructions(try FeliCaTraces.frames("felica-errors.nfctrace"))
        guard case .felica(let lite)? = errors[1], case .felica(let student)? = errors[2] else {
            Issue.record("felica-errors sessions 1 and 2 reconstruct no FeliCa card")
            return
        }
        #expect(lite.pmm?.family == .liteS)
        #expect(lite.systems.first?.code == FeliCaSystemCode.nfcForumType3)
        #expect(lite.knownBlockCount == 4, "AIB and three NDEF blocks")
        // A Read refused with A8 shows that 1A8B exists, though no block of it was read.
        #expect(student.systems.first?.services.contains(FeliCaServiceCode(0x1A8B)) == true)
        guard case .felica(let two)? = FeliCaTraces.reconstructions(try FeliCaTraces.frames("felica-system-switch.nfctrace"))[1] else {
            Issue.record("felica-system-switch reconstructs no FeliCa card")
            return
        }
        #expect(two.systems.map(\.code) == [0x8E4B, 0xFE00])
        #expect(two.systems.map(\.idm.systemNumber) == [0, 1])
        #expect(two.listedSystemCodes == [0x8E4B, 0xFE00])
        let dump = TagDump(reconstruction: .felica(two))
        #expect(dump.summary.contains("systems 8E4B, FE00"), "\(dump.summary)")
    }

    // What a trace did not show takes neutral values: an unnamed system answers FFFF only,
    // listed systems exist, Search Service Code answers keep their order, a block number far out
    // is not emulated (no megabyte of zeros), unseen blocks read as zeros.
    @Test func aReconstructionFillsWhatTheTraceDidNotShow() throws {
        let idm = FeliCaIDm(rawValue: 0x0101_0A10_8E1B_234C)
        var system = FeliCaReconstruction.System(number: 0, code: nil, idm: idm)
        system.blocks[FeliCaServiceCode(0x1A8B)] = [2: block("TWO"), 0xFFFF: block("FAR")]
        system.keyVersions = [FeliCaServiceCode(0x1B08): 0x0005, FeliCaServiceCode(0x090F): 0xFFFF, .systemKeyVersionRequest: 0x0009]
        system.searchResults = [0: .area(FeliCaServiceCode(0x1000), end: FeliCaServiceCode(0x1FFF)), 1: .service(FeliCaServiceCode(0x1B08))]
        let r = FeliCaReconstruction(pmm: FeliCaDump.standardPMm, systems: [system], listedSystemCodes: nil)
        let dump = FeliCaDump(reconstruction: r)
        guard case .standard(let systems) = dump.memory, let s = systems.first else { Issue.record("no Standard card"); return }
        #expect(s.code == 0xFFFF && dump.notes.contains { $0.contains("code of system 0 is not in the trace") })
        #expect(s.nodes.first == .area(FeliCaServiceCode(0x1000), end: FeliCaServiceCode(0x1FFF), keyVersion: 0))
        #expect(s.nodes.dropFirst().first == .service(FeliCaServiceCode(0x1B08), keyVersion: 5))
        #expect(!s.hasService(FeliCaServiceCode(0x090F)), "FFFF: the card said it has no 090F")
        #expect(s.keyVersion == 0x0009)
        #expect(s.blockCount(FeliCaServiceCode(0x1A8B)) == 3 && s.block(FeliCaServiceCode(0x1A8B), 0) == [UInt8](repeating: 0, count: 16))
        #expect(dump.notes.contains { $0.contains("blocks from 1024 on are not emulated") })
        let listed = FeliCaDump(reconstruction: FeliCaReconstruction(pmm: nil, systems: [system], listedSystemCodes: [0x8E4B, 0xFE00]))
        guard case .standard(let two) = listed.memory else { Issue.record("no Standard card"); return }
        #expect(two.map(\.code) == [0x8E4B, 0xFE00] && two.last?.idm == idm.inSystem(1))
        #expect(listed.notes.contains { $0.contains("no Polling answer") })
    }

    // `emulate --from-trace` takes the session that showed the most: the Lite-S of felica-errors.
    @Test func theBestSessionOfTheErrorsTraceIsTheLiteS() throws {
        let r = FeliCaTraces.reconstructions(try FeliCaTraces.frames("felica-errors.nfctrace"))
        let best = try #require(r.max { $0.value.knownUnits < $1.value.knownUnits })
        #expect(best.key == 1)
        #expect(TagDump(reconstruction: best.value).summary.hasPrefix("FeliCa Lite-S (RC-S966), IDm 01 2E 3C 88 91 05 6D 12"))
    }
}
