import Testing
import NFCCore
@testable import NFCEmulator

/// VICC states, addressing modes and anticollision: one test per rule of ISO/IEC 15693-3
/// (clauses of the 2009 edition) or protocols.md §6.4.
@Suite struct ISO15693StateTests {
    // 10.3.1: a 1-slot Inventory without mask is answered with flags, DSFID and the UID (LSB first).
    @Test func inventoryOneSlotAnswersDSFIDAndUID() throws {
        let (_, r) = try slix2Tag { $0.dsfid = 0x5A }
        #expect(r.answer("26 01 00") == Hex.parse("00 5A \(slix2OnAir)"))
    }

    // protocols.md §6.3, NXP ICODE SLI-S datasheet §8.4.1: a VICC never answers a frame whose CRC is wrong.
    @Test func aFrameWithAWrongCRCIsNeverAnswered() throws {
        let (_, r) = try slix2Tag()
        #expect(r.tag.respond(to: Frame(.data(.readerToTag), technology: .iso15693, bytes: [0x26, 0x01, 0x00, 0xF6, 0x0B])) == nil)
        let read = CRC.appending(.b, to: Hex.parse("22 20 \(slix2OnAir) 05") ?? [])
        var damaged = read
        damaged[damaged.count - 1] ^= 0x5A
        #expect(r.tag.respond(to: Frame(.data(.readerToTag), technology: .iso15693, bytes: damaged)) == nil)
        #expect(r.tag.respond(to: Frame(.data(.readerToTag), technology: .iso15693, bytes: [0x26, 0xF6])) == nil, "too short for a CRC")
        #expect(r.tag.respond(to: Frame(.data(.readerToTag), technology: .iso15693, bytes: read))?.bytes.first == 0x00)
    }

    // EmulatedTag: a request captured without its CRC gets an answer without CRC.
    @Test func requestsWithoutCRCGetAnswersWithoutCRC() throws {
        let (_, r) = try slix2Tag()
        let answer = r.send("22 20 \(slix2OnAir) 05", crc: false)
        #expect(answer?.bytes == [0x00, 0x05, 0x05, 0x05, 0x05] && answer?.crcStripped == true)
    }

    // AFI coding table: 00 selects every VICC, X0 the family X, XY and 0Y only that value.
    @Test(arguments: [(0x35, true), (0x00, true), (0x30, true), (0x34, false), (0x05, false), (0x40, false)] as [(UInt8, Bool)])
    func inventoryWithAFIAnswersOnlyTheRequestedFamily(requested: UInt8, answers: Bool) throws {
        let (_, r) = try slix2Tag { $0.afi = 0x35 }
        #expect((r.answer("36 01 \(Hex.string([requested])) 00") != nil) == answers)
    }

    // 8.2: the mask covers the low mask-length bits of the UID, sent LSB first.
    @Test func inventoryMaskSelectsByTheLowUIDBits() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("26 01 08 81") != nil)
        #expect(r.answer("26 01 08 82") == nil)
        #expect(r.answer("26 01 04 01") != nil, "4 bits: low nibble 1")
        #expect(r.answer("26 01 04 02") == nil)
        #expect(r.answer("26 01 40 \(slix2OnAir)") != nil, "a 64-bit mask is the whole UID")
        #expect(r.answer("26 01 41 \(slix2OnAir) 00") == nil, "65 bits leave nothing to compare with")
    }

    // 8.2: with 16 slots the VICC answers in slot SN = the 4 UID bits after the mask; slot 0 at once.
    @Test func sixteenSlotInventoryAnswersAtOnceInSlotZero() throws {
        let (_, r) = try slix2Tag { $0.uid = ISO15693UID(value: 0xE004_0108_49D0_DC80) }
        #expect(r.answer("06 01 00") == Hex.parse("00 00 80 DC D0 49 08 01 04 E0"))
    }

    // 8.2: a later slot opens with the reader's EOF; endOfFrame() stands for it (an EOF is no frame).
    @Test func sixteenSlotInventoryAnswersInItsSlotAfterTheReadersEOFs() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.send("06 01 04 01") == nil, "mask 1 (4 bits): slot = bits 4–7 of 81 = 8")
        for _ in 1..<8 { #expect(tag.endOfFrame() == nil) }
        let answer = try #require(tag.endOfFrame())
        #expect(Array(answer.bytes.dropLast(2)) == Hex.parse("00 00 \(slix2OnAir)"))
        #expect(tag.endOfFrame() == nil, "answered once")
    }

    // 16 slots leave 60 bits to the mask: 60 bits still select (slot 14 here), 61 bits never do.
    @Test func sixteenSlotMaskIsAtMost60Bits() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.send("06 01 3C 81 DC D0 49 08 01 04 00") == nil)
        for _ in 1..<14 { #expect(tag.endOfFrame() == nil) }
        #expect(tag.endOfFrame() != nil, "slot 14 = bits 60–63 of the UID (E)")
        #expect(r.send("06 01 3D 81 DC D0 49 08 01 04 00") == nil)
        for _ in 0..<15 { #expect(tag.endOfFrame() == nil) }
    }

    // 10.3.2 and 7.5.3: Stay Quiet is never answered; a quiet VICC ignores inventories.
    @Test func stayQuietIsNeverAnsweredAndSilencesInventories() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.send("22 02 \(slix2OnAir)") == nil)
        #expect(tag.state == .quiet)
        #expect(r.answer("26 01 00") == nil)
    }

    // 7.5.3: a quiet VICC processes addressed requests only.
    @Test func aQuietVICCAnswersOnlyAddressedRequests() throws {
        let (_, r) = try slix2Tag()
        _ = r.send("22 02 \(slix2OnAir)")
        #expect(r.answer("02 20 05") == nil, "non-addressed")
        #expect(r.answer("12 20 05") == nil, "select flag")
        #expect(r.answer("22 20 \(slix2OnAir) 05") == [0x00, 0x05, 0x05, 0x05, 0x05])
    }

    // 10.4.6 and 7.5.4: Select (addressed) answers 00; requests with the select flag are then processed.
    @Test func selectMakesTheVICCAnswerSelectFlagRequests() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("12 20 05") == nil, "not selected yet")
        #expect(r.answer("22 25 \(slix2OnAir)") == [0x00])
        #expect(tag.state == .selected)
        #expect(r.answer("12 20 05") == [0x00, 0x05, 0x05, 0x05, 0x05])
        #expect(r.answer("02 20 05") != nil, "non-addressed requests are for every VICC that is not quiet (7.2.2)")
    }

    // 10.4.6: a quiet VICC can be selected.
    @Test func aQuietVICCCanBeSelected() throws {
        let (tag, r) = try slix2Tag()
        _ = r.send("22 02 \(slix2OnAir)")
        #expect(r.answer("22 25 \(slix2OnAir)") == [0x00])
        #expect(tag.state == .selected)
    }

    // protocols.md §6.4: a Select for another UID sends a selected VICC back to Ready, silently.
    @Test func selectForAnotherUIDSendsASelectedVICCBackToReady() throws {
        let (tag, r) = try slix2Tag()
        _ = r.answer("22 25 \(slix2OnAir)")
        #expect(r.send("22 25 82 DC D0 49 08 01 04 E0") == nil)
        #expect(tag.state == .ready)
        #expect(r.answer("12 20 05") == nil)
    }

    // 10.4.6: Select is executed in addressed mode only.
    @Test func selectWithoutAddressIsIgnored() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.send("02 25") == nil)
        #expect(tag.state == .ready)
    }

    // 10.4.7: Reset to Ready takes a quiet or selected VICC back to Ready.
    @Test func resetToReadyLeavesQuietAndSelected() throws {
        let (tag, r) = try slix2Tag()
        _ = r.send("22 02 \(slix2OnAir)")
        #expect(r.answer("22 26 \(slix2OnAir)") == [0x00])
        #expect(tag.state == .ready)
        _ = r.answer("22 25 \(slix2OnAir)")
        #expect(r.answer("12 26") == [0x00])
        #expect(tag.state == .ready)
        #expect(r.answer("26 01 00") != nil)
    }

    // 7.2.1: only the VICC whose UID the request carries answers it.
    @Test func addressedRequestsForAnotherUIDAreIgnored() throws {
        let (_, r) = try slix2Tag()
        #expect(r.send("22 20 82 DC D0 49 08 01 04 E0 05") == nil)
        #expect(r.send("22 2B 82 DC D0 49 08 01 04 E0") == nil)
    }

    // 7.5.1: field off is power-off; Quiet and Selected do not survive it.
    @Test func fieldOffLosesQuietAndSelected() throws {
        let (tag, r) = try slix2Tag()
        _ = r.send("22 02 \(slix2OnAir)")
        tag.fieldOff()
        #expect(tag.state == .powerOff)
        tag.fieldOn()
        #expect(tag.state == .ready)
        #expect(r.answer("26 01 00") != nil)
        _ = r.answer("22 25 \(slix2OnAir)")
        tag.fieldOff()
        #expect(r.answer("12 20 05") == nil, "a frame powers the VICC up in Ready, not Selected")
        #expect(tag.state == .ready)
    }

    // 7.3.1 Table 5: a request is either addressed or selected, never both; such a request is ignored.
    @Test func selectAndAddressTogetherAreIgnored() throws {
        let (_, r) = try slix2Tag()
        _ = r.answer("22 25 \(slix2OnAir)")
        #expect(r.send("32 20 \(slix2OnAir) 05") == nil)
    }

    // NXP ICODE SLI-S datasheet §8.4.2.2: with the inventory or protocol extension flag set, an
    // unsupported command or option gets no answer at all.
    @Test func inventoryOrProtocolExtensionFlagOnOtherRequestsIsNotAnswered() throws {
        let (_, r) = try slix2Tag()
        #expect(r.send("26 20 05") == nil)
        #expect(r.send("2A 20 \(slix2OnAir) 05 00") == nil)
        #expect(r.send("0A 20 05 00") == nil)
    }

    // 10.3.1: Inventory needs the inventory flag; without it b5–b6 mean select/address.
    @Test func inventoryWithoutTheInventoryFlagIsNotAnswered() throws {
        let (_, r) = try slix2Tag()
        #expect(r.send("02 01 00") == nil)
    }
}
