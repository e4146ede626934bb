import Testing
import NFCCore
@testable import NFCEmulator

/// AFI, DSFID, system information and the error codes that are not about blocks: one test per
/// rule of ISO/IEC 15693-3 (2009 clauses; error codes 7.4.2 Table 7).
@Suite struct ISO15693SystemTests {
    // 10.4.8: Write AFI changes the AFI inventories select by; it is non-volatile.
    @Test func writeAFIChangesTheFamilyInventoriesSelect() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("22 27 \(slix2OnAir) 35") == [0x00])
        tag.fieldOff()
        tag.fieldOn()
        #expect(r.answer("36 01 35 00") != nil)
        #expect(r.answer("36 01 36 00") == nil)
    }

    // 10.4.9 and Table 7: Lock AFI is permanent; then Write AFI is refused (12), Lock AFI too (11).
    @Test func lockAFIFreezesTheAFI() throws {
        let (tag, r) = try slix2Tag { $0.afi = 0x35 }
        #expect(r.answer("22 28 \(slix2OnAir)") == [0x00])
        #expect(r.answer("22 27 \(slix2OnAir) 12") == [0x01, 0x12])
        #expect(r.answer("22 28 \(slix2OnAir)") == [0x01, 0x11])
        #expect(tag.memory.afi == 0x35 && tag.memory.afiLocked)
    }

    // 10.4.10 and 10.4.11: Write DSFID shows in Inventory answers; Lock DSFID freezes it (12, 11).
    @Test func writeAndLockDSFID() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 29 \(slix2OnAir) 5A") == [0x00])
        #expect(r.answer("26 01 00")?.dropFirst().first == 0x5A)
        #expect(r.answer("22 2A \(slix2OnAir)") == [0x00])
        #expect(r.answer("22 29 \(slix2OnAir) 00") == [0x01, 0x12])
        #expect(r.answer("22 2A \(slix2OnAir)") == [0x01, 0x11])
        #expect(r.answer("26 01 00")?.dropFirst().first == 0x5A)
    }

    // 10.4.12: Get System Information walks its information flags: DSFID, AFI, memory size (count
    // − 1, size − 1), IC reference — as the ICODE SLIX2 answers in Traces/iso15693-errors.nfctrace.
    @Test func getSystemInformationReportsTheConfiguredFields() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 2B \(slix2OnAir)") == Hex.parse("00 0F \(slix2OnAir) 00 00 4F 03 01"))
        var dsfidAndSize = ISO15693TagConfiguration.generic(blockCount: 128, blockSize: 8)
        dsfidAndSize.systemInformationFlags = 0x05
        let (_, g) = try vicc(dsfidAndSize) { $0.dsfid = 0x11 }
        #expect(g.answer("02 2B") == Hex.parse("00 05 \(slix2OnAir) 11 7F 07"))
    }

    // protocols.md §6.4: the memory size of Get System Information only counts 256 blocks; a
    // larger VICC leaves it out and gives it in Extended Get System Information (3B).
    @Test func largeMemoriesReportTheirSizeInExtendedGetSystemInformation() throws {
        let (_, r) = try vicc(largeGeneric)
        #expect(r.answer("02 2B") == Hex.parse("00 0B \(slix2OnAir) 00 00 26"))
        #expect(r.answer("02 3B 1F") == Hex.parse("00 1F \(slix2OnAir) 00 00 FF 07 03 26"), "MOI: 2-byte block numbers")
        #expect(r.answer("02 3B 0C") == Hex.parse("00 0C \(slix2OnAir) FF 07 03 26"), "only what was requested")
        let (_, slix2) = try slix2Tag()
        #expect(slix2.answer("02 3B 0F") == [0x01, 0x01])
    }

    // 7.3.1: the option flag "shall be set to 0" where a command does not define it: option not supported (03).
    @Test func optionFlagWhereTheCommandDoesNotDefineItIsError03() throws {
        let (tag, r) = try slix2Tag()
        #expect(r.answer("62 2B \(slix2OnAir)") == [0x01, 0x03])
        #expect(r.answer("62 25 \(slix2OnAir)") == [0x01, 0x03])
        #expect(tag.state == .ready, "the refused Select selects nothing")
        #expect(r.answer("62 2C \(slix2OnAir) 00 00") == [0x01, 0x03])
    }

    // Table 7 error 01: RFU codes, optional commands the VICC lacks, crypto suites and proprietary
    // codes are not supported; a proprietary code sent addressed has no known UID position: silence.
    @Test func unknownCommandsAreError01() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 05 \(slix2OnAir)") == [0x01, 0x01])
        #expect(r.answer("02 05") == [0x01, 0x01])
        #expect(r.answer("22 05 82 DC D0 49 08 01 04 E0") == nil, "RFU code for another VICC")
        #expect(r.answer("22 2D \(slix2OnAir) 00 00") == [0x01, 0x01])
        #expect(r.answer("22 35 \(slix2OnAir) 00") == [0x01, 0x01])
        #expect(r.answer("02 E0 00") == [0x01, 0x01])
        #expect(r.answer("22 E0 \(slix2OnAir)") == nil)
    }

    // Table 7 error 02: a request whose parameters do not fit its command (format error).
    @Test func malformedRequestsAreError02() throws {
        let (_, r) = try slix2Tag()
        #expect(r.answer("22 20 \(slix2OnAir)") == [0x01, 0x02])
        #expect(r.answer("22 20 \(slix2OnAir) 05 06") == [0x01, 0x02])
        #expect(r.answer("22 27 \(slix2OnAir)") == [0x01, 0x02])
        #expect(r.send("22 20 81 DC D0") == nil, "a UID cut short: the VICC cannot tell it is meant")
    }

    // NXP ICODE SLI-S datasheet §8.4: VICCs without detailed codes answer 0F in addressed and
    // selected mode and stay silent in non-addressed mode.
    @Test func unspecifiedErrorStyleAnswers0FAndNothingWhenNonAddressed() throws {
        var configuration = ISO15693TagConfiguration.generic(blockCount: 128, blockSize: 4)
        configuration.errorStyle = .unspecified
        let (_, r) = try vicc(configuration) { $0.setLocked(1) }
        #expect(r.answer("22 20 \(slix2OnAir) 80") == [0x01, 0x0F])
        #expect(r.answer("22 21 \(slix2OnAir) 01 01 02 03 04") == [0x01, 0x0F])
        #expect(r.answer("02 20 80") == nil)
        #expect(r.answer("22 25 \(slix2OnAir)") == [0x00])
        #expect(r.answer("12 05") == [0x01, 0x0F])
        #expect(r.answer("12 20 01") == [0x00, 0x01, 0x01, 0x01, 0x01])
    }
}
