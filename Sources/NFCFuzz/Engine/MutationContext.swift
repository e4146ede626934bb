/// What one mutation may use: its random source, the size limit, the shape's dictionary, and
/// the byte-level mutation of the environment it runs in.
public struct MutationContext {
    /// The mutation's random source, seeded per call.
    public var random: FuzzRandom
    /// The longest input the mutation may produce (libFuzzer's `MaxSize`, at least 1).
    public let maxSize: Int
    /// The shape's magic values, for byte mutations that insert them.
    public let dictionary: [[UInt8]]
    /// libFuzzer's `LLVMFuzzerMutate` inside a fuzz target; nil elsewhere (then `ByteMutator`).
    /// It gets the bytes and the size limit and mutates in place.
    public let byteMutation: ((inout [UInt8], Int) -> Void)?

    /// A context seeded with `seed`, its output capped at `maxSize`, byte mutation by
    /// `byteMutation` when given.
    public init(seed: UInt64, maxSize: Int, dictionary: [[UInt8]] = [], byteMutation: ((inout [UInt8], Int) -> Void)? = nil) {
        self.random = FuzzRandom(seed: seed)
        self.maxSize = max(1, maxSize)
        self.dictionary = dictionary
        self.byteMutation = byteMutation
    }

    /// Byte-level mutation of `bytes`, limited to `limit` bytes (default: the context's limit).
    public mutating func mutateBytes(_ bytes: inout [UInt8], limit: Int? = nil) {
        let cap = max(1, min(limit ?? maxSize, maxSize))
        if let byteMutation {
            byteMutation(&bytes, cap)
            if bytes.count > cap { bytes.removeLast(bytes.count - cap) }
        } else {
            ByteMutator.mutate(&bytes, maxSize: cap, dictionary: dictionary, random: &random)
        }
    }

    /// A mutated copy of a field (a payload, a text, a block) that stays under `limit` bytes.
    public mutating func mutatedField(_ bytes: [UInt8], limit: Int) -> [UInt8] {
        var copy = bytes
        mutateBytes(&copy, limit: limit)
        return copy
    }
}

/// One input format the fuzzer understands: how to build seeds, the magic values of its
/// dictionary, and the three kinds of mutation the engine mixes (see `StructuredMutator`).
///
/// `mutateStructure` and `breakStructure` return nil when the input does not decode as the
/// shape; the engine then generates a fresh input or falls back to byte mutation.
public protocol ShapeMutator: Sendable {
    /// Well-formed inputs built with the codecs' encoders.
    func seeds() -> [[UInt8]]
    /// Magic values for this shape (libFuzzer `-dict` entries and byte mutations).
    var dictionary: [[UInt8]] { get }
    /// Decode, change one typed field or part of the structure, encode: the result decodes.
    func mutateStructure(_ input: [UInt8], _ context: inout MutationContext) -> [UInt8]?
    /// Decode, then encode with a deliberate inconsistency (a length, a flag, a count, a cut).
    func breakStructure(_ input: [UInt8], _ context: inout MutationContext) -> [UInt8]?
    /// A fresh well-formed input.
    func generate(_ context: inout MutationContext) -> [UInt8]
    /// Splices the structures of two inputs; nil when either does not decode.
    func crossOver(_ first: [UInt8], _ second: [UInt8], _ context: inout MutationContext) -> [UInt8]?
    /// Whether `input` decodes as this shape without breaching its rules (what the rate tests count).
    func isWellFormed(_ input: [UInt8]) -> Bool
}

extension ShapeMutator {
    /// The content of a tag in a generated frame session: fresh, then often changed in its
    /// structure and sometimes broken.
    func sessionContent(_ m: inout MutationContext) -> [UInt8] {
        var image = generate(&m)
        if m.random.chance(40) { image = mutateStructure(image, &m) ?? image }
        if m.random.chance(15) { image = breakStructure(image, &m) ?? image }
        return image
    }
}
