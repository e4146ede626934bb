// Planted-bug benchmark, structure-aware: the same parser, mutated as NDEF messages by NFCFuzz
// (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

private let target = FuzzTarget(name: "FuzzPlantedSmartPosterStructured", shape: .ndef) { input in
    _ = SmartPosterSizeParser.parse(input)
    return .ok
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt { select(target) }
