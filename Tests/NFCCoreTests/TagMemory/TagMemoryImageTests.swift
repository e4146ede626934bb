import Testing
import NFCCore
import NFCTestInputs

/// `firstUnknown(in:)` scans in place; it must answer what the first of `unknownRuns(in:)` says,
/// for any mask and any range (negative, empty, past the image).
@Suite struct TagMemoryImageTests {
    @Test func firstUnknownIsTheFirstUnknownRun() {
        let seed = TestSeed(0x7A6_0001)
        var rng = seed.generator
        var checked = 0
        for _ in 0..<400 {
            let count = Int.random(in: 0...24, using: &rng)
            let bytes = [UInt8](repeating: 0xAB, count: count)
            let mask: [Bool]?
            switch Int.random(in: 0...3, using: &rng) {
            case 0: mask = nil
            case 1: mask = (0..<count).map { _ in Bool.random(using: &rng) }
            // A mask shorter than the image: the bytes past it are unknown.
            case 2: mask = (0..<max(0, count - 3)).map { _ in Bool.random(using: &rng) }
            default: mask = [Bool](repeating: true, count: count)
            }
            let image = TagMemoryImage(bytes: bytes, known: mask)
            for _ in 0..<20 {
                let lower = Int.random(in: -4...30, using: &rng)
                let upper = Int.random(in: lower...34, using: &rng)
                #expect(image.firstUnknown(in: lower..<upper) == image.unknownRuns(in: lower..<upper).first?.lowerBound,
                        "\(count) bytes, mask \(String(describing: mask)), range \(lower)..<\(upper), \(seed)")
                checked += 1
            }
        }
        #expect(checked == 8000)
    }

    @Test func firstUnknownExamples() {
        let image = TagMemoryImage(bytes: [1, 2, 3, 4, 5, 6], known: [true, true, false, true, true, true])
        #expect(image.firstUnknown(in: 0..<2) == nil)
        #expect(image.firstUnknown(in: 0..<4) == 2)
        #expect(image.firstUnknown(in: 3..<6) == nil)
        #expect(image.firstUnknown(in: 4..<9) == 6)
        #expect(image.firstUnknown(in: -2..<3) == -2)
        #expect(TagMemoryImage(bytes: [1, 2]).firstUnknown(in: 0..<2) == nil)
    }
}
