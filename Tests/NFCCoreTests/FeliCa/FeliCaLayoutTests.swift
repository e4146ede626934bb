import Testing
import NFCCore

/// FeliCa's layout tables (issue 17): encode puts each value where the dissector says it is.
@Suite struct FeliCaLayoutTests {
    typealias C = FeliCaCommand.Layout
    static let idm = FeliCaIDm(rawValue: 0x012E_4C1D_6A88_0390)

    @Test func pollingAndRead() {
        let polling = FeliCaCommand.polling(systemCode: 0x12FC, requestCode: 0x01, timeSlots: 0x03).encode()
        #expect(Array(polling[C.systemCode.range]) == [0x12, 0xFC])
        #expect(Array(polling[C.requestCode.range]) == [0x01] && Array(polling[C.timeSlots.range]) == [0x03])
        let services = [FeliCaServiceCode(0x090F), FeliCaServiceCode(0x008B)]
        let blocks = [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 1), FeliCaBlockListElement(serviceOrder: 1, blockNumber: 300)]
        let read = FeliCaCommand.readWithoutEncryption(idm: Self.idm, services: services, blocks: blocks).encode()
        #expect(Array(read[C.idm.range]) == Self.idm.bytes)
        #expect(Array(read[C.count.range]) == [2])
        #expect(Array(read[C.listEntry(1)]) == services[1].onAir)
        let count = C.blockCount(afterServices: 2)
        #expect(Array(read[count.range]) == [2])
        let second = count.end + blocks[0].form.length
        #expect(Array(read[FeliCaBlockListElement.Layout.blockNumber(blocks[1].form).range(at: second)]) == [0x2C, 0x01])
    }

    @Test func answerBlocks() {
        typealias R = FeliCaResponse.Layout
        #expect(R.block(0) == 13..<29 && R.block(2) == 45..<61 && R.blocks(3) == 13..<61)
        #expect(R.pmmByte(7) == 17..<18 && R.requestData.range == 18..<20)
    }
}
