import Testing
import PropertyBased
@testable import NFCCore

/// ISO-DEP blocks, APDUs, status words, BER-TLV and the Type 4 CC (issue 20), against the fact
/// sheet's examples (protocols-wave2.md §3–4) and by round trips.
@Suite struct ISO7816CodecTests {
    static func hex(_ s: String) -> [UInt8] { Hex.parse(s)! }

    @Test func isoDEPFramesPlaceCIDAndNADFromThePCB() throws {
        let chained = try ISODEPFrame.decode(Self.hex("13 6F 10"))
        #expect(chained.block == .i(chaining: true, cidFollows: false, nadFollows: false, blockNumber: 1) && chained.inf == [0x6F, 0x10])
        let withCID = try ISODEPFrame.decode(Self.hex("0E 01 42 00 A4"))
        #expect(withCID.cid == 0x01 && withCID.nad == 0x42 && withCID.inf == [0x00, 0xA4] && withCID.layout.infStart == 3)
        #expect(try ISODEPFrame.decode([0xF2, 0x01]).waitingTimeExtension?.multiplier == 1)
        #expect(throws: DecodeError.self) { try ISODEPFrame.decode([0x0A]) }   // CID announced, missing
        #expect(throws: DecodeError.self) { try ISODEPFrame.decode([0x01]) }   // no valid PCB
        for pcb: UInt8 in [0x02, 0x03, 0x12, 0x0A, 0xA2, 0xA3, 0xB2, 0xBA, 0xC2, 0xCA, 0xF2, 0xFA] {
            let block = try #require(ISODEPBlock(pcb: pcb))
            #expect(block.pcb == pcb)
        }
    }

    @Test func apduCasesShortAndExtended() throws {
        let select = try CommandAPDU.decode(Self.hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
        #expect(select.apduCase == .four && select.data == Type4Tag.ndefApplication && select.le == 256 && !select.extended)
        #expect(select.summary == "SELECT by DF name D2760000850101")
        #expect(select.layout.lc?.range == 4..<5 && select.layout.data?.range == 5..<12 && select.layout.le?.range == 12..<13)
        let read = try CommandAPDU.decode(Self.hex("00 B0 00 02 3B"))
        #expect(read.apduCase == .two && read.le == 59 && read.summary == "READ BINARY offset 2, 59 bytes")
        #expect(try CommandAPDU.decode(Self.hex("00 A4 00 0C 02 E1 03")).apduCase == .three)
        #expect(try CommandAPDU.decode(Self.hex("00 70 00 00")).apduCase == .one)
        let e2 = try CommandAPDU.decode(Self.hex("00 B0 00 00 00 01 00"))
        #expect(e2.extended && e2.le == 256 && e2.apduCase == .two)
        let e4 = try CommandAPDU.decode(Self.hex("00 D6 00 00 00 00 02 AA BB 00 00"))
        #expect(e4.extended && e4.data == [0xAA, 0xBB] && e4.le == 65536 && e4.layout.le?.range == 9..<11)
        #expect(throws: DecodeError.self) { try CommandAPDU.decode(Self.hex("00 A4 04 00 07 D2 76")) }
        #expect(throws: DecodeError.self) { try CommandAPDU.decode(Self.hex("00 A4 04")) }
        #expect(throws: DecodeError.self) { try CommandAPDU.decode(Self.hex("00 B0 00 00 00 01")) }
    }

    @Test func apdusRoundTrip() async {
        await propertyCheck(count: 500, input: Gen<UInt8>.value().array(of: 4), Gen.int(in: 0...300), Gen.int(in: 0...3), Gen<UInt8>.value()) { header, n, kind, fill in
            let data = kind & 1 == 1 ? [UInt8](repeating: fill, count: max(1, n)) : []
            let le: Int? = kind & 2 == 2 ? (n == 0 ? 256 : n) : nil
            let apdu = CommandAPDU(cla: header[0], ins: header[1], p1: header[2], p2: header[3], data: data, le: le)
            let bytes = apdu.encode()
            #expect((try? CommandAPDU.decode(bytes)) == apdu, "\(Hex.string(bytes.prefix(12)))")
        }
    }

    @Test func statusWordsAreNamed() throws {
        #expect(StatusWord(0x9000).meaning == "success")
        #expect(StatusWord(0x6A82).meaning == "file or application not found")
        #expect(StatusWord(0x6110).meaning == "16 more bytes available: send GET RESPONSE")
        #expect(StatusWord(0x63C2).meaning == "verification failed, counter 2 (tries left)")
        #expect(StatusWord(0x6C0F).exactLength == 15)
        let r = try ResponseAPDU.decode(Self.hex("E1 10 90 00"))
        #expect(r.data == [0xE1, 0x10] && r.status == .success)
        #expect(throws: DecodeError.self) { try ResponseAPDU.decode([0x90]) }
    }

    /// protocols-wave2.md §3.5: the PPSE answer of the VISA trace.
    @Test func berTLVParsesThePPSEAnswer() throws {
        let fci = Self.hex("6F 2A 84 0E 32 50 41 59 2E 53 59 53 2E 44 44 46 30 31 A5 18 BF 0C 15 61 13 4F 07 A0 00 00 00 03 10 10 87 01 01 9F 0A 04 00 01 01 01")
        let (objects, error) = BERTLV.parse(fci)
        #expect(error == nil && objects.count == 1)
        let aid = try #require(objects.first?.first(0x4F))
        #expect(aid.value == Self.hex("A0000000031010") && aid.valueRange == 27..<34)
        #expect(objects[0].first(0x9F0A)?.tagRange.count == 2)
        #expect(BERTLVTags.name(0xBF0C) == "FCI issuer discretionary data")
        #expect(BERTLVTags.name(0x80, parent: 0x62) == "file size (data bytes)")
        // Damaged input ends the list with an error, never a trap.
        for cut in 0..<fci.count {
            let r = BERTLV.parse(Array(fci.prefix(cut)))
            #expect(cut == 0 || r.error != nil, "cut at \(cut)")
        }
        #expect(BERTLV.parse([0x9F]).error != nil)
        #expect(BERTLV.parse([0x6F, 0x80]).error != nil)
        let deep = [UInt8](repeating: 0x6F, count: 200).enumerated().map { $0.offset % 2 == 0 ? UInt8(0x6F) : UInt8(0x01) }
        _ = BERTLV.parse(deep)
        #expect(BERTLV.encode(tag: 0x9F38, value: [1, 2]) == [0x9F, 0x38, 0x02, 1, 2])
    }

    /// protocols-wave2.md §4.2: libfreefare's DESFire NDEF example.
    @Test func type4CapabilityContainer() throws {
        let bytes = Self.hex("00 0F 20 00 3B 00 34 04 06 E1 04 04 00 00 00")
        let cc = try Type4CapabilityContainer.decode(bytes)
        #expect(cc.ccLength == 15 && cc.versionText == "2.0" && cc.maxReadLength == 59 && cc.maxWriteLength == 52)
        #expect(cc.ndefFile.fileID == 0xE104 && cc.ndefFile.maxSize == 1024 && cc.ndefFile.readAccess == 0 && cc.ndefFile.writeAccess == 0)
        #expect(cc.encode() == bytes)
        let extended = Type4CapabilityContainer(mappingVersion: 0x30, maxReadLength: 0xFF, maxWriteLength: 0xFF,
                                                ndefFile: .init(tag: 0x06, fileID: 0xE104, maxSize: 100_000, readAccess: 0, writeAccess: 0xFF))
        #expect(try Type4CapabilityContainer.decode(extended.encode()) == extended)
        #expect(throws: DecodeError.self) { try Type4CapabilityContainer.decode(Self.hex("00 0F 20 00 3B 00 34 05 06")) }
    }

    @Test func cardNumbersAreMasked() throws {
        #expect(EMV.maskedDigits(Self.hex("47 61 73 90 01 01 01 19")) == "476173••••••0119")
        #expect(EMV.maskedDigits(Self.hex("47 61 73 90 01 01 01 19 D2 51 22 01 12 34 5F")) == "476173••••••0119D2512••••••••")
        // The bytes behind the masked digits: a 16-digit PAN keeps 3 + 2 bytes; a 19-digit one padded
        // with F hides the byte that mixes a hidden digit and a shown one; track 2 shows D and the
        // expiry; a name is hidden whole.
        #expect(EMV.hiddenBytes(tag: 0x5A, value: Self.hex("47 61 73 90 01 01 01 19")) == [3..<6])
        #expect(EMV.hiddenBytes(tag: 0x5A, value: Self.hex("47 61 73 90 01 01 01 19 12 3F")) == [3..<8])
        #expect(EMV.hiddenBytes(tag: 0x57, value: Self.hex("47 61 73 90 01 01 01 19 D2 51 22 01 12 34 5F")) == [3..<6, 10..<15])
        #expect(EMV.hiddenBytes(tag: 0x5F20, value: Array("TEST".utf8)) == [0..<4])
        #expect(EMV.hiddenBytes(tag: 0x5A, value: Self.hex("12 34 56 78")) == [0..<4], "10 digits or fewer: hidden whole")
        // A prefix of an answer: the values it announces, nested ones too, each as long as its length says.
        let prefix = Self.hex("70 1C 57 0F 41 11 11")
        #expect(BERTLV.values(of: BERTLVTags.secret, inPrefix: prefix).map { [Int($0.tag), $0.range.lowerBound, $0.range.upperBound] } == [[0x57, 4, 19]])
        #expect(BERTLV.values(of: BERTLVTags.secret, inPrefix: Self.hex("70 1C 57")).isEmpty)
        #expect(EMV.scheme(Self.hex("A000000025010801")) == "American Express")
        #expect(EMV.describe(tag: 0x94, value: Self.hex("08 01 01 00 10 01 03 01")) == "SFI 1 records 1–1 (0 for offline authentication); SFI 2 records 1–3 (1 for offline authentication)")
        #expect(EMV.describe(tag: 0x9F27, value: [0x80]) == "ARQC (go online)")
        #expect(EMV.describe(tag: 0x94, value: [0x08, 0x01]) == nil)
        let ecp = try AppleECP.decode(Self.hex("6A 02 C8 01 00 03 00 02 79 00 00 00 00"))
        #expect(ecp.terminalTypeName == "transit" && ecp.userAuthenticationRequired == false && ecp.data.count == 8)
        #expect(throws: DecodeError.self) { try AppleECP.decode(Self.hex("6A 02 C8 01 00 03")) }
        #expect(DESFire.summary(code: 0x5A, data: [0x4F, 0x49, 0xD3]) == "SELECT APPLICATION D3494F (HID SIO)")
        let v = try #require(DESFire.Version(Self.hex("04 01 01 01 00 18 05 04 01 01 01 04 18 05 04 6F 16 9A FC 2E 80 BA 54 4D 11 80 23 19")))
        #expect(v.generation == "MIFARE DESFire EV1" && v.storageText == "4096 bytes")
    }

    /// The Visa PDOL and GPO values of `hf_visa_apple_ecp.trace` (protocols-wave2.md §6.4), and
    /// the sheet's TTQ reading of `32 80 40 00`.
    @Test func dataObjectListsSplitTheTerminalsValues() throws {
        let pdol = try #require(EMV.dataObjectList(Self.hex("9F 66 04 9F 02 06 9F 03 06 9F 1A 02 95 05 5F 2A 02 9A 03 9C 01 9F 37 04 9F 4E 14")))
        #expect(pdol.map(\.tagHex) == ["9F66", "9F02", "9F03", "9F1A", "95", "5F2A", "9A", "9C", "9F37", "9F4E"])
        #expect(pdol.reduce(0) { $0 + $1.length } == 53)
        let values = [UInt8](repeating: 0, count: 53)
        #expect(EMV.values(values, for: pdol)?.map(\.range.count) == pdol.map(\.length))
        #expect(EMV.values(Array(values.dropLast()), for: pdol) == nil, "one byte short")
        #expect(EMV.dataObjectList(Self.hex("9F 66")) == nil, "a tag without its length")
        #expect(EMV.describe(tag: 0x9F66, value: Self.hex("32 80 40 00")) == "qVSDC, EMV contact chip, signature, online cryptogram required, consumer device CVM")
        #expect(EMV.describe(tag: 0x9F6C, value: Self.hex("80 80")) == "online PIN required, consumer device CVM performed")
        #expect(EMV.describe(tag: 0x9F6C, value: Self.hex("00 00")) == "none set")
        #expect(EMV.generateACRequest(p1: 0x80) == "ARQC (go online)")
        #expect(EMV.generateACRequest(p1: 0x50) == "TC (approve offline), CDA signature requested")
    }
}
