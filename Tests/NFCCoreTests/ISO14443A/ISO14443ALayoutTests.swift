import Testing
import NFCCore

/// The layout tables of the 14443-A codecs (issue 17): where encode puts each value is where
/// the dissector says it is.
@Suite struct ISO14443ALayoutTests {
    @Test func selectAndItsUIDLevel() {
        let uid = UIDLevelData(bytes: [0x88, 0x04, 0xA2, 0x2C])
        let select = ISO14443ACommand.select(level: .one, uid: uid).encode().bytes
        typealias L = ISO14443ACommand.Layout
        #expect(Array(select[L.nvb.range]) == [0x70])
        #expect(Array(select[UIDLevelData.Layout.cascadeTag.range(at: L.uidLevel.offset)]) == [0x88])
        #expect(Array(select[UIDLevelData.Layout.uidAfterCascadeTag.range(at: L.uidLevel.offset)]) == [0x04, 0xA2, 0x2C])
        #expect(Array(select[UIDLevelData.Layout.bcc.range(at: L.uidLevel.offset)]) == [uid.bcc])
        #expect(L.uidLevel.end == select.count)
        let pps = ISO14443ACommand.pps(cid: 1, pps0: 0x11, pps1: 0x0A).encode().bytes
        #expect(Array(pps[L.pps0.range]) == [0x11] && Array(pps[L.pps1.range]) == [0x0A])
    }

    @Test(arguments: [ATS(t0: 0x78, ta1: 0x77, tb1: 0x81, tc1: 0x02, historicalBytes: [0x80]),
                      ATS(t0: 0x20, tb1: 0x81), ATS(t0: 0x05, historicalBytes: [1, 2, 3]), ATS(t0: nil)])
    func atsRangesFollowT0(ats: ATS) throws {
        let bytes = ats.encode()
        let r = ats.ranges
        #expect(Array(bytes[r.tl]) == [ats.tl])
        #expect(r.t0.map { Array(bytes[$0]) } == ats.t0.map { [$0] })
        #expect(r.ta1.map { Array(bytes[$0]) } == ats.ta1.map { [$0] })
        #expect(r.tb1.map { Array(bytes[$0]) } == ats.tb1.map { [$0] })
        #expect(r.tc1.map { Array(bytes[$0]) } == ats.tc1.map { [$0] })
        #expect(r.historicalBytes.map { Array(bytes[$0]) } ?? [] == ats.historicalBytes)
        #expect(try ATS.decode(bytes) == ats)
    }
}
