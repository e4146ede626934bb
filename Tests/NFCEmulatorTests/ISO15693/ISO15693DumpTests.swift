import Foundation
import Testing
import NFCCore
@testable import NFCEmulator

/// ISO 15693 tags from the real Flipper SLIX dumps in ../shared/dumps (read in place), from
/// hand-made Flipper and Proxmark3 files, and saved back (protocols.md §7.4, §7.5).
@Suite struct ISO15693DumpTests {
    static var sharedAvailable: Bool { FileManager.default.fileExists(atPath: DumpTests.shared + "/flipper_Slix_cap_default.nfc") }

    func load(_ name: String) throws -> ISO15693Dump {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(DumpTests.shared)/\(name)")))
        return try #require(try TagDump.load(bytes, name: name).content as? ISO15693Dump)
    }

    @Test(.enabled(if: sharedAvailable, "../shared/dumps/flipper_Slix_cap_default.nfc is not beside this checkout"))
    func flipperSLIXDump() throws {
        let d = try load("flipper_Slix_cap_default.nfc")
        #expect(d.configuration == .slix2.with(flags: 0x0F), "an ICODE SLIX2 by its UID, 80 × 4 bytes")
        #expect(d.memory.uid == ISO15693Dump.slix2UID && d.memory.dsfid == 0x01 && d.memory.afi == 0x3D)
        #expect(d.memory.dsfidLocked && d.memory.afiLocked && !d.memory.isLocked(0))
        #expect(d.memory.block(0) == [0x03, 0x0A, 0x82, 0xED] && d.memory.block(79) == [0xE5, 0xFF, 0x00, 0x01])
        let icode = try #require(d.memory.icode)
        #expect(icode.signature.prefix(4) == [0xA6, 0x25, 0x54, 0x03] && icode.protectionPointer == 32 && icode.protectionCondition == 0x02)
        #expect(icode.easLocked && icode.protectionLocked && !icode.privacyMode && !icode.acceptsAllPasswords)
        #expect(icode.passwords[.privacy] == [0x0F, 0x0F, 0x0F, 0x0F])
        #expect(d.notes.contains { $0.contains("protection condition 0x02 from block 32") })
        // The emulated tag answers like the dumped one.
        let tag = try #require(d.makeTag() as? ISO15693Tag)
        let r = VICCReader(tag: tag)
        #expect(r.answer("22 2B \(slix2OnAir)") == Hex.parse("00 0F \(slix2OnAir) 01 3D 4F 03 01"))
        #expect(r.answer("36 01 3D 00") == Hex.parse("00 01 \(slix2OnAir)"))
        #expect(r.answer("36 01 3E 00") == nil)
        #expect(r.answer("22 27 \(slix2OnAir) 00") == [0x01, 0x12], "the AFI is locked")
        #expect(r.answer("22 AB 04 \(slix2OnAir)") == [0x00, 0x20, 0x02, 0x0F, 0x7F, 0x35, 0x00, 0x00])
        #expect(r.answer("22 BD 04 \(slix2OnAir)") == [0x00] + icode.signature)
    }

    @Test(.enabled(if: sharedAvailable, "../shared/dumps/flipper_Slix_cap_accept_all_pass.nfc is not beside this checkout"))
    func flipperSLIXDumpAcceptingAllPasswords() throws {
        let d = try load("flipper_Slix_cap_accept_all_pass.nfc")
        #expect(d.memory.icode?.acceptsAllPasswords == true)
        #expect(d.memory.block(0) == [0x03, 0x0A, 0x82, 0xED])
    }

    @Test(.enabled(if: sharedAvailable, "../shared/dumps/flipper_Slix_cap_default.nfc is not beside this checkout"))
    func savedSLIXLoadsBackAfterAWrite() throws {
        let d = try load("flipper_Slix_cap_default.nfc")
        let tag = try #require(d.makeTag() as? ISO15693Tag)
        let r = VICCReader(tag: tag)
        #expect(r.answer("22 21 \(slix2OnAir) 05 CA FE BA BE") == [0x00])
        #expect(r.answer("22 22 \(slix2OnAir) 05") == [0x00])
        let saved = try #require(tag.savedDump())
        let again = try #require(try TagDump.load(saved, name: "saved.nfc").content as? ISO15693Dump)
        #expect(again.memory == tag.memory && again.configuration == tag.configuration)
        #expect(String(decoding: saved, as: UTF8.self).contains("Device type: SLIX\n"))
    }

    static let flipperHeader = "Filetype: Flipper NFC device\nVersion: 4\nDevice type: ISO15693-3\nUID: E0 02 24 03 6A 1B 5E 42\n"

    @Test func flipperISO15693FileReportsTheFieldsItHas() throws {
        let text = Self.flipperHeader + "DSFID: 00\nLock DSFID: false\nLock AFI: true\nBlock Count: 4\nBlock Size: 08\n"
            + "Data Content: \(Hex.string([UInt8](0..<32)))\nSecurity Status: 00 01 00 00\n"
        let d = try #require(try TagDump.load(Array(text.utf8), name: "st.nfc").content as? ISO15693Dump)
        #expect(d.configuration.systemInformationFlags == 0x05 && d.configuration.blockCount == 4 && d.configuration.blockSize == 8)
        #expect(d.configuration.name == "STMicroelectronics ISO 15693 tag" && d.memory.icode == nil)
        #expect(d.memory.afiLocked && !d.memory.dsfidLocked && d.memory.isLocked(1) && !d.memory.isLocked(0))
        let r = VICCReader(tag: try #require(d.makeTag() as? ISO15693Tag))
        #expect(r.answer("02 2B") == Hex.parse("00 05 42 5E 1B 6A 03 24 02 E0 00 03 07"))
        #expect(r.answer("02 20 03") == [0x00] + Array(24..<32))
        let saved = try #require(r.tag.savedDump())
        let again = try #require(try TagDump.load(saved, name: "saved.nfc").content as? ISO15693Dump)
        #expect(again.memory == d.memory && again.configuration == d.configuration)
    }

    // Flipper's legacy layout: without the Lock keys, Security Status starts with the lock bits byte.
    @Test func legacySecurityStatusCarriesTheLockBits() throws {
        let text = Self.flipperHeader.replacingOccurrences(of: "ISO15693-3", with: "ISO15693")
            + "Block Count: 2\nBlock Size: 04\nData Content: 01 02 03 04 05 06 07 08\nSecurity Status: 03 00 01\n"
        let d = try #require(try TagDump.load(Array(text.utf8), name: "old.nfc").content as? ISO15693Dump)
        #expect(d.memory.dsfidLocked && d.memory.afiLocked && d.memory.isLocked(1) && !d.memory.isLocked(0))
        #expect(d.configuration.systemInformationFlags == 0x04, "memory size only")
    }

    static func pm3(uid: String = "81DCD049080104E0", count: Int = 80, extra: String = "") -> String {
        let locks = (0..<count).map { $0 == 2 ? "01" : "00" }.joined()
        let blocks = (0..<count).map { "\"\($0)\": \"\(Hex.value($0, digits: 2))\(Hex.value($0, digits: 2))0000\"" }.joined(separator: ", ")
        return """
            {"Created": "proxmark3", "FileType": "15693 v4", "Card": {"uid": "\(uid)", "dsfid": "01", "dsfidlock": "00",
             "afi": "3D", "afilock": "01", "bytesperpage": "04", "pagescount": "\(Hex.value(count, digits: 2))", "ic": "01",
             "locks": "\(locks)", "random": "0000", "privacypasswd": "00000000", "state": "02"\(extra)}, "blocks": {\(blocks)}}
            """
    }

    // protocols.md §7.5 and §9 #10: Proxmark3 stores the UID as received, LSB first.
    @Test func proxmark3JSON() throws {
        let d = try #require(try TagDump.load(Array(Self.pm3().utf8), name: "pm3.json").content as? ISO15693Dump)
        #expect(d.memory.uid == ISO15693Dump.slix2UID && d.configuration.name == "ICODE SLIX2")
        #expect(d.memory.dsfid == 0x01 && d.memory.afi == 0x3D && d.memory.afiLocked && !d.memory.dsfidLocked)
        #expect(d.memory.isLocked(2) && !d.memory.isLocked(3) && d.memory.block(7) == [0x07, 0x07, 0x00, 0x00])
        #expect(d.configuration.icReference == 0x01)
        #expect(d.notes.contains { $0.contains("no originality signature") })
        let msbFirst = try #require(try TagDump.load(Array(Self.pm3(uid: "E004010849D0DC81").utf8), name: "pm3.json").content as? ISO15693Dump)
        #expect(msbFirst.memory.uid == ISO15693Dump.slix2UID && msbFirst.notes.contains { $0.contains("MSB first") })
    }

    @Test(arguments: [
        (flipperHeader.replacingOccurrences(of: "UID: E0 02 24 03 6A 1B 5E 42\n", with: "") + "Block Count: 1\n", "x.nfc (UID): missing"),
        (flipperHeader.replacingOccurrences(of: "6A 1B 5E 42", with: "6A"), "x.nfc:4 (UID): expected 8 bytes, found 5"),
        (flipperHeader + "Block Size: 04\n", "x.nfc (Block Count): missing: a tag without memory cannot be emulated"),
        (flipperHeader + "Block Count: eighty\n", "x.nfc:5 (Block Count): expected a decimal number, found \"eighty\""),
        (flipperHeader + "Block Count: 0\n", "x.nfc:5 (Block Count): 0 blocks: expected 1…65536, written in decimal"),
        (flipperHeader + "Block Count: 1\n", "x.nfc (Block Size): missing"),
        (flipperHeader + "Block Count: 1\nBlock Size: 21\n", "x.nfc:6 (Block Size): 0x21: expected 01…20 (hex)"),
        (flipperHeader + "Block Count: 1\nBlock Size: 04\n", "x.nfc (Data Content): missing"),
        (flipperHeader + "Block Count: 1\nBlock Size: 04\nData Content: 01 02 03\n", "x.nfc:7 (Data Content): expected 4 bytes, found 3"),
        (flipperHeader + "DSFID: 01 02\n", "x.nfc:5 (DSFID): expected 1 bytes, found 2"),
        (flipperHeader + "Lock DSFID: yes\nBlock Count: 1\nBlock Size: 04\nData Content: 01 02 03 04\n",
         "x.nfc:5 (Lock DSFID): expected true or false, found \"yes\""),
        (flipperHeader + "Lock DSFID: true\nLock AFI: false\nBlock Count: 1\nBlock Size: 04\nData Content: 01 02 03 04\nSecurity Status: 00 00\n",
         "x.nfc:10 (Security Status): expected 1 bytes (one per block), found 2"),
        (flipperHeader.replacingOccurrences(of: "ISO15693-3", with: "SLIX") + "Block Count: 1\nBlock Size: 04\nData Content: 01 02 03 04\nCapabilities: Maybe\n",
         "x.nfc:8 (Capabilities): expected Default or Accept all passwords, found \"Maybe\""),
        (flipperHeader.replacingOccurrences(of: "ISO15693-3", with: "SLIX") + "Block Count: 1\nBlock Size: 04\nData Content: 01 02 03 04\nProtection Pointer: 300\n",
         "x.nfc:8 (Protection Pointer): expected a block number 0…255"),
        (flipperHeader.replacingOccurrences(of: "ISO15693-3", with: "SLIX") + "Block Count: 1\nBlock Size: 04\nData Content: 01 02 03 04\nSignature: 00\n",
         "x.nfc:8 (Signature): expected 32 bytes, found 1"),
        ("{\"FileType\": \"15693 v4\"}", "x.nfc (Card): missing"),
        (pm3(uid: "81DCD0"), "x.nfc (Card.uid): expected 8 bytes as a hex string"),
        (pm3().replacingOccurrences(of: "\"dsfid\": \"01\", ", with: ""), "x.nfc (Card.dsfid): missing"),
        (pm3().replacingOccurrences(of: "\"bytesperpage\": \"04\"", with: "\"bytesperpage\": \"00\""), "x.nfc (Card.bytesperpage): 0: expected 1…32"),
        (pm3(count: 0), "x.nfc (Card.pagescount): 0 blocks"),
        (pm3(count: 2).replacingOccurrences(of: "\"locks\": \"0000\"", with: "\"locks\": \"00\""), "x.nfc (Card.locks): expected 2 bytes as a hex string"),
        (pm3(count: 2).replacingOccurrences(of: "\"1\": \"01010000\"", with: "\"5\": \"01010000\""), "x.nfc (blocks.5): expected a block number 0…1 and 4 bytes as hex"),
        (pm3(count: 2).replacingOccurrences(of: "\"1\": \"01010000\"", with: "\"1\": \"0101\""), "x.nfc (blocks.1): expected a block number 0…1 and 4 bytes as hex"),
    ] as [(String, String)])
    func damagedDumpsNameTheLineOrField(text: String, message: String) {
        expectDumpError(text, message)
    }

    @Test func loadersSurviveRandomInput() {
        var rng = SplitMix64(seed: 7)
        let seeds = [Self.flipperHeader + "DSFID: 00\nBlock Count: 2\nBlock Size: 04\nData Content: 01 02 03 04 05 06 07 08\nSecurity Status: 00 01\n",
                     Self.pm3(count: 2)]
        var loaded = 0
        for i in 0..<20_000 {
            let bytes = mutated(Array(seeds[i % 2].utf8), edits: 1...4, using: &rng)
            if let d = try? TagDump.load(bytes, name: "fuzz"), d.makeTag() != nil { loaded += 1 }
        }
        #expect(loaded > 0, "some mutations keep the file valid")
    }
}

extension ISO15693TagConfiguration {
    func with(flags: UInt8) -> ISO15693TagConfiguration {
        var c = self
        c.systemInformationFlags = flags
        return c
    }
}
