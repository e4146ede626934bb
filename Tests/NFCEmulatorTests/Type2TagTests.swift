import Testing
import NFCCore
import NFCTestInputs
@testable import NFCEmulator

/// Drives an emulated tag like a reader would, with CRC_A added to every frame that carries one.
struct TestReader {
    let tag: EmulatedTag

    func send(_ hex: String, bits: UInt8 = 8, crc: Bool = true) -> Frame? {
        let b = Hex.parse(hex) ?? []
        return tag.respond(to: Frame(.data(.readerToTag), bytes: crc ? CRC.appending(.a, to: b) : b, lastByteBits: bits))
    }

    /// The answer's bytes without CRC_A (checking that the CRC is right), or the 4-bit nibble.
    func answer(_ hex: String, bits: UInt8 = 8, crc: Bool = true) -> [UInt8]? {
        guard let f = send(hex, bits: bits, crc: crc) else { return nil }
        if f.lastByteBits == 4 { return f.bytes }
        #expect(CRC.check(.a, f.bytes) == .ok, "answer to \(hex) has a bad CRC")
        return Array(f.bytes.dropLast(2))
    }

    @discardableResult
    func activate(wakeUp: Bool = false) -> Bool {
        guard let tag = tag as? Type2Tag else { return false }
        let levels = UIDLevelData.levels(forUID: tag.memory.uid) ?? []
        guard send(wakeUp ? "52" : "26", bits: 7, crc: false) != nil else { return false }
        for (i, level) in levels.enumerated() {
            let sel = CascadeLevel(rawValue: i + 1)?.selCode ?? 0x93
            _ = send(Hex.string([sel, 0x20]), crc: false)
            guard answer(Hex.string([sel, 0x70] + level.bytes + [level.bcc])) != nil else { return false }
        }
        return true
    }
}

let uid: [UInt8] = [0x04, 0xA2, 0x2C, 0x12, 0xDE, 0x5F, 0x80]

func ntag(_ model: Type2TagModel = .ntag215, configure: (inout Type2TagMemory) -> Void = { _ in }) -> (Type2Tag, TestReader) {
    var memory = Type2TagMemory.factory(model, uid: uid)
    configure(&memory)
    let tag = Type2Tag(memory: memory) ?? Type2Tag(memory: .factory(.ntag215, uid: uid))!
    return (tag, TestReader(tag: tag))
}

/// Password protection from page 0x10 with PWD 12 34 56 78 / PACK 80 80; `prot` makes reads need it too.
func protect(_ m: inout Type2TagMemory, prot: Bool = false, authlim: UInt8 = 0, auth0: UInt8 = 0x10) {
    let map = m.map
    guard let c0 = map.cfg0Page, let c1 = map.cfg1Page, let pwd = map.pwdPage, let pack = map.packPage else { return }
    var cfg0 = m.page(c0)
    cfg0[3] = auth0
    m.setPage(c0, cfg0)
    var cfg1 = m.page(c1)
    cfg1[0] = (prot ? 0x80 : 0) | authlim
    m.setPage(c1, cfg1)
    m.setPage(pwd, [0x12, 0x34, 0x56, 0x78])
    m.setPage(pack, [0x80, 0x80, 0x00, 0x00])
}

@Suite struct Type2TagTests {
    // ISO/IEC 14443-3 activation (§1): ATQA 0044, CL1 with cascade tag, SAK 04 then 00.
    @Test func activationAnswersEveryCascadeLevel() {
        let (_, r) = ntag()
        #expect(r.send("26", bits: 7, crc: false)?.bytes == [0x44, 0x00])
        #expect(r.send("93 20", crc: false)?.bytes == [0x88, 0x04, 0xA2, 0x2C, 0x02])
        #expect(r.answer("93 70 88 04 A2 2C 02") == [0x04])
        #expect(r.send("95 20", crc: false)?.bytes == [0x12, 0xDE, 0x5F, 0x80, 0x13])
        #expect(r.answer("95 70 12 DE 5F 80 13") == [0x00])
        #expect(r.answer("60") == Type2TagModel.ntag215.version)
    }

    @Test func selectWithTheWrongUIDSendsTheTagBackToIdle() {
        let (tag, r) = ntag()
        _ = r.send("26", bits: 7, crc: false)
        #expect(r.send("93 70 88 04 A2 2C 03", crc: true) == nil)
        #expect(tag.listener.state == .idle)
    }

    // HLTA → HALT; REQA does not wake a halted tag, WUPA does (§1.7).
    @Test func haltIsLeftOnlyByWUPA() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.send("50 00") == nil)
        #expect(tag.listener.state == .halt)
        #expect(r.answer("30 00") == nil)
        #expect(r.send("26", bits: 7, crc: false) == nil)
        #expect(r.send("52", bits: 7, crc: false)?.bytes == [0x44, 0x00])
    }

    // NTAG213/215/216 datasheet §10.2: READ of the last page rolls over to page 0.
    @Test func readOfPage0x86OnAnNTAG215ReturnsPages0x86And0x00To0x02() {
        let (tag, r) = ntag()
        r.activate()
        let data = r.answer("30 86")
        #expect(data == [0, 0, 0, 0] + tag.memory.page(0) + tag.memory.page(1) + tag.memory.page(2))
    }

    // §10.2: a page beyond the last gets NAK 0, and the tag falls back to IDLE.
    @Test func readBeyondTheLastPageIsNAK0ThenIdle() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("30 87") == [0x00])
        #expect(tag.listener.state == .idle)
        #expect(r.answer("30 04") == nil, "an idle tag does not answer")
    }

    // §10.3: FAST_READ with end < start or end beyond the last page is NAK 0.
    @Test func fastReadRangeChecks() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("3A 04 06") == tag.memory.page(4) + tag.memory.page(5) + tag.memory.page(6))
        #expect(r.answer("3A 06 04") == [0x00])
        r.activate()
        #expect(r.answer("3A 80 87") == [0x00])
    }

    // §8.8.1: PWD and PACK always read back as zeros.
    @Test func pwdAndPackReadAsZeros() {
        let (tag, r) = ntag { protect(&$0) }
        r.activate()
        #expect(tag.memory.page(0x85) == [0x12, 0x34, 0x56, 0x78])
        #expect(r.answer("3A 85 86") == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    // §8.8: with PROT=1 reads from AUTH0 on need the password; a READ crossing AUTH0 rolls over at AUTH0.
    @Test func readProtectionAndRollOverAtAUTH0() {
        let (tag, r) = ntag { protect(&$0, prot: true) }
        r.activate()
        #expect(r.answer("30 10") == [0x00])
        r.activate()
        #expect(r.answer("30 0E") == tag.memory.page(0x0E) + tag.memory.page(0x0F) + tag.memory.page(0) + tag.memory.page(1))
        #expect(r.answer("3A 0F 10") == [0x00])
        r.activate()
        #expect(r.answer("1B 12 34 56 78") == [0x80, 0x80])
        #expect(r.answer("30 10") == tag.memory.page(0x10) + tag.memory.page(0x11) + tag.memory.page(0x12) + tag.memory.page(0x13))
    }

    // §8.8: with PROT=0 only writes from AUTH0 on need the password.
    @Test func writeProtectionFromAUTH0() {
        let (tag, r) = ntag { protect(&$0) }
        r.activate()
        #expect(r.answer("30 10") != [0x00], "reads stay free")
        #expect(r.answer("A2 10 01 02 03 04") == [0x00])
        r.activate()
        #expect(r.answer("A2 0F 01 02 03 04") == [0x0A], "below AUTH0 writes are free")
        #expect(r.answer("1B 12 34 56 78") == [0x80, 0x80])
        #expect(r.answer("A2 10 01 02 03 04") == [0x0A])
        #expect(tag.memory.page(0x10) == [1, 2, 3, 4])
    }

    // §8.8.3: wrong passwords count up to AUTHLIM; then PWD_AUTH is refused for good with NAK 4.
    @Test func authlimLocksOutPermanently() {
        let (tag, r) = ntag { protect(&$0, authlim: 2) }
        for _ in 0..<2 {
            r.activate()
            #expect(r.answer("1B 00 00 00 00") == [0x00])
        }
        #expect(tag.memory.failedAuthentications == 2)
        tag.fieldOff()
        tag.fieldOn()
        r.activate()
        #expect(r.answer("1B 12 34 56 78") == [0x04], "even the right password: the counter is non-volatile")
    }

    @Test func rightPasswordResetsTheFailureCounter() {
        let (tag, r) = ntag { protect(&$0, authlim: 5) }
        r.activate()
        #expect(r.answer("1B 00 00 00 00") == [0x00])
        r.activate()
        #expect(r.answer("1B 12 34 56 78") == [0x80, 0x80])
        #expect(tag.memory.failedAuthentications == 0)
    }

    // §8.4: a NAK sends the tag back to IDLE and ends the authentication.
    @Test func aNAKEndsTheAuthentication() {
        let (tag, r) = ntag { protect(&$0) }
        r.activate()
        #expect(r.answer("1B 12 34 56 78") == [0x80, 0x80])
        #expect(r.answer("30 F0") == [0x00])
        #expect(!tag.authenticated)
        r.activate()
        #expect(r.answer("A2 10 01 02 03 04") == [0x00])
    }

    // §8.5.7: with CFGLCK set, CFG0 and CFG1 cannot be written any more.
    @Test func cfglckFreezesTheConfiguration() {
        let (_, r) = ntag { m in
            var cfg1 = m.page(0x84)
            cfg1[0] |= 0x40
            m.setPage(0x84, cfg1)
        }
        r.activate()
        #expect(r.answer("A2 83 00 00 00 05") == [0x00])
    }

    // §8.5.2: page 2 only ORs in the lock bits; page 3 (CC) is one-time programmable.
    @Test func lockBytesAndCCAreOTP() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("A2 02 FF FF 10 00") == [0x0A])
        #expect(tag.memory.page(2) == [0x13, 0x48, 0x10, 0x00], "BCC1 and the internal byte keep their value, lock bits OR-ed")
        #expect(r.answer("A2 04 01 02 03 04") == [0x00], "page 4 is now locked")
        r.activate()
        #expect(r.answer("A2 03 00 00 00 0F") == [0x0A])
        #expect(tag.memory.page(3) == [0xE1, 0x10, 0x3E, 0x0F])
        #expect(r.answer("A2 03 00 00 00 00") == [0x0A])
        #expect(tag.memory.page(3) == [0xE1, 0x10, 0x3E, 0x0F], "bits once set stay set")
    }

    @Test func uidPagesAreReadOnly() {
        let (_, r) = ntag()
        r.activate()
        #expect(r.answer("A2 00 01 02 03 04") == [0x00])
    }

    // §8.5.3: NTAG215 dynamic lock bit 0 locks pages 16–31.
    @Test func dynamicLockBits() {
        let (_, r) = ntag()
        r.activate()
        #expect(r.answer("A2 82 01 00 00 00") == [0x0A])
        #expect(r.answer("A2 10 01 02 03 04") == [0x00])
        r.activate()
        #expect(r.answer("A2 20 01 02 03 04") == [0x0A], "page 32 is in the next group")
    }

    // §10.5: COMPATIBILITY_WRITE takes its 16 data bytes as a second frame and writes the first 4.
    @Test func compatibilityWriteInTwoSteps() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("A0 05") == [0x0A])
        #expect(r.answer("AA BB CC DD 00 00 00 00 00 00 00 00 00 00 00 00") == [0x0A])
        #expect(tag.memory.page(5) == [0xAA, 0xBB, 0xCC, 0xDD])
    }

    // §8.7 / §10.6: the NFC counter counts the first READ of each RF session when NFC_CNT_EN.
    @Test func nfcCounter() {
        let (tag, r) = ntag { m in
            var cfg1 = m.page(0x84)
            cfg1[0] |= 0x10
            m.setPage(0x84, cfg1)
        }
        r.activate()
        #expect(r.answer("39 02") == [0, 0, 0])
        _ = r.answer("30 04")
        _ = r.answer("30 08")
        #expect(r.answer("39 02") == [1, 0, 0], "counted once per session")
        #expect(r.answer("39 00") == [0x00], "NTAG21x has only counter 2")
        tag.fieldOff()
        tag.fieldOn()
        r.activate()
        _ = r.answer("3A 04 04")
        #expect(r.answer("39 02") == [2, 0, 0])
    }

    @Test func nfcCounterDisabledIsNAK() {
        let (_, r) = ntag()
        r.activate()
        #expect(r.answer("39 02") == [0x00])
    }

    // MF0ULx1 datasheet §8.7: INCR_CNT adds up to FFFFFF and refuses to overflow.
    @Test func ultralightEV1Counters() {
        let (tag, r) = ntag(.ultralightEV1_11)
        r.activate()
        #expect(r.answer("A5 01 10 00 00 00") == [0x0A])
        #expect(r.answer("39 01") == [0x10, 0, 0])
        #expect(r.answer("A5 01 FF FF FF 00") == [0x04])
        #expect(tag.memory.counters[1] == 0x10)
        r.activate()
        #expect(r.answer("3E 00") == [0xBD])
        #expect(r.answer("4B 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 00 00 00 00") == [0x05])
    }

    // protocols.md §2.1: INCR_CNT, CHECK_TEARING_EVENT and VCSL are EV1 only; NTAG stays silent.
    @Test func ntagIgnoresEV1OnlyCommands() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("3E 00") == nil)
        #expect(tag.listener.state == .idle)
    }

    @Test func signatureAndVersion() {
        let (_, r) = ntag { $0.signature = Array(0..<32) }
        r.activate()
        #expect(r.answer("3C 00") == Array(0..<32))
        #expect(r.answer("60") == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
    }

    // §9.3: a CRC error in ACTIVE is NAK 1; a PICC in READY does not answer a corrupted frame.
    @Test func crcErrors() {
        let (_, r) = ntag()
        r.activate()
        #expect(r.send("30 04 00 00", crc: false)?.bytes == [0x01])
        _ = r.send("26", bits: 7, crc: false)
        #expect(r.send("93 70 88 04 A2 2C 02 00 00", crc: false) == nil)
    }

    // §8.4.4: unknown data in ACTIVE is an error: no answer, back to IDLE.
    @Test func unknownCommandIsSilence() {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("77 01") == nil)
        #expect(tag.listener.state == .idle)
    }

    @Test func framesWithoutCRCGetAnswersWithoutCRC() {
        let (tag, _) = ntag()
        let f = Frame(.data(.readerToTag), bytes: [0x26], crcStripped: true)
        #expect(tag.respond(to: f)?.bytes == [0x44, 0x00])
        _ = tag.respond(to: Frame(.data(.readerToTag), bytes: [0x93, 0x20], crcStripped: true))
        let sak = tag.respond(to: Frame(.data(.readerToTag), bytes: [0x93, 0x70, 0x88, 0x04, 0xA2, 0x2C, 0x02], crcStripped: true))
        #expect(sak?.bytes == [0x04] && sak?.crcStripped == true)
    }

    @Test func survivesRandomFrames() {
        let seed = TestSeed(0x7A62_0001)
        var rng = seed.generator
        for model in [Type2TagModel.ntag213, .ntag215, .ntag216, .ultralightEV1_11, .ultralightEV1_21, .ultralight] {
            let (tag, r) = ntag(model) { protect(&$0, prot: true, authlim: 3, auth0: 0x08) }
            for i in 0..<20_000 {
                if i % 50 == 0 { r.activate() }
                let n = Int.random(in: 0...22, using: &rng)
                var bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if let f = bytes.first, Bool.random(using: &rng) { bytes[0] = [0x30, 0x3A, 0xA2, 0xA0, 0x1B, 0x39, 0xA5, 0x3C, 0x3E, 0x4B, 0x60, 0x50, f].randomElement(using: &rng) ?? f }
                let frame = Frame(.data(.readerToTag), bytes: Bool.random(using: &rng) ? CRC.appending(.a, to: bytes) : bytes,
                                  lastByteBits: UInt8.random(in: 1...8, using: &rng), crcStripped: Bool.random(using: &rng))
                _ = tag.respond(to: frame)
            }
            #expect(tag.memory.pages.count == model.memoryMap.totalPages * 4, "\(model), \(seed)")
        }
    }
}
