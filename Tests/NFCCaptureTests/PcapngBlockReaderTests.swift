import Testing
import NFCCore
@testable import NFCCapture

/// pcapng files whose interfaces have different link types, which libpcap refuses (issue 18,
/// point 1): NFCGate's export (Traces/nfcgate-type4-read.pcapng, laid out as NFCGate's source
/// writes it), and hand-built little-endian files with a foreign interface and damage.
@Suite struct PcapngBlockReaderTests {
    static let nfcgate = ConversionTests.tracesDirectory + "/nfcgate-type4-read.pcapng"

    @Test func nfcgateExportIsRead() throws {
        let input = try ByteInput.open(Self.nfcgate)
        #expect(PcapngBlockReader.needed(Array(input.peek(1 << 16))), "two interfaces: 264 and USER0")
        let (frames, error, reader) = Fixtures.readAll(try Capture.open(input))
        #expect(error == nil)
        #expect(reader.format == .pcapng)
        #expect(frames.count == 12)
        #expect(frames.allSatisfy { $0.technology == .iso14443a && $0.crcStripped })
        #expect(frames[0].isReaderFrame && frames[1].isTagFrame)
        #expect(frames[0].bytes.prefix(3) == [0x02, 0x00, 0xA4], "NFCGate's synthetic PCB, then SELECT")
        #expect(frames[0].start == Timestamp(1_795_392_000_040_000, .microseconds), "milliseconds × 1000, default µs resolution")
        let comment = try #require(frames[0].comment)
        #expect(comment.hasPrefix("NFCGate initial tag data (NCI listen parameters): UID (LA_NFCID1) 04 A1 B2 C3 D4 E5 F6; SAK (LA_SEL_INFO) 20"))
    }

    // MARK: hand-built little-endian files

    static func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
        let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
        let length = UInt32(12 + padded.count)
        return le(type) + le(length) + padded + le(length)
    }

    static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    static let shb: [UInt8] = block(0x0A0D_0D0A, le(0x1A2B_3C4D) + le16(1) + le16(0) + [UInt8](repeating: 0xFF, count: 8))
    /// An IDB with if_tsresol = 9 (ns).
    static func idb(_ linkType: UInt16) -> [UInt8] { block(1, le16(linkType) + le16(0) + le(0) + le16(9) + le16(1) + [9, 0, 0, 0] + le16(0) + le16(0)) }
    static func epb(_ interface: UInt32, _ ns: UInt64, _ data: [UInt8]) -> [UInt8] {
        block(6, le(interface) + le(UInt32(ns >> 32)) + le(UInt32(ns & 0xFFFF_FFFF)) + le(UInt32(data.count)) + le(UInt32(data.count)) + data)
    }

    @Test func aForeignInterfaceIsACommentAndTimesFollowTheirResolution() throws {
        let file = Self.shb + Self.idb(264) + Self.idb(1) + Self.epb(1, 5, [0xDE, 0xAD])
            + Self.epb(0, 1_000_000_123, [0x00, 0xFE, 0x00, 0x02, 0x93, 0x20])
            + Self.block(3, Self.le(6) + [0x00, 0xFF, 0x00, 0x02, 0x44, 0x00])   // SPB: interface 0, no time
        let (frames, error, _) = try Fixtures.read(file)
        #expect(error == nil)
        #expect(frames.count == 2)
        #expect(frames[0].bytes == [0x93, 0x20] && frames[0].start == Timestamp(1_000_000_123, .nanoseconds))
        #expect(frames[0].comment == "interface 1 (link type 1): a packet of 2 bytes, not NFC frames nfctrace reads")
        #expect(frames[1].bytes == [0x44, 0x00] && frames[1].start == nil && frames[1].isTagFrame)
    }

    @Test func aCutBlockIsDamageAfterTheFramesBeforeIt() throws {
        let good = Self.shb + Self.idb(264) + Self.idb(147) + Self.epb(0, 1, [0x00, 0xFE, 0x00, 0x01, 0x52])
        let cut = Self.epb(0, 2, [0x00, 0xFF, 0x00, 0x02, 0x44, 0x00]).prefix(20)
        let (frames, error, _) = try Fixtures.read(good + cut)
        #expect(frames.count == 1)
        guard case .damaged(_, let offset, let frame, let reason)? = error else { Issue.record("expected damage"); return }
        #expect(offset == good.count && frame == 2)
        #expect(reason.hasPrefix("block of 40 bytes cut short"))
    }

    @Test func aPacketOfAnUndescribedInterfaceIsDamage() throws {
        let file = Self.shb + Self.idb(264) + Self.idb(147) + Self.epb(5, 1, [0x00, 0xFE, 0x00, 0x01, 0x52])
        let (frames, error, _) = try Fixtures.read(file)
        #expect(frames.isEmpty)
        guard case .damaged(_, _, _, let reason)? = error else { Issue.record("expected damage"); return }
        #expect(reason == "a packet of interface 5, and the section describes 2")
    }
}
