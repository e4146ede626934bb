import Foundation
import Testing

/// `nfctrace mfkey` and `dissect --keys/--show-keys/--no-default-keys`.
@Suite struct MIFARECLITests {
    static let sio = CLI.root + "/../shared/pm3-traces/hf_mf_hid_sio_sim.trace"

    @Test func mfkeyFromOneWholeAuthentication() throws {
        // hf_mf_hid_sio_sim.trace, frames 10–14.
        let r = try CLI.run(["mfkey", "56DD8978", "1ED24A6A", "440D5913", "C2611A1B", "58B8142C"])
        #expect(r.status == 0 && r.stdout == "key: A0A1A2A3A4A5\n", "\(r.stderr)")
    }

    @Test func mfkeyWithNoKeyAndBadInput() throws {
        // The second answer is the first one's {aR} with a bit flipped: no key fits both.
        let none = try CLI.run(["mfkey", "52B0F519", "5417D1F8", "4D545EA7", "E15AC8C2", "A1BA88C6", "DAC1A7F4", "5AE5C37E"])
        #expect(none.status == 1 && none.stderr.contains("no key fits"), "\(none.status) \(none.stderr)")
        #expect(try CLI.run(["mfkey", "52B0F519", "5417D1F8"]).status == 2)
        // Issue 51, point 7: the same authentication twice printed an arbitrary key with exit 0.
        let same = try CLI.run(["mfkey", "52B0F519", "5417D1F8", "4D545EA7", "E15AC8C2", "5417D1F8", "4D545EA7", "E15AC8C2"])
        #expect(same.status == 2 && same.stdout.isEmpty && same.stderr.contains("the two authentications are the same"), "\(same.status) \(same.stdout)")
        let bad = try CLI.run(["mfkey", "52B0F519", "5417D1F8", "4D545EA7", "E15AC8C2", "5056E41G"])
        #expect(bad.status == 2 && bad.stderr.contains("not 8 hex digits"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: MIFARECLITests.sio), "../shared/pm3-traces is not beside this checkout"))
    func dissectWithKeyFilesAndRecoveredKeys() throws {
        let keys = CLI.temporaryFile(Array("# the SIO sector key\n3b7e4fd575ad\n".utf8), suffix: ".dic")
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let withKeys = try CLI.run(["dissect", "--keys", keys, Self.sio])
        #expect(withKeys.status == 0)
        #expect(withKeys.stdout.contains("block 0x08: 30 2F 81 02 97 27 A5 02 05 00 A6 08 81 01 01 04"))
        #expect(withKeys.stdout.contains("keys: sector 0 A A0A1A2A3A4A5, sector 2 A 3B7E4FD575AD"))
        // Without any list the sector 0 key is recovered from frames 11–14; it is a published
        // default, so it is shown whole.
        let recovered = try CLI.run(["dissect", "--no-default-keys", Self.sio])
        #expect(recovered.stdout.contains("(recovered from frames 11–14 (mfkey64)"), "\(recovered.stdout.suffix(2000))")
        #expect(recovered.stdout.contains("block 0x00: 56 DD 89 78 7A 88 04 00 C8 23 00 20 00 00 00 19"))
        let badFile = CLI.temporaryFile(Array("FFFFFFFFFFFF\nnot a key\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: badFile) }
        let bad = try CLI.run(["dissect", "--keys", badFile, Self.sio])
        #expect(bad.status == 65 && bad.stderr.contains(":2: expected a key of 12 hex digits"), "\(bad.status) \(bad.stderr)")
    }
}

/// Issue 19 point 8 through the CLI: the Proxmark3's Ultralight C and Ultralight AES traces
/// replay against the tag rebuilt from them, and `--keys` opens an authentication.
@Suite struct UltralightCLITests {
    static let ulc = CLI.root + "/../shared/pm3-traces/hf_14a_mfuc.trace"
    static let aes = CLI.root + "/../shared/pm3-traces/hf_14a_mful_aes_defaultkey.trace"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: UltralightCLITests.ulc), "../shared/pm3-traces is not beside this checkout"))
    func ultralightTracesReplayAndKeysOpenThem() throws {
        for trace in [Self.ulc, Self.aes] {
            let r = try CLI.run(["replay", trace])
            #expect(r.status == 0 && r.stdout.contains("PASS"), "\(trace): \(r.stdout) \(r.stderr)")
        }
        let closed = try CLI.run(["dissect", "--no-default-keys", Self.aes])
        #expect(closed.status == 0 && closed.stdout.contains("AUTHENTICATE part 2 (encrypted, no key fits)"))
        let keys = CLI.temporaryFile(Array("# Ultralight AES as delivered\n00000000000000000000000000000000 -- zero key\n".utf8), suffix: ".dic")
        defer { try? FileManager.default.removeItem(atPath: keys) }
        let opened = try CLI.run(["dissect", "--no-default-keys", "--keys", keys, Self.aes])
        #expect(opened.stdout.contains("AUTHENTICATE done: ek(RndA′) right, both hold key 00000000000000000000000000000000"), "\(opened.stdout)")
        // Both Ultralights are built-in tags.
        let models = try CLI.run(["emulate", "--list-models"])
        #expect(models.stdout.contains("ultralight-c") && models.stdout.contains("ultralight-aes"))
    }
}
