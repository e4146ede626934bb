/// What libFuzzer (or a Swift trap) printed about one crashing input, reduced to what tells
/// crashes apart: the kind, the reason line, and the top frames of our own code.
public struct CrashReport: Sendable, Equatable {
    /// How the input failed: a crash (trap or signal), a timeout, running out of memory, or a leak
    /// LeakSanitizer found.
    public enum Kind: String, Sendable { case crash, timeout, oom, leak }

    /// How the input failed.
    public var kind: Kind
    /// `Fatal error: Range requires lowerBound <= upperBound`, `deadly signal`, …
    public var reason: String
    /// `Type.function(_:) File.swift:12` for the topmost frames in project code.
    public var frames: [String]

    /// Frames of libFuzzer, the sanitizers, libc and the Swift runtime say nothing about the bug.
    static let noise = ["fuzzer::", "libFuzzer", "__sanitizer", "__asan", "__interceptor", "libc.so", "libswiftCore", "_assertionFailure",
                        "_fatalErrorMessage", "swift_", "LLVMFuzzerTestOneInput", "FuzzTarget.test", "fuzzTest(", "main ", "_start", "__libc_start"]

    /// Reads a (demangled) libFuzzer log.
    public static func parse(_ log: String, maximumFrames: Int = 3) -> CrashReport {
        var kind = Kind.crash
        var reason = "crash"
        var frames: [String] = []
        for raw in log.split(separator: "\n") {
            let line = raw.drop { $0 == " " }
            if line.contains("Fatal error:") {
                reason = String(line[(line.range(of: "Fatal error:")?.lowerBound ?? line.startIndex)...])
            } else if line.hasPrefix("==") && line.contains("ERROR: libFuzzer:") {
                let what = line.split(separator: ":", maxSplits: 2).last.map { $0.drop { $0 == " " } } ?? ""
                if what.hasPrefix("timeout") { kind = .timeout } else if what.hasPrefix("out-of-memory") { kind = .oom }
                if reason == "crash" || kind != .crash { reason = "libFuzzer: " + String(what) }
            } else if line.hasPrefix("==") && line.contains("ERROR: AddressSanitizer") {
                reason = String(line.split(separator: ":", maxSplits: 1).last ?? "").trimmingBlanks()
            } else if line.contains("ERROR: LeakSanitizer") {
                kind = .leak
                reason = "memory leak"
            } else if line.hasPrefix("#"), let inRange = line.range(of: " in "), frames.count < maximumFrames {
                let rest = line[inRange.upperBound...]
                guard !noise.contains(where: { rest.contains($0) }) else { continue }
                // `Symbol /path/File.swift:12:34` → `Symbol File.swift:12`.
                let parts = rest.split(separator: " ")
                guard let location = parts.last, location.contains(".swift:") else { continue }
                let symbol = parts.dropLast().joined(separator: " ")
                let file = location.split(separator: "/").last ?? location
                let fileLine = file.split(separator: ":").prefix(2).joined(separator: ":")
                let frame = "\(symbol) \(fileLine)"
                if frames.last != frame { frames.append(frame) }
            }
        }
        return CrashReport(kind: kind, reason: reason, frames: frames)
    }

    /// What crashes are grouped by: the kind, the reason without its details (what follows
    /// ` — ` in a fuzz target's message; numbers and addresses) and the frames.
    public var signature: String { ([kind.rawValue, Self.normalized(reason)] + frames).joined(separator: " | ") }

    static func normalized(_ reason: String) -> String {
        let stable = Array(reason.split(separator: "—", maxSplits: 1).first.map { String($0).trimmingBlanks() } ?? reason)
        var out = ""
        var i = 0
        while i < stable.count {
            // A number (decimal, or hex with its 0x) becomes N.
            if stable[i].isNumber {
                out.append("N")
                i += 1
                while i < stable.count, stable[i].isHexDigit || stable[i] == "x" { i += 1 }
            } else {
                out.append(stable[i])
                i += 1
            }
        }
        return out
    }
}

extension Substring {
    /// First occurrence of `needle` (Foundation-free).
    func range(of needle: String) -> Range<Index>? {
        let n = needle.count
        guard n > 0, count >= n else { return nil }
        var i = startIndex
        while let end = index(i, offsetBy: n, limitedBy: endIndex) {
            if self[i..<end].elementsEqual(needle) { return i..<end }
            i = index(after: i)
        }
        return nil
    }
}
