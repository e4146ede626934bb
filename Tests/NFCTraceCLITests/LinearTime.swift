import Foundation
import Testing

/// Growth checks for inputs that once took quadratic time (issue 51): the same work at size n and
/// at 4n, each the best of three runs, and the ratio bounded. Linear work gives about 4 (less when
/// process start-up is part of it), quadratic work 16; the bound sits between the two so that a
/// loaded CI machine does not fail a linear path. A ratio, not seconds, so the check means the same
/// on a debug build, a release build and a slow runner. Choose n so that the quadratic version
/// of the work would take well over the start-up time at n (the cases note what the old code took).
enum LinearTime {
    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try work()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }

    /// Checks t(4n) ≤ bound · t(n). Times under `floor` seconds count as `floor`: below it the
    /// clock and the scheduler, not the algorithm, decide the ratio.
    static func expect(_ label: String, n: Int, bound: Double = 8, floor: Double = 0.02,
                       sourceLocation: SourceLocation = #_sourceLocation, _ work: (Int) throws -> Void) throws {
        let small = max(try seconds { try work(n) }, floor)
        let large = max(try seconds { try work(4 * n) }, floor)
        #expect(large <= bound * small,
                "\(label): \(String(format: "%.3f", small)) s at n = \(n), \(String(format: "%.3f", large)) s at 4n (ratio \(String(format: "%.1f", large / small)), bound \(bound))",
                sourceLocation: sourceLocation)
    }
}
