import Testing
import PropertyBased
@testable import NFCCore

/// Draws protocol values from a pool of random bytes (wrapping), so that one random array
/// can build any command or response.
struct BytePool {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes.isEmpty ? [0] : bytes }

    mutating func u8() -> UInt8 {
        defer { index += 1 }
        return bytes[index % bytes.count]
    }

    mutating func u16() -> UInt16 { UInt16(u8()) << 8 | UInt16(u8()) }
    mutating func take(_ n: Int) -> [UInt8] { (0..<n).map { _ in u8() } }
    mutating func idm() -> FeliCaIDm { FeliCaIDm(take(8)) ?? FeliCaIDm(rawValue: 0) }
    mutating func pmm() -> FeliCaPMm { FeliCaPMm(take(8)) ?? FeliCaPMm(rawValue: 0) }
    mutating func service() -> FeliCaServiceCode { FeliCaServiceCode(u16()) }
    mutating func status() -> FeliCaStatusFlags { FeliCaStatusFlags(sf1: u8() % 3 == 0 ? 0 : u8(), sf2: u8()) }

    mutating func element() -> FeliCaBlockListElement {
        let head = u8()
        let threeByte = head & 0x80 == 0
        let number = threeByte ? u16() : UInt16(u8())
        return FeliCaBlockListElement(serviceOrder: head & 0x0F, blockNumber: number, accessMode: head >> 4 & 7,
                                      form: threeByte ? .threeByte : .twoByte)
    }

    /// A code without a public layout, with an IDm exactly when the code table says so.
    mutating func otherCode(response: Bool) -> (FeliCaCode, FeliCaIDm?) {
        var code = FeliCaCode(u8())
        while code.hasPublicLayout || code == FeliCaCode(0xF0) { code = FeliCaCode(u8() &+ 1) }
        code = response ? code.response : code.command
        return (code, code.carriesIDm == true ? idm() : nil)
    }
}

@Suite struct FeliCaCodecTests {
    static func command(kind: Int, _ p: inout BytePool) -> FeliCaCommand {
        switch kind % 11 {
        case 0: return .polling(systemCode: p.u16(), requestCode: p.u8(), timeSlots: p.u8())
        case 1:
            let idm = p.idm()
            return .requestService(idm: idm, nodes: (0..<Int(p.u8() % 33)).map { _ in p.service() })
        case 2: return .requestResponse(idm: p.idm())
        case 3, 4:
            // A frame holds at most 255 bytes: a Write keeps its lists short enough for its data.
            let write = kind % 11 == 4
            let idm = p.idm()
            let services = (0..<Int(1 + p.u8() % (write ? 4 : 16))).map { _ in p.service() }
            let blocks = (0..<Int(1 + p.u8() % (write ? 12 : 15))).map { _ in p.element() }
            if !write { return .readWithoutEncryption(idm: idm, services: services, blocks: blocks) }
            return .writeWithoutEncryption(idm: idm, services: services, blocks: blocks, data: p.take(16 * blocks.count))
        case 5: return .searchServiceCode(idm: p.idm(), index: p.u16())
        case 6: return .requestSystemCode(idm: p.idm())
        case 7: return .requestSpecificationVersion(idm: p.idm(), reserved: p.u16())
        case 8: return .getSystemStatus(idm: p.idm(), reserved: p.u16())
        case 9: return .resetMode(idm: p.idm(), reserved: p.u16())
        default:
            let (code, idm) = p.otherCode(response: false)
            return .other(code: code, idm: idm, parameters: p.take(Int(p.u8() % 24)))
        }
    }

    @Test func everyCommandRoundTrips() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...10), Gen<UInt8>.value().array(of: 64)) { kind, bytes in
            var pool = BytePool(bytes)
            let c = Self.command(kind: kind, &pool)
            let encoded = c.encode()
            #expect(encoded.first.map(Int.init) == encoded.count, "LEN counts itself and the payload")
            #expect((try? FeliCaCommand.decode(encoded)) == c)
        }
    }

    // protocols.md §5.1 / §8 vectors: payload and CRC_F as sent.
    @Test(arguments: [
        (FeliCaCommand.polling(systemCode: 0xFFFF, requestCode: 0, timeSlots: 0), "06 00 FF FF 00 00 09 21"),
        (.polling(systemCode: 0xFFFF, requestCode: 1, timeSlots: 0), "06 00 FF FF 01 00 3A 10"),
        (.polling(systemCode: 0x12FC, requestCode: 0, timeSlots: 0), "06 00 12 FC 00 00 ED 1D"),
        (.polling(systemCode: 0xFFFF, requestCode: 1, timeSlots: 3), "06 00 FF FF 01 03 0A 73"),
    ] as [(FeliCaCommand, String)])
    func pollingMatchesThePublishedVectors(command: FeliCaCommand, frame: String) {
        #expect(CRC.appending(.felica, to: command.encode()) == Hex.parse(frame))
    }

    @Test func serviceCodesAndBlockNumbersAreLittleEndianOnAir() throws {
        let idm = try #require(FeliCaIDm(Hex.parse("01 2E 4C 1D 6A 88 03 90")!))
        let read = FeliCaCommand.readWithoutEncryption(
            idm: idm, services: [.cjrcHistory],
            blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 5), FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0x0134)])
        #expect(Hex.string(read.encode()) == "13 06 01 2E 4C 1D 6A 88 03 90 01 0F 09 02 80 05 00 34 01")
        #expect(try FeliCaCommand.decode(read.encode()) == read)
    }

    @Test func blockListElementForms() {
        #expect(FeliCaBlockListElement(serviceOrder: 0, blockNumber: 5).bytes == [0x80, 0x05])
        #expect(FeliCaBlockListElement(serviceOrder: 2, blockNumber: 7, accessMode: 1).bytes == [0x92, 0x07])
        #expect(FeliCaBlockListElement(serviceOrder: 1, blockNumber: 0x1234).bytes == [0x01, 0x34, 0x12])
        // A small block number may still be sent in the 3-byte form; it encodes back the same way.
        let long = FeliCaBlockListElement(serviceOrder: 0, blockNumber: 3, form: .threeByte)
        #expect(long.bytes == [0x00, 0x03, 0x00])
        #expect(FeliCaBlockListElement(serviceOrder: 3, blockNumber: 9, accessMode: 1).description == "block 9 of service #3, purse cash-back")
    }

    @Test(arguments: [
        ("", DecodeError(offset: 0, expected: "LEN", found: "end of data")),
        ("07 00 FF FF 00 00", DecodeError(offset: 0, expected: "LEN 0x06 (6 bytes without CRC_F)", found: "0x07")),
        ("04 00 FF FF", DecodeError(offset: 4, expected: "request code", found: "end of data")),
        ("07 00 FF FF 00 00 00", DecodeError(offset: 6, expected: "end of Polling", found: "1 extra byte")),
        ("09 06 01 2E 4C 1D 6A 88 03", DecodeError(offset: 2, expected: "8-byte IDm", found: "7 bytes")),
        // One 3-byte block list element whose block number is cut short.
        ("10 06 01 2E 4C 1D 6A 88 03 90 01 0F 09 01 00 05",
         DecodeError(offset: 15, expected: "2-byte block number of block list element 1 (3-byte form)", found: "1 byte")),
        // Two services announced, one given.
        ("0D 06 01 2E 4C 1D 6A 88 03 90 02 0F 09",
         DecodeError(offset: 13, expected: "service code 2 of 2 (2 bytes, little endian)", found: "end of data")),
        // Write of one block with 4 data bytes.
        ("14 08 01 2E 4C 1D 6A 88 03 90 01 09 00 01 80 00 01 02 03 04",
         DecodeError(offset: 16, expected: "16 bytes of block data (16 per block)", found: "4 bytes")),
    ] as [(String, DecodeError)])
    func malformedCommandsNameOffsetAndExpectation(hex: String, error: DecodeError) {
        #expect(throws: error) { try FeliCaCommand.decode(Hex.parse(hex) ?? []) }
    }

    @Test func wrongLENStillDecodesWhenNotChecked() throws {
        let bytes = Hex.parse("09 00 FF FF 01 00")!
        #expect(FeliCaLength.check(bytes) == .mismatch(declared: 9, actual: 6))
        #expect(try FeliCaCommand.decode(bytes, checkingLength: false) == .polling(systemCode: 0xFFFF, requestCode: 1, timeSlots: 0))
    }

    @Test func otherCodesAreNamedAndSizedWithTheirIDm() throws {
        let auth1 = try FeliCaCommand.decode(Hex.parse("14 10 01 2E 4C 1D 6A 88 03 90 01 00 00 01 0F 09 AA BB CC DD")!)
        guard case .other(let code, let idm, let parameters) = auth1 else { Issue.record("not .other"); return }
        #expect(code.name == "Authentication1")
        #expect(idm?.description == "01 2E 4C 1D 6A 88 03 90")
        #expect(parameters.count == 10)
        #expect(FeliCaCode(0x71).name == "Get Container ID response" && FeliCaCode(0x70).carriesIDm == false)
        #expect(FeliCaCode(0x5A).name == "unknown code 0x5A" && FeliCaCode(0x5A).carriesIDm == nil)
        #expect(FeliCaCode.nfcDEPName(0x00) == "ATR_REQ")
    }

    @Test func listProblemsGiveTheStatusACardAnswers() {
        let idm = FeliCaIDm(rawValue: 0x012E_4C1D_6A88_0390)
        let tooMany = FeliCaCommand.readWithoutEncryption(idm: idm, services: Array(repeating: .cjrcHistory, count: 17),
                                                          blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)])
        #expect(tooMany.listProblems.map(\.statusFlag2) == [0xA1])
        let badOrder = FeliCaCommand.readWithoutEncryption(idm: idm, services: [.cjrcHistory],
                                                           blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0),
                                                                    FeliCaBlockListElement(serviceOrder: 2, blockNumber: 1, accessMode: 3)])
        #expect(badOrder.listProblems == [
            FeliCaListProblem(statusFlag2: 0xA3, element: 1, message: "block list element 2 names service #2, the list has 1"),
            FeliCaListProblem(statusFlag2: 0xA7, element: 1, message: "block list element 2 uses undefined access mode 3"),
        ])
        let none = FeliCaCommand.readWithoutEncryption(idm: idm, services: [.cjrcHistory], blocks: [])
        #expect(none.listProblems.map(\.statusFlag2) == [0xA2])
        #expect(FeliCaCommand.requestResponse(idm: idm).listProblems.isEmpty)
    }

    // protocols.md §5.2: the system number is the upper nibble of IDm byte 0.
    @Test func idmCarriesTheSystemNumberAndMaker() throws {
        let idm = try #require(FeliCaIDm(Hex.parse("01 2E 4C 1D 6A 88 03 90")!))
        #expect(idm.systemNumber == 0)
        let other = idm.inSystem(1)
        #expect(other.description == "11 2E 4C 1D 6A 88 03 90" && other.systemNumber == 1)
        #expect(other.isSameCard(as: idm) && other != idm)
        #expect(!idm.isSameCard(as: FeliCaIDm(rawValue: 0x012E_4C1D_6A88_0391)))
        #expect(idm.manufacturerCode == 0x012E && other.manufacturerCode == 0x012E)
        #expect(idm.cardIdentificationNumber == [0x4C, 0x1D, 0x6A, 0x88, 0x03, 0x90])
        #expect(FeliCaIDm(Hex.parse("03 FE FF E0 01 02 03 04")!)?.kind == .dataFormatCode(0xFFE0))
        #expect(FeliCaIDm(Hex.parse("14 FE 00 11 22 33 44 55")!)?.kind == .randomID)
        #expect(FeliCaIDm(Hex.parse("02 FE 00 11 22 33 44 55")!)?.kindDescription == "NFC Forum Type 3 Tag (random ID)")
        #expect(FeliCaIDm([1, 2, 3]) == nil)
    }

    @Test func pmmNamesTheICAndTimesOut() throws {
        let suica = try #require(FeliCaPMm(Hex.parse("03 01 4B 02 4F 49 93 FF")!))
        #expect(suica.icName == "FeliCa Standard (RC-S915)" && suica.family == .standard)
        let liteS = try #require(FeliCaPMm(Hex.parse("00 F1 00 00 00 01 43 00")!))
        #expect(liteS.family == .liteS && liteS.icName == "FeliCa Lite-S (RC-S966)")
        #expect(FeliCaPMm(rawValue: 0x00AA_0000_0000_0000).icName == nil)
        // Read byte 0x49: E = 1, B = 1, A = 1: Tt × ((1+1)·n + 1 + 1) × 4; Tt = 256·16/13.56 MHz.
        let tt = 256.0 * 16.0 / 13.56
        #expect(abs(suica.maximumResponseTime(.read, units: 1) - tt * 4 * 4) < 0.001)
        #expect(abs(suica.maximumResponseTime(.read, units: 10) - tt * 22 * 4) < 0.001)
        // Lite-S read byte 0x01: E = 0, B = 0, A = 1 → Tt × (n + 2).
        #expect(abs(liteS.maximumResponseTime(.read, units: 4) - tt * 6) < 0.001)
    }

    @Test func serviceCodesSplitNumberAndAttribute() {
        let history = FeliCaServiceCode.cjrcHistory
        #expect(history.onAir == [0x0F, 0x09] && history.number == 36 && history.attribute == 0x0F)
        #expect(history.organisation == .cyclic && !history.needsKey && !history.isWritable)
        #expect(history.detailedDescription == "090F (number 36, cyclic, read-only, without key)")
        #expect(FeliCaServiceCode(0x1A8B).number == 106 && FeliCaServiceCode(0x1A8B).attributeMeaning == "random, read-only, without key")
        #expect(FeliCaServiceCode(0x0009).isWritable && FeliCaServiceCode(0x0009).attributeMeaning == "random, read/write, without key")
        #expect(FeliCaServiceCode(0x1008).needsKey && FeliCaServiceCode(0x1008).isWritable)
        #expect(FeliCaServiceCode(0x0000).isArea && FeliCaServiceCode(0x0001).isArea && !FeliCaServiceCode(0x0009).isArea)
        #expect(FeliCaServiceCode(number: 36, attribute: 0x0F) == history)
        #expect(FeliCaServiceCode(0x0017).attributeMeaning == "purse, read-only, without key")
        #expect(FeliCaServiceCode(0x0003).attributeMeaning == "undefined attribute 03")
        #expect(history.knownUse(inSystem: 0x0003) == "CJRC transit history" && history.knownUse(inSystem: 0xFE00) == nil)
    }

    @Test func systemCodesAreNamedAndWildcardsMatch() {
        #expect(FeliCaSystemCode.describe(0xFE00) == "FE00 (FeliCa common area)")
        #expect(FeliCaSystemCode.describe(0x8E4B) == "8E4B (not in any consulted list)")
        #expect(FeliCaSystemCode.polling(0xFFFF, matches: 0x8E4B))
        #expect(FeliCaSystemCode.polling(0xFE00, matches: 0xFE00) && !FeliCaSystemCode.polling(0xFE00, matches: 0x0003))
        #expect(FeliCaSystemCode.polling(0x88FF, matches: 0x88B4) && !FeliCaSystemCode.polling(0x88FF, matches: 0x12FC))
    }

    /// Random frames with a right LEN and a code from the table: decoding never traps, and whatever
    /// decodes encodes back to the very same bytes (the codec is canonical, so the emulator and the
    /// fuzzer can rely on decode → encode).
    @Test func randomFramesNeverTrapAndDecodeCanonically() async {
        let codes: [UInt8] = [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
                              0x10, 0x11, 0x12, 0x13, 0x2E, 0x38, 0x39, 0x3C, 0x3D, 0x3E, 0x3F, 0x70, 0xD4, 0xF0, 0x5A]
        await propertyCheck(count: 5000, input: Gen.int(in: 0...(codes.count - 1)), Gen<UInt8>.value().array(of: 0...60)) { i, rest in
            let payload = FeliCaLength.prefixed([codes[i]] + rest)
            if let c = try? FeliCaCommand.decode(payload) { #expect(c.encode() == payload) }
            if let r = try? FeliCaResponse.decode(payload) { #expect(r.encode() == payload) }
            // Truncations and a wrong LEN must throw or decode, never trap.
            for n in [0, 1, 2, payload.count / 2] { _ = try? FeliCaCommand.decode(Array(payload.prefix(n))) }
            _ = try? FeliCaResponse.decode([payload[0] &+ 1] + payload.dropFirst(), checkingLength: false)
        }
    }
}
