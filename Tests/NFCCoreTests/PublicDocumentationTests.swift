import Foundation
import Testing

/// Every public declaration of the modules an app or a fuzzing user programs against carries a
/// doc comment (issue 45, point 3): NFCTestKit (Core NFC's API over simulated tags) and NFCFuzz
/// (shapes, mutators, the target registry). A source scan, as InlinableConstantTests: a line
/// that declares something `public` or `open` must have a `///` line (or the end of a `/** */`
/// block) right above it, attribute lines (`@available`, `@discardableResult`) in between
/// allowed. `public extension` and `public import` declare nothing of their own.
@Suite struct PublicDocumentationTests {
    static let sources: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Sources"
    }()

    /// Whether `line` declares something public: `public`/`open` after attributes (with their
    /// arguments, `@available(iOS 13.0, *)`) and modifiers.
    static func isPublicDeclaration(_ line: Substring) -> Bool {
        var rest = line.drop(while: { $0 == " " || $0 == "\t" })
        while rest.hasPrefix("@") {
            rest = rest.drop(while: { $0 != " " && $0 != "(" })
            if rest.hasPrefix("(") {
                var depth = 0
                rest = rest.drop(while: { c in
                    if c == "(" { depth += 1 } else if c == ")" { depth -= 1; if depth == 0 { return true } }
                    return depth > 0
                }).dropFirst()
            }
            rest = rest.drop(while: { $0 == " " })
        }
        var words = rest.split(separator: " ")[...]
        let modifiers: Set<Substring> = ["nonisolated", "final", "static", "class", "override", "mutating", "convenience", "required", "indirect"]
        while let first = words.first, modifiers.contains(first) { words = words.dropFirst() }
        guard let access = words.first, access == "public" || access == "open" || access.hasPrefix("public(") || access.hasPrefix("open(") else { return false }
        let next = words.dropFirst().first
        return next != "extension" && next != "import"
    }

    /// `file:line: declaration` for each public declaration of `text` without a doc comment.
    static func undocumented(_ text: String, file: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for (i, line) in lines.enumerated() where isPublicDeclaration(line) {
            var above = i - 1
            while above >= 0, lines[above].drop(while: { $0 == " " }).hasPrefix("@") { above -= 1 }
            let previous = above >= 0 ? lines[above].trimmingCharacters(in: .whitespaces) : ""
            if previous.hasPrefix("///") || previous.hasSuffix("*/") { continue }
            out.append("\(file):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
        return out
    }

    @Test(arguments: ["NFCTestKit", "NFCFuzz"])
    func everyPublicDeclarationIsDocumented(module: String) throws {
        let folder = Self.sources + "/" + module
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 5, "no sources found in \(folder)")
        var declarations = 0
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            declarations += text.split(separator: "\n").filter { Self.isPublicDeclaration($0) }.count
            missing += Self.undocumented(text, file: module + "/" + file)
        }
        #expect(declarations > 100, "the scan found only \(declarations) public declarations in \(module)")
        #expect(missing.isEmpty, Comment(rawValue: "\(missing.count) of \(declarations) public declarations without a doc comment:\n" + missing.joined(separator: "\n")))
    }

    /// The scan itself: what counts as documented and what does not.
    @Test func theScanTellsDocumentedFromUndocumented() {
        let text = """
            /// A documented type.
            public struct A {
                /// Documented, with an attribute between.
                @discardableResult
                public func f() -> Int { 0 }
                public var undocumented: Int
                // A plain comment is no doc comment.
                public static let alsoUndocumented = 1
                var internalOnes = 0
            }
            public extension A {}
            @available(iOS 13.0, *)
            public final class B {}
            @available(iOS 13.0, *) public final class C {}
            @available(*, deprecated) struct D {}
            """
        #expect(Self.undocumented(text, file: "X.swift") == [
            "X.swift:6: public var undocumented: Int",
            "X.swift:8: public static let alsoUndocumented = 1",
            "X.swift:13: public final class B {}",
            "X.swift:14: @available(iOS 13.0, *) public final class C {}",
        ])
    }
}
