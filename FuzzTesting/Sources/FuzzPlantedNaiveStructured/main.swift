// Planted-bug benchmark, structure-aware: the same parser, mutated as Type 2 memory images by
// NFCFuzz (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

let target = FuzzTarget(name: "FuzzPlantedNaiveStructured", shape: .type2) { input in
    _ = NaiveTLVParser.parse(input)
    return .ok
}

fuzz(target)
