// Planted-bug benchmark, structure-aware: the same parser, mutated as Type 2 memory images by
// NFCFuzz (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

private let target = FuzzTarget(name: "FuzzPlantedDeepStructured", shape: .type2) { input in
    _ = DeepTextParser.parse(input)
    return .ok
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt { select(target) }
