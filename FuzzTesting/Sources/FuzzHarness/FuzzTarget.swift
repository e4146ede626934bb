import CLibFuzzer
import NFCFuzz
import NFCFuzzCodecTargets

/// What every libFuzzer executable here does: run its target's body on each input (trapping on
/// a failed round trip or invariant, so libFuzzer records it as a crash), and mutate with the
/// structure-aware engine of its shape, libFuzzer's own mutation in the mix.
public struct FuzzTarget: Sendable {
    public let name: String
    let body: @Sendable ([UInt8]) -> FuzzCheck
    let mutator: StructuredMutator

    public init(_ name: String, bodies: (String) -> (@Sendable ([UInt8]) -> FuzzCheck)?) {
        guard let info = FuzzTargetInfo.named(name), let body = bodies(name) else {
            fatalError("\(name) is not in FuzzTargetInfo.all")   // a build mistake, not an input
        }
        self.name = name
        self.body = body
        self.mutator = StructuredMutator(shape: info.shape)
    }

    /// A target body outside the registry (the planted-bug benchmark), mutated as `shape`.
    public init(name: String, shape: FuzzShape, body: @escaping @Sendable ([UInt8]) -> FuzzCheck) {
        self.name = name
        self.body = body
        self.mutator = StructuredMutator(shape: shape)
    }

    public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let input = Self.bytes(data, size)
        if case .mismatch(let why) = body(input) {
            fatalError("\(name): \(why)")
        }
        return 0
    }

    public func mutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
        guard let data, maxSize > 0 else { return 0 }
        let input = Self.bytes(UnsafePointer(data), min(size, maxSize))
        let out = mutator.mutate(input, seed: UInt64(seed) << 32 | UInt64(seed) ^ 0x5DEE_CE66, maxSize: maxSize, byteMutation: Self.libFuzzerMutate)
        let n = min(out.count, maxSize)
        out.withUnsafeBufferPointer { p in
            if let base = p.baseAddress, n > 0 { data.update(from: base, count: n) }
        }
        return n
    }

    public func crossOver(_ a: UnsafePointer<UInt8>?, _ sizeA: Int, _ b: UnsafePointer<UInt8>?, _ sizeB: Int,
                          _ out: UnsafeMutablePointer<UInt8>?, _ maxOut: Int, _ seed: UInt32) -> Int {
        guard let out, maxOut > 0 else { return 0 }
        let child = mutator.crossOver(Self.bytes(a, sizeA), Self.bytes(b, sizeB), seed: UInt64(seed), maxSize: maxOut)
        let n = min(child.count, maxOut)
        child.withUnsafeBufferPointer { p in
            if let base = p.baseAddress, n > 0 { out.update(from: base, count: n) }
        }
        return n
    }

    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// libFuzzer's mutation on a field: it needs a buffer of `limit` bytes to grow into.
    static func libFuzzerMutate(_ bytes: inout [UInt8], _ limit: Int) {
        // libFuzzer mutates at least one byte; an empty field starts as one zero byte.
        if bytes.isEmpty { bytes = [0] }
        let size = min(bytes.count, limit)
        var buffer = Array(bytes.prefix(size)) + [UInt8](repeating: 0, count: max(0, limit - size))
        let n = buffer.withUnsafeMutableBufferPointer { p -> Int in
            guard let base = p.baseAddress else { return 0 }
            return LLVMFuzzerMutate(base, size, limit)
        }
        bytes = Array(buffer.prefix(min(n, limit)))
    }
}
