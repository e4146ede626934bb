import Foundation
import NFCCore
import NFCCrypto
import NFCDissect
import NFCEmulator
@testable import NFCTestKit
import Testing

/// A DESFire EV1 read as an iOS app reads one through Core NFC (`NFCMiFareTag`, family
/// `.desfire`, ISO-wrapped native commands): GET VERSION, the applications, SELECT, a protected
/// file refused, AUTHENTICATE AES with the application's key 1, the file read. The session is
/// `Traces/desfire-aes-read.nfctrace` (NFCTRACE_MAKE_TRACES=1 writes it anew).
@Suite struct DESFireSessionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tracePath = root.appendingPathComponent("Traces/desfire-aes-read.nfctrace")
    static let rndA: [UInt8] = Array(0x10..<0x20)

    /// One wrapped command: `90 CMD 00 00 [Lc data] 00` → data and the native status in SW2.
    static func send(_ tag: any NFCMiFareTag, _ code: UInt8, _ data: [UInt8] = []) async throws -> (data: [UInt8], status: UInt8) {
        let apdu = NFCISO7816APDU(instructionClass: DESFire.wrappedClass, instructionCode: code, p1Parameter: 0, p2Parameter: 0,
                                  data: Data(data), expectedResponseLength: 256)
        let (d, sw1, sw2) = try await tag.sendMiFareISO7816Command(apdu)
        #expect(sw1 == DESFire.statusSW1)
        return (Array(d), sw2)
    }

    func session(traceURL: URL?) async throws -> SimulatedTagReaderSession {
        let probe = Probe()
        let s = try SimulatedTagReaderSession(pollingOption: .iso14443, delegate: probe, source: .model("desfire-ev1"), traceURL: traceURL)
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let card) = tag else { Issue.record("no MiFare tag"); return s }
        #expect(card.mifareFamily == .desfire)
        try await s.connect(to: tag)

        var version = try await Self.send(card, 0x60)
        var all = version.data
        while version.status == DESFire.additionalFrame {
            version = try await Self.send(card, DESFire.additionalFrame)
            all += version.data
        }
        #expect(DESFire.Version(all)?.generation == "MIFARE DESFire EV1")
        #expect(try await Self.send(card, 0x6A).data == [0x54, 0x4E, 0x5A])
        #expect(try await Self.send(card, 0x5A, [0x54, 0x4E, 0x5A]).status == 0x00)
        #expect(try await Self.send(card, 0x6F).data == [1, 2, 3, 4])
        let settings = try await Self.send(card, 0xF5, [2])
        #expect(DESFire.FileSettings(settings.data)?.accessText == "read key 1, write key 1, read&write key 1, change key 0")
        let read: [UInt8] = [2, 0, 0, 0, 0, 0, 0]
        #expect(try await Self.send(card, 0xBD, read).status == 0x9D, "permission denied before authentication")

        // AUTHENTICATE AES key 1: the card's ek(RndB), the app's ek(RndA ‖ RndB′), the card's ek(RndA′).
        let auth = UltralightAuthentication(kind: .aes, cipher: AES128(key: DESFireDump.demoKey)!, chainsIV: true)
        let challenge = try await Self.send(card, 0xAA, [1])
        #expect(challenge.status == DESFire.additionalFrame && challenge.data.count == 16)
        let message = auth.readerMessage(ekRndB: challenge.data, rndA: Self.rndA)
        let answer = try await Self.send(card, DESFire.additionalFrame, message)
        #expect(answer.status == 0x00)
        #expect(auth.tagAnswerIsRight(answer.data, rndA: Self.rndA, readerMessage: message), "the card proved it holds key 1")

        let secret = try await Self.send(card, 0xBD, read)
        #expect(secret.status == 0x00 && String(decoding: secret.data, as: UTF8.self) == "student 2024A1234, valid 2027-03")
        #expect(try await Self.send(card, 0x6C, [3]).data == [0xE8, 0x03, 0x00, 0x00], "value 1000")
        s.invalidate()
        _ = await probe.end()
        return s
    }

    @Test func authenticatedReadOfAProtectedFile() async throws {
        let make = ProcessInfo.processInfo.environment["NFCTRACE_MAKE_TRACES"] == "1"
        let out = make ? Self.tracePath : FileManager.default.temporaryDirectory.appendingPathComponent("desfire-\(UUID().uuidString).nfctrace")
        let s = try await session(traceURL: out)
        defer { if !make { try? FileManager.default.removeItem(at: out) } }
        for case .frame(let f) in Dissector.dissect(s.frames) {
            #expect(!f.summary.contains("unknown") && !f.summary.contains("malformed") && !f.summary.contains("no request before"),
                    "\(f.number): \(f.summary)")
        }
        // The committed trace is this session, byte for byte.
        #expect(try Data(contentsOf: out) == Data(contentsOf: Self.tracePath))
    }

    @Test func wrongKeyIsAnAuthenticationError() async throws {
        let probe = Probe()
        let s = try SimulatedTagReaderSession(pollingOption: .iso14443, delegate: probe, source: .model("desfire-ev1"))
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let card) = tag else { Issue.record("no tag"); return }
        try await s.connect(to: tag)
        _ = try await Self.send(card, 0x5A, [0x54, 0x4E, 0x5A])
        let auth = UltralightAuthentication(kind: .aes, cipher: AES128(key: [UInt8](repeating: 0, count: 16))!, chainsIV: true)
        let challenge = try await Self.send(card, 0xAA, [1])
        let answer = try await Self.send(card, DESFire.additionalFrame, auth.readerMessage(ekRndB: challenge.data, rndA: Self.rndA))
        #expect(answer.status == 0xAE)
        #expect(try await Self.send(card, 0xBD, [2, 0, 0, 0, 0, 0, 0]).status == 0x9D)
        // Native commands too: GET VERSION's first frame ends in ADDITIONAL FRAME.
        let native = try await card.sendMiFareCommand(commandPacket: Data([0x60]))
        #expect(native.first == DESFire.additionalFrame && native.count == 8)
    }

    /// Native commands (`sendMiFareCommand`, what Core NFC apps send a DESFire most often) are
    /// told from APDUs by the card and the code, and dissected like their wrapped form.
    @Test func nativeSessionIsDissected() async throws {
        let probe = Probe()
        let s = try SimulatedTagReaderSession(pollingOption: .iso14443, delegate: probe, source: .model("desfire-ev1"))
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let card) = tag else { Issue.record("no tag"); return }
        try await s.connect(to: tag)
        func native(_ bytes: [UInt8]) async throws -> [UInt8] { Array(try await card.sendMiFareCommand(commandPacket: Data(bytes))) }
        var part = try await native([0x60])
        while part.first == DESFire.additionalFrame { part = try await native([DESFire.additionalFrame]) }
        #expect(try await native([0x5A, 0x54, 0x4E, 0x5A]) == [0x00])
        let auth = UltralightAuthentication(kind: .aes, cipher: AES128(key: DESFireDump.demoKey)!, chainsIV: true)
        let challenge = try await native([0xAA, 0x01])
        #expect(challenge.first == DESFire.additionalFrame)
        #expect(try await native([DESFire.additionalFrame] + auth.readerMessage(ekRndB: Array(challenge.dropFirst()), rndA: Self.rndA)).first == 0x00)
        #expect(try await native([0xBD, 0x02, 0, 0, 0, 0, 0, 0]).dropFirst().count == 32)
        let summaries = Dissector.dissect(s.frames).compactMap { e -> String? in if case .frame(let f) = e { return f.summary } else { return nil } }
        for expected in ["GET VERSION", "ADDITIONAL FRAME (GET VERSION, next part)", "SELECT APPLICATION 5A4E54", "AUTHENTICATE AES key 1",
                         "ek(RndB) 16 bytes, additional frame", "ek(RndA′) 16 bytes, authenticated", "READ DATA file 2, offset 0, all bytes",
                         "32 bytes \"student 2024A1234, valid 2027-03\", operation OK"] {
            #expect(summaries.contains(expected), "\(expected) in \(summaries)")
        }
        #expect(summaries.contains { $0.hasPrefix("VERSION MIFARE DESFire EV1") })
        #expect(!summaries.contains { $0.contains("unknown") || $0.contains("malformed") })
    }

    @Test func transactionsCommitOrAbort() async throws {
        let probe = Probe()
        let s = try SimulatedTagReaderSession(pollingOption: .iso14443, delegate: probe, source: .model("desfire-ev1"))
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let card) = tag else { Issue.record("no tag"); return }
        try await s.connect(to: tag)
        _ = try await Self.send(card, 0x5A, [0x54, 0x4E, 0x5A])
        let auth = UltralightAuthentication(kind: .aes, cipher: AES128(key: DESFireDump.demoKey)!, chainsIV: true)
        let challenge = try await Self.send(card, 0xAA, [1])
        #expect(try await Self.send(card, DESFire.additionalFrame, auth.readerMessage(ekRndB: challenge.data, rndA: Self.rndA)).status == 0)
        #expect(try await Self.send(card, 0xDC, [3, 0xF4, 0x01, 0, 0]).status == 0)   // debit 500
        #expect(try await Self.send(card, 0xA7).status == 0)                           // abort
        #expect(try await Self.send(card, 0x6C, [3]).data == [0xE8, 0x03, 0, 0])
        #expect(try await Self.send(card, 0xDC, [3, 0xF4, 0x01, 0, 0]).status == 0)
        #expect(try await Self.send(card, 0xC7).status == 0)                           // commit
        #expect(try await Self.send(card, 0x6C, [3]).data == [0xF4, 0x01, 0, 0])
        #expect(try await Self.send(card, 0xDC, [3, 0xE8, 0x03, 0, 0]).status == 0xBE, "below the lower limit")
        #expect(try await Self.send(card, 0x3B, [4, 0, 0, 0, 4, 0, 0] + Array("exam".utf8)).status == 0)
        #expect(try await Self.send(card, 0xC7).status == 0)
        let newest = try await Self.send(card, 0xBB, [4, 0, 0, 0, 1, 0, 0])
        #expect(newest.data.prefix(4) == Array("exam".utf8)[...])
        #expect(try await Self.send(card, 0x3D, [1, 0, 0, 0, 5, 0, 0] + Array("HELLO".utf8)).status == 0)
        #expect(try await Self.send(card, 0xBD, [1, 0, 0, 0, 5, 0, 0]).data == Array("HELLO".utf8))
        // 64 bytes: more than one native frame.
        let long = try await card.sendMiFareCommand(commandPacket: Data([0xBD, 1, 0, 0, 0, 0, 0, 0]))
        #expect(long.first == 0x00 && long.count == 49)
    }
}
