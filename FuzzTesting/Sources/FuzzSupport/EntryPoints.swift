/// libFuzzer's entry points, once for every executable here. Each executable only defines
/// `LLVMFuzzerInitialize` (libFuzzer calls it before anything else) and selects its target there
/// with `select`.
nonisolated(unsafe) private var selected: FuzzTarget?

/// Makes `target` the one this executable fuzzes; returns 0 for `LLVMFuzzerInitialize`.
public func select(_ target: FuzzTarget) -> CInt {
    selected = target
    return 0
}

/// The registry's target of that name (`FuzzTargetInfo.all`).
public func select(_ name: String) -> CInt { select(FuzzTarget(name)) }

private var target: FuzzTarget {
    guard let selected else { fatalError("no target selected: the executable's LLVMFuzzerInitialize must call select") }
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
