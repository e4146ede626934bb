import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCTestInputs
@testable import NFCDissect

/// Issue 44, point 2: an imperfect sniff of a payment card — a block lost, an R(ACK) lost, a
/// block sent again after R(NAK), a frame recorded twice, an answer cut by the reader's next
/// command — must neither join blocks wrongly nor show the card number or the cardholder's name.
/// The session is a reader with a 16-byte frame size (RATS FSDI 0), so every answer chains.
@Suite struct ISODEPDamageTests {
    static let pan: [UInt8] = [0x41, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11]
    static let name = Array("TEST/NFCTRACE".utf8)
    static func tlv(_ tag: UInt32, _ value: [UInt8]) -> [UInt8] { BERTLV.encode(tag: tag, value: value) }
    static let record = tlv(0x70, tlv(0x57, pan + [0xD2, 0x81, 0x22, 0x01, 0x00, 0x00, 0x00, 0x00, 0x0F]) + tlv(0x5A, pan)
                            + tlv(0x5F20, name) + tlv(0x5F24, [0x28, 0x12, 0x31]))
    static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10]
    static let ppseFCI = tlv(0x6F, tlv(0x84, EMV.ppse) + tlv(0xA5, tlv(0xBF0C, tlv(0x61, tlv(0x4F, aid) + tlv(0x87, [0x01])))))
    static let ok: [UInt8] = [0x90, 0x00]
    /// INF bytes per block: FSD 16 less PCB and CRC_A.
    static let part = 13

    struct Block {
        var frame: Frame
        /// What the frame is, for the variants: a tag I-block of an answer, a reader R(ACK)…
        var kind: Kind
        enum Kind { case activation, command, tagBlock, ack }
    }

    static func block(_ direction: Direction, _ b: ISODEPBlock, _ inf: [UInt8] = []) -> Frame {
        var f = Frame(.data(direction), technology: .iso14443a)
        f.setPayload(ISODEPFrame(b, inf: inf).encode(), crc: true)
        return f
    }

    /// The clean session: activation, SELECT PPSE, SELECT AID, READ RECORD, each answer chained.
    static func session() -> [Block] {
        var out: [Block] = [R("26", bits: 7), T("04 00"), R("93 20"), T("08 12 34 56 78"), R("93 70 08 12 34 56 78", crc: true),
                            T("20", crc: true), R("E0 00", crc: true), T("05 78 80 70 02", crc: true)].map { Block(frame: $0, kind: .activation) }
        var reader: UInt8 = 0
        let exchanges: [([UInt8], [UInt8])] = [
            ([0x00, 0xA4, 0x04, 0x00, UInt8(EMV.ppse.count)] + EMV.ppse + [0x00], ppseFCI + ok),
            ([0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00], tlv(0x6F, tlv(0x84, aid)) + ok),
            ([0x00, 0xB2, 0x01, 0x0C, 0x00], record + ok),
        ]
        for (command, answer) in exchanges {
            out.append(Block(frame: block(.readerToTag, .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: reader), command), kind: .command))
            var rest = answer[...]
            while !rest.isEmpty {
                let inf = Array(rest.prefix(part))
                rest = rest.dropFirst(inf.count)
                out.append(Block(frame: block(.tagToReader, .i(chaining: !rest.isEmpty, cidFollows: false, nadFollows: false, blockNumber: reader), inf), kind: .tagBlock))
                reader ^= 1
                if !rest.isEmpty { out.append(Block(frame: block(.readerToTag, .r(nak: false, cidFollows: false, blockNumber: reader)), kind: .ack)) }
            }
        }
        return out
    }

    /// Traces/emv-chained-record.nfctrace (`scripts/make-traces`) is the clean session, a frame
    /// every 500 µs, so that the goldens and the conformance suite's masking checks (with its
    /// damaged variants) have a payment card whose record arrives in blocks. Fails unless the
    /// committed trace is exactly that session; `NFCTRACE_MAKE_TRACES=1` writes it anew.
    @Test func theCommittedTraceIsTheCleanSession() throws {
        var metadata = TraceMetadata()
        metadata.entries = [.init("tag", "EMV contactless test card (Visa test number 4111 1111 1111 1111)"),
                            .init("source", "Tests/NFCDissectTests/ISODEPDamageTests.swift (blocks built with the ISO-DEP codec)"),
                            .init("description", "a reader with a 16-byte frame size (RATS FSDI 0) reads PPSE, the Visa AID and SFI 1 record 1: every answer chained"),
                            .init("tech", "14443a"), .init("timebase", "us")]
        let frames = Self.session().enumerated().map { i, b in
            var f = b.frame
            f.start = Timestamp(1_795_392_000_000_000 + Int64(i) * 500, .microseconds)
            return f
        }
        try GeneratedTrace.expectCommitted("emv-chained-record.nfctrace", metadata: metadata, frames: frames)
    }

    /// What must never appear: the PAN as hex (spaced or not) or as digits, the name as hex or text.
    static let secrets: [String] = [Hex.string(pan), Hex.string(pan, separator: ""), "4111111111111111", Hex.string(name), "TEST/NFCTRACE"]

    /// Every output the dissector's renderers make of `frames`: text, -V and JSON.
    static func outputs(_ frames: [Frame], keys: KeyList = .defaults) -> [String] {
        var out: [String] = []
        for (detail, mode) in [(DissectionDetail.summary, 0), (.full, 1), (.full, 2)] {
            let events = Dissector.dissect(frames, detail: detail, keys: keys)
            var bytes: [UInt8] = []
            let text = TextRenderer(verbose: mode == 1, color: false)
            let json = JSONRenderer()
            for e in events { if mode == 2 { json.render(e, into: &bytes) } else { text.render(e, into: &bytes) } }
            out.append(String(decoding: bytes, as: UTF8.self))
        }
        return out
    }

    static func leaks(_ frames: [Frame]) -> [String] {
        outputs(frames).flatMap { o in secrets.filter { o.contains($0) } }
    }

    @Test func theCleanSessionIsJoinedRightAndMasked() throws {
        let frames = Self.session().map(\.frame)
        #expect(Self.leaks(frames).isEmpty)
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        let last = try #require(d.last)
        #expect(last.summary == "\(Self.record.count) bytes, SW 9000 success", "\(last.summary)")
        #expect(d.allSatisfy { $0.diagnostics.allSatisfy { $0.severity != .warning && $0.severity != .error } }, "\(d.flatMap { f in f.diagnostics.map { "\(f.number): \($0.message)" } })")
        // Shown with --show-secrets: the test proves the secrets are there to leak.
        var keys = KeyList.defaults
        keys.revealCardData = true
        let verbose = Self.outputs(frames, keys: keys)[1]
        #expect(verbose.contains(Hex.string(Self.pan)) && verbose.contains(Hex.string(Self.name)))
    }

    /// Drop any one frame, duplicate any one frame, send any tag block again after R(NAK), and cut
    /// the last answer by a new command: no output shows the card's data.
    @Test func noDamagedVariantShowsTheCard() {
        let clean = Self.session()
        var variants: [(String, [Frame])] = []
        for i in clean.indices {
            var dropped = clean.map(\.frame)
            dropped.remove(at: i)
            variants.append(("drop \(i + 1)", dropped))
            var doubled = clean.map(\.frame)
            doubled.insert(clean[i].frame, at: i)
            variants.append(("duplicate \(i + 1)", doubled))
            if clean[i].kind == .tagBlock, let pcb = clean[i].frame.bytes.first {
                var again = clean.map(\.frame)
                again.insert(contentsOf: [Self.block(.readerToTag, .r(nak: true, cidFollows: false, blockNumber: pcb & 1)), clean[i].frame], at: i + 1)
                variants.append(("retransmit \(i + 1)", again))
                // The reader gives up on the answer and sends its next command.
                var cut = Array(clean.map(\.frame)[...i])
                cut.append(Self.block(.readerToTag, .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: (pcb & 1) ^ 1), [0x00, 0xB2, 0x02, 0x0C, 0x00]))
                cut.append(Self.block(.tagToReader, .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: (pcb & 1) ^ 1), [0x6A, 0x83]))
                variants.append(("cut after \(i + 1)", cut))
            }
        }
        #expect(variants.count > 60)
        for (name, frames) in variants {
            let leaks = Self.leaks(frames)
            #expect(leaks.isEmpty, "\(name): \(leaks)")
            if !leaks.isEmpty, let text = Self.outputs(frames).first { print(name, text) }
        }
    }

    /// A block sent again after R(NAK) is shown as the first copy, masked the same, and is not
    /// joined twice: the record's answer keeps its length (issue: 610 bytes instead of 357).
    @Test func aRetransmittedBlockIsNotJoinedTwice() throws {
        let clean = Self.session()
        let lastChain = try #require(clean.lastIndex { $0.kind == .tagBlock && $0.frame.bytes[0] & 0x10 != 0 })
        var frames = clean.map(\.frame)
        let pcb = frames[lastChain].bytes[0]
        frames.insert(contentsOf: [Self.block(.readerToTag, .r(nak: true, cidFollows: false, blockNumber: pcb & 1)), frames[lastChain]], at: lastChain + 1)
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(d[lastChain + 2].summary.hasPrefix("I-block(\(pcb & 1)) of frame \(lastChain + 1) again (sent again after R(NAK))"), "\(d[lastChain + 2].summary)")
        #expect(d[lastChain + 2].masked == d[lastChain].masked)
        #expect(d.last?.summary == "\(Self.record.count) bytes, SW 9000 success", "\(d.last?.summary ?? "")")
    }

    /// A tag block whose R(ACK) the sniffer missed continues the chain.
    @Test func aLostAcknowledgementDoesNotLoseTheBlock() throws {
        let clean = Self.session()
        let ack = try #require(clean.lastIndex { $0.kind == .ack })
        var frames = clean.map(\.frame)
        frames.remove(at: ack)
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(d[ack].diagnostics.contains { $0.message.contains("R(ACK) for the next chained block is missing") }, "\(d[ack].diagnostics)")
        #expect(d.last?.summary == "\(Self.record.count) bytes, SW 9000 success", "\(d.last?.summary ?? "")")
    }

    /// A lost tag block: the next one carries the same block number with other bytes; the answer
    /// is not trusted, and what could be card data is masked failing closed, said so.
    @Test func aLostBlockFailsClosed() throws {
        let clean = Self.session()
        let blocks = clean.indices.filter { clean[$0].kind == .tagBlock }
        let lost = blocks[blocks.count - 3]   // a middle block of the record's answer
        var frames = clean.map(\.frame)
        frames.removeSubrange(lost...lost + 1)   // the block and the R(ACK) after it
        #expect(Self.leaks(frames).isEmpty)
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(d[lost].diagnostics.contains { $0.message.contains("a part of the answer is missing from the capture") }, "\(d[lost].diagnostics)")
        #expect(d.contains { $0.diagnostics.contains { $0.message.hasPrefix("card data could not be read with certainty") } })
    }

    /// A reader I-block while the tag's answer is still chaining closes it: the next answer is
    /// not joined to it.
    @Test func aNewCommandClosesAnOpenChain() throws {
        let clean = Self.session()
        let firstPart = try #require(clean.firstIndex { $0.kind == .tagBlock })
        var frames = Array(clean.map(\.frame)[...firstPart])
        frames.append(Self.block(.readerToTag, .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 1), [0x00, 0xB2, 0x01, 0x0C, 0x00]))
        frames.append(Self.block(.tagToReader, .i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 1), Self.record + Self.ok))
        let d = NFCDissectTests.frames(Dissector.dissect(frames))
        #expect(d[firstPart + 1].diagnostics.contains { $0.message.contains("has no last block in the capture") })
        #expect(d.last?.summary == "\(Self.record.count) bytes, SW 9000 success", "\(d.last?.summary ?? "")")
        #expect(Self.leaks(frames).isEmpty)
    }

    /// Fail-closed masking finds what could be card data in bytes that are no TLV.
    @Test func possibleCardDataIsFound() {
        let track2 = Self.pan + [0xD2, 0x81, 0x22, 0x01, 0x00, 0x00, 0x00, 0x00, 0x0F]
        let data: [UInt8] = [0xAB, 0xCD] + track2 + [0xAA] + [0x5F, 0x20, 0x04] + Array("A/BC".utf8) + [0xEE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let hidden = EMV.possibleCardData(in: data)
        var shown = data.map { Hex.string([$0]) }
        for r in hidden { for i in r { shown[i] = "••" } }
        #expect(shown.joined(separator: " ") == "AB CD 41 11 11 •• •• •• 11 11 D2 81 •• •• •• •• •• •• •• AA 5F 20 04 •• •• •• •• EE 00 00 00 00 00 00", "\(shown)")
        // At an edge the capture cut, six digits are enough.
        #expect(EMV.possibleCardData(in: [0x11, 0x22, 0x33, 0xAA], cutAtStart: true) == [0..<3])
        #expect(EMV.possibleCardData(in: [0x11, 0x22, 0x33, 0xAA]) == [])
    }
}
