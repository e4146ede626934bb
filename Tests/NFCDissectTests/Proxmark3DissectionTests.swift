import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect

/// The real Proxmark3 traces in ../shared/pm3-traces: every frame named, CRCs checked,
/// the PWD_AUTH password shown.
@Suite(.enabled(if: GoldenTests.sharedAvailable, "../shared/pm3-traces is not beside this checkout"))
struct Proxmark3DissectionTests {
    func dissect(_ name: String, keys: KeyList = .defaults) throws -> [DissectionEvent] {
        let reader = try Capture.open("\(GoldenTests.sharedTraces)/\(name)")
        var frames: [Frame] = []
        while let f = try reader.next() { frames.append(f) }
        return Dissector.dissect(frames, keys: keys)
    }

    // Issue 19 point 8: the AES trace opens with the built-in all-zero key, the tag's answer is
    // checked; without it, or for the Ultralight C trace whose key is in no list, the exchange
    // is labelled and said to be closed.
    @Test func ultralightAuthenticationsAreOpenedWhereAKeyFits() throws {
        let aes = try dissect("hf_14a_mful_aes_defaultkey.trace")
        let d = frames(aes)
        #expect(d.contains { $0.summary == "AUTHENTICATE part 2: key 00000000000000000000000000000000 fits (RndB′ right)" })
        #expect(d.contains { $0.summary == "AUTHENTICATE done: ek(RndA′) right, both hold key 00000000000000000000000000000000" })
        #expect(d.first { $0.number == 13 }?.fields.first { $0.key == "ntag.rnd_a" }?.value == Hex.string([UInt8](repeating: 1, count: 16)))
        #expect(sessions(aes).first?.headline.hasSuffix("MIFARE Ultralight AES, UID 04 3F 88 C2 45 13 90, mutually authenticated (AES key 0 00000000000000000000000000000000)") == true)
        let closed = frames(try dissect("hf_14a_mful_aes_defaultkey.trace", keys: KeyList()))
        #expect(closed.contains { $0.summary == "AUTHENTICATE part 2 (encrypted, no key fits)" })
        let ulc = try dissect("hf_14a_mfuc.trace")
        #expect(frames(ulc).first { $0.number == 15 }?.diagnostics.contains { $0.message.hasPrefix("none of the 3 3DES keys tried") } == true)
        #expect(sessions(ulc).first?.headline == "MIFARE Ultralight C, UID 04 94 2C CA 99 4F 80, mutually authenticated (3DES key unknown)")
    }

    // Issue 20, point 6: after the Ultralight AES authentication, commands and answers that end
    // in an 8-byte CMAC (secure messaging) are named with it, the WRITE's CMAC that stands for the
    // ACK included; the memory map takes the pages read and written.
    @Test func ultralightAESSecureMessagingIsNamed() throws {
        let reader = try Capture.open("\(GoldenTests.sharedTraces)/hf_14a_mful_aes_defaultkey.trace")
        var trace: [Frame] = []
        while let f = try reader.next() { trace.append(f) }
        let mac = " 11 22 33 44 55 66 77 88"
        trace += [
            R("30 04" + mac, crc: true), T("03 0B D1 01 07 54 02 65 6E 68 69 21 FE 00 00 00" + mac, crc: true),
            R("A2 05 01 02 03 04" + mac, crc: true), T(String(mac.dropFirst()), crc: true),
        ]
        let d = frames(Dissector.dissect(trace))
        #expect(d.first { $0.number == 12 }?.fields.first { $0.key == "ntag.auth_cipher" }?.value == "AES-128, CBC (MIFARE Ultralight AES), key 0 (DataProtKey)")
        #expect(d[14].summary == "READ page 0x04 + CMAC (secure messaging)", "\(d[14].summary)")
        #expect(d[14].fields.first { $0.key == "ntag.cmac" }?.range == 2..<10)
        #expect(d[15].summary.hasSuffix(" + CMAC") && d[15].summary.hasPrefix("DATA"), "\(d[15].summary)")
        #expect(d[16].summary.hasSuffix("+ CMAC (secure messaging)"), "\(d[16].summary)")
        #expect(d[17].summary == "CMAC (secure messaging) for ACK, page 0x05 written", "\(d[17].summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
    }

    @Test(arguments: GoldenTests.sharedNames)
    func everyFrameIsNamedAndEveryCRCChecked(name: String) throws {
        let d = frames(try dissect(name))
        #expect(!d.isEmpty)
        for f in d {
            let lowered = f.summary.lowercased()
            #expect(!lowered.contains("unknown") && !lowered.contains("unrecognised") && !lowered.contains("malformed") && !lowered.contains("no request"),
                    "frame \(f.number) is not named: \(f.summary)")
            #expect(!f.summary.isEmpty)
            #expect(f.diagnostics.filter { $0.severity >= .warning }.isEmpty, "frame \(f.number): \(f.diagnostics)")
            switch f.crc {
            case .ok, .notExpected: break
            default: Issue.record("frame \(f.number) CRC \(f.crc)")
            }
            // Every frame that carries a CRC_A on air had it checked.
            if f.frame.bytes.count >= 3, f.frame.bytes.count != 5 { #expect(f.crc == .ok(.a), "frame \(f.number) \(f.summary)") }
        }
    }

    @Test func passwordIsShown() throws {
        let events = try dissect("hf_14a_mfu.trace")
        let d = frames(events)
        #expect(d.contains { $0.summary == "PWD_AUTH pwd DA E5 57 96" })
        #expect(d.contains { $0.summary == "PACK AB DA, authenticated" })
        #expect(sessions(events).first?.headline == "MIFARE Ultralight / NTAG family (Type 2 Tag), UID 04 A8 1D 12 DE 5F 80, authenticated (PWD DA E5 57 96, PACK AB DA)")
    }

    // Issue 20: the DESFire sniff names every command the Proxmark3's listing names
    // (../shared/captures/proxmark3-listings/hf_mfdes_sniff.txt), and the answers too.
    @Test func desfireSniffNamesItsCommandsAndAnswers() throws {
        let d = frames(try dissect("hf_mfdes_sniff.trace"))
        let summaries = d.map(\.summary)
        for expected in ["SELECT NDEF Tag Application (mapping 1.0)", "SELECT APPLICATION D3494F (HID SIO)", "AUTHENTICATE ISO (3DES/3K3DES) key 1",
                         "ADDITIONAL FRAME (AUTHENTICATE ISO (3DES/3K3DES), next part)", "GET FILE SETTINGS file 15",
                         "standard data file, MACed, read key 1, write key 2, read&write key 0, change key 3, 56 bytes + 8-byte MAC",
                         "READ DATA file 15, offset 0, 5 bytes", "5 bytes of data + 8-byte MAC, operation OK", "READ DATA file 15, offset 0, 51 bytes",
                         "SELECT APPLICATION 000000 (PICC level)", "S(DESELECT)"] {
            #expect(summaries.contains(expected), "\(expected)")
        }
        #expect(!summaries.contains { $0.lowercased().contains("unknown") }, "\(summaries)")
        // Issue 44, point 8: the CMAC after GET FILE SETTINGS on the authenticated card, and the
        // DESFire status of the wrapped answers by name.
        let settings = try #require(d.first { $0.summary.hasPrefix("standard data file") })
        #expect(settings.fields.first(key: "desfire.mac")?.value.hasPrefix("03 FD 0D 1F E1 1E 91 66") == true, "\(settings.fields)")
        #expect(d.contains { $0.fields.first(key: "apdu.sw")?.value == "91AF: DESFire: additional frame" })
        // Issue 44, point 4: the headlines say what answered.
        #expect(sessions(try dissect("hf_mfdes_sniff.trace")).map(\.headline).prefix(3) == [
            "MIFARE DESFire, UID 04 6F 16 9A FC 2E 80, application D3494F (HID SIO), authenticated (AUTHENTICATE ISO (3DES/3K3DES), key 1)",
            "tag answered, not selected: ATQA 0344 (7-byte UID)", "tag answered, not selected: ATQA 0344 (7-byte UID)"])
    }

    @Test func visaPhoneNamesECPAndTheEMVCommands() throws {
        let d = frames(try dissect("hf_visa_apple_ecp.trace"))
        let summaries = d.map(\.summary)
        #expect(summaries.first == "ECP2 transit, no user authentication, TCI 03 00 02")
        for expected in ["SELECT by DF name 325041592E5359532E4444463031 (\"2PAY.SYS.DDF01\")", "SELECT by DF name A0000000031010 (Visa credit/debit)",
                         "R(ACK) 0: the next chained block, please", "GET PROCESSING OPTIONS", "S(WTX) WTXM 1: the tag asks for 1 × FWT",
                         "SW 6986 command not allowed (no current EF)"] {
            #expect(summaries.contains(expected), "\(expected)")
        }
        #expect(!summaries.contains { $0.lowercased().contains("unknown") || $0.contains("malformed") }, "\(summaries)")
        #expect(d.allSatisfy { f in f.diagnostics.allSatisfy { $0.severity < .warning } }, "\(d.flatMap(\.diagnostics))")
    }

    @Test func isoDEPCardWithRATS() throws {
        let d = frames(try dissect("hf_14a_reader_7b_rats.trace"))
        #expect(d.last?.summary == "ATS FSCI 5 (FSC 64), FWI 8, historical 80")
        #expect(d.filter { $0.summary == "WUPA" }.count == 5)
    }
}
