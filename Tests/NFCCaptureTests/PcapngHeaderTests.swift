import Testing
import NFCCore
@testable import NFCCapture

/// The pcapng time resolution is read from block lengths the file gives; short or oversized
/// lengths must mean "default resolution", never a trap (found by FuzzPcap: a classic pcap
/// header read as pcapng gave a Section Header Block longer than the file).
@Suite struct PcapngHeaderTests {
    static func block(_ type: UInt32, _ body: [UInt8], length: UInt32? = nil) -> [UInt8] {
        let n = length ?? UInt32(12 + body.count)
        return Fixtures.le32(type) + Fixtures.le32(n) + body + Fixtures.le32(n)
    }

    static let shb = block(0x0A0D_0D0A, Fixtures.le32(0x1A2B_3C4D) + Fixtures.le16(1) + Fixtures.le16(0) + [UInt8](repeating: 0xFF, count: 8))

    @Test func sectionHeaderLongerThanTheFile() {
        let bytes: [UInt8] = [0x4D, 0x3C, 0xB2, 0xA1, 0x02, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00]
        #expect(PcapReader.pcapngResolution(bytes) == .microseconds)
        #expect(throws: CaptureError.self) { _ = try Fixtures.read(bytes, options: CaptureReadOptions(format: .pcapng)) }
    }

    @Test(arguments: [0, 4, 12, 16, 19] as [UInt32])
    func interfaceBlockTooShortForItsHeader(length: UInt32) {
        let idb = Fixtures.le32(1) + Fixtures.le32(length) + [UInt8](repeating: 0, count: 12)
        #expect(PcapReader.pcapngResolution(Self.shb + idb) == .microseconds)
    }

    @Test func nanosecondOptionIsStillRead() {
        let options = Fixtures.le16(9) + Fixtures.le16(1) + [9, 0, 0, 0] + Fixtures.le32(0)
        let idb = Self.block(1, Fixtures.le16(150) + Fixtures.le16(0) + Fixtures.le32(0xFFFF) + options)
        #expect(PcapReader.pcapngResolution(Self.shb + idb) == .nanoseconds)
    }

    /// An Enhanced Packet Block whose 64-bit time is past the 64-bit nanosecond range: the frames
    /// before it are delivered, then the reader reports damage at that record.
    @Test func recordTimePastTheNanosecondRangeIsDamage() throws {
        let idb = Self.block(1, Fixtures.le16(264) + Fixtures.le16(0) + Fixtures.le32(0xFFFF))
        func epb(high: UInt32, low: UInt32) -> [UInt8] {
            let data: [UInt8] = [0x00, 0xFE, 0x00, 0x01, 0x26]
            return Self.block(6, Fixtures.le32(0) + Fixtures.le32(high) + Fixtures.le32(low) + Fixtures.le32(5) + Fixtures.le32(5) + data + [0, 0, 0])
        }
        let (frames, error, _) = try Fixtures.read(Self.shb + idb + epb(high: 0, low: 1000) + epb(high: 0xFFFF_FFFF, low: 0xFFFF_FFFF))
        #expect(frames.count == 1)
        guard case .damaged(_, _, let frame, let reason)? = error else { Issue.record("expected damage, got \(String(describing: error))"); return }
        #expect(frame == 2 && reason.contains("beyond the 64-bit nanosecond range"))
    }
}
