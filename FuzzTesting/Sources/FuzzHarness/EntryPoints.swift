import FuzzMain
import NFCFuzzCodecTargets

/// libFuzzer's entry points, once for every executable here. Each executable's `main.swift`
/// names its target and calls `fuzz`.
nonisolated(unsafe) private var selected: FuzzTarget?

/// Fuzzes `target` with libFuzzer (this process's arguments are libFuzzer's) and exits.
public func fuzz(_ target: FuzzTarget) -> Never {
    selected = target
    runLibFuzzer(fuzzTest)
}

/// Fuzzes the target of that name in `FuzzTargetInfo.all`, its body taken from `bodies`
/// (`FuzzTargets.body`, or a smaller registry such as `CoreCodecTargets.body`).
public func fuzz(_ name: String, bodies: (String) -> (@Sendable ([UInt8]) -> FuzzCheck)?) -> Never {
    fuzz(FuzzTarget(name, bodies: bodies))
}

private var target: FuzzTarget {
    guard let selected else { fatalError("no target selected: the executable's main.swift must call fuzz") }
    return selected
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
