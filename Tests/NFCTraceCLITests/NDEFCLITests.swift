import Foundation
import Testing

/// `nfctrace ndef decode|encode`.
@Suite struct NDEFCLITests {
    @Test func encodeThenDecodeEveryRecordKind() throws {
        let e = try CLI.run(["ndef", "encode", "--record", "aar:com.example.app", "--uri", "https://example.com/a",
                             "--text", "Hello", "--lang", "de", "--record", "external:example.com:kind:0102"])
        #expect(e.status == 0)
        let d = try CLI.run(["ndef", "decode", "--hex", "-"], stdin: e.stdoutBytes)
        #expect(d.status == 0)
        #expect(d.stdout.hasPrefix("""
            NDEF message, lenient: valid
              record 1: Android app com.example.app
              record 2: External example.com:kind, 2 bytes
              record 3: URI https://example.com/a
              record 4: Text (de) "Hello"
            """))
    }

    @Test func typeTwoImageIsRecognisedByItsCC() throws {
        let e = try CLI.run(["ndef", "encode", "--uri", "https://example.com", "--output", "type2", "--model", "ntag213", "--format", "raw"])
        #expect(e.status == 0)
        #expect(e.stdoutBytes.count == 45 * 4)
        // A factory tag's header: an NXP UID (04 …) with both BCCs right, not zeros (issue 18).
        let header = [UInt8](e.stdoutBytes.prefix(12))
        #expect(header.first == 0x04)
        #expect(header[3] == 0x88 ^ header[0] ^ header[1] ^ header[2] && header[8] == header[4] ^ header[5] ^ header[6] ^ header[7])
        let d = try CLI.run(["ndef", "decode", "--format", "json", "-"], stdin: e.stdoutBytes)
        let o = try JSONSerialization.jsonObject(with: Data(d.stdout.utf8)) as? [String: Any]
        #expect(o?["kind"] as? String == "type2")
        #expect(o?["valid"] as? Bool == true)
        #expect(o?["records"] as? [String] == ["URI https://example.com"])
    }

    // The source article's CC, explained correctly (protocols.md §6.5).
    @Test func articleCCOfAType5Tag() throws {
        let hex = "E1 40 30 01 03 0C D1 01 08 54 02 65 6E 48 65 6C 6C 6F FE 00"
        let d = try CLI.run(["ndef", "decode", "--hex", "-"], stdin: Data(hex.utf8))
        #expect(d.stdout.contains("MLEN: 0x30 → 384-byte data area"))
        #expect(d.stdout.contains("CC3 features: 0x01: MBREAD (Read Multiple Blocks supported)"))
        #expect(d.stdout.contains("record 1: Text (en) \"Hello\""))
    }

    @Test func strictModeExitsWith1OnABreach() throws {
        let mbMissing = Data("51 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D".utf8)
        let lenient = try CLI.run(["ndef", "decode", "--hex", "-"], stdin: mbMissing)
        #expect(lenient.status == 0)
        let strict = try CLI.run(["ndef", "decode", "--hex", "--strict", "-"], stdin: mbMissing)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("NDEF message, strict: INVALID (byte 0: first record has no MB flag (header 0x51) [message.mb-missing])"))
    }

    @Test func badInputs() throws {
        #expect(try CLI.run(["ndef", "decode", "--hex", "-"], stdin: Data("zz".utf8)).status == 65)
        #expect(try CLI.run(["ndef", "decode", "-"], stdin: Data()).status == 65)
        #expect(try CLI.run(["ndef", "encode"]).status == 2)
        #expect(try CLI.run(["ndef", "encode", "--record", "video:x"]).status == 2)
    }

    /// Issue 51, point 15: a 1 MiB message of 262,000 one-byte chunks took ~1 GB and printed
    /// 164 MB (text) and 278 MB (JSON). The first 16 chunks and the last are listed, the rest summed up.
    @Test func manySmallChunksStayBounded() throws {
        var message: [UInt8] = [0xB1, 0x01, 0x01, 0x55, 0x04]               // MB CF SR, URI "https://"
        for _ in 0..<(262_000 - 2) { message += [0x36, 0x00, 0x01, 0x61] }   // CF SR, TNF 6: "a"
        message += [0x56, 0x00, 0x01, 0x62]                                    // ME SR, the last chunk: "b"
        let path = CLI.temporaryFile(message, suffix: ".ndef")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for format in ["text", "json"] {
            let r = try CLI.run(["ndef", "decode", "--format", format, path])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdoutBytes.count < 2 * message.count, "\(format): \(r.stdoutBytes.count) bytes for a \(message.count)-byte message")
            #expect(r.stdout.contains("Chunks 17–261999") && r.stdout.contains("261983 chunks, 261983 bytes of payload"))
            #expect(r.stdout.contains("Chunk 16") && r.stdout.contains("Chunk 262000") && !r.stdout.contains("Chunk 17:"))
        }
    }
}
