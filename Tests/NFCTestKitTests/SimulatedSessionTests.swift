import Foundation
import NFCCore
import NFCDissect
import NFCEmulator
@testable import NFCTestKit
import Testing

/// A delegate that hands the detected tag and the session's end to async test code.
final class Probe: NFCTagReaderSessionDelegate {
    private var detected: CheckedContinuation<NFCTag?, Never>?
    private var ended: CheckedContinuation<NFCReaderError?, Never>?
    private var pendingTag: NFCTag??
    private var pendingEnd: NFCReaderError??
    private let lock = NSLock()
    var becameActive = false

    func tagReaderSessionDidBecomeActive(_ session: any NFCTagReaderSession) { becameActive = true }

    func tagReaderSession(_ session: any NFCTagReaderSession, didDetect tags: [NFCTag]) { deliverTag(tags.first) }

    func tagReaderSession(_ session: any NFCTagReaderSession, didInvalidateWithError error: Error) {
        deliverTag(nil)
        lock.lock()
        let c = ended
        ended = nil
        if c == nil { pendingEnd = .some(error as? NFCReaderError) }
        lock.unlock()
        c?.resume(returning: error as? NFCReaderError)
    }

    private func deliverTag(_ tag: NFCTag?) {
        lock.lock()
        let c = detected
        detected = nil
        if c == nil, pendingTag == nil { pendingTag = .some(tag) }
        lock.unlock()
        c?.resume(returning: tag)
    }

    func tag() async -> NFCTag? {
        await withCheckedContinuation { c in
            lock.lock()
            if let t = pendingTag { pendingTag = nil; lock.unlock(); c.resume(returning: t); return }
            detected = c
            lock.unlock()
        }
    }

    func end() async -> NFCReaderError? {
        await withCheckedContinuation { c in
            lock.lock()
            if let e = pendingEnd { pendingEnd = nil; lock.unlock(); c.resume(returning: e); return }
            ended = c
            lock.unlock()
        }
    }
}

@Suite struct SimulatedSessionTests {
    static let ndefAID = "D2760000850101"

    func session(_ model: String, _ polling: PollingOption, _ probe: Probe, aids: [String] = [], systemCodes: [String] = [],
                 limits: SimulatedLimits = SimulatedLimits(), removal: TagRemoval = .never, queue: DispatchQueue? = nil) throws -> SimulatedTagReaderSession {
        try SimulatedTagReaderSession(pollingOption: polling, delegate: probe, queue: queue, source: .model(model),
                                      entitlements: ReaderEntitlements(feliCaSystemCodes: systemCodes, iso7816SelectIdentifiers: aids),
                                      limits: limits, removal: removal)
    }

    @Test func type4CardSelectedByAnInfoPlistAIDIsAnISO7816Tag() async throws {
        let probe = Probe()
        let s = try session("type4-ndef", .iso14443, probe, aids: ["A000000003101001", Self.ndefAID])
        s.begin()
        guard case .iso7816(let tag)? = await probe.tag() else { Issue.record("no ISO 7816 tag"); return }
        #expect(probe.becameActive)
        #expect(tag.initialSelectedAID == Self.ndefAID)
        try await s.connect(to: .iso7816(tag))
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 2046)
        let message = NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://nfctrace.example/" + String(repeating: "x", count: 300))!])
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        s.invalidate()
        #expect(await probe.end()?.code == .readerSessionInvalidationErrorUserCanceled)
        // Chained blocks both ways, every frame known to the dissector.
        for case .frame(let f) in Dissector.dissect(s.frames) {
            #expect(!f.summary.contains("unknown") && !f.summary.contains("malformed"), "\(f.number): \(f.summary)")
        }
    }

    @Test func isoDEPCardNoAIDSelectsIsAMiFareTag() async throws {
        let probe = Probe()
        let s = try session("type4-ndef", .iso14443, probe)
        s.begin()
        guard case .miFare(let tag)? = await probe.tag() else { Issue.record("no MiFare tag"); return }
        try await s.connect(to: .miFare(tag))
        #expect(tag.historicalBytes != nil)
        let select = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, p2Parameter: 0,
                                    data: Data(Hex.parse(Self.ndefAID)!), expectedResponseLength: 256)
        let (_, sw1, sw2) = try await tag.sendMiFareISO7816Command(select)
        #expect(sw1 == 0x90 && sw2 == 0x00)
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4, 0x04, 0x00])) != nil)
        #expect(NFCISO7816APDU(data: Data([0x00, 0xA4])) == nil)
    }

    @Test func emvCardAnswersThroughWTX() async throws {
        let probe = Probe()
        let s = try session("emv-test-card", .iso14443, probe, aids: ["325041592E5359532E4444463031"])
        s.begin()
        guard case .iso7816(let tag)? = await probe.tag() else { Issue.record("no ISO 7816 tag"); return }
        try await s.connect(to: .iso7816(tag))
        let selectVisa = NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, p2Parameter: 0,
                                        data: Data(Hex.parse("A0000000031010")!), expectedResponseLength: 256)
        #expect(try await tag.sendCommand(apdu: selectVisa).1 == 0x90)
        let gpo = NFCISO7816APDU(data: Data(Hex.parse("80A8000002830000")!))!
        let (data, sw1, _) = try await tag.sendCommand(apdu: gpo)
        #expect(sw1 == 0x90 && !data.isEmpty)
        #expect(s.frames.contains { $0.isTagFrame && $0.bytes.first == 0xF2 }, "the card asked for a waiting time extension")
    }

    @Test func preconditionsAsCoreNFCReportsThem() async throws {
        let probe = Probe()
        let s = try session("ntag215", .iso14443, probe)
        s.begin()
        guard case .miFare(let tag)? = await probe.tag() else { Issue.record("no tag"); return }
        #expect(tag.mifareFamily == .ultralight)
        #expect(tag.identifier == Data([0x04, 0xE1, 0x7A, 0x20, 0x4B, 0x2C, 0x80]))
        await #expect(throws: NFCReaderError(.readerTransceiveErrorTagNotConnected)) { try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) }
        try await s.connect(to: .miFare(tag))
        #expect(try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0x00])).count == 16)
        // A WRITE's 4-bit ACK comes back as one byte 0A.
        #expect(try await tag.sendMiFareCommand(commandPacket: Data([0xA2, 0x10, 1, 2, 3, 4])) == Data([0x0A]))
        // A NAK is a tag response error carrying the NAK.
        do {
            _ = try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0xF0]))
            Issue.record("READ F0 answered")
        } catch let e as NFCReaderError {
            #expect(e.code == .readerTransceiveErrorTagResponseError && e.details[NFCReaderError.miFareNAKKey] == 0)
        }
        s.invalidate(errorMessage: "done")
        #expect(await probe.end()?.code == .readerSessionInvalidationErrorUserCanceled)
        #expect(s.invalidationMessage == "done")
        await #expect(throws: NFCReaderError(.readerTransceiveErrorSessionInvalidated)) { try await tag.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) }
        #expect(!tag.isAvailable)
    }

    @Test func completionHandlersRunOnTheSessionQueue() async throws {
        let queue = DispatchQueue(label: "app.nfc")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let probe = Probe()
        let s = try session("ntag215", .iso14443, probe, queue: queue)
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let mifare) = tag else { Issue.record("no tag"); return }
        let connected: Int? = await withCheckedContinuation { c in s.connect(to: tag) { _ in c.resume(returning: DispatchQueue.getSpecific(key: key)) } }
        #expect(connected == 7)
        let (count, onQueue): (Int, Int?) = await withCheckedContinuation { c in
            mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { data, _ in c.resume(returning: (data.count, DispatchQueue.getSpecific(key: key))) }
        }
        #expect(count == 16 && onQueue == 7)
    }

    @Test func iso15693CompletionHandlers() async throws {
        let probe = Probe()
        let s = try session("slix2", .iso15693, probe)
        s.begin()
        guard let tag = await probe.tag(), case .iso15693(let v) = tag else { Issue.record("no tag"); return }
        try await s.connect(to: tag)
        let (blockSize, total): (Int, Int) = await withCheckedContinuation { c in
            v.getSystemInfo(requestFlags: [.highDataRate, .address]) { _, _, size, count, _, _ in c.resume(returning: (size, count)) }
        }
        #expect(blockSize == 4 && total == 80)
        let blocks: [Data] = await withCheckedContinuation { c in
            v.readMultipleBlocks(requestFlags: [.highDataRate, .address], blockRange: NSRange(location: 0, length: 3)) { d, _ in c.resume(returning: d) }
        }
        #expect(blocks.count == 3 && blocks.allSatisfy { $0.count == 4 })
        let status: [NSNumber] = await withCheckedContinuation { c in
            v.getMultipleBlockSecurityStatus(requestFlags: [.highDataRate, .address], blockRange: NSRange(location: 0, length: 2)) { d, _ in c.resume(returning: d) }
        }
        #expect(status.count == 2)
    }

    @Test func sessionTimeLimit() async throws {
        let probe = Probe()
        let s = try session("ntag215", .iso14443, probe, limits: SimulatedLimits(session: 60, connection: 5))
        s.begin()
        guard let tag = await probe.tag(), case .miFare(let mifare) = tag else { Issue.record("no tag"); return }
        try await s.connect(to: tag)
        s.advanceClock(seconds: 6)
        await #expect(throws: NFCReaderError(.readerTransceiveErrorTagConnectionLost)) { try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) }
        s.advanceClock(seconds: 60)
        await #expect(throws: NFCReaderError(.readerTransceiveErrorSessionInvalidated)) { try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) }
        #expect(await probe.end()?.code == .readerSessionInvalidationErrorSessionTimeout)
    }

    @Test func classicCardsAndOtherTechnologiesAreNotReported() async throws {
        for (model, polling) in [("mifare-classic-1k", PollingOption.iso14443), ("slix2", .iso14443), ("suica", .iso18092)] {
            let probe = Probe()
            let s = try session(model, polling, probe)   // suica: no system code in the Info.plist
            s.begin()
            #expect(await probe.tag() == nil, "\(model)")
            #expect(await probe.end()?.code == .readerSessionInvalidationErrorSessionTimeout)
        }
    }

    @Test func randomRemovalIsRepeatable() async throws {
        func exchangesBeforeLoss(seed: UInt64) async throws -> Int {
            let probe = Probe()
            let s = try session("ntag215", .iso14443, probe, removal: .random(probability: 0.2, seed: seed))
            s.begin()
            guard let tag = await probe.tag(), case .miFare(let mifare) = tag else { return -1 }
            try await s.connect(to: tag)
            for n in 0..<200 {
                do { _ = try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) } catch let e as NFCReaderError {
                    #expect(e.code == .readerTransceiveErrorTagConnectionLost)
                    #expect(!mifare.isAvailable)
                    return n
                }
            }
            return 200
        }
        let first = try await exchangesBeforeLoss(seed: 42)
        #expect(first < 200)
        #expect(try await exchangesBeforeLoss(seed: 42) == first)
    }

    @Test func feliCaPollingSwitchesTheIDm() async throws {
        let probe = Probe()
        let s = try session("felica-two-systems", .iso18092, probe, systemCodes: ["8E4B", "FE00"])
        s.begin()
        guard let tag = await probe.tag(), case .feliCa(let card) = tag else { Issue.record("no card"); return }
        #expect(card.currentSystemCode == Data([0x8E, 0x4B]))
        try await s.connect(to: tag)
        let before = card.currentIDm
        let (pmm, requestData) = try await card.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1)
        #expect(pmm.count == 8 && requestData == Data([0xFE, 0x00]))
        #expect(card.currentIDm != before && card.currentSystemCode == Data([0xFE, 0x00]))
        #expect(try await card.requestResponse() == 0)
        // An unknown service: status flags, not an error.
        let (sf1, sf2, blocks) = try await card.readWithoutEncryption(serviceCodeList: [Data([0x0B, 0x99])], blockList: [Data([0x80, 0x00])])
        #expect(sf1 == 0x01 && sf2 != 0 && blocks.isEmpty)
        #expect(try await card.queryNDEFStatus().0 == .notSupported)
    }

    @Test func type3NDEFOnAFeliCaLiteS() async throws {
        let probe = Probe()
        let s = try session("felica-lite-s", .iso18092, probe, systemCodes: ["12FC"])
        s.begin()
        guard let tag = await probe.tag(), case .feliCa(let card) = tag else { Issue.record("no card"); return }
        try await s.connect(to: tag)
        let (status, capacity) = try await card.queryNDEFStatus()
        #expect(status == .readWrite && capacity > 0)
        let before = try await card.readNDEF()
        #expect(before.records.first.map { String(decoding: $0.type, as: UTF8.self) } == "U")
        let message = NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeTextPayload(string: String(repeating: "Type 3 ", count: 20), locale: Locale(identifier: "en"))!])
        try await card.writeNDEF(message)
        #expect(try await card.readNDEF() == message)
        await #expect(throws: NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall)) {
            try await card.writeNDEF(NFCNDEFMessage(records: [NFCNDEFPayload(format: .media, type: Data("a/b".utf8), identifier: Data(), payload: Data(count: 4096))]))
        }
        for case .frame(let f) in Dissector.dissect(s.frames) {
            #expect(!f.summary.contains("unknown") && !f.summary.contains("malformed"), "\(f.number): \(f.summary)")
        }
    }

    @Test func writeLockMakesEachTagTypeReadOnly() async throws {
        for (model, polling, codes) in [("ntag215", PollingOption.iso14443, [String]()), ("slix2", .iso15693, []), ("felica-lite-s", .iso18092, ["12FC"])] {
            let probe = Probe()
            let s = try session(model, polling, probe, systemCodes: codes)
            s.begin()
            guard let tag = await probe.tag() else { Issue.record("no \(model)"); continue }
            try await s.connect(to: tag)
            let ndef = tag.base
            #expect(try await ndef.queryNDEFStatus().0 == .readWrite, "\(model)")
            try await ndef.writeLock()
            #expect(try await ndef.queryNDEFStatus().0 == .readOnly, "\(model)")
            let message = NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com")!])
            await #expect(throws: NFCReaderError(.ndefReaderSessionErrorTagNotWritable)) { try await ndef.writeNDEF(message) }
            // The chip itself refuses writes now, not only the CC.
            switch tag {
            case .miFare(let t):
                await #expect(throws: NFCReaderError(.readerTransceiveErrorTagResponseError, details: [NFCReaderError.miFareNAKKey: 0])) {
                    try await t.sendMiFareCommand(commandPacket: Data([0xA2, 0x04, 1, 2, 3, 4]))
                }
            case .iso15693(let t):
                do {
                    try await t.writeSingleBlock(requestFlags: [.highDataRate, .address], blockNumber: 1, dataBlock: Data([1, 2, 3, 4]))
                    Issue.record("a locked block was written")
                } catch let e as NFCReaderError {
                    #expect(e.iso15693ErrorCode == 0x12, "\(e)")
                }
            default: break
            }
        }
    }

    @Test func infoPlistErrors() {
        #expect(throws: ReaderEntitlements.PlistError.self) { try ReaderEntitlements(infoPlist: Data("not a plist".utf8)) }
        let bad = """
        <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
        <key>com.apple.developer.nfc.readersession.iso7816.select-identifiers</key><array><string>A0</string></array>
        </dict></plist>
        """
        #expect(throws: ReaderEntitlements.PlistError.self) { try ReaderEntitlements(infoPlist: Data(bad.utf8)) }
    }
}

