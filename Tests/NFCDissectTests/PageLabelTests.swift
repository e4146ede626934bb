import Testing
import NFCCore
@testable import NFCDissect

/// A READ answer near page FF of a tag whose model is unknown (no GET_VERSION) does not wrap,
/// so its pages pass 0xFF; their labels used to trap converting the page to a byte (found by
/// FuzzDissectNFCA).
@Suite struct PageLabelTests {
    @Test func readAtPageFEOfAnUnknownTagLabelsPagesPastFF() {
        let data = (0..<16).map { UInt8($0) }
        let events = Dissector.dissect(activation + [R("30 FE", crc: true), T(Hex.string(data), crc: true)])
        let answer = frames(events).last { $0.frame.isTagFrame }
        let pages = answer?.fields.first { $0.key == "ntag.data" }?.children.map(\.label) ?? []
        #expect(pages == ["Page 0xFE (user memory)", "Page 0xFF (user memory)", "Page 0x100 (beyond memory)", "Page 0x101 (beyond memory)"])
    }

    /// Labels of pages 0x00…0xFF come from a table made once; it says what `pageLabel` says.
    @Test func theLabelTableMatchesThePageLabels() {
        for region in Type2MemoryMap.Region.allCases {
            for page in 0..<300 {
                #expect(Type2Frames.pageLabelName(page, region).text == Type2Frames.pageLabel(page, region))
            }
        }
    }
}

@Suite struct RegionOrdinalTests {
    /// The label table is indexed by `ordinal`; it must be the position in `allCases`.
    @Test func ordinalIsThePositionInAllCases() {
        for (i, region) in Type2MemoryMap.Region.allCases.enumerated() {
            #expect(region.ordinal == i)
        }
    }
}
