import Testing
import NFCCore

/// ISO 15693's layout tables (issue 17): encode puts each part where the dissector says it is.
@Suite struct ISO15693LayoutTests {
    static let uid = ISO15693UID(value: 0xE004_0108_49D0_DC81)

    @Test func requestParts() {
        let read = ISO15693Request(flags: .addressed(), command: .readSingleBlock(block: 5), uid: Self.uid)
        let bytes = read.encode()
        #expect(Array(bytes[ISO15693Request.Layout.command.range]) == [0x20])
        #expect(read.uidRange.map { Array(bytes[$0]) } == Self.uid.onAir)
        #expect(bytes[read.parametersOffset] == 5)
        let custom = ISO15693Request(flags: .addressed(), command: .custom(code: 0xB2, manufacturer: 0x04, parameters: [0xAA]), uid: Self.uid)
        let c = custom.encode()
        #expect(Array(c[ISO15693Request.Layout.manufacturer.range]) == [0x04])
        #expect(custom.uidRange.map { Array(c[$0]) } == Self.uid.onAir)
        #expect(c[custom.parametersOffset] == 0xAA)
        #expect(ISO15693Request(flags: .nonAddressed(), command: .readSingleBlock(block: 5)).uidRange == nil)
    }

    @Test func uidAndCCParts() throws {
        let onAir = Self.uid.onAir
        #expect(Array(onAir[ISO15693UID.Layout.manufacturer.range]) == [0x04])
        #expect(Array(onAir[ISO15693UID.Layout.prefix.range]) == [0xE0])
        let cc = Type5CapabilityContainer(dataAreaSize: 8 * 0x200)
        #expect(cc.isExtended && Array(cc.bytes[cc.mlenRange]) == [0x02, 0x00])
        let small = Type5CapabilityContainer(dataAreaSize: 8 * 0x40)
        #expect(!small.isExtended && Array(small.bytes[small.mlenRange]) == [0x40])
        #expect(try Type5CapabilityContainer.decode(cc.bytes) == cc)
    }
}
