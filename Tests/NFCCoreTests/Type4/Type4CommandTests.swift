import Testing
import PropertyBased
import NFCCore

/// The Type 4 command codec: SELECT by name and file ID, READ BINARY, UPDATE BINARY.
@Suite struct Type4CommandTests {
    @Test func roundTrips() async throws {
        await propertyCheck(count: 500, input: Gen<UInt8>.value().array(of: 9), Gen.int(in: 0...3)) { b, kind in
            let offset = Int(b[0] & 0x7F) << 8 | Int(b[1])
            let command: Type4Command
            switch kind {
            case 0: command = .selectApplication(name: Array(b[2..<9]))
            case 1: command = .selectFile(id: UInt16(b[2]) << 8 | UInt16(b[3]))
            case 2: command = .readBinary(offset: offset, length: Int(b[4]) + 1)   // Le 1…256
            default: command = .updateBinary(offset: offset, data: Array(b[2..<(2 + Int(b[5] % 7) + 1)]))
            }
            #expect((try? Type4Command.decode(command.apdu)) == command)
            // Through the bytes on air, too.
            #expect((try? CommandAPDU.decode(command.apdu.encode())).flatMap { try? Type4Command.decode($0) } == command)
        }
        // T4T 2.0 §5.4.3: SELECT the CC file.
        #expect(Type4Command.selectFile(id: Type4Tag.ccFile).apdu.encode() == [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03])
        #expect(try Type4Command.decode(CommandAPDU.decode([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04])) == .selectFile(id: 0xE104))
        #expect(try Type4Command.nlen([0x00, 0x2A]) == 42)
    }

    @Test func malformedCommandsSayWhere() {
        #expect(throws: DecodeError(offset: 0, expected: "file identifier (2 bytes)", found: "1 byte")) {
            try Type4Command.fileID([0xE1])
        }
        #expect(throws: DecodeError(offset: 2, expected: "end of the file identifier", found: "1 extra byte")) {
            try Type4Command.fileID([0xE1, 0x03, 0x00])
        }
        #expect(throws: DecodeError(offset: 2, expected: "SELECT by name (04) or file ID (00)", found: "0x02")) {
            try Type4Command.decode(CommandAPDU(cla: 0, ins: 0xA4, p1: 0x02, p2: 0x0C, data: [0xE1, 0x03]))
        }
        #expect(throws: DecodeError(offset: 2, expected: "a 15-bit offset in P1P2 (P1 b8 clear)", found: "0x81")) {
            try Type4Command.decode(CommandAPDU(cla: 0, ins: 0xB0, p1: 0x81, p2: 0x00, le: 16))
        }
        #expect(throws: DecodeError(offset: 1, expected: "SELECT, READ BINARY or UPDATE BINARY", found: "0xCA")) {
            try Type4Command.decode(CommandAPDU(cla: 0, ins: 0xCA, p1: 0x00, p2: 0x00))
        }
        #expect(throws: DecodeError(offset: 0, expected: "an interindustry class", found: "0x90")) {
            try Type4Command.decode(CommandAPDU(cla: 0x90, ins: 0xA4, p1: 0x04, p2: 0x00))
        }
    }
}
