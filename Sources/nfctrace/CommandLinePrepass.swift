import ArgumentParser

/// A command whose last positional argument takes any number of values (files, traces, mfkey's
/// words): its lists are held back from ArgumentParser and given to it whole (`CommandLinePrepass`).
protocol TakesValueLists: ParsableCommand {}

/// What nfctrace does to its command line before ArgumentParser reads it.
///
/// ArgumentParser (1.8.2) takes time in the square of the number of times one argument is given:
/// each value of a repeated positional, option or flag merges the set of every earlier position
/// of it and copies the list so far (issue 51: 16,000 files for `report` took 17 s, `-V` 16,000
/// times 58 s). So
/// - in a run of three or more plain words (not starting with `-`, or `-` alone) all words but the
///   first are certainly values of the command's list (no nfctrace option takes two values): for
///   a `TakesValueLists` command they are replaced by one token, which `expand` turns back into
///   the words, so a file list of any length costs one value;
/// - what is left is at most `limit` arguments: more is refused as a usage error, which bounds
///   the parser's time (1,000 repeated flags: about 0.25 s);
/// - `--long -5` becomes `--long=-5`: ArgumentParser reads `-5` as an option, so a negative
///   number given to an option was reported as a missing value instead of being checked.
enum CommandLinePrepass {
    static let limit = 1_000
    /// Command-line arguments cannot hold a NUL byte, so no argument a user gives starts so.
    static let marker = "\u{0}nfctrace-values "
    nonisolated(unsafe) private static var held: [[String]] = []

    static func prepare(_ arguments: [String], subcommands: [ParsableCommand.Type]) throws(CLIFailure) -> [String] {
        guard let name = arguments.first else { return arguments }
        let lists = subcommands.first { $0._commandName == name }.map { $0 is any TakesValueLists.Type } ?? false
        var out: [String] = [name]
        out.reserveCapacity(min(arguments.count, limit + 1))
        var i = 1
        var afterTerminator = false
        while i < arguments.count {
            let a = arguments[i]
            if !afterTerminator, a == "--" { afterTerminator = true; out.append(a); i += 1; continue }
            var end = i
            while end < arguments.count, afterTerminator || Self.isPlain(arguments[end]) { end += 1 }
            if lists, end - i >= 3 {
                out.append(arguments[i])
                out.append(marker + String(held.count))
                held.append(Array(arguments[(i + 1)..<end]))
                i = end
                continue
            }
            if end > i {
                out.append(contentsOf: arguments[i..<end])
                i = end
                continue
            }
            if a.hasPrefix("--"), !a.contains("="), i + 1 < arguments.count, Self.isNegativeNumber(arguments[i + 1]) {
                out.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        guard out.count - 1 <= limit else {
            throw .usage("\(out.count - 1) arguments\(lists ? " besides the lists of values" : ""): nfctrace reads at most \(limit) (options, their values\(lists ? ", lists" : " and files"))")
        }
        return out
    }

    /// `values` with the held-back lists put back in their places.
    static func expand(_ values: [String]) -> [String] {
        guard values.contains(where: { $0.hasPrefix(marker) }) else { return values }
        var out: [String] = []
        for v in values {
            if v.hasPrefix(marker), let n = Int(v.dropFirst(marker.count)), held.indices.contains(n) {
                out.append(contentsOf: held[n])
            } else {
                out.append(v)
            }
        }
        return out
    }

    private static func isPlain(_ a: String) -> Bool { a == "-" || !a.hasPrefix("-") }

    private static func isNegativeNumber(_ a: String) -> Bool {
        a.count > 1 && a.hasPrefix("-") && a.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }
}
