// Planted-bug benchmark, plain libFuzzer: no custom mutator, libFuzzer's own mutations only.
import FuzzMain
import PlantedBugs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    _ = BlockListParser.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

runLibFuzzer(fuzzTest)
