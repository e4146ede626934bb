// libFuzzer entry points of FuzzISO15693Codec (FuzzTargetInfo.all says what it checks). Every target file
// here is the same apart from the name: the body and the shape come from the registry.
import FuzzSupport

private let target = FuzzTarget("FuzzISO15693Codec")

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
