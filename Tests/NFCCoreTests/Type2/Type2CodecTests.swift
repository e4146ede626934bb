import Testing
import PropertyBased
@testable import NFCCore

@Suite struct Type2CodecTests {
    /// Builds one command of each kind from random bytes.
    static func command(kind: Int, bytes b: [UInt8]) -> Type2Command {
        switch kind % 17 {
        case 0: return .getVersion
        case 1: return .read(page: b[0])
        case 2: return .fastRead(start: b[0], end: b[1])
        case 3: return .write(page: b[0], data: Array(b[1...4]))
        case 4: return .compatibilityWrite(page: b[0])
        case 5: return .readCounter(counter: b[0])
        case 6: return .incrementCounter(counter: b[0], increment: UInt32(b[1]) | UInt32(b[2]) << 8 | UInt32(b[3]) << 16, ignored: b[4])
        case 7: return .pwdAuth(password: Array(b[0...3]))
        case 8: return .readSignature(address: b[0])
        case 9: return .writeSignature(block: b[0], data: Array(b[1...4]))
        case 10: return .lockSignature(argument: b[0])
        case 11: return .checkTearingEvent(counter: b[0])
        case 12: return .vcsl(installationIdentifier: Array(b[0..<16]), pcdCapabilities: Array(b[16..<20]))
        case 13: return .sectorSelect
        case 14: return .authenticate(keyNumber: b[0])
        case 15: return .authenticateContinue(Array(b[0..<16]))
        default: return .read(page: b[1])
        }
    }

    @Test func everyCommandRoundTrips() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 0...16), Gen<UInt8>.value().array(of: 20)) { kind, bytes in
            let c = Self.command(kind: kind, bytes: bytes)
            #expect((try? Type2Command.decode(c.encode())) == c)
        }
    }

    /// The layout tables (issue 17) say where encode puts each value, and every command's
    /// encoding has the length its code requires.
    @Test func layoutTablesSayWhereEncodePutsEachValue() async {
        typealias L = Type2Command.Layout
        let inc = Type2Command.incrementCounter(counter: 2, increment: 0x03_0201, ignored: 0xEE).encode()
        #expect(Array(inc[L.code.range]) == [0xA5] && Array(inc[L.counter.range]) == [2])
        #expect(Array(inc[L.increment.range]) == [1, 2, 3] && Array(inc[L.ignored.range]) == [0xEE])
        let iid = [UInt8](1...16), caps: [UInt8] = [0xA, 0xB, 0xC, 0xD]
        let vcsl = Type2Command.vcsl(installationIdentifier: iid, pcdCapabilities: caps).encode()
        #expect(Array(vcsl[L.installationIdentifier.range]) == iid && Array(vcsl[L.pcdCapabilities.range]) == caps)
        let write = Type2Command.write(page: 7, data: [1, 2, 3, 4]).encode()
        #expect(Array(write[L.page.range]) == [7] && Array(write[L.writeData.range]) == [1, 2, 3, 4])
        #expect(Type2Response.counter(0x03_0201).encode().bytes == [1, 2, 3])
        #expect(Type2Response.Layout.page(2) == 8..<12)
        await propertyCheck(count: 500, input: Gen.int(in: 0...15), Gen<UInt8>.value().array(of: 20)) { kind, bytes in
            let c = Self.command(kind: kind, bytes: bytes)
            if case .authenticateContinue(let data) = c {
                // 16 bytes (Ultralight C) or 32 (AES) after the code: the layout for that length.
                #expect(c.encode().count == Type2Command.Layout.authenticationData(payloadCount: data.count + 1)?.end, "\(c.code.name)")
            } else {
                #expect(c.encode().count == c.code.payloadLength, "\(c.code.name)")
            }
        }
        let aes = Type2Command.authenticateContinue([UInt8](1...32))
        #expect((try? Type2Command.decode(aes.encode())) == aes)
        #expect(throws: DecodeError.self) { try Type2Command.decode([0xAF] + [UInt8](repeating: 0, count: 20)) }
    }

    /// Decode and encode read one table: each code's rows follow the code byte without gap or
    /// overlap, and any payload of a code's length decodes and encodes back to itself.
    @Test func oneRowTableForDecodeAndEncode() async {
        for code in Type2Command.Code.allCases {
            guard let rows = code.rows else { continue }
            var end = Type2Command.Layout.code.end
            for row in rows {
                #expect(row.offset == end, "\(code.name): \(row.expected) at \(row.offset), expected \(end)")
                end = row.end
            }
            #expect(code.payloadLength == end)
        }
        for continuation in [Type2Command.Continuation.compatibilityWriteData(page: 4), .sectorSelectSector] {
            #expect(continuation.rows?.first?.offset == 0)
        }
        await propertyCheck(count: 1000, input: Gen.int(in: 0...(Type2Command.Code.allCases.count - 1)), Gen<UInt8>.value().array(of: 40)) { i, bytes in
            let code = Type2Command.Code.allCases[i]
            let length = code.payloadLength ?? 17
            var payload = [code.rawValue] + Array(bytes.prefix(length - 1))
            if code == .sectorSelect { payload[1] = 0xFF }
            let decoded = try? Type2Command.decode(payload)
            #expect(decoded?.encode() == payload, "\(code.name) \(Hex.string(payload))")
        }
        let sector = Type2Command.sectorSelectSector(sector: 2, rfu: [1, 2, 3])
        #expect((try? Type2Command.decode(sector.encode(), continuation: .sectorSelectSector)) == sector)
        #expect(throws: DecodeError(offset: 1, expected: "3 RFU bytes of SECTOR_SELECT packet 2", found: "2 bytes")) {
            try Type2Command.decode([0x01, 0, 0], continuation: .sectorSelectSector)
        }
        #expect(throws: DecodeError(offset: 4, expected: "end of SECTOR_SELECT packet 2", found: "1 extra byte")) {
            try Type2Command.decode([0x01, 0, 0, 0, 0], continuation: .sectorSelectSector)
        }
    }

    @Test func secondPacketsDecodeInContext() throws {
        let data = Array(0..<16).map(UInt8.init)
        #expect(try Type2Command.decode(data, continuation: .compatibilityWriteData(page: 4)) == .compatibilityWriteData(data))
        #expect(try Type2Command.decode([0x01, 0, 0, 0], continuation: .sectorSelectSector) == .sectorSelectSector(sector: 1, rfu: [0, 0, 0]))
        #expect(throws: DecodeError(offset: 0, expected: "16 data bytes of COMPATIBILITY_WRITE part 2", found: "4 bytes")) {
            try Type2Command.decode([1, 2, 3, 4], continuation: .compatibilityWriteData(page: 4))
        }
    }

    @Test(arguments: [
        ([0x30], DecodeError(offset: 1, expected: "READ of 2 bytes (without CRC)", found: "1 bytes")),
        ([0xA2, 0x04, 0x01], DecodeError(offset: 3, expected: "WRITE of 6 bytes (without CRC)", found: "3 bytes")),
        ([0x1B, 1, 2, 3, 4, 5], DecodeError(offset: 5, expected: "PWD_AUTH of 5 bytes (without CRC)", found: "6 bytes")),
        ([0x99], DecodeError(offset: 0, expected: "a Type 2 / NTAG command code", found: "0x99")),
        ([], DecodeError(offset: 0, expected: "command code", found: "end of data")),
        ([0xC2, 0x00], DecodeError(offset: 1, expected: "FF", found: "0x00")),
    ] as [([UInt8], DecodeError)])
    func malformedCommandsNameOffsetAndExpectation(bytes: [UInt8], error: DecodeError) {
        #expect(throws: error) { try Type2Command.decode(bytes) }
    }

    @Test func answersAreReadInTheContextOfTheirCommand() throws {
        let sixteen = [UInt8](repeating: 0xAA, count: 16)
        #expect(try Type2Response.decode(sixteen, answering: .read(page: 4)) == .pages(firstPage: 4, data: sixteen))
        #expect(try Type2Response.decode([0x80, 0x80], answering: .pwdAuth(password: [1, 2, 3, 4])) == .pack([0x80, 0x80]))
        #expect(try Type2Response.decode([0x0A], lastByteBits: 4, answering: .write(page: 4, data: [0, 0, 0, 0])) == .acknowledgement(.ack))
        #expect(try Type2Response.decode([0x00], lastByteBits: 4, answering: .pwdAuth(password: [1, 2, 3, 4])) == .acknowledgement(.nak(.invalidArgument)))
        // A 4-bit NAK answers a READ just as well; a capture without bit counts still shows it as one byte.
        #expect(try Type2Response.decode([0x04], answering: .read(page: 0x90)) == .acknowledgement(.nak(.authenticationCounterOverflow)))
        #expect(try Type2Response.decode([0x05, 0x00, 0x00], answering: .readCounter(counter: 2)) == .counter(5))
        #expect(try Type2Response.decode([0xBD], answering: .checkTearingEvent(counter: 0)) == .tearingFlag(0xBD))
        #expect(try Type2Response.decode([UInt8](repeating: 1, count: 12), answering: .fastRead(start: 4, end: 6)) == .pages(firstPage: 4, data: [UInt8](repeating: 1, count: 12)))
        #expect(throws: DecodeError(offset: 0, expected: "12 bytes (3 pages)", found: "16 bytes")) {
            try Type2Response.decode(sixteen, answering: .fastRead(start: 4, end: 6))
        }
        #expect(throws: DecodeError(offset: 0, expected: "ACK (A) or NAK (0, 1, 4, 5)", found: "0x07")) {
            try Type2Response.decode([0x07], lastByteBits: 4, answering: .write(page: 4, data: [0, 0, 0, 0]))
        }
    }

    @Test func acknowledgementNibbles() {
        #expect(Type2Acknowledgement(nibble: 0xA) == .ack)
        for n in [0, 1, 4, 5] as [UInt8] { #expect(Type2Acknowledgement(nibble: n) == .nak(Type2Acknowledgement.NAK(rawValue: n)!)) }
        for n in [2, 3, 6, 7, 8, 9, 0xB, 0xF] as [UInt8] { #expect(Type2Acknowledgement(nibble: n) == nil) }
    }

    // protocols.md §2.3: GET_VERSION answers name the model.
    @Test(arguments: [
        ("00 04 04 02 01 00 0F 03", Type2TagModel.ntag213, 144),
        ("00 04 04 02 01 00 11 03", .ntag215, 504),
        ("00 04 04 02 01 00 13 03", .ntag216, 888),
        ("00 04 03 01 01 00 0B 03", .ultralightEV1_11, 48),
        ("00 04 03 01 01 00 0E 03", .ultralightEV1_21, 128),
        ("00 04 03 02 01 00 0B 03", .ultralightEV1_11, 48),
        ("00 04 04 01 01 00 0B 03", .ntag210, 48),
        ("00 04 04 01 01 00 0E 03", .ntag212, 128),
        ("00 04 04 04 01 00 0F 03", .ntag213F, 144),
        ("00 04 04 04 01 00 13 03", .ntag216F, 888),
    ] as [(String, Type2TagModel, Int)])
    func versionNamesTheModel(version: String, model: Type2TagModel, userBytes: Int) throws {
        let v = try Type2Version.decode(Hex.parse(version)!)
        #expect(v.model == model)
        #expect(model.memoryMap.userBytes == userBytes)
        if let own = model.version { #expect(Type2TagModel(version: own) == model) }
    }

    @Test func ntag215Summary() {
        #expect(Type2TagModel.ntag215.summary == "NTAG215, 504 bytes user memory")
        #expect(Type2Version(bytes: Hex.parse("00 04 04 02 01 00 0F 03")!).storageSizeDescription == "between 128 and 256 bytes")
        #expect(Type2Version(bytes: Hex.parse("00 04 03 01 01 00 0E 03")!).storageSizeDescription == "128 bytes")
    }

    // protocols.md §2.4: NTAG215 pages.
    @Test func ntag215MemoryMap() {
        let map = Type2TagModel.ntag215.memoryMap
        #expect(map.totalPages == 135)
        #expect(map.region(ofPage: 0) == .uid && map.region(ofPage: 2) == .staticLock && map.region(ofPage: 3) == .capabilityContainer)
        #expect(map.region(ofPage: 0x04) == .user && map.region(ofPage: 0x81) == .user)
        #expect(map.region(ofPage: 0x82) == .dynamicLock)
        #expect(map.region(ofPage: 0x83) == .cfg0 && map.region(ofPage: 0x84) == .cfg1)
        #expect(map.region(ofPage: 0x85) == .pwd && map.region(ofPage: 0x86) == .pack)
        #expect(map.region(ofPage: 0x87) == .beyond)
        #expect(map.regions.map(\.region) == [.uid, .staticLock, .capabilityContainer, .user, .dynamicLock, .cfg0, .cfg1, .pwd, .pack])
        #expect(map.regions[3].pages == 4...0x81)
    }

    @Test func configurationBits() throws {
        let c = try #require(Type2Configuration(family: .ntag21x, cfg0: [0x04, 0, 0, 0x10], cfg1: [0xD3, 0, 0, 0]))
        #expect(c.auth0 == 0x10)
        #expect(c.readProtected && c.configLocked && c.nfcCounterEnabled && !c.nfcCounterPasswordProtected)
        #expect(c.authenticationLimit == 3)
        #expect(c.strongModulation)
        #expect(Type2Configuration(family: .ntag21x, cfg0: [0], cfg1: [0, 0, 0, 0]) == nil)
    }
}
