/// The mutation engine: mixes structure-aware mutation, deliberate breakage and plain byte
/// mutation for one shape. This is what libFuzzer calls as its custom mutator.
///
/// Weights (out of 100), chosen so that most children still decode and reach deep code, while
/// a steady share breaks the format on purpose to find the edges:
///
/// | kind | weight | what |
/// |---|---|---|
/// | structure | 55 | decode, mutate a typed field or the structure, encode |
/// | breakage  | 20 | decode, encode with an inconsistent length, flag, count or a cut |
/// | bytes     | 20 | byte-level mutation (libFuzzer's own inside a fuzz target) |
/// | fresh     | 5  | a newly generated well-formed input (or one of the seeds) |
///
/// An input that does not decode cannot be mutated structurally: half the time it gets a fresh
/// input instead (so the fuzzer climbs back into the format), half the time byte mutation (so
/// broken inputs still evolve). `Tests/NFCFuzzTests` measures the resulting rates per shape.
public struct StructuredMutator: Sendable {
    /// The shape whose inputs this engine mutates.
    public let shape: FuzzShape
    let mutator: any ShapeMutator
    /// Built once: seeds come from the encoders and are handed out again as fresh inputs.
    let seedInputs: [[UInt8]]

    /// The four kinds of child the engine makes (see the table above).
    public enum Kind: Int, CaseIterable, Sendable {
        case structure, breakage, bytes, fresh
    }

    /// How often each kind is chosen, out of 100.
    public static let weights: [Kind: Int] = [.structure: 55, .breakage: 20, .bytes: 20, .fresh: 5]

    /// The engine for `shape`, its seeds built once.
    public init(shape: FuzzShape) {
        self.shape = shape
        self.mutator = shape.mutator
        self.seedInputs = mutator.seeds()
    }

    /// The shape's magic values (libFuzzer `-dict` entries).
    public var dictionary: [[UInt8]] { mutator.dictionary }
    /// The shape's seed inputs, built by the codecs' encoders.
    public func seeds() -> [[UInt8]] { seedInputs }
    /// Whether `input` is a well-formed input of the shape.
    public func isWellFormed(_ input: [UInt8]) -> Bool { mutator.isWellFormed(input) }

    /// One child of `input`. Deterministic for a seed; never longer than `maxSize`.
    public func mutate(_ input: [UInt8], seed: UInt64, maxSize: Int,
                       byteMutation: ((inout [UInt8], Int) -> Void)? = nil) -> [UInt8] {
        var m = MutationContext(seed: seed, maxSize: maxSize, dictionary: mutator.dictionary, byteMutation: byteMutation)
        let kind = Kind.allCases[m.random.weighted(Kind.allCases.map { Self.weights[$0] ?? 0 })]
        return mutate(input, kind: kind, &m)
    }

    /// One child made by a given kind of mutation (the rate tests measure each kind).
    public func mutate(_ input: [UInt8], kind: Kind, seed: UInt64, maxSize: Int = 4096) -> [UInt8] {
        var m = MutationContext(seed: seed, maxSize: maxSize, dictionary: mutator.dictionary)
        return mutate(input, kind: kind, &m)
    }

    /// One child of `input` made by `kind` within a mutation context (random source, size limit, dictionary): a structural change retried a few
    /// times when it changes nothing, then byte mutation; the result is capped at the context's
    /// size limit.
    public func mutate(_ input: [UInt8], kind: Kind, _ m: inout MutationContext) -> [UInt8] {
        var out: [UInt8]?
        // A structural change can land on the same bytes (a shuffle of one record, a flag set to
        // its value); try again a few times before falling back to byte mutation.
        for _ in 0..<4 {
            switch kind {
            case .structure: out = mutator.mutateStructure(input, &m)
            case .breakage: out = mutator.breakStructure(input, &m)
            case .bytes: out = bytes(input, &m)
            case .fresh: out = fresh(&m)
            }
            if out != input { break }
        }
        if out == nil {
            out = m.random.bool() ? fresh(&m) : bytes(input, &m)
        }
        var result = out ?? input
        if result.count > m.maxSize {
            // Too long for libFuzzer's buffer: keep the head, which carries the headers.
            result.removeLast(result.count - m.maxSize)
        }
        // libFuzzer drops a child equal to its parent as wasted work; make it differ.
        for _ in 0..<4 where result == input { m.mutateBytes(&result) }
        if result == input {
            if result.isEmpty { result = [m.random.byte()] } else { result[result.count - 1] ^= 1 << UInt8(m.random.below(8)) }
        }
        return result
    }

    /// Structure-aware crossover; falls back to splicing the two byte strings.
    public func crossOver(_ a: [UInt8], _ b: [UInt8], seed: UInt64, maxSize: Int) -> [UInt8] {
        var m = MutationContext(seed: seed, maxSize: maxSize, dictionary: mutator.dictionary)
        var out = mutator.crossOver(a, b, &m) ?? Self.splice(a, b, &m.random)
        if out.count > maxSize { out.removeLast(out.count - maxSize) }
        return out
    }

    /// Head of one input, tail of the other.
    static func splice(_ a: [UInt8], _ b: [UInt8], _ random: inout FuzzRandom) -> [UInt8] {
        Array(a.prefix(random.below(a.count + 1))) + Array(b.suffix(random.below(b.count + 1)))
    }

    private func bytes(_ input: [UInt8], _ m: inout MutationContext) -> [UInt8] {
        var copy = input
        m.mutateBytes(&copy)
        return copy
    }

    private func fresh(_ m: inout MutationContext) -> [UInt8] {
        if m.random.chance(30), let seed = m.random.element(seedInputs) { return seed }
        return mutator.generate(&m)
    }
}
