import Testing
import NFCCore
@testable import NFCEmulator

/// The emulated Type 4 Tag against a reader written here from ISO/IEC 14443-4 (blocks through
/// `ISODEPFrame`, APDUs through `CommandAPDU`): activation, the NDEF procedures, chaining both
/// ways, presence check, retransmission, DESELECT and the CC's access bytes.
@Suite struct Type4TagEmulatorTests {
    final class Reader {
        let tag: ISODEPCard
        let application: Type4NDEFApplication
        var blockNumber: UInt8 = 0
        /// Most INF bytes per block the reader sends (FSC 256 less PCB and CRC, as nfcpy does).
        var miu = 253
        var blocksSent = 0, blocksReceived = 0

        init(_ pair: (card: ISODEPCard, application: Type4NDEFApplication)) {
            tag = pair.card
            application = pair.application
        }

        func raw(_ bytes: [UInt8], bits: UInt8 = 8, crc: Bool = true) -> [UInt8]? {
            let f = Frame(.data(.readerToTag), bytes: crc ? CRC.appending(.a, to: bytes) : bytes, lastByteBits: bits)
            guard let answer = tag.respond(to: f) else { return nil }
            return answer.lastByteBits == 8 && answer.bytes.count >= 2 && crc ? Array(answer.bytes.dropLast(2)) : answer.bytes
        }

        func activate() throws {
            tag.fieldOn()
            #expect(raw([0x26], bits: 7, crc: false) == [0x44, 0x03])
            for (i, level) in (UIDLevelData.levels(forUID: tag.listener.uid) ?? []).enumerated() {
                let sel = CascadeLevel(rawValue: i + 1)?.selCode ?? 0x93
                _ = raw([sel, 0x20], crc: false)
                _ = raw([sel, 0x70] + level.bytes + [level.bcc])
            }
            let ats = try #require(raw(ISO14443ACommand.rats(fsdi: 8, cid: 0).encode().bytes))
            #expect(try ATS.decode(ats).fsc == 256)
            blockNumber = 0
        }

        func block(_ f: ISODEPFrame) throws -> ISODEPFrame {
            blocksSent += 1
            let answer = try #require(raw(f.encode()))
            blocksReceived += 1
            return try ISODEPFrame.decode(answer)
        }

        /// One APDU: chained in blocks of `miu`, the answer joined over R(ACK)s.
        func send(_ apdu: CommandAPDU) throws -> ResponseAPDU {
            let bytes = apdu.encode()
            var offset = 0
            var reply: ISODEPFrame
            repeat {
                let part = Array(bytes[offset..<min(offset + miu, bytes.count)])
                offset += part.count
                let more = offset < bytes.count
                reply = try block(ISODEPFrame(.i(chaining: more, cidFollows: false, nadFollows: false, blockNumber: blockNumber), inf: part))
                #expect(reply.block.blockNumber == blockNumber, "rule: the answer carries our block number")
                blockNumber ^= 1
                if more { #expect(reply.block == .r(nak: false, cidFollows: false, blockNumber: blockNumber ^ 1)) }
            } while offset < bytes.count
            var data = reply.inf
            while case .i(true, _, _, _) = reply.block {
                reply = try block(ISODEPFrame(.r(nak: false, cidFollows: false, blockNumber: blockNumber)))
                #expect(reply.block.blockNumber == blockNumber)
                blockNumber ^= 1
                data += reply.inf
            }
            return try ResponseAPDU.decode(data)
        }
    }

    static func select(_ r: Reader, file: UInt16) throws -> ResponseAPDU {
        try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.select, p1: 0x00, p2: 0x0C, data: [UInt8(file >> 8), UInt8(file & 0xFF)]))
    }

    static func read(_ r: Reader, offset: Int, _ n: Int) throws -> ResponseAPDU {
        try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.readBinary, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: n))
    }

    static func update(_ r: Reader, offset: Int, _ data: [UInt8]) throws -> ResponseAPDU {
        try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.updateBinary, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), data: data))
    }

    @Test func theNDEFProceduresWithChainingBothWays() throws {
        let r = Reader(try #require(Type4NDEFApplication.card(.factory(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]))))
        let app = r.application
        try r.activate()
        #expect(try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.select, p1: 0x04, p2: 0x00, data: Type4Tag.ndefApplication, le: 256)).status == .success)
        #expect(try Self.select(r, file: Type4Tag.ccFile).status == .success)
        let cc = try Self.read(r, offset: 0, 15)
        #expect(try Type4CapabilityContainer.decode(cc.data) == app.memory.capabilityContainer)
        #expect(try Self.select(r, file: Type4Tag.defaultNDEFFile).status == .success)
        // 255 bytes of data: 260 bytes of APDU, more than one block of 253 takes.
        let message = [UInt8](repeating: 0x41, count: 255)
        r.blocksSent = 0
        #expect(try Self.update(r, offset: 2, message).status == .success)
        #expect(r.blocksSent == 2, "the command went in two chained blocks")
        #expect(try Self.update(r, offset: 0, [0x00, 0xFF]).status == .success)
        #expect(app.memory.nlen == 255 && app.memory.message == message)
        // Reading 255 bytes: 257 bytes of answer, more than one block of FSD 256 holds.
        r.blocksReceived = 0
        let back = try Self.read(r, offset: 2, 255)
        #expect(back.data == message && back.status == .success)
        #expect(r.blocksReceived == 2, "the answer came in two chained blocks")
    }

    @Test func presenceCheckRetransmissionAndDeselect() throws {
        let r = Reader(try #require(Type4NDEFApplication.card(.factory(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]))))
        let tag = r.tag
        try r.activate()
        let first = try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.select, p1: 0x04, p2: 0x00, data: [0xA0, 0x00, 0x00, 0x00, 0x03, 0x10, 0x10], le: 256))
        #expect(first.status == .fileNotFound)
        // R(NAK) of the other number: a presence check, answered R(ACK) with the tag's number.
        let ack = try r.block(ISODEPFrame(.r(nak: true, cidFollows: false, blockNumber: r.blockNumber)))
        #expect(ack.block == .r(nak: false, cidFollows: false, blockNumber: r.blockNumber ^ 1))
        // R(NAK) of the tag's own number: the last block again.
        let again = try r.block(ISODEPFrame(.r(nak: true, cidFollows: false, blockNumber: r.blockNumber ^ 1)))
        #expect(again.block == ack.block)
        let deselect = try r.block(ISODEPFrame(.s(kind: .deselect, cidFollows: false)))
        #expect(deselect.block == .s(kind: .deselect, cidFollows: false))
        #expect(tag.listener.state == .halt && !tag.isoDEPActive)
        #expect(r.raw(ISODEPFrame(.i(chaining: false, cidFollows: false, nadFollows: false, blockNumber: 0), inf: [0, 0xB0, 0, 0, 2]).encode()) == nil)
    }

    @Test func accessBytesAndFilesAreHonoured() throws {
        var memory = Type4TagMemory.factory(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        memory.capabilityContainer.ndefFile.writeAccess = 0xFF
        let r = Reader(try #require(Type4NDEFApplication.card(memory)))
        try r.activate()
        #expect(try Self.read(r, offset: 0, 2).status == .commandNotAllowed, "nothing selected")
        #expect(try Self.select(r, file: Type4Tag.ccFile).status == .fileNotFound, "the application first")
        _ = try r.send(CommandAPDU(cla: 0, ins: ISO7816Instruction.select, p1: 0x04, p2: 0x00, data: Type4Tag.ndefApplication, le: 256))
        #expect(try Self.select(r, file: Type4Tag.ccFile).status == .success)
        #expect(try Self.update(r, offset: 0, [0, 0]).status == .securityNotSatisfied, "the CC file is read-only")
        #expect(try Self.select(r, file: Type4Tag.defaultNDEFFile).status == .success)
        #expect(try Self.update(r, offset: 0, [0, 0]).status == .securityNotSatisfied, "write access FF: read-only tag")
        #expect(try Self.read(r, offset: 4096, 2).status == .wrongP1P2)
        #expect(try r.send(CommandAPDU(cla: 0x80, ins: 0xCA, p1: 0x9F, p2: 0x36, le: 256)).status == .classNotSupported)
        #expect(try r.send(CommandAPDU(cla: 0x00, ins: 0x84, p1: 0, p2: 0, le: 8)).status == .instructionNotSupported)
    }
}
