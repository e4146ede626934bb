import Testing
@testable import NFCCore

/// The PN532's serial frames (protocols-wave2.md §8.1's computed examples).
@Suite struct PN532FrameTests {
    @Test func normalFramesAsTheSheetComputesThem() {
        #expect(PN532Frame.information([0xD4, 0x02]).encode() == [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
        #expect(PN532Frame.information([0xD5, 0x03] + PN532.firmwareVersion).encode() == [0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
        #expect(PN532Frame.information([0xD4, 0x4A, 0x01, 0x00]).encode() == [0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x01, 0x00, 0xE1, 0x00])
    }

    @Test func decodingSkipsTheWakeUpAndWaitsForWholeFrames() {
        let sam: [UInt8] = [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x17, 0x00]
        let wake: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
        let d = PN532Frame.decode(wake + sam)
        #expect(d?.frame == .information([0xD4, 0x14, 0x01]) && d?.consumed == wake.count + sam.count)
        #expect(PN532Frame.decode(Array(sam.prefix(7))) == nil, "not whole yet")
        #expect(PN532Frame.decode(PN532Frame.ackBytes)?.frame == .ack && PN532Frame.decode(PN532Frame.nackBytes)?.frame == .nack)
        var bad = sam
        bad[8] ^= 0x01
        #expect(PN532Frame.decode(bad)?.frame == .error, "a wrong DCS")
    }

    @Test func extendedFramesRoundTrip() {
        let body: [UInt8] = [0xD4, 0x40, 0x01] + (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = PN532Frame.information(body).encode()
        #expect(Array(bytes.prefix(5)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF])
        #expect(PN532Frame.decode(bytes)?.frame == .information(body) && PN532Frame.decode(bytes)?.consumed == bytes.count)
    }
}
