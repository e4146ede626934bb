// Planted-bug benchmark, structure-aware: the same parser, mutated as FeliCa commands by NFCFuzz
// (libFuzzer's own mutation is one part of the mix).
import FuzzSupport
import PlantedBugs

let target = FuzzTarget(name: "FuzzPlantedBlockListStructured", shape: .felica) { input in
    _ = BlockListParser.parse(input)
    return .ok
}

fuzz(target)
