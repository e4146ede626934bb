import Testing
import NFCCore
import NFCDissect
import NFCEmulator
@testable import NFCFuzz

/// The 14443-A frame shape's MIFARE Classic sessions: well-formed as generated, opened and
/// decrypted by the dissector with its built-in keys, and accepted by the emulator's blank
/// cards; a broken stream is not well-formed.
@Suite struct MIFAREClassicShapeTests {
    @Test func generatedSessionsDecryptInTheDissector() {
        var opened = 0, total = 0
        for seed in 0..<40 {
            var m = MutationContext(seed: UInt64(seed) &* 0x9E37_79B9, maxSize: 4096)
            let input = FrameSequence.encode(selector: 0, frames: MIFAREClassicSessions.session(&m))
            #expect(FramesShape(technology: .iso14443a).isWellFormed(input), "seed \(seed)")
            let frames = FrameSequence.frames(input, technology: .iso14443a).frames
            let summaries = Dissector.dissect(frames).compactMap { e -> String? in if case .frame(let f) = e { return f.summary } else { return nil } }
            total += 1
            if summaries.contains(where: { $0.hasPrefix("{aT}: authenticated") }) { opened += 1 }
            #expect(!summaries.contains { $0.hasPrefix("unknown command") || $0.hasPrefix("malformed GET_VERSION") }, "seed \(seed): \(summaries)")
        }
        #expect(opened >= total * 3 / 4, "\(opened) of \(total) sessions authenticated")
    }

    @Test func theBlankCardAcceptsThemAndABrokenStreamIsIllFormed() {
        var m = MutationContext(seed: 11, maxSize: 4096)
        var frames = MIFAREClassicSessions.session(&m)
        let encoded = FrameSequence.encode(selector: 0, frames: frames)
        // Flip a bit of the first encrypted reader frame after the authentication: it no longer decrypts.
        if let i = frames.indices.dropFirst(12).first(where: { frames[$0].kind == .reader && frames[$0].bytes.count == 4 }) {
            frames[i].bytes[1] ^= 0x10
            #expect(!FramesShape(technology: .iso14443a).isWellFormed(FrameSequence.encode(selector: 0, frames: frames)))
        }
        _ = encoded
        // Sessions with the blank card's UID and key FFFFFFFFFFFF get past the authentication.
        var best = 0
        for seed in 0..<30 {
            var m = MutationContext(seed: UInt64(seed) &+ 100, maxSize: 4096)
            let input = FrameSequence.encode(selector: 0, frames: MIFAREClassicSessions.session(&m))
            let tag = BuiltInTag.named("mifare-classic-1k")!.make().makeTag()!
            var answered = 0
            for f in FrameSequence.frames(input, technology: .iso14443a).frames where f.isReaderFrame {
                if tag.respond(to: f) != nil { answered += 1 }
            }
            best = max(best, answered)
        }
        #expect(best >= 6, "activation (3), nT, {aT} and at least one command answered")
    }

    /// Found by fuzz-smoke in CI: the value-block mutation added an offset with a trapping
    /// subtraction, so a value near Int32.min crashed the mutator (libFuzzer saw a crash with
    /// no input). Values at both ends, mutated many times.
    @Test func valueBlocksAtTheEdgesMutateWithoutTrapping() {
        let shape = MIFAREClassicShape()
        for value in [Int32.min, Int32.min + 1, Int32.max, -1, 0] {
            let input = [2] + MIFAREClassicValueBlock(value: value, address: 4).encode()
            for seed in 0..<300 as Range<UInt64> {
                var m = MutationContext(seed: seed, maxSize: 4096)
                if let out = shape.mutateStructure(input, &m) { #expect(shape.isWellFormed(out)) }
            }
        }
    }
}
