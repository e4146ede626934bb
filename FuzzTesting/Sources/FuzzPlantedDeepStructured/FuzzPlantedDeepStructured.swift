// Planted-bug benchmark, structure-aware: the same parser, mutated as Type 2 memory images by
// NFCFuzz (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

private let target = FuzzTarget(name: "FuzzPlantedDeepStructured", shape: .type2) { input in
    _ = DeepTextParser.parse(input)
    return .ok
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target.test(data, size)
}

@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    target.mutate(data, size, maxSize, seed)
}

@_cdecl("LLVMFuzzerCustomCrossOver")
public func fuzzCrossOver(_ a: UnsafePointer<UInt8>?, _ sizeA: Int, _ b: UnsafePointer<UInt8>?, _ sizeB: Int,
                          _ out: UnsafeMutablePointer<UInt8>?, _ maxOut: Int, _ seed: UInt32) -> Int {
    target.crossOver(a, sizeA, b, sizeB, out, maxOut, seed)
}
