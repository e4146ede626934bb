import Foundation
import Testing
import NFCCapture
import NFCCore
@testable import NFCDissect

/// Differential test against the Proxmark3 (issue 44, conformance suite): its client's own
/// `trace list` of a tracelog (../shared/captures/proxmark3-listings/) against nfctrace's
/// dissection of the same .trace, frame by frame: the number of frames, the bytes, the CRC
/// verdict and the command's name. Where the names differ, `allowed` says why it is allowed; a
/// difference it does not list fails.
@Suite(.enabled(if: GoldenTests.sharedAvailable, "../shared/pm3-traces is not beside this checkout"))
struct Proxmark3DifferentialTests {
    static let listings = GoldenTests.root + "/../shared/captures/proxmark3-listings"

    /// One row of the client's table: source, bytes, CRC cell, annotation. The table is read here
    /// on its own, as an oracle (nfctrace's listing reader is under test elsewhere): cells between
    /// `|`, a row with an empty start cell continues the frame above.
    struct Row {
        var reader: Bool
        var bytes: [UInt8]
        var crc: String
        var annotation: String
    }

    static func rows(_ listing: String) -> [Row] {
        var rows: [Row] = []
        for line in listing.split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6 else { continue }
            let data = cells[3].replacingOccurrences(of: "!", with: "").replacingOccurrences(of: "(7)", with: "")
            guard let bytes = Hex.parse(data), !bytes.isEmpty else { continue }
            if cells[0].isEmpty, !rows.isEmpty {
                rows[rows.count - 1].bytes += bytes
                if !cells[4].isEmpty { rows[rows.count - 1].crc = cells[4] }
                continue
            }
            guard Int(cells[0]) != nil else { continue }
            rows.append(Row(reader: cells[2] == "Rdr", bytes: bytes, crc: cells[4], annotation: cells[5]))
        }
        return rows
    }

    /// The Proxmark3's name (its first words) → the start of nfctrace's summary for the same
    /// command, with why they differ; `check` compares the parameter both name.
    struct Allowed: Sendable {
        var pm3: String
        var ours: String
        var reason: String
        var check: (@Sendable (String, String) -> Bool)? = nil
    }

    static let allowed: [Allowed] = [
        Allowed(pm3: "ANTICOLL-2", ours: "ANTICOLL-2 (cascade level 2)", reason: "nfctrace adds the cascade level"),
        Allowed(pm3: "ANTICOLL", ours: "ANTICOLL (cascade level 1)", reason: "nfctrace adds the cascade level"),
        Allowed(pm3: "SELECT_UID-2", ours: "SELECT-2", reason: "ISO/IEC 14443-3 calls it SELECT; nfctrace adds the UID and BCC"),
        Allowed(pm3: "SELECT_UID", ours: "SELECT", reason: "ISO/IEC 14443-3 calls it SELECT; nfctrace adds the UID and BCC"),
        Allowed(pm3: "READBLOCK(", ours: "READ page 0x", reason: "NXP's datasheet calls it READ and counts pages in hex",
                check: { pm3, ours in
                    guard let n = Int(pm3.dropFirst(10).prefix { $0.isNumber }) else { return false }
                    return ours.hasPrefix("READ page " + Hex.byte(UInt8(n)))
                }),
        Allowed(pm3: "PWD-AUTH: 0x", ours: "PWD_AUTH pwd", reason: "NXP writes PWD_AUTH; nfctrace spaces the password's bytes",
                check: { pm3, ours in ours.replacingOccurrences(of: " ", with: "").hasSuffix(String(pm3.dropFirst(12))) }),
        Allowed(pm3: "RATS - FSDI=", ours: "RATS FSDI ", reason: "the same parameters, written as words"),
        Allowed(pm3: "PPS - CID=", ours: "PPS CID ", reason: "nfctrace adds DSI and DRI"),
        Allowed(pm3: "S-block DESELECT", ours: "S(DESELECT)", reason: "ISO/IEC 14443-4's notation"),
        Allowed(pm3: "SELECT APPLICATION (aid ", ours: "SELECT APPLICATION ", reason: "nfctrace writes the AID in capitals and names known ones",
                check: { pm3, ours in ours.contains(String(pm3.dropFirst(24).prefix(6)).uppercased()) }),
        Allowed(pm3: "AUTH ISO (keyNo ", ours: "AUTHENTICATE ISO (3DES/3K3DES) key ", reason: "the DESFire datasheet's name",
                check: { pm3, ours in pm3.dropFirst(16).prefix { $0.isNumber } == ours.dropFirst(35).prefix { $0.isNumber } }),
        Allowed(pm3: "GET FILE SETTINGS (fileId ", ours: "GET FILE SETTINGS file ", reason: "nfctrace numbers files in decimal",
                check: { pm3, ours in Int(pm3.dropFirst(26).prefix(2), radix: 16).map { ours.hasSuffix("file \($0)") } ?? false }),
        Allowed(pm3: "READ DATA (fileId ", ours: "READ DATA file ", reason: "the same parameters, written as words"),
        Allowed(pm3: "AUTH FRAME / NEXT FRAME", ours: "ADDITIONAL FRAME", reason: "the DESFire datasheet's name of AF"),
        Allowed(pm3: "WUPA", ours: "WUPA", reason: "the same"),
        Allowed(pm3: "REQA", ours: "REQA", reason: "the same"),
        Allowed(pm3: "WUPB", ours: "WUPB", reason: "the same; nfctrace adds AFI and slots"),
    ]

    /// PM3 leaves tag answers and commands it does not know (`?`) unnamed: anything of ours goes.
    static func agrees(pm3: String, ours: String) -> Bool {
        if pm3.isEmpty || pm3 == "?" { return true }
        guard let rule = allowed.first(where: { pm3.hasPrefix($0.pm3) }) else { return false }
        return ours.hasPrefix(rule.ours) && (rule.check?(pm3, ours) ?? true)
    }

    @Test(arguments: [("hf_14a_mfu", Technology.iso14443a), ("hf_14b_reader", .iso14443b), ("hf_mfdes_sniff", .iso14443a)])
    func framesBytesCRCAndNamesAgree(_ name: String, _ technology: Technology) throws {
        let listing = try String(contentsOfFile: "\(Self.listings)/\(name).txt", encoding: .utf8)
        let rows = Self.rows(listing)
        let reader = try Capture.open("\(GoldenTests.sharedTraces)/\(name).trace", options: CaptureReadOptions(technology: technology))
        var trace: [Frame] = []
        while let f = try reader.next() { trace.append(f) }
        let d = frames(Dissector.dissect(trace))
        #expect(rows.count == d.count, "\(name): the listing has \(rows.count) frames, the dissection \(d.count)")
        for (row, f) in zip(rows, d) {
            let at = "\(name) frame \(f.number)"
            #expect(row.bytes == f.frame.bytes, "\(at): bytes \(Hex.string(row.bytes)) / \(Hex.string(f.frame.bytes))")
            #expect(row.reader == (f.frame.direction == .readerToTag), "\(at): direction")
            switch row.crc {
            case "ok": #expect(f.crc == .ok(technology.crcKind), "\(at): the Proxmark3 says the CRC is right, nfctrace \(f.crc)")
            case "!!", "!crc": #expect(f.crc.isBad, "\(at): the Proxmark3 says the CRC is wrong, nfctrace \(f.crc)")
            default: #expect(!f.crc.isBad, "\(at): the Proxmark3 checks no CRC here, nfctrace calls it wrong")
            }
            #expect(Self.agrees(pm3: row.annotation, ours: f.summary), "\(at): the Proxmark3 names it \"\(row.annotation)\", nfctrace \"\(f.summary)\"")
        }
        // The test compares something: names, CRCs.
        #expect(rows.contains { !$0.annotation.isEmpty && $0.annotation != "?" })
        #expect(rows.contains { $0.crc == "ok" })
    }

    /// The oracle parser and the allowed table can say no.
    @Test func theComparisonCanFail() {
        #expect(!Self.agrees(pm3: "READBLOCK(4)", ours: "READ page 0x05"))
        #expect(!Self.agrees(pm3: "SELECT_UID", ours: "ANTICOLL (cascade level 1)"))
        #expect(!Self.agrees(pm3: "HALT", ours: "HLTA"))
        #expect(Self.rows("   10 |  20 | Rdr |26(7)  |     | REQA\n      |     |     |        |     |\n").map(\.bytes) == [[0x26]])
    }
}
