import CoreNFCReader
import Foundation
import NFCTestKit
import Testing

/// The five flows of the articles, each against a cassette from Traces/, against an emulated
/// tag, and against a deliberately wrong tag; the traces the runs record dissect cleanly and,
/// where the flow is deterministic, equal the committed cassettes.
@Suite struct NTAGFlowTests {
    static let password = Data([0x12, 0x34, 0x56, 0x78])
    static let uri = "https://nfctrace.example/tags/ntag215?id=42"

    static func flow(_ password: Data) -> (NFCTag) async throws -> NTAGRead {
        { try await NTAGPasswordRead.run(on: $0, password: password) }
    }

    func check(_ read: NTAGRead) {
        #expect(read.pack == Data([0x80, 0x80]))
        #expect(read.message.records.count == 1)
        #expect(read.message.records.first?.typeNameFormat == .nfcWellKnown)
        #expect(read.message.records.first.map { String(decoding: $0.type, as: UTF8.self) } == "U")
        #expect(read.message.records.first?.payload == NFCNDEFPayload.wellKnownTypeURIPayload(string: Self.uri)?.payload)
    }

    @Test func againstTheArticleTrace() async throws {
        let bench = Bench(.cassetteFile("ntag215-password-read.nfctrace"), trace: "ntag-cassette")
        check(try await run(bench, .iso14443, Self.flow(Self.password)))
        bench.expectCleanDissection()
    }

    @Test func againstTheTagRebuiltFromTheTrace() async throws {
        let bench = Bench(.traceFile("ntag215-password-read.nfctrace"), trace: "ntag-emulated")
        check(try await run(bench, .iso14443, Self.flow(Self.password)))
        bench.expectCleanDissection()
        try bench.expectEqualsCassette("ntag215-password-read")
    }

    @Test func aFactoryTagHasAnEmptyMessage() async throws {
        let bench = Bench(.model("ntag215"), trace: "ntag-factory")
        let read = try await run(bench, .iso14443, Self.flow(Data([0xFF, 0xFF, 0xFF, 0xFF])))
        #expect(read.message.records.isEmpty)
        #expect(read.pack == Data([0x00, 0x00]))
    }

    @Test func wrongPasswordIsANAK() async throws {
        for source in [SimulatedTagSource.cassetteFile("ntag215-password-read.nfctrace"), .traceFile("ntag215-password-read.nfctrace")] {
            let bench = Bench(source, trace: "ntag-wrong-password")
            #expect(await failure(bench, .iso14443, Self.flow(Data([0xFF, 0xFF, 0xFF, 0xFF]))) == .wrongPassword)
            // A tag that NAKed is in IDLE: the session does not HALT it, as in the trace.
            #expect(bench.session?.frames.dropLast().last?.bytes.count == 1)
            bench.expectCleanDissection()
        }
    }

    @Test func tagRemovedDuringFastRead() async throws {
        let bench = Bench(.traceFile("ntag215-password-read.nfctrace"), removal: .atCommand([0x3A]), trace: "ntag-removed")
        #expect(await failure(bench, .iso14443, Self.flow(Self.password)) == .tagLost)
    }

    @Test func anISO15693SessionFindsNoNTAG() async throws {
        let bench = Bench(.model("ntag215"), trace: "ntag-wrong-polling")
        #expect(await failure(bench, .iso15693, Self.flow(Self.password)) == .noTag(code: 201))
    }
}

@Suite struct FeliCaFlowTests {
    static let fe00 = ReaderEntitlements(feliCaSystemCodes: ["FE00"])

    @Test func studentIDFromTheArticleTrace() async throws {
        let bench = Bench(.cassetteFile("felica-student-id.nfctrace"), entitlements: Self.fe00, trace: "student-id-cassette")
        let id = try await run(bench, .iso18092, FeliCaReads.studentID)
        #expect(id == StudentID(number: "2024A1234", name: "ﾔﾏﾀﾞ ﾊﾅｺ"))
        bench.expectCleanDissection()
    }

    @Test func studentIDFromTheRebuiltCard() async throws {
        let bench = Bench(.traceFile("felica-student-id.nfctrace"), entitlements: Self.fe00, trace: "student-id-emulated")
        #expect(try await run(bench, .iso18092, FeliCaReads.studentID) == StudentID(number: "2024A1234", name: "ﾔﾏﾀﾞ ﾊﾅｺ"))
        bench.expectCleanDissection()
        try bench.expectEqualsCassette("felica-student-id")
    }

    /// The card is there, but the app's Info.plist does not list FE00: Core NFC never reports it.
    @Test func systemCodeMissingFromInfoPlist() async throws {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>com.apple.developer.nfc.readersession.felica.systemcodes</key>
        <array><string>0003</string></array>
        </dict></plist>
        """
        let entitlements = try ReaderEntitlements(infoPlist: Data(plist.utf8))
        #expect(entitlements.feliCaSystemCodes == ["0003"])
        let bench = Bench(.traceFile("felica-student-id.nfctrace"), entitlements: entitlements, trace: "student-id-no-entitlement")
        #expect(await failure(bench, .iso18092, FeliCaReads.studentID) == .noTag(code: 201))
        // Discovery polled for 0003 only, and the card stayed silent.
        #expect(bench.session?.frames.filter(\.isReaderFrame).map(\.bytes.count) == [8])
    }

    @Test func suicaHistoryFromTheArticleTrace() async throws {
        let entitlements = ReaderEntitlements(feliCaSystemCodes: ["FE00", "0003"])
        let bench = Bench(.cassetteFile("suica-history.nfctrace"), entitlements: entitlements, trace: "suica-cassette")
        let history = try await run(bench, .iso18092, FeliCaReads.suicaHistory)
        #expect(history.count == 12)
        #expect(history.first?.balance == 3792)
        bench.expectCleanDissection()
    }

    @Test func suicaHistoryFromTheBuiltInCard() async throws {
        let bench = Bench(.model("suica"), entitlements: ReaderEntitlements(feliCaSystemCodes: ["0003"]), trace: "suica-emulated")
        let history = try await run(bench, .iso18092, FeliCaReads.suicaHistory)
        #expect(history.count == 12)
        bench.expectCleanDissection()
        try bench.expectEqualsCassette("suica-history")
    }

    @Test func systemSwitchFromTheArticleTrace() async throws {
        let entitlements = ReaderEntitlements(feliCaSystemCodes: ["8E4B", "FE00"])
        for (source, name) in [(SimulatedTagSource.cassetteFile("felica-system-switch.nfctrace"), "switch-cassette"), (.model("felica-two-systems"), "switch-emulated")] {
            let bench = Bench(source, entitlements: entitlements, trace: name)
            let read = try await run(bench, .iso18092, FeliCaReads.systemSwitch)
            #expect(read.systemCodes == [Data([0x8E, 0x4B]), Data([0xFE, 0x00])])
            #expect(read.idmAfterSwitch.first.map { $0 >> 4 } == 1, "the IDm of system 1")
            bench.expectCleanDissection()
            if name == "switch-emulated" { try bench.expectEqualsCassette("felica-system-switch") }
        }
    }

    /// A Suica read against the student card: the service is not there (Request Service says FFFF).
    @Test func suicaFlowOnAnotherCard() async throws {
        let bench = Bench(.model("felica-two-systems"), entitlements: ReaderEntitlements(feliCaSystemCodes: ["FE00"]), trace: "suica-wrong-card")
        #expect(await failure(bench, .iso18092, FeliCaReads.suicaHistory) == .wrongTag)
    }
}

@Suite struct ISO15693FlowTests {
    static let message = NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeTextPayload(string: "Hello", locale: Locale(identifier: "en"))!])

    @Test func formatsABlankTagThenWrites() async throws {
        let bench = Bench(.model("iso15693-st25dv04k"), trace: "iso15693-format")
        let formatted = try await run(bench, .iso15693) { try await ISO15693Format.formatAndWrite(Self.message, on: $0) }
        #expect(formatted)
        bench.expectCleanDissection()
        // Traces/iso15693-format-and-write.nfctrace cannot stand in for this flow (its
        // phone never read block 0 first); this recording of the flow can, from Traces/.
        try bench.expectEqualsCassette("iso15693-corenfc-format", inTraces: true)
        let again = Bench(.cassetteFile("iso15693-corenfc-format.nfctrace"), trace: "iso15693-format-cassette")
        #expect(try await run(again, .iso15693) { try await ISO15693Format.formatAndWrite(Self.message, on: $0) })
    }

    @Test func aFormattedTagIsNotFormattedAgain() async throws {
        let bench = Bench(.model("slix2"), trace: "iso15693-formatted")
        #expect(try await run(bench, .iso15693) { try await ISO15693Format.formatAndWrite(Self.message, on: $0) } == false)
    }

    @Test func readingABlankTagSaysNotFormatted() async throws {
        let bench = Bench(.model("iso15693-st25dv04k"), trace: "iso15693-no-cc")
        #expect(await failure(bench, .iso15693, ISO15693Format.readMessage) == .notFormatted)
    }

    /// Core NFC's own writeNDEF on a tag with no CC: "tag not writable" (400).
    @Test func writeNDEFWithoutACCIsNotWritable() async throws {
        let bench = Bench(.model("iso15693-st25dv04k"), trace: "iso15693-write-no-cc")
        #expect(await failure(bench, .iso15693) { try await $0.base.writeNDEF(Self.message) } == .reader(code: 400))
    }

    @Test func writtenMessageReadsBack() async throws {
        let tag = try SimulatedTagSource.model("slix2").makeTag()
        for (n, trace) in ["iso15693-write", "iso15693-read"].enumerated() {
            let bench = Bench(.model("slix2"), trace: trace)
            let factory: SessionFactory = { polling, delegate in
                SimulatedTagReaderSession(pollingOption: polling, delegate: delegate, tag: tag, traceURL: bench.traceURL)
            }
            if n == 0 {
                _ = try await TagReader(pollingOption: .iso15693, makeSession: factory) { try await ISO15693Format.formatAndWrite(Self.message, on: $0) }.read()
            } else {
                let read = try await TagReader(pollingOption: .iso15693, makeSession: factory, flow: ISO15693Format.readMessage).read()
                #expect(read == Self.message)
                #expect(read.records.first?.wellKnownTypeTextPayload().0 == "Hello")
            }
        }
    }

    /// An ISO 15693 error answer reaches the app with its code in the error's user info.
    @Test func errorCodeInUserInfo() async throws {
        let bench = Bench(.model("slix2"), trace: "iso15693-error")
        let result = await failure(bench, .iso15693) { tag -> Data in
            guard case .iso15693(let v) = tag else { throw ReaderFailure.wrongTag }
            return try await v.readSingleBlock(requestFlags: [.highDataRate, .address], blockNumber: 0xF0)
        }
        #expect(result == .iso15693Error(0x10))
    }
}

/// Why the article's TLV parser needed care: a Type 2 memory image from the fuzz corpus, cut
/// short (what the fuzzer's truncation does), whose NDEF TLV announces 40 bytes where 22 are left.
@Suite struct TLVRegressionTests {
    static let input = Paths.repository.appendingPathComponent("Tests/NFCFuzzTests/FuzzRegressions/FuzzType2Memory/truncated-ndef-tlv")

    /// The article's first parser: `bytes[2..<2 + bytes[1]]`, no bounds check.
    static func naiveRange(_ area: [UInt8]) -> Range<Int> { 2..<2 + Int(area[1]) }

    @Test func truncatedTLVNeedsMoreInsteadOfTrapping() throws {
        let image = try Data(contentsOf: Self.input)
        let area = image.dropFirst(16)
        // The naive slice would run past the end (and trap); the careful parser asks for more.
        #expect(Self.naiveRange(Array(area)).upperBound > area.count)
        #expect(NDEFTLVParser.find(in: Data(area)) == .needMore(Self.naiveRange(Array(area)).upperBound - area.count))
    }

    @Test func carefulParserCases() {
        #expect(NDEFTLVParser.find(in: Data([0x00, 0x03, 0x02, 0xD0, 0x00])) == .complete(Data([0xD0, 0x00])))
        #expect(NDEFTLVParser.find(in: Data([0xFE])) == .none)
        #expect(NDEFTLVParser.find(in: Data([0x03])) == .needMore(1))
        #expect(NDEFTLVParser.find(in: Data([0x03, 0xFF, 0x00])) == .needMore(1))
        #expect(NDEFTLVParser.find(in: Data([0x03, 0xFF, 0x00, 0x10])) == .malformed("3-byte length 16 below 255"))
        #expect(NDEFTLVParser.find(in: Data([0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x00, 0xFE])) == .complete(Data()))
    }
}
