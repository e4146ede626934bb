import Foundation
import Testing

/// Issue 51, point 16: no byte of an input that a terminal acts on (C0 controls but line feed and
/// tab, DEL, C1 controls, bidirectional controls) reaches standard output or standard error raw.
@Suite struct TerminalEscapingCLITests {
    /// The first unsafe character in `data`, if any (UTF-8 read as the terminal would).
    static func firstUnsafe(_ data: Data) -> String? {
        for u in String(decoding: data, as: UTF8.self).unicodeScalars {
            switch u.value {
            case 0x0A, 0x09: continue
            case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                return "U+" + String(u.value, radix: 16, uppercase: true)
            default: continue
            }
        }
        return nil
    }

    static let hostile = "\u{1B}]0;PWN\u{07}\u{1B}[2J\u{9B}31m\u{202E}gnp.exe\u{7F}"

    static func file(_ text: String, _ suffix: String) -> String { CLI.temporaryFile(Array(text.utf8), suffix: suffix) }

    @Test func noRawControlsInAnyOutput() throws {
        let comment = Self.file("nfctrace 1\n@tag \(Self.hostile)\n0 R 26/7 # \(Self.hostile)\n", ".nfctrace")
        let token = Self.file("nfctrace 1\n0 R 26/7 \(Self.hostile)\n", ".nfctrace")
        let flipper = Self.file("Filetype: Flipper NFC device\nVersion: 4\nDevice type: \(Self.hostile)\n", ".nfc")
        // An NDEF Text record holding the hostile text, as a hex dump for `ndef decode --hex`.
        let payload = [UInt8]([0x02, 0x65, 0x6E]) + Array(Self.hostile.utf8)
        let record = [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
        let ndef = Self.file(record.map { String(format: "%02X", $0) }.joined(separator: " "), ".hex")
        defer { for f in [comment, token, flipper, ndef] { try? FileManager.default.removeItem(atPath: f) } }
        // Each run, and whether it shows the text (escaped) at all.
        let runs: [([String], Bool)] = [
            (["dissect", "--color", "never", comment], false), (["dissect", "-V", "--color", "never", comment], true),
            (["dissect", token], true), (["emulate", flipper, "--udp", "0"], true), (["ndef", "decode", "--hex", ndef], true),
            (["dissect", Self.hostile], true), (["dissect", "--" + Self.hostile], true), (["mfkey", Self.hostile, "1", "2", "3", "4"], true),
        ]
        for (arguments, shows) in runs {
            let r = try CLI.run(arguments)
            #expect(Self.firstUnsafe(r.stdoutBytes) == nil, "\(arguments) stdout: \(r.stdout.prefix(400))")
            #expect(Self.firstUnsafe(Data(r.stderr.utf8)) == nil, "\(arguments) stderr: \(r.stderr.prefix(400))")
            if shows {
                let all = r.stdout + r.stderr
                #expect(all.contains("PWN\\x07") || all.contains("PWN\\u{07}"), "\(arguments): \(all.prefix(400))")
            }
        }
        // With colour, the only escape sequences are the renderer's own SGR codes.
        let colour = try CLI.run(["dissect", "-V", "--color", "always", comment])
        let sequences = colour.stdout.components(separatedBy: "\u{1B}").dropFirst()
        #expect(!sequences.isEmpty && sequences.allSatisfy { $0.hasPrefix("[") && $0.prefix(12).contains("m") }, "\(colour.stdout.prefix(400))")
        #expect(!colour.stdout.contains("\u{1B}]") && !colour.stdout.contains("\u{1B}[2J"))
    }
}
