import Foundation
import Testing
import NFCCore
@testable import NFCEmulator

/// Loading tags from the real dumps in ../shared/dumps (read in place) and from hand-made files.
@Suite struct DumpTests {
    static let shared: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/../shared/dumps"
    }()
    static var sharedAvailable: Bool { FileManager.default.fileExists(atPath: shared) }

    func load(_ name: String) throws -> TagDump {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(Self.shared)/\(name)")))
        return try TagDump.load(bytes, name: name)
    }

    @Test(.enabled(if: sharedAvailable, "../shared/dumps is not beside this checkout"))
    func flipperNTAG215() throws {
        guard let d = (try load("flipper_Ntag215_amiibo_v3.nfc")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(d.memory.model == .ntag215)
        #expect(d.memory.uid == [0x04, 0x51, 0x5C, 0xFA, 0x6F, 0x73, 0x81])
        #expect(d.atqa.value == 0x0044 && d.sak.raw == 0x00)
        #expect(d.memory.page(3) == [0xF1, 0x10, 0xFF, 0xEE], "amiibo CC")
        #expect(d.memory.counters[2] == 95)
        #expect(d.memory.signature.prefix(4) == [0x42, 0x21, 0xE4, 0x6C])
        #expect(d.memory.configuration?.auth0 == 0x04)
        #expect(d.notes.contains { $0.contains("PWD is 00 00 00 00") })
        // The emulated tag answers like the dumped one.
        let tag = try #require(d.makeTag())
        let r = TestReader(tag: tag)
        #expect(r.activate())
        #expect(r.answer("30 03") == d.memory.page(3) + d.memory.page(4) + d.memory.page(5) + d.memory.page(6))
    }

    @Test(.enabled(if: sharedAvailable, "../shared/dumps is not beside this checkout"))
    func proxmark3NTAG216() throws {
        guard let d = (try load("pm3_ntag216-empty.json")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(d.memory.model == .ntag216)
        #expect(d.memory.uid == [0x04, 0x58, 0x69, 0xD2, 0x9C, 0x39, 0x80])
        #expect(d.memory.page(3) == [0xE1, 0x10, 0x6D, 0x00])
        #expect(d.memory.password == [0xFF, 0xFF, 0xFF, 0xFF], "Proxmark3 writes the known password into the dump")
        #expect(d.memory.tearing[2] == 0xBD)
        let tag = try #require(d.makeTag())
        let r = TestReader(tag: tag)
        #expect(r.activate())
        #expect(r.answer("60") == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03])
    }

    @Test func rawNTAG215Binary() throws {
        let memory = Type2TagMemory.factory(.ntag215, uid: uid)
        guard let d = (try TagDump.load(memory.pages, name: "amiibo.bin")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(d.memory.model == .ntag215 && d.memory.pages == memory.pages)
        guard let short = (try TagDump.load(Array(memory.pages.prefix(520)), name: "short.bin")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(short.memory.page(0x84) == [0x00, 0x05, 0x00, 0x00], "missing configuration pages take factory values")
        #expect(short.notes.first == "short.bin: 520 bytes for a 540-byte NTAG215; missing pages take factory values")
    }

    @Test func proxmark3Binary() throws {
        let memory = Type2TagMemory.factory(.ntag213, uid: uid)
        var header = Type2TagModel.ntag213.version! + [0, 0, 0, UInt8(44)] + [UInt8](repeating: 0xAB, count: 32)
        header += [5, 0, 0, 0xBD, 0, 0, 0, 0xBD, 7, 0, 0, 0xBD]
        guard let d = (try TagDump.load(header + memory.pages, name: "pm3.bin")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(d.memory.model == .ntag213 && d.memory.counters == [5, 0, 7] && d.memory.signature.first == 0xAB)
    }

    @Test func savedStateLoadsBack() throws {
        let (tag, r) = ntag()
        r.activate()
        #expect(r.answer("A2 10 CA FE BA BE") == [0x0A])
        let saved = try #require(tag.savedDump())
        guard let d = (try TagDump.load(saved, name: "saved.nfc")).content as? Type2Dump else { Issue.record("not a Type 2 dump"); return }
        #expect(d.memory == tag.memory)
    }

    @Test(arguments: [
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: ISO14443-4A\n", "x.nfc:3 (Device type): cannot emulate a \"ISO14443-4A\" (supported: NTAG/Ultralight, Mifare Classic, Mifare DESFire, FeliCa, ISO15693-3, SLIX)"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: Mifare Classic\nUID: 01 02 03 04\nMifare Classic type: 1K\nBlock 0: 01 02 03\n", "x.nfc:6 (Block 0): expected 16 bytes (hex, or ?? when not read)"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nUID: 04 01 02 03 04 05 06\nNTAG/Ultralight type: NTAG215\nPage 0: 04 01 02\n", "x.nfc:6 (Page 0): expected 4 hex bytes"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nNTAG/Ultralight type: NTAG999\n", "x.nfc:4 (NTAG/Ultralight type): unsupported tag type \"NTAG999\" (NTAG210/212/213/215/216, Mifare Ultralight, Ultralight 11/21)"),
        ("Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nNTAG/Ultralight type: NTAG215\nPages total: 99\n", "x.nfc:5 (Pages total): NTAG215 has 135 pages, the file says 99"),
        ("Filetype: Flipper NFC device\nthis line has no colon\n", "x.nfc:2: expected \"Key: value\", found \"this line has no colon\""),
        ("Filetype: something else\n", "x.nfc:1 (Filetype): expected \"Filetype: Flipper NFC device\""),
        ("{\"FileType\": \"mfu\", \"Card\": {\"Version\": \"0004\"}}", "x.nfc (Card.Version): expected 8 bytes as a hex string"),
        ("{\"FileType\": \"mfc v2\"}", "x.nfc (FileType): cannot emulate a Proxmark3 \"mfc v2\" dump (supported: mfu, mfcard, 15693 v4)"),
        ("{\"FileType\": ", "x.nfc: not valid JSON: at byte 13: expected a JSON value, found end of data"),
        ("\u{01}\u{02}\u{03}", "x.nfc: 3 bytes is no page dump size nfctrace recognises (540 NTAG215, 180 NTAG213, 924 NTAG216, 64 Ultralight, or a Proxmark3 binary); give the model"),
    ] as [(String, String)])
    func damagedDumpsNameTheLineOrField(text: String, message: String) {
        expectDumpError(text, message)
    }

    @Test func loadersSurviveRandomInput() {
        var rng = SplitMix64(seed: 0xD0_0D)
        let seeds = ["Filetype: Flipper NFC device\nVersion: 4\nDevice type: NTAG/Ultralight\nNTAG/Ultralight type: NTAG213\nUID: 04 01 02 03 04 05 06\nPage 0: 04 01 02 8F\n",
                     "{\"FileType\": \"mfu\", \"Card\": {\"UID\": \"04010203040506\"}, \"blocks\": {\"0\": \"0401028F\"}}"]
        for i in 0..<20_000 {
            let bytes = mutated(Array(seeds[i % 2].utf8), edits: 1...6, using: &rng)
            _ = try? TagDump.load(bytes, name: "fuzz")
            _ = try? JSONValue.parse(bytes)
        }
    }
}

/// `bytes` after a few random edits (a byte replaced, removed or inserted): the quick in-test
/// stand-in for the fuzzer on file loaders. Never empty.
func mutated(_ bytes: [UInt8], edits: ClosedRange<Int>, using rng: inout SplitMix64) -> [UInt8] {
    var bytes = bytes.isEmpty ? [0] : bytes
    for _ in 0..<Int.random(in: edits, using: &rng) {
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
        case 1: bytes.remove(at: at)
        default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: at)
        }
        if bytes.isEmpty { bytes = [0] }
    }
    return bytes
}

/// ATQA byte order in Flipper files (found by FuzzDumpLoad: a version-2 file's ATQA saved as
/// version 4 loaded back as another value).
@Suite struct FlipperATQATests {
    static func file(version: Int, atqa: String, comment: String = "") -> [UInt8] {
        let memory = Type2TagMemory.factory(.ntag213, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        var lines = ["Filetype: Flipper NFC device", "Version: \(version)"] + (comment.isEmpty ? [] : [comment])
        lines += ["Device type: NTAG/Ultralight", "UID: 04 01 02 03 04 05 06", "ATQA: \(atqa)", "SAK: 00", "NTAG/Ultralight type: NTAG213"]
        lines += (0..<45).map { "Page \($0): " + Hex.string(memory.page($0)) }
        return Array(lines.joined(separator: "\n").utf8)
    }

    func atqa(_ bytes: [UInt8]) throws -> UInt16? {
        ((try TagDump.load(bytes, name: "a.nfc")).content as? Type2Dump)?.atqa.value
    }

    @Test(arguments: [
        (2, "44 00", UInt16(0x0044)),   // version 2: on-air order
        (2, "00 44", UInt16(0x4400)),   // an odd value is kept as written
        (4, "00 44", UInt16(0x0044)),   // version 4: MSB first
        (4, "44 00", UInt16(0x0044)),   // third-party v4 in on-air order: MSB first reads as no valid ATQA
        (4, "03 44", UInt16(0x0344)),   // DESFire-like: valid MSB first (was read as 4403)
    ] as [(Int, String, UInt16)])
    func byteOrder(version: Int, written: String, value: UInt16) throws {
        #expect(try atqa(Self.file(version: version, atqa: written)) == value)
    }

    @Test func nfctraceSavesLoadBackWhateverTheValue() throws {
        for written in ["00 44", "44 00", "03 44", "00 00", "FF FF"] {
            let first = try TagDump.load(Self.file(version: 2, atqa: written), name: "a.nfc")
            let saved = try #require(first.makeTag()?.savedDump())
            let again = try TagDump.load(saved, name: "saved.nfc")
            #expect((again.content as? Type2Dump)?.atqa == (first.content as? Type2Dump)?.atqa, "ATQA \(written)")
            #expect(again.makeTag()?.savedDump() == saved)
        }
    }
}

/// Loading `text` as a dump named x.nfc fails with a DumpError whose description is `message`.
func expectDumpError(_ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: DumpError.self, sourceLocation: sourceLocation) { try TagDump.load(Array(text.utf8), name: "x.nfc") }
    do {
        _ = try TagDump.load(Array(text.utf8), name: "x.nfc")
    } catch {
        #expect(error.description == message, sourceLocation: sourceLocation)
    }
}
