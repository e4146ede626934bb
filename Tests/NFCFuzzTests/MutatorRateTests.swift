import Testing
import NFCCore
@testable import NFCFuzz

/// Measured rates of well-formed and broken children per shape. The engine's promise (see
/// `StructuredMutator`): structure mutations mostly keep inputs decodable so the fuzzer goes
/// deep, breakage mostly breaks them so it finds the edges, and the mix does both.
@Suite struct MutatorRateTests {
    struct Rates: CustomStringConvertible {
        var structure: Double
        var breakage: Double
        var mixWellFormed: Double
        var description: String {
            "structure keeps \(Int(structure * 100))% well-formed, breakage breaks \(Int(breakage * 100))%, mix \(Int(mixWellFormed * 100))% well-formed"
        }
    }

    /// Children of the seeds and of their children (one generation on), so the rates hold past
    /// the first step.
    static func measure(_ shape: FuzzShape, children: Int = 500) -> Rates {
        let mutator = StructuredMutator(shape: shape)
        let parents = mutator.seeds() + mutator.seeds().enumerated().map { mutator.mutate($1, kind: .structure, seed: UInt64($0)) }
        var kept = 0, broken = 0, mixed = 0
        for i in 0..<children {
            let parent = parents[i % parents.count]
            var m = MutationContext(seed: UInt64(i) &* 0x9E37, maxSize: 4096, dictionary: mutator.dictionary)
            if mutator.isWellFormed(mutator.mutate(parent, kind: .structure, &m)) { kept += 1 }
            var n = MutationContext(seed: UInt64(i) &* 0x7F4A, maxSize: 4096, dictionary: mutator.dictionary)
            if !mutator.isWellFormed(mutator.mutate(parent, kind: .breakage, &n)) { broken += 1 }
            if mutator.isWellFormed(mutator.mutate(parent, seed: UInt64(i) &+ 0xABCD, maxSize: 4096)) { mixed += 1 }
        }
        let n = Double(children)
        return Rates(structure: Double(kept) / n, breakage: Double(broken) / n, mixWellFormed: Double(mixed) / n)
    }

    /// Documented bounds (docs/fuzzing.md): structure ≥ 80 % well-formed, breakage ≥ 60 % broken,
    /// and the mix between 50 % and 95 % well-formed.
    @Test(arguments: FuzzShape.allCases) func ratesWithinBounds(shape: FuzzShape) {
        let rates = Self.measure(shape)
        #expect(rates.structure >= Self.bounds(shape).structure, "\(shape.rawValue): \(rates)")
        #expect(rates.breakage >= Self.bounds(shape).breakage, "\(shape.rawValue): \(rates)")
        #expect((0.5...0.95).contains(rates.mixWellFormed), "\(shape.rawValue): \(rates)")
    }

    static func bounds(_ shape: FuzzShape) -> (structure: Double, breakage: Double) {
        (0.8, 0.6)
    }

    @Test(arguments: FuzzShape.allCases) func seedsAreWellFormed(shape: FuzzShape) {
        let mutator = StructuredMutator(shape: shape)
        #expect(!mutator.seeds().isEmpty)
        for (i, seed) in mutator.seeds().enumerated() {
            let wellFormed = mutator.isWellFormed(seed)
            #expect(wellFormed, "\(shape.rawValue) seed \(i) is not well-formed: \(Hex.string(seed.prefix(48)))")
        }
    }
}
