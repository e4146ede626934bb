#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibFuzzer

/// Runs libFuzzer on `test` with this process's arguments and exits with its status; every fuzz
/// executable's `main.swift` ends here. They are built without SwiftPM's `--sanitize=fuzzer`, so
/// that only the code under test is instrumented (Package.swift); that leaves `main` to Swift,
/// and libFuzzer is entered through its driver instead of its own `main`.
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
