import Testing
@testable import NFCCore

/// The codec pieces a VICC needs: the request header read before the parameters, the
/// anticollision and AFI rules, the NXP system information answer.
@Suite struct ISO15693VICCRulesTests {
    let uid = ISO15693UID(value: 0xE004_0108_49D0_DC81)

    @Test func headerReadsTheUIDOfAddressedRequestsWhateverTheParameters() throws {
        let read = try ISO15693RequestHeader.decode(Hex.parse("22 20 81 DC D0 49 08 01 04 E0") ?? [])
        #expect(read == ISO15693RequestHeader(flags: ISO15693RequestFlags(rawValue: 0x22), code: 0x20, uid: uid),
                "the block number is missing, the header is whole")
        let custom = try ISO15693RequestHeader.decode(Hex.parse("22 B2 04 81 DC D0 49 08 01 04 E0") ?? [])
        #expect(custom.manufacturer == 0x04 && custom.uid == uid)
        let extended = try ISO15693RequestHeader.decode(Hex.parse("22 3B 1F 81 DC D0 49 08 01 04 E0") ?? [])
        #expect(extended.uid == uid, "3B: information request flags before the UID")
        let rfu = try ISO15693RequestHeader.decode(Hex.parse("22 05 81 DC D0 49 08 01 04 E0") ?? [])
        #expect(rfu.uid == uid, "RFU codes follow the general request format")
    }

    @Test func headerHasNoUIDWhereTheRequestCarriesNone() throws {
        #expect(try ISO15693RequestHeader.decode([0x02, 0x20]).uid == nil)
        #expect(try ISO15693RequestHeader.decode([0x26, 0x01, 0x00]).uid == nil, "inventory: b6 is Nb_slots")
        #expect(try ISO15693RequestHeader.decode([0x22, 0xE0, 0x01]).uid == nil, "proprietary: layout unknown")
        #expect(try ISO15693RequestHeader.decode([0x12, 0x20, 0x05]).uid == nil, "selected")
    }

    @Test func headerErrorsNameWhatIsMissing() {
        #expect(throws: DecodeError.self) { try ISO15693RequestHeader.decode([0x22]) }
        #expect(throws: DecodeError.self) { try ISO15693RequestHeader.decode([0x22, 0x20, 0x81, 0xDC]) }
        #expect(throws: DecodeError.self) { try ISO15693RequestHeader.decode([0x02, 0xB2]) }
        do {
            _ = try ISO15693RequestHeader.decode([0x22, 0x20, 0x81])
        } catch {
            #expect(error.expected.contains("UID") && error.offset == 2)
        }
    }

    // ISO/IEC 15693-3 anticollision: LSB(UID, SN_length + mask length) = SN ‖ mask.
    @Test func slotRule() {
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 0, mask: [], oneSlot: true) == 0)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 0, mask: [], oneSlot: false) == 1, "low nibble of 81")
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 4, mask: [0x01], oneSlot: false) == 8)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 8, mask: [0x81], oneSlot: false) == 0x0C)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 4, mask: [0x02], oneSlot: false) == nil)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 3, mask: [0xF9], oneSlot: true) == 0, "padding bits are not compared")
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 64, mask: uid.onAir, oneSlot: true) == 0)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 64, mask: uid.onAir, oneSlot: false) == nil, "16 slots: at most 60 bits")
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 60, mask: uid.onAir, oneSlot: false) == 0x0E)
        #expect(ISO15693Anticollision.slot(of: uid, maskLength: 65, mask: uid.onAir + [0], oneSlot: true) == nil)
    }

    // ISO/IEC 15693-3 AFI coding: 00 all, X0 family X, XY and 0Y exact.
    @Test func afiRule() {
        #expect(ISO15693Anticollision.afiSelects(requested: 0x00, vicc: 0x35))
        #expect(ISO15693Anticollision.afiSelects(requested: 0x30, vicc: 0x35))
        #expect(ISO15693Anticollision.afiSelects(requested: 0x35, vicc: 0x35))
        #expect(!ISO15693Anticollision.afiSelects(requested: 0x36, vicc: 0x35))
        #expect(!ISO15693Anticollision.afiSelects(requested: 0x40, vicc: 0x35))
        #expect(ISO15693Anticollision.afiSelects(requested: 0x05, vicc: 0x05))
        #expect(!ISO15693Anticollision.afiSelects(requested: 0x05, vicc: 0x35), "0Y: proprietary sub-family Y only")
        #expect(!ISO15693Anticollision.afiSelects(requested: 0x30, vicc: 0x00))
    }

    @Test func nxpSystemInformationRoundTrips() throws {
        let info = ISO15693NXPSystemInformation(protectionPointer: 0x20, protectionCondition: 0x02, lockBits: 0x0F,
                                                featureFlags: ISO15693NXPSystemInformation.slix2FeatureFlags)
        #expect(info.encode() == [0x20, 0x02, 0x0F, 0x7F, 0x35, 0x00, 0x00])
        #expect(try ISO15693NXPSystemInformation.decode(info.encode()) == info)
        #expect(throws: DecodeError.self) { try ISO15693NXPSystemInformation.decode([0x20, 0x02, 0x0F, 0x7F]) }
        #expect(throws: DecodeError.self) { try ISO15693NXPSystemInformation.decode(info.encode() + [0]) }
    }

    @Test func reconstructionCountsTheBlocksItKnows() {
        let r = ISO15693Reconstruction(uid: uid, blocks: [0: [1, 2, 3, 4], 5: [0, 0, 0, 0]], locks: [9: true])
        #expect(r.knownBlockCount == 2)
        #expect(r.icReference == nil)
    }
}
