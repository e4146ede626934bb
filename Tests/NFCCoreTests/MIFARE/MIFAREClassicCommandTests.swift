import Testing
@testable import NFCCore

@Suite struct MIFAREClassicCommandTests {
    @Test func commandsRoundTrip() throws {
        let commands: [MIFAREClassicCommand] = [.authenticate(.a, block: 0), .authenticate(.b, block: 0x3F), .read(block: 4), .write(block: 5),
                                                .decrement(block: 6), .increment(block: 6), .restore(block: 6), .transfer(block: 7), .halt,
                                                .personalizeUIDUsage(option: 0x40), .setModType(1)]
        for c in commands {
            #expect(try MIFAREClassicCommand.decode(c.encode()) == c)
            #expect(c.encode().count == 2)
        }
        #expect(MIFAREClassicCommand.authenticate(.a, block: 0).encode() == [0x60, 0x00])
        #expect(MIFAREClassicCommand.halt.encode() == [0x50, 0x00])
        let data = (0..<16).map { UInt8($0) }
        #expect(try MIFAREClassicCommand.decode(data, continuation: .writeData(block: 5)) == .writeData(data))
        #expect(try MIFAREClassicCommand.decode([0xFF, 0xFF, 0xFF, 0xFF], continuation: .valueOperand(.decrement, block: 6)) == .valueOperand(-1))
        #expect(MIFAREClassicCommand.valueOperand(100).encode() == [0x64, 0, 0, 0])
        #expect(MIFAREClassicCommand.write(block: 5).continuation == .writeData(block: 5))
    }

    @Test func malformedCommandsAreDecodeErrors() {
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([]) }
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([0x60]) }
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([0x60, 0, 0]) }
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([0x50, 0x01]) }
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([0x12, 0x00]) }
        #expect(throws: DecodeError.self) { try MIFAREClassicCommand.decode([1, 2, 3], continuation: .writeData(block: 1)) }
    }

    @Test func acknowledgementsAndGeometry() {
        #expect(MIFAREClassicAcknowledgement(0x0A) == .ack)
        #expect(MIFAREClassicAcknowledgement(0x04).description.hasPrefix("NAK 4: invalid operation"))
        #expect(MIFAREClassicLayout.sector(ofBlock: 63) == 15 && MIFAREClassicLayout.trailer(ofSector: 15) == 63)
        #expect(MIFAREClassicLayout.sector(ofBlock: 128) == 32 && MIFAREClassicLayout.trailer(ofSector: 32) == 143)
        #expect(MIFAREClassicLayout.sector(ofBlock: 255) == 39 && MIFAREClassicLayout.isTrailer(255) && !MIFAREClassicLayout.isTrailer(254))
    }
}
