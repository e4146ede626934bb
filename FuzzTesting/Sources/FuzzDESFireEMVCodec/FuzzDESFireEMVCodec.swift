// FuzzDESFireEMVCodec: the libFuzzer entry points are in FuzzSupport; the body and the shape come from the
// registry (FuzzTargetInfo.all says what it checks).
import FuzzSupport

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt { select("FuzzDESFireEMVCodec") }
