import Testing
@testable import NFCCore

/// Issue 51, point 5: what a host left unfinished on the PN532's line is given up at the next
/// whole frame, at a wake-up, or after the idle limit, never waited for until its length is met.
@Suite struct PN532FrameReassemblerTests {
    /// libnfc's opening of the port (protocols-wave2.md §8.1, §8.4): wake-up, then SAMConfiguration.
    static let wake: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0, count: 14)
    static let sam = PN532Frame.information([0xD4, 0x14, 0x01]).encode()
    static let diagnose = PN532Frame.information([0xD4, 0x00] + Array("libnfc".utf8)).encode()

    /// The hostile headers of the issue: a bare preamble, LEN 254, extended LEN 300 and 65,535.
    static let leftovers: [[UInt8]] = [
        [0x00, 0x00, 0xFF],
        [0x00, 0x00, 0xFF, 0xFE, 0x02],
        [0x00, 0x00, 0xFF, 0xFE, 0x02, 0xD4, 0x40, 0x01],
        [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x01, 0x2C, 0xD3],
        [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0xD4],
    ]

    static func frames(_ r: inout PN532FrameReassembler) -> [PN532Frame] {
        var out: [PN532Frame] = []
        while let f = r.next() { out.append(f) }
        return out
    }

    @Test(arguments: leftovers)
    func theNextHostsWakeUpAndFrameAreTaken(leftover: [UInt8]) {
        var r = PN532FrameReassembler()
        r.append(leftover, at: 0)
        #expect(Self.frames(&r) == [])
        // libnfc writes the wake-up and the frame separately: the wake-up alone gives up the rest.
        r.append(Self.wake, at: 0.01)
        r.append(Self.sam, at: 0.02)
        #expect(Self.frames(&r) == [.information([0xD4, 0x14, 0x01])])
        r.append(Self.diagnose, at: 0.03)
        #expect(Self.frames(&r) == [.information([0xD4, 0x00] + Array("libnfc".utf8))])
        #expect(r.pendingCount <= 1)
    }

    @Test(arguments: leftovers)
    func aWholeFrameBehindTheLeftoverIsTaken(leftover: [UInt8]) {
        // No wake-up (a chip already awake): the frame alone, in one read with the leftover.
        var r = PN532FrameReassembler()
        r.append(leftover + Self.diagnose, at: 0)
        #expect(Self.frames(&r) == [.information([0xD4, 0x00] + Array("libnfc".utf8))])
        #expect(r.discarded >= 1 || leftover.count == 3)
        // An ACK behind a leftover (the host aborting) is a frame too.
        r.append(leftover, at: 1)
        r.append(PN532Frame.ackBytes, at: 1)
        #expect(Self.frames(&r) == [.ack])
    }

    @Test(arguments: leftovers)
    func aLeftoverIsDroppedAfterTheIdleLimit(leftover: [UInt8]) {
        var r = PN532FrameReassembler(idleLimit: 0.3)
        r.append(leftover, at: 10)
        #expect(Self.frames(&r) == [])
        #expect(r.expire(at: 10.2) == 0, "not idle long enough")
        #expect(r.pendingCount > 0)
        r.expire(at: 10.31)
        #expect(r.pendingCount == 0)
        // A frame that arrives in pieces is not idle while its bytes come.
        let parts = [Array(Self.diagnose.prefix(6)), Array(Self.diagnose.dropFirst(6))]
        r.append(parts[0], at: 20)
        #expect(Self.frames(&r) == [])
        #expect(r.expire(at: 20.1) == 0)
        r.append(parts[1], at: 20.2)
        #expect(Self.frames(&r) == [.information([0xD4, 0x00] + Array("libnfc".utf8))])
    }

    @Test func dropAllForgetsALeftover() {
        var r = PN532FrameReassembler()
        r.append([0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0xD4, 0x40], at: 0)
        #expect(Self.frames(&r) == [])
        #expect(r.dropAll() == 9)
        r.append(Self.sam, at: 0)
        #expect(Self.frames(&r) == [.information([0xD4, 0x14, 0x01])])
    }

    /// What must not change: frames in pieces wait, a wrong DCS is `.error`, a long frame whose
    /// data holds a start code or a wake-up is taken whole when it arrives whole.
    @Test func wholeFramesAreNotCutByWhatTheirDataHolds() {
        let inner = Self.wake + Self.sam
        let body: [UInt8] = [0xD4, 0x40, 0x01, 0xA0, 0x04] + inner
        let frame = PN532Frame.information(body).encode()
        var r = PN532FrameReassembler()
        r.append(frame, at: 0)
        #expect(Self.frames(&r) == [.information(body)])
        var bad = Self.sam
        bad[bad.count - 2] ^= 0x01
        r.append(bad, at: 0)
        #expect(Self.frames(&r) == [.error])
        // Cut anywhere before its postamble, which may be missing (PN532Frame.decode).
        for cut in 1..<Self.diagnose.count - 1 {
            var pieces = PN532FrameReassembler()
            pieces.append(Self.diagnose.prefix(cut), at: 0)
            #expect(Self.frames(&pieces) == [], "cut at \(cut)")
            pieces.append(Self.diagnose.dropFirst(cut), at: 0)
            #expect(Self.frames(&pieces) == [.information([0xD4, 0x00] + Array("libnfc".utf8))], "cut at \(cut)")
        }
    }

    /// A header whose length checksum is wrong starts no frame: the frame behind it is found.
    @Test func aWrongLengthChecksumIsNoStartCode() {
        #expect(PN532Frame.decode([0x00, 0x00, 0xFF, 0x55, 0x55] + Self.sam)?.frame == .information([0xD4, 0x14, 0x01]))
        #expect(PN532Frame.find(in: [0x00, 0x00, 0xFF, 0xFE, 0x02]) == .unfinished(start: 1))
        #expect(PN532Frame.find(in: [0x55, 0x55, 0x00]) == .nothing)
    }
}
