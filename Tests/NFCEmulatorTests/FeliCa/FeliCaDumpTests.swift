import Foundation
import Testing
import NFCCore
@testable import NFCEmulator

/// FeliCa dumps: Flipper `.nfc` data format 1 (Lite-S) and 2 (FeliCa Standard) from
/// ../shared/dumps (read in place), saving and loading again, and every error path.
@Suite struct FeliCaDumpTests {
    func loadShared(_ name: String) throws -> FeliCaDump {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(DumpTests.shared)/\(name)")))
        return try #require(try TagDump.load(bytes, name: name).content as? FeliCaDump, "not a FeliCa dump")
    }

    func load(_ text: String) throws(DumpError) -> TagDump { try TagDump.load(Array(text.utf8), name: "t.nfc") }

    /// The error loading `text` raises, or nil.
    func error(_ text: String) -> DumpError? {
        do { _ = try load(text) } catch { return error }
        return nil
    }

    static let header = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: FeliCa\nUID: 01 12 34 56 78 9A BC DE\n"
    static let standardHead = header + "Data format version: 2\nManufacture id: 01 12 34 56 78 9A BC DE\nManufacture parameter: 03 01 4B 02 4F 49 93 FF\n"
    static let liteHead = header.replacingOccurrences(of: "01 12 34 56 78 9A BC DE", with: "01 2E 3C 88 91 05 6D 12")
        + "Data format version: 1\nManufacture id: 01 2E 3C 88 91 05 6D 12\nManufacture parameter: 00 F1 00 00 00 01 43 00\n"

    @Test(.enabled(if: DumpTests.sharedAvailable, "../shared/dumps is not beside this checkout"))
    func flipperLiteS() throws {
        let d = try loadShared("flipper_Felica.nfc")
        guard case .liteS(let m) = d.memory else { Issue.record("not a Lite-S"); return }
        #expect(m.idm == FeliCaIDm(rawValue: 0x299F_FA53_AB75_876E))
        #expect(m.systemCode == 0x88B4 && !m.configuration.ndef)
        #expect(m.writeCounter == 0xFFFE24)
        #expect(d.notes.contains { $0.contains("names no FeliCa Lite IC") }, "PMm 57 4E … is no Lite-S PMm: \(d.notes)")
        #expect(d.notes.contains { $0.contains("D_ID (block 83)") })
        let r = FeliCaReader(d)
        #expect(r.poll(0x88B4, rc: 1) == .polling(idm: m.idm, pmm: m.pmm, requestData: 0x88B4))
        #expect(r.poll(0x12FC) == nil, "MC[3] = 00: no NDEF")
        #expect(r.blocks(r.read([0x000B], [el(0)])) == [[0xDE, 0xAD, 0xBE, 0xAF, 0, 0, 0, 0, 0, 0, 0, 0, 0xDE, 0xAD, 0xBE, 0xAF]])
        #expect(r.status(r.read([0x000B], [el(1)])) == sf(0x01, 0xB1), "MC[6] = 02: S_PAD1 is read after authentication")
    }

    @Test(.enabled(if: DumpTests.sharedAvailable, "../shared/dumps is not beside this checkout"))
    func flipperStandardWithKeys() throws {
        let d = try loadShared("flipper_Felica_Standard_with_keys.nfc")
        guard case .standard(let systems) = d.memory, let s = systems.first else { Issue.record("not a FeliCa Standard card"); return }
        #expect(systems.count == 1 && s.code == 0x0003 && s.keyVersion == 0x0001)
        #expect(s.nodes == [.area(FeliCaServiceCode(0), end: FeliCaServiceCode(0xFFFE), keyVersion: 2),
                            .service(FeliCaServiceCode(0x0009), keyVersion: 3), .service(FeliCaServiceCode(0x000B), keyVersion: 4)])
        #expect(s.keys[FeliCaServiceCode(0x000B)] == [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])
        #expect(d.notes.contains { $0.contains("overlap service") }, "0009 and 000B block 0 differ in Flipper's synthetic file")
        #expect(d.notes.contains { $0.contains("no authentication") })
        let r = FeliCaReader(d)
        #expect(r.poll(0x0003, rc: 1) == .polling(idm: s.idm, pmm: s.pmm, requestData: 0x0003))
        #expect(r.send(.requestService(idm: s.idm, nodes: [0x0009, 0x000B, 0x0000, 0xFFFF].map { FeliCaServiceCode($0) }))
                == .requestService(idm: s.idm, keyVersions: [3, 4, 2, 1]))
        #expect(r.blocks(r.read([0x000B], [el(0)])) == [Array(1...16)])
        #expect(r.status(r.read([0x000B], [el(1)])) == sf(0x01, 0xA8))
    }

    // `emulate --save` writes a file that loads into the same card.
    @Test(arguments: ["felica-lite-s", "suica", "felica-two-systems"])
    func savedBuiltInsLoadAgain(name: String) throws {
        let dump = try #require(BuiltInTag.named(name)?.make().content as? FeliCaDump)
        let card = try #require(dump.makeTag())
        let again = try TagDump.load(try #require(card.savedDump()), name: "\(name).nfc")
        #expect((again.content as? FeliCaDump)?.memory == dump.memory)
        #expect(again.summary == dump.summary)
    }

    @Test func anOlderStandardFileWithoutSystemLinesIsOneSystem() throws {
        let d = try load(Self.standardHead + "Area found: 1\nArea 000: | Code 0000 | Services #000-#000 |\nService found: 1\nService 000: | Code 1A8B |\n"
                         + "Public blocks read: 1\nBlock 0000: | Service code 1A8B | Block index 00 | Data: 32 30 32 34 00 00 00 00 00 00 00 00 00 00 00 00 |\n")
        guard let f = d.content as? FeliCaDump, case .standard(let systems) = f.memory else { Issue.record("not FeliCa Standard"); return }
        #expect(systems.map(\.code) == [0xFFFF])
        #expect(f.notes.first?.contains("no System line") == true)
        #expect(systems.first?.block(FeliCaServiceCode(0x1A8B), 0)?.prefix(4) == [0x32, 0x30, 0x32, 0x34])
    }

    @Test func aBlockStatusOtherThan0000MeansNotRead() throws {
        let d = try load(Self.liteHead + "Blocks total: 28\nBlock 0: 00 00 11 11 11 11 11 11 11 11 11 11 11 11 11 11 11 11\nBlock 1: 01 A6 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n")
        #expect(d.notes.contains { $0.contains("Block 1 (S_PAD1) was not read (status 01 A6)") })
        #expect(d.notes.contains { $0.contains("26 of 28 Lite-S blocks are not in the file") })
    }

    // MARK: errors name the line or field

    @Test func missingOrUnknownDataFormatVersion() {
        #expect(error(Self.header + "Manufacture id: 01 12 34 56 78 9A BC DE\n")?.field == "Data format version")
        let e = error(Self.standardHead.replacingOccurrences(of: "Data format version: 2", with: "Data format version: 3"))
        #expect(e?.line == 5 && e?.field == "Data format version" && e?.message.contains("unsupported FeliCa data format") == true)
    }

    @Test func identifiersMustBeEightBytes() {
        let e = error(Self.standardHead.replacingOccurrences(of: "Manufacture parameter: 03 01 4B 02 4F 49 93 FF", with: "Manufacture parameter: 03 01 4B"))
        #expect(e?.line == 7 && e?.field == "Manufacture parameter" && e?.message == "expected 8 bytes, found 3")
        #expect(error(Self.header + "Data format version: 2\n")?.field == "Manufacture id")
        let uid = error(Self.standardHead.replacingOccurrences(of: "UID: 01 12", with: "UID: 02 12"))
        #expect(uid?.line == 4 && uid?.field == "UID")
    }

    @Test func liteSBlockErrors() {
        #expect(error(Self.liteHead + "Blocks total: 30\n")?.field == "Blocks total")
        let position = error(Self.liteHead + "Blocks total: 28\nBlock 28: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00\n")
        #expect(position?.line == 9 && position?.field == "Block 28")
        let size = error(Self.liteHead + "Block 3: 00 00 00 00\n")
        #expect(size?.line == 8 && size?.message.contains("18 hex bytes") == true)
        #expect(error(Self.liteHead + "Blocks total: 28\n")?.message == "no blocks in the file")
    }

    @Test func standardLineErrors() {
        let system = Self.standardHead + "System found: 1\nSystem 00: 0003 | Key version 0001 |\n"
        #expect(error(Self.standardHead + "System 00: 00G3 |\n")?.line == 8)
        let attribute = error(system + "Service 000: | Code 090F | Attrib. 0B |\n")
        #expect(attribute?.line == 10 && attribute?.field == "Service 000" && attribute?.message.contains("not the attribute") == true)
        #expect(error(system + "Service 000: | Code 0001 |\n")?.message.contains("no service attribute") == true)
        #expect(error(system + "Area 000: | Code 0009 | End FFFE |\n")?.message.contains("no area code") == true)
        #expect(error(system + "Service 000: | Attrib. 09 |\n")?.message.contains("no \"Code\"") == true)
        #expect(error(system + "Service 000: | Code 0Z09 |\n")?.message.contains("is no hex number") == true)
        let block = error(system + "Service 000: | Code 1A8B |\nBlock 0000: | Service code 1A8B | Block index 00 | Data: 01 02 |\n")
        #expect(block?.line == 11 && block?.message.contains("16 hex bytes") == true)
        let far = error(system + "Service 000: | Code 1A8B |\nBlock 0000: | Service code 1A8B | Block index FFFF | Data: \(Hex.string([UInt8](repeating: 0, count: 16))) |\n")
        #expect(far?.line == 11 && far?.message.contains("blocks 0…1023") == true)
        let stray = error(system + "Block 0000: | Service code 1A8B | Block index 00 | Data: \(Hex.string([UInt8](repeating: 0, count: 16))) |\n")
        #expect(stray?.line == 10 && stray?.message.contains("not in the service list") == true)
        let count = error(Self.standardHead + "System found: 2\nSystem 00: 0003 | Key version 0001 |\n")
        #expect(count?.field == "System found" && count?.line == 8)
        #expect(error(Self.standardHead)?.message == "no system, area or service in the file")
        #expect(error(system + "System 00 Key: XY\n")?.field == "System 00 Key")
    }
}
