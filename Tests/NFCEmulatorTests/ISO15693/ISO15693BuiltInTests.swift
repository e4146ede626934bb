import Testing
import NFCCore
@testable import NFCEmulator

/// The built-in ISO 15693 tags of `emulate --model`.
@Suite struct ISO15693BuiltInTests {
    @Test func builtInsAreRegistered() throws {
        let slix2 = try #require(BuiltInTag.named("slix2"))
        #expect(slix2.make().summary == "ICODE SLIX2, UID E0 04 01 08 49 D0 DC 81, 80 blocks × 4 bytes")
        let st = try #require(BuiltInTag.named("ISO15693-ST25DV04K"), "names are case-insensitive")
        #expect(st.make().summary == "ST25DV04K, UID E0 02 24 03 6A 1B 5E 42, 128 blocks × 4 bytes")
        #expect(st.make().makeTag()?.technology == .iso15693)
    }

    // NFC Forum T5T (protocols.md §6.5): the SLIX2 comes NDEF formatted, CC E1 40 27 01 (MLEN 312
    // bytes after the CC, within blocks 0–78), an empty NDEF message TLV and the terminator.
    @Test func slix2IsNDEFFormattedWithAnEmptyMessage() throws {
        let dump = ISO15693Dump.slix2()
        let tag = try #require(dump.makeTag() as? ISO15693Tag)
        let r = VICCReader(tag: tag)
        #expect(r.answer("02 23 00 01") == Hex.parse("00 E1 40 27 01 03 00 FE 00"))
        let layout = Type5Memory.decode(TagMemoryImage(bytes: tag.memory.data))
        #expect(layout.capabilityContainer?.dataAreaSize == 312 && layout.ndef != nil)
        #expect(layout.issues.filter { $0.severity != .note }.isEmpty)
        #expect(tag.memory.block(79) == [0, 0, 0, 0] && dump.memory.icode?.signature == [UInt8](repeating: 0, count: 32))
    }

    @Test func st25dv04kIsBlank() throws {
        let tag = try #require(ISO15693Dump.st25dv04k().makeTag() as? ISO15693Tag)
        #expect(tag.memory.data.allSatisfy { $0 == 0 } && tag.memory.blockCount == 128)
        #expect(VICCReader(tag: tag).answer("02 2B") == Hex.parse("00 0F 42 5E 1B 6A 03 24 02 E0 00 00 7F 03 24"))
    }

    // nfcpy has no ISO 15693 reader: its UDP frontend refuses an NFC-V tag with a clear message.
    @Test func nfcpyFrontendRefusesISO15693Tags() throws {
        let tag = try #require(ISO15693Dump.slix2().makeTag())
        #expect(throws: ServeError.self) { try NFCPyUDPServer(tag: tag, port: 0) }
        do {
            _ = try NFCPyUDPServer(tag: tag, port: 0)
        } catch {
            #expect(error.message.contains("no ISO 15693 (NFC-V)"))
        }
    }
}
