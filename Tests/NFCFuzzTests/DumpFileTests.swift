import Testing
import NFCCore
import NFCEmulator
@testable import NFCFuzz

/// The dump files the fuzzer writes and the ones `emulate --save` writes come from the same
/// NFCCore descriptions (`FlipperNTAGFile`, `FlipperISO15693File`, `FlipperFeliCaLiteFile`,
/// `Proxmark3MFUFile`, `Proxmark3ISO15693File`): every seed of the dump shape loads in the
/// emulator, and what the emulator saves of it loads back and saves the same again.
@Suite struct DumpFileTests {
    @Test func everyDumpSeedLoadsAndSavesStably() throws {
        let seeds = DumpShape().seeds()
        #expect(seeds.count == 8)
        for (i, seed) in seeds.enumerated() {
            #expect(DumpShape().isWellFormed(seed), "seed \(i)")
            let dump = try TagDump.load(seed, name: "seed-\(i)")
            let tag = try #require(dump.makeTag(), "seed \(i)")
            guard let saved = tag.savedDump() else { continue }   // FeliCa is not saved
            #expect(saved.starts(with: Array("Filetype: Flipper NFC device\nVersion: 4\n# Written by nfctrace emulate --save\n".utf8)))
            let again = try #require(try TagDump.load(saved, name: "saved-\(i)").makeTag())
            #expect(again.savedDump() == saved, "seed \(i): a saved file loads back to the same tag")
        }
    }

    @Test func generatedDumpsThatAreWellFormedLoad() {
        let shape = DumpShape()
        var loaded = 0, wellFormed = 0
        for i in 0..<300 {
            var m = MutationContext(seed: UInt64(i) &* 0x51ED, maxSize: 8_192, dictionary: shape.dictionary)
            let input = shape.generate(&m)
            guard shape.isWellFormed(input) else { continue }
            wellFormed += 1
            if (try? TagDump.load(input, name: "generated-\(i)")) != nil { loaded += 1 }
        }
        // Generated memory may break model rules the loader enforces (a UID that differs from
        // pages 0–1); the file format itself always reads.
        #expect(wellFormed > 250 && loaded > wellFormed / 2, "\(loaded) of \(wellFormed) well-formed dumps loaded")
    }
}
