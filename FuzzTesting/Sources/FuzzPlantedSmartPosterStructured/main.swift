// Planted-bug benchmark, structure-aware: the same parser, mutated as NDEF messages by NFCFuzz
// (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

let target = FuzzTarget(name: "FuzzPlantedSmartPosterStructured", shape: .ndef) { input in
    _ = SmartPosterSizeParser.parse(input)
    return .ok
}

fuzz(target)
