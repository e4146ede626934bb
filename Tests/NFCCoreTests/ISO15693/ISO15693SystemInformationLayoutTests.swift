import Testing
import PropertyBased
import NFCCore

/// Get System Information's one layout, a function of the information flags: decode, encode
/// and the dissector read it.
@Suite struct ISO15693SystemInformationLayoutTests {
    static let uid = ISO15693UID(value: 0xE004_0108_49D0_DC81)
    static let get = ISO15693Request(flags: .nonAddressed(), command: .getSystemInformation)
    static let extended = ISO15693Request(flags: .nonAddressed(), command: .extendedGetSystemInformation(infoRequest: 0xFF))

    @Test func fieldsFollowTheFlags() {
        typealias S = ISO15693SystemInformation
        let all = S.Fields(infoFlags: 0x0F, layout: .standard)
        #expect(all.dsfid?.range == 10..<11 && all.afi?.range == 11..<12)
        #expect(all.blockCount?.range == 12..<13 && all.blockSize?.range == 13..<14 && all.memorySize == 12..<14)
        #expect(all.icReference?.range == 14..<15 && all.commandList == nil && all.rest == 15)
        let sparse = S.Fields(infoFlags: 0x0A, layout: .standard)
        #expect(sparse.dsfid == nil && sparse.afi?.range == 10..<11 && sparse.blockCount == nil && sparse.icReference?.range == 11..<12)
        let wide = S.Fields(infoFlags: 0x14, layout: .standard)
        #expect(wide.blockCount?.range == 10..<12 && wide.blockSize?.range == 12..<13)
        let ext = S.Fields(infoFlags: 0x2C, layout: .extended)
        #expect(ext.blockCount?.width == 2 && ext.icReference?.range == 13..<14 && ext.commandList?.range == 14..<18 && ext.rest == 18)
    }

    @Test func roundTripsThroughTheResponse() async {
        await propertyCheck(count: 1000, input: Gen<UInt8>.value().array(of: 24), Gen.bool()) { bytes, isExtended in
            // Flags, UID, then as many bytes as the flags announce (and CSI / trailing bytes).
            let payload = [0x00] + bytes
            let request = isExtended ? Self.extended : Self.get
            guard let decoded = try? ISO15693Response.decode(payload, answering: request) else {
                // Only when the flags announce more than there is.
                let need = ISO15693SystemInformation.Fields(infoFlags: bytes[0], layout: isExtended ? .extended : .standard).rest
                #expect(payload.count < need)
                return
            }
            #expect(decoded.encode() == payload)
            #expect((try? ISO15693Response.decode(decoded.encode(), answering: request)) == decoded)
        }
        let info = ISO15693SystemInformation(uid: Self.uid, dsfid: 1, afi: 2, memorySize: ISO15693MemorySize(blockCount: 300, blockSize: 4, wideCount: true),
                                             icReference: 3)
        let response = ISO15693Response(body: .systemInformation(info))
        #expect((try? ISO15693Response.decode(response.encode(), answering: Self.get)) == response)
    }

    @Test func shortAnswersSayWhichFieldIsMissing() {
        let head: [UInt8] = [0x00, 0x0F] + Self.uid.onAir
        #expect(throws: DecodeError(offset: 12, expected: "number of blocks − 1", found: "end of data")) {
            try ISO15693Response.decode(head + [0x01, 0x02], answering: Self.get)
        }
        #expect(throws: DecodeError(offset: 13, expected: "block size − 1 (b5–b1)", found: "end of data")) {
            try ISO15693Response.decode(head + [0x01, 0x02, 0x3F], answering: Self.get)
        }
        #expect(throws: DecodeError(offset: 12, expected: "number of blocks − 1 (2 bytes, LSB first)", found: "1 byte")) {
            try ISO15693Response.decode([0x00, 0x0F] + Self.uid.onAir + [0x01, 0x02, 0x3F], answering: Self.extended)
        }
        #expect(throws: DecodeError(offset: 2, expected: "UID (8 bytes, LSB first)", found: "3 bytes")) {
            try ISO15693Response.decode([0x00, 0x0F, 1, 2, 3], answering: Self.get)
        }
    }
}
