import Testing
import PropertyBased
@testable import NFCCore

@Suite struct FeliCaResponseTests {
    static func response(kind: Int, _ p: inout BytePool) -> FeliCaResponse {
        switch kind % 11 {
        case 0: return .polling(idm: p.idm(), pmm: p.pmm(), requestData: p.u8() % 2 == 0 ? nil : p.u16())
        case 1:
            let idm = p.idm()
            return .requestService(idm: idm, keyVersions: (0..<Int(p.u8() % 33)).map { _ in p.u16() })
        case 2: return .requestResponse(idm: p.idm(), mode: p.u8())
        case 3:
            let idm = p.idm(), status = p.status()
            let blocks = status.isSuccess ? (0..<Int(p.u8() % 16)).map { _ in p.take(16) } : []
            return .readWithoutEncryption(idm: idm, status: status, blocks: blocks)
        case 4: return .writeWithoutEncryption(idm: p.idm(), status: p.status())
        case 5:
            let idm = p.idm()
            switch p.u8() % 3 {
            case 0: return .searchServiceCode(idm: idm, result: .end)
            case 1: return .searchServiceCode(idm: idm, result: .area(FeliCaServiceCode(number: p.u16() & 0x3FF, attribute: p.u8() & 1),
                                                                      end: p.service()))
            default:
                var s = p.service()
                while s.isArea || s.rawValue == 0xFFFF { s = FeliCaServiceCode(s.rawValue | 0x0009 & ~0x0040) }
                return .searchServiceCode(idm: idm, result: .service(s))
            }
        case 6:
            let idm = p.idm()
            return .requestSystemCode(idm: idm, systemCodes: (0..<Int(p.u8() % 16)).map { _ in p.u16() })
        case 7:
            let idm = p.idm(), status = p.status()
            let version = status.isSuccess
                ? FeliCaSpecificationVersion(formatVersion: p.u8(), basicVersion: p.u16(), optionVersions: (0..<Int(p.u8() % 4)).map { _ in p.u16() })
                : nil
            return .requestSpecificationVersion(idm: idm, status: status, version: version)
        case 8:
            let idm = p.idm(), status = p.status()
            let flag: UInt8? = p.u8() % 2 == 0 ? nil : p.u8()
            return .getSystemStatus(idm: idm, status: status, flag: flag, data: flag == nil ? [] : p.take(Int(p.u8() % 20)))
        case 9: return .resetMode(idm: p.idm(), status: p.status())
        default:
            let (code, idm) = p.otherCode(response: true)
            return .other(code: code, idm: idm, parameters: p.take(Int(p.u8() % 24)))
        }
    }

    @Test func everyResponseRoundTrips() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...10), Gen<UInt8>.value().array(of: 96)) { kind, bytes in
            var pool = BytePool(bytes)
            let r = Self.response(kind: kind, &pool)
            #expect((try? FeliCaResponse.decode(r.encode())) == r)
        }
    }

    static let idm = FeliCaIDm(rawValue: 0x012E_4C1D_6A88_0390)

    @Test func pollingAnswerWithSystemCode() throws {
        // protocols.md §8: Lite-S answer to a Polling with RC 01 ends in the system code 88 B4.
        let bytes = Hex.parse("14 01 01 2E 4C 1D 6A 88 03 90 00 F1 00 00 00 01 43 00 88 B4")!
        let r = try FeliCaResponse.decode(bytes, answering: .polling(systemCode: 0x88B4, requestCode: 1, timeSlots: 0))
        guard case .polling(let idm, let pmm, let rd) = r else { Issue.record("\(r)"); return }
        #expect(idm == Self.idm && pmm.family == .liteS && rd == 0x88B4)
        #expect(r.encode() == bytes)
    }

    @Test func readAnswerCarriesDataOnlyOnSuccess() throws {
        let read = FeliCaCommand.readWithoutEncryption(idm: Self.idm, services: [.cjrcHistory],
                                                       blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)])
        let ok = Hex.parse("1D 07 01 2E 4C 1D 6A 88 03 90 00 00 01") ?? []
        let block = [UInt8](repeating: 0x41, count: 16)
        #expect(try FeliCaResponse.decode(ok + block, answering: read)
                == .readWithoutEncryption(idm: Self.idm, status: .success, blocks: [block]))
        let failed = Hex.parse("0C 07 01 2E 4C 1D 6A 88 03 90 01 A8")!
        let r = try FeliCaResponse.decode(failed, answering: read)
        #expect(r == .readWithoutEncryption(idm: Self.idm, status: FeliCaStatusFlags(sf1: 0x01, sf2: 0xA8), blocks: []))
        #expect(r.status?.meaning == "illegal block number (beyond the service's size)")
        #expect(throws: DecodeError(offset: 13, expected: "16 bytes of block 1 of 1", found: "15 bytes")) {
            try FeliCaResponse.decode(Hex.parse("1C 07 01 2E 4C 1D 6A 88 03 90 00 00 01")! + block.dropLast(), answering: read)
        }
    }

    @Test func aResponseToAnotherCommandIsRefusedInContext() {
        let bytes = Hex.parse("0C 09 01 2E 4C 1D 6A 88 03 90 00 00")!
        let read = FeliCaCommand.readWithoutEncryption(idm: Self.idm, services: [.cjrcHistory],
                                                       blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)])
        #expect(throws: DecodeError(offset: 1, expected: "response code 0x07 (Read Without Encryption response)",
                                    found: "0x09 (Write Without Encryption response)")) {
            try FeliCaResponse.decode(bytes, answering: read)
        }
        #expect((try? FeliCaResponse.decode(bytes)) == .writeWithoutEncryption(idm: Self.idm, status: .success))
    }

    @Test func searchServiceCodeTellsAreasFromServices() throws {
        let area = try FeliCaResponse.decode(Hex.parse("0E 0B 01 2E 4C 1D 6A 88 03 90 00 00 FE FF")!)
        #expect(area == .searchServiceCode(idm: Self.idm, result: .area(FeliCaServiceCode(0x0000), end: FeliCaServiceCode(0xFFFE))))
        let service = try FeliCaResponse.decode(Hex.parse("0C 0B 01 2E 4C 1D 6A 88 03 90 0F 09")!)
        #expect(service == .searchServiceCode(idm: Self.idm, result: .service(.cjrcHistory)))
        #expect(try FeliCaResponse.decode(Hex.parse("0C 0B 01 2E 4C 1D 6A 88 03 90 FF FF")!) == .searchServiceCode(idm: Self.idm, result: .end))
        #expect(throws: DecodeError(offset: 12, expected: "area end code (2 bytes, little endian)", found: "end of data")) {
            try FeliCaResponse.decode(Hex.parse("0C 0B 01 2E 4C 1D 6A 88 03 90 40 00")!)
        }
    }

    @Test func systemCodesAreBigEndianAndVersionsBCD() throws {
        let codes = try FeliCaResponse.decode(Hex.parse("0F 0D 01 2E 4C 1D 6A 88 03 90 02 8E 4B FE 00")!)
        #expect(codes == .requestSystemCode(idm: Self.idm, systemCodes: [0x8E4B, 0xFE00]))
        let spec = try FeliCaResponse.decode(Hex.parse("12 3D 01 2E 4C 1D 6A 88 03 90 00 00 00 10 01 01 00 02")!)
        guard case .requestSpecificationVersion(_, _, let v?) = spec else { Issue.record("\(spec)"); return }
        #expect(v.basicVersion == 0x0110 && v.optionVersions == [0x0200])
        #expect(FeliCaSpecificationVersion.text(v.basicVersion) == "1.10")
    }

    // protocols.md §5.6 and §9 #12: SF1 is a 1-based number (Sony) or a bit mask (Lite-S, nfcpy).
    @Test func statusFlagsNameTheirMeaningAndLocation() {
        let a1 = FeliCaStatusFlags(sf1: 0xFF, sf2: 0xA1)
        #expect(!a1.isSuccess && a1.location == .command)
        #expect(a1.meaning == "illegal number of services or nodes" && a1.locationDescription == "not tied to a list element")
        let a8 = FeliCaStatusFlags(sf1: 0x01, sf2: 0xA8)
        #expect(a8.location == .listElement(number: 1, maskElements: [0]) && a8.locationDescription == "list element 1")
        #expect(FeliCaStatusFlags(sf1: 0x02, sf2: 0xA8).locationDescription == "list element 2")
        #expect(FeliCaStatusFlags(sf1: 0x03, sf2: 0xA8).locationDescription == "list element 3 (read as a bit mask: elements 1 and 2)")
        #expect(FeliCaStatusFlags(sf1: 0x04, sf2: 0xB1).locationDescription == "list element 4 (read as a bit mask: element 3)")
        #expect(FeliCaStatusFlags(sf1: 0x00, sf2: 0x71).isSuccess && FeliCaStatusFlags(sf1: 0x00, sf2: 0x71).isWarning)
        #expect(FeliCaStatusFlags(sf1: 0xFF, sf2: 0x42).meaning == "undefined SF2 0x42")
        #expect(FeliCaStatusFlags.success.locationDescription == nil)
    }
}
