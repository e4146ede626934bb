/// The sanitizer a fuzz build adds to libFuzzer's instrumentation (`nfctrace fuzz --sanitizer`,
/// `scripts/fuzz-smoke`'s corpus replay). Each has its own scratch folder, so switching does not
/// rebuild the other.
public enum FuzzSanitizer: String, CaseIterable, Sendable {
    case none
    case address

    /// `NFCTRACE_FUZZ_SANITIZE`, which both manifests read: the `-sanitize=` value of the code
    /// under test. Swift takes the sanitizers as one combined flag: a second `-sanitize=` replaces
    /// the first (notes/fuzzing-swift.md).
    public var instrumentedWith: String {
        switch self {
        case .none: return "fuzzer"
        case .address: return "fuzzer,address"
        }
    }

    /// The environment of `swift build` (FuzzTesting/Package.swift).
    public var buildEnvironment: [String: String] { ["NFCTRACE_FUZZ_SANITIZE": instrumentedWith] }

    /// `swift build` arguments after `-c CONFIGURATION`: the fuzz build never passes
    /// `--sanitize=fuzzer`, which would instrument swift-crypto and the mutator as well.
    public var buildArguments: [String] {
        switch self {
        case .none:
            return []
        case .address:
            // swiftc has no UBSan for Linux targets (and a Swift release build traps on overflow
            // and out-of-bounds access anyway); the C targets (CStream's byte input, CLibFuzzer,
            // BoringSSL) get clang's ASan and UBSan, UBSan made fatal so that libFuzzer sees its
            // reports as crashes.
            return ["-Xcc", "-fsanitize=address,undefined", "-Xcc", "-fno-sanitize-recover=undefined"]
        }
    }

    /// What `nfctrace fuzz` says it builds.
    public var instrumentation: String {
        switch self {
        case .none: return "fuzzer"
        case .address: return "fuzzer+address, C: +undefined"
        }
    }

    /// Appended to `FuzzTesting/.build-fuzz`.
    public var scratchSuffix: String {
        switch self {
        case .none: return ""
        case .address: return "-asan"
        }
    }

    /// The sanitizer runtimes' options for a run: a report ends the input with libFuzzer's crash
    /// handling, UBSan prints its stack too. Leak detection stays on: a leak is a finding.
    public var environment: [String: String] {
        switch self {
        case .none: return [:]
        case .address: return ["ASAN_OPTIONS": "abort_on_error=0:handle_abort=1", "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"]
        }
    }
}
