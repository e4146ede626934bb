import Testing
import PropertyBased
import NFCCore

/// ST SRx answers: one layout per answer, decoded against the command they answer.
@Suite struct SRxAnswerTests {
    static let commands: [SRxCommand] = [.initiate, .pcall16, .slotMarker(slot: 3), .select(chipID: 0x42), .getUID, .readBlock(address: 7),
                                         .authenticate(random: [1, 2, 3, 4, 5, 6])]

    @Test func roundTrips() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...(Self.commands.count - 1)), Gen<UInt8>.value().array(of: 8)) { i, bytes in
            let command = Self.commands[i]
            let length = command.answerLength ?? 0
            let payload = Array(bytes.prefix(length))
            let answer = try? SRxAnswer.decode(payload, answering: command)
            #expect(answer?.encode() == payload, "\(command.name)")
            #expect(answer.map { (try? SRxAnswer.decode($0.encode(), answering: command)) == $0 } == true)
        }
    }

    @Test func uidSaysTheModelFromItsProductCode() throws {
        // SRIX4K: D0 02 0C … printed most significant first, sent least significant first.
        let sent: [UInt8] = [0x1B, 0x5C, 0x66, 0x1A, 0x10, 0x0C, 0x02, 0xD0]
        guard case .uid(let uid) = try SRxAnswer.decode(sent, answering: .getUID) else { Issue.record("not a UID"); return }
        #expect(uid.isST && uid.model?.name == "SRIX4K" && SRxUID.Layout.productCode.range == 5..<6)
    }

    @Test func malformedAnswersSayWhere() {
        #expect(throws: DecodeError(offset: 0, expected: "UID (8 bytes, least significant first)", found: "3 bytes")) {
            try SRxAnswer.decode([0, 1, 2], answering: .getUID)
        }
        #expect(throws: DecodeError(offset: 4, expected: "end of the answer to READ_BLK(7)", found: "1 extra byte")) {
            try SRxAnswer.decode([0, 1, 2, 3, 4], answering: .readBlock(address: 7))
        }
        #expect(throws: DecodeError(offset: 0, expected: "no answer to COMPLETION", found: "1 bytes")) {
            try SRxAnswer.decode([0], answering: .completion)
        }
    }
}
