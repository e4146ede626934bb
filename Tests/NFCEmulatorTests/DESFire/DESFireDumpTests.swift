import Foundation
import Testing
import NFCCore
import NFCCrypto
@testable import NFCEmulator

/// Issue 20, point 7: a DESFire EV1 from a Flipper `.nfc` file, its AES keys from the file
/// (nfctrace's `Key n AES` lines), saved back the same way.
@Suite struct DESFireDumpTests {
    /// The example of the Flipper firmware's file-format documentation (application 123456,
    /// one 256-byte file), with a key line for key 0 and a value and a record file added.
    static let file = """
        Filetype: Flipper NFC device
        Version: 4
        Device type: Mifare DESFire
        UID: 04 2F 19 0A CD 66 80
        ATQA: 03 44
        SAK: 20
        ATS: 06 75 77 81 02 80
        PICC Version: 04 01 01 12 00 1A 05 04 01 01 02 01 1A 05 04 2F 19 0A CD 66 80 CE ED D4 51 80 31 19
        PICC Free Memory: 7520
        PICC Change Key ID: 00
        PICC Config Changeable: true
        PICC Free Create Delete: true
        PICC Free Directory List: true
        PICC Key Changeable: true
        PICC Max Keys: 01
        PICC Key 0 Version: 00
        Application Count: 1
        Application IDs: 56 34 12
        Application 563412 Change Key ID: 00
        Application 563412 Config Changeable: true
        Application 563412 Free Create Delete: true
        Application 563412 Free Directory List: true
        Application 563412 Key Changeable: true
        Application 563412 Max Keys: 82
        Application 563412 Key 0 Version: 00
        Application 563412 Key 0 AES: 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF
        Application 563412 Key 1 Version: 00
        Application 563412 File IDs: 01 02 03
        Application 563412 File 1 Type: 00
        Application 563412 File 1 Communication Settings: 00
        Application 563412 File 1 Access Rights: 00 0E
        Application 563412 File 1 Size: 16
        Application 563412 File 1: 13 37 00 00 00 00 00 00 00 00 00 00 00 00 00 00
        Application 563412 File 2 Type: 02
        Application 563412 File 2 Communication Settings: 00
        Application 563412 File 2 Access Rights: EE EE
        Application 563412 File 2 Hi Limit: 1000
        Application 563412 File 2 Lo Limit: 0
        Application 563412 File 2 Limited Credit Value: 0
        Application 563412 File 2 Limited Credit Enabled: false
        Application 563412 File 2: 2A 00 00 00
        Application 563412 File 3 Type: 03
        Application 563412 File 3 Communication Settings: 01
        Application 563412 File 3 Access Rights: EE EE
        Application 563412 File 3 Size: 4
        Application 563412 File 3 Max: 5
        Application 563412 File 3 Cur: 2
        Application 563412 File 3: 61 62 63 64 65 66 67 68

        """

    static func card(_ text: String) throws -> (ISODEPCard, DESFireCard, TagDump) {
        let dump = try TagDump.load(Array(text.utf8), name: "desfire.nfc")
        let tag = try #require(dump.makeTag() as? ISODEPCard)
        return (tag, try #require(tag.application as? DESFireCard), dump)
    }

    @Test func loadsApplicationsFilesAndKeys() throws {
        let (tag, card, dump) = try Self.card(Self.file)
        #expect(dump.summary == "MIFARE DESFire EV1, 1 application, UID 04 2F 19 0A CD 66 80")
        #expect(tag.ats.encode() == [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(dump.notes.contains { $0.contains("no AES key for key 1: all-zero") }, "\(dump.notes)")
        #expect(dump.notes.contains { $0.contains("file 3 is MACed") })
        #expect(card.execute([0x5A, 0x56, 0x34, 0x12]) == [0x00])
        #expect(card.execute([0x6F]) == [0x00, 1, 2, 3])
        // File 1: read key 0 (access rights 00 0E: read/write in the second byte), so first a refusal.
        let read: [UInt8] = [0xBD, 1, 0, 0, 0, 0, 0, 0]
        #expect(card.execute(read) == [0x9D])
        #expect(card.execute([0x6C, 2]) == [0x00, 0x2A, 0x00, 0x00, 0x00], "value 42")
        // AUTHENTICATE AES with key 0 from the file.
        let key: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
        let auth = UltralightAuthentication(kind: .aes, cipher: AES128(key: key)!, chainsIV: true)
        let challenge = card.execute([0xAA, 0])
        #expect(challenge.first == DESFire.additionalFrame && challenge.count == 17)
        let rndA = [UInt8](repeating: 0x5C, count: 16)
        let message = auth.readerMessage(ekRndB: Array(challenge.dropFirst()), rndA: rndA)
        let answer = card.execute([DESFire.additionalFrame] + message)
        #expect(answer.first == 0x00 && auth.tagAnswerIsRight(Array(answer.dropFirst()), rndA: rndA, readerMessage: message), "the card holds the file's key 0")
        #expect(card.execute(read) == [0x00, 0x13, 0x37] + [UInt8](repeating: 0, count: 14))
    }

    @Test func savesWhatItLoadsWithTheKeys() throws {
        let (tag, _, _) = try Self.card(Self.file)
        let saved = try #require(tag.savedDump())
        let text = String(decoding: saved, as: UTF8.self)
        #expect(text.contains("Application 563412 Key 0 AES: 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF"))
        #expect(text.contains("Application 563412 File 3: 61 62 63 64 65 66 67 68"))
        let (again, _, _) = try Self.card(text)
        #expect(again.savedDump() == saved)
        // The built-in card saves its keys and files and loads back to the same card.
        let builtIn = try #require(BuiltInTag.named("desfire-ev1")?.make().makeTag()?.savedDump())
        let (reloaded, card, _) = try Self.card(String(decoding: builtIn, as: UTF8.self))
        #expect(reloaded.savedDump() == builtIn)
        #expect(card.applications.first?.keys.last == DESFireDump.demoKey)
    }

    @Test func damagedFilesSayWhere() {
        let cut = Self.file.replacingOccurrences(of: "Application IDs: 56 34 12", with: "Application IDs: 56 34")
        #expect(throws: DumpError.self) { _ = try TagDump.load(Array(cut.utf8), name: "cut.nfc") }
        let noType = Self.file.replacingOccurrences(of: "Application 563412 File 2 Type: 02\n", with: "")
        do {
            _ = try TagDump.load(Array(noType.utf8), name: "x.nfc")
            Issue.record("loaded without a file type")
        } catch {
            #expect("\(error)".contains("Application 563412 File 2 Type"), "\(error)")
        }
    }
}
