import Foundation
import Testing

/// Issue 51, point 3: outputs whose time grew with the square of a frame's parity errors. The
/// text view asked the frame's error list for each byte it wrote (a 64 KiB frame with every byte
/// marked took 1.7 s in a release build, 128 KiB about 7 s); the report writes the same bytes.
@Suite struct LinearTimeRenderTests {
    static func flaggedFrame(_ n: Int) -> String {
        var text = Array("nfctrace 1\n0 R".utf8)
        text.reserveCapacity(16 + 4 * n)
        let digits = Array("0123456789ABCDEF".utf8)
        for i in 0..<n { text += [0x20, digits[(i >> 4) & 15], digits[i & 15], 0x21] }
        return CLI.temporaryFile(text + [0x0A], suffix: ".nfctrace")
    }

    @Test func everyByteWithAParityError() throws {
        let n = 16_384
        let files = [n: Self.flaggedFrame(n), 4 * n: Self.flaggedFrame(4 * n)]
        defer { for path in files.values { try? FileManager.default.removeItem(atPath: path) } }
        for arguments in [["dissect"], ["report", "-o", "-"]] {
            try LinearTime.expect("\(arguments[0]), a frame of n bytes each with a parity error", n: n) { n in
                let r = try CLI.run(arguments + [files[n]!])
                #expect(r.status == 0, "\(r.stderr)")
            }
        }
    }
}
