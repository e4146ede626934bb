import Foundation
import Testing

/// Constant array literals stay out of `@inlinable` bodies in Sources/. Swift 6.3's release
/// build emits such a literal as a statically initialised object named by its order in the
/// function (`…Tv_`, `…Tv0_`, …); a module that inlined the function numbered them differently
/// from the defining module and the linker joined them by name, so `JSONText.escape` handed the
/// JSON renderer `\t` for a quote and `\r` for a backslash (issue 44, point 1). Debug builds,
/// which the tests run, inline nothing across modules, so only this check sees the pattern.
@Suite struct InlinableConstantTests {
    static let sources: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Sources"
    }()

    /// The body (from its `{` to the matching `}`) of each declaration marked `@inlinable`.
    static func inlinableBodies(_ text: [UInt8]) -> [(line: Int, body: ArraySlice<UInt8>)] {
        let marker = Array("@inlinable".utf8)
        var out: [(Int, ArraySlice<UInt8>)] = []
        var i = 0
        while i + marker.count <= text.count {
            guard text[i..<i + marker.count].elementsEqual(marker) else { i += 1; continue }
            let line = text[..<i].filter { $0 == 0x0A }.count + 1
            guard let open = text[i...].firstIndex(of: UInt8(ascii: "{")) else { break }
            var depth = 0, j = open
            while j < text.count {
                if text[j] == UInt8(ascii: "{") { depth += 1 }
                if text[j] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { break } }
                j += 1
            }
            out.append((line, text[open..<min(j + 1, text.count)]))
            i = j
        }
        return out
    }

    /// Whether `body` holds an array literal that starts with a constant (`[0x5C, …]`, `["a"]`,
    /// `[1, 2]`); a subscript (`bytes[0]`) follows a name or a bracket and is no literal.
    static func hasConstantArrayLiteral(_ body: ArraySlice<UInt8>) -> Bool {
        let b = Array(body)
        for (k, c) in b.enumerated() where c == UInt8(ascii: "[") {
            var p = k - 1
            while p >= 0, b[p] == 0x20 || b[p] == 0x0A { p -= 1 }
            if p >= 0 {
                func isName(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == UInt8(ascii: "_") }
                var w = p
                while w >= 0, isName(b[w]) { w -= 1 }
                let word = String(decoding: b[(w + 1)...p], as: UTF8.self)
                // After a name it is a subscript, unless the name is a keyword a value follows.
                let keyword = ["return", "in", "case", "else", "try", "await", "throw", "yield"].contains(word)
                if (isName(b[p]) && !keyword) || b[p] == UInt8(ascii: ")") || b[p] == UInt8(ascii: "]") || b[p] == UInt8(ascii: "?") || b[p] == UInt8(ascii: "!") { continue }
            }
            var n = k + 1
            while n < b.count, b[n] == 0x20 { n += 1 }
            if n < b.count, (0x30...0x39).contains(b[n]) || b[n] == UInt8(ascii: "\"") || b[n] == UInt8(ascii: "-") { return true }
        }
        return false
    }

    @Test func detectorSeesTheLiteralThatBrokeJSON() {
        let broken = Array("""
            @inlinable
            public static func escape(_ b: UInt8) -> [UInt8]? {
                switch b { case 0x22: return [0x5C, 0x22]
                default: return nil }
            }
            @inlinable func plain(_ bytes: [UInt8]) -> UInt8 { bytes[0] &+ table[1] }
            """.utf8)
        let bodies = Self.inlinableBodies(broken)
        #expect(bodies.count == 2)
        #expect(bodies.map { Self.hasConstantArrayLiteral($0.body) } == [true, false])
    }

    @Test func noInlinableBodyInSourcesHoldsAConstantArray() throws {
        let files = FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100, "Sources/ read from \(Self.sources)")
        var inlinable = 0
        for file in files {
            let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.sources + "/" + file)))
            for (line, body) in Self.inlinableBodies(text) {
                inlinable += 1
                #expect(!Self.hasConstantArrayLiteral(body), "Sources/\(file):\(line): an @inlinable body holds a constant array literal")
            }
        }
        #expect(inlinable > 5)
    }
}
