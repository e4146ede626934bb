import Testing
import PropertyBased
@testable import NFCCore

@Suite struct ISO15693CodecTests {
    static let slix2 = ISO15693UID(msbFirst: [0xE0, 0x04, 0x01, 0x08, 0x49, 0xD0, 0xDC, 0x81])!

    // protocols.md §6.3 / §8: the standard 1-slot inventory and the UID byte order.
    @Test func standardInventoryFrame() throws {
        let request = try ISO15693Request.decode([0x26, 0x01, 0x00])
        #expect(request.flags.inventory && request.flags.oneSlot && request.flags.highDataRate && !request.flags.afi)
        #expect(request.command == .inventory(afi: nil, maskLength: 0, mask: []))
        #expect(request.frame() == [0x26, 0x01, 0x00, 0xF6, 0x0A])
        #expect(request.summary == "Inventory, 1 slot, no mask")
        let answer = try ISO15693Response.decode([0x00, 0x00, 0x81, 0xDC, 0xD0, 0x49, 0x08, 0x01, 0x04, 0xE0], answering: request)
        #expect(answer.body == .inventory(dsfid: 0, uid: Self.slix2))
        #expect(Self.slix2.onAir == [0x81, 0xDC, 0xD0, 0x49, 0x08, 0x01, 0x04, 0xE0])
        #expect(Self.slix2.description == "E0 04 01 08 49 D0 DC 81")
    }

    @Test func uidNamesManufacturerAndICODEType() {
        #expect(Self.slix2.hasE0Prefix && Self.slix2.manufacturerCode == 0x04)
        #expect(Self.slix2.manufacturerName == "NXP Semiconductors")
        #expect(Self.slix2.nxpICODEType == "ICODE SLIX2")
        #expect(ISO15693UID(msbFirst: [0xE0, 0x04, 0x01, 0x10, 0, 0, 0, 1])?.nxpICODEType == "ICODE SLIX")
        #expect(ISO15693UID(msbFirst: [0xE0, 0x04, 0x01, 0x00, 0, 0, 0, 1])?.nxpICODEType == "ICODE SLI")
        #expect(ISO15693UID(msbFirst: [0xE0, 0x04, 0x01, 0x18, 0, 0, 0, 1])?.nxpICODEType == "ICODE DNA / NTAG 5")
        #expect(ISO15693UID(msbFirst: [0xE0, 0x04, 0x03, 0x10, 0, 0, 0, 1])?.nxpICODEType == "ICODE SLIX-L")
        let st = ISO15693UID(msbFirst: [0xE0, 0x02, 0x44, 0, 0, 0, 0, 1])
        #expect(st?.manufacturerName == "STMicroelectronics" && st?.nxpICODEType == nil)
        #expect(ISO15693UID(msbFirst: [0xD0, 0x99, 0, 0, 0, 0, 0, 1])?.hasE0Prefix == false)
        #expect(ISO15693UID.manufacturerName(0x99) == nil)
        #expect(ISO15693UID(onAir: [1, 2, 3]) == nil)
    }

    @Test func flagsChangeMeaningWithTheInventoryFlag() {
        let inventory = ISO15693RequestFlags(rawValue: 0x36)   // inventory, AFI, 1 slot, high rate
        #expect(inventory.afi && inventory.oneSlot && !inventory.select && !inventory.address)
        let addressed = ISO15693RequestFlags(rawValue: 0x32)   // select + address bits without inventory
        #expect(addressed.select && addressed.address && !addressed.afi && !addressed.oneSlot)
        #expect(ISO15693RequestFlags.addressed(option: true).rawValue == 0x62)
        #expect(ISO15693RequestFlags.selected().rawValue == 0x12)
        #expect(ISO15693RequestFlags.inventory(oneSlot: false).rawValue == 0x06)
    }

    @Test func everyRequestRoundTrips() async {
        await propertyCheck(count: 3000, input: Gen.int(in: 0...(ISO15693Samples.requestKinds - 1)), Gen<UInt8>.value().array(of: 64)) { kind, bytes in
            let r = ISO15693Samples.request(kind: kind, bytes: bytes)
            #expect((try? ISO15693Request.decode(r.encode())) == r, "\(Hex.string(r.encode()))")
        }
    }

    @Test func everyAnswerRoundTripsInTheContextOfItsRequest() async {
        // Request kinds whose block counts stay small enough to build answers for.
        let kinds = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 20, 21, 22, 25, 26, 27, 28, 29, 30, 31]
        await propertyCheck(count: 3000, input: Gen.int(in: 0...(kinds.count - 1)), Gen<UInt8>.value().array(of: 200)) { index, bytes in
            let request = ISO15693Samples.request(kind: kinds[index], bytes: Array(bytes.prefix(64)))
            let size = Int(bytes[199] % 32) + 1
            let answer = ISO15693Samples.response(to: request, bytes: bytes, blockSize: size)
            #expect((try? ISO15693Response.decode(answer.encode(), answering: request, blockSize: size)) == answer)
            if request.command.readsBlocks {
                // Without Get System Information the block size is inferred from the length.
                #expect((try? ISO15693Response.decode(answer.encode(), answering: request)) == answer)
            }
        }
    }

    /// Whatever decodes re-encodes to the same bytes, and nothing traps on random input.
    @Test func randomBytesNeverTrapAndDecodedFramesReencodeExactly() async {
        await propertyCheck(count: 20000, input: Gen<UInt8>.value().array(of: 0...40), Gen<UInt8>.value().array(of: 64)) { frame, seed in
            if let r = try? ISO15693Request.decode(frame) { #expect(r.encode() == frame) }
            let request = ISO15693Samples.request(kind: Int(seed[63]), bytes: seed)
            for size in [nil, 4, Int(seed[62] % 32) + 1] as [Int?] {
                if let a = try? ISO15693Response.decode(frame, answering: request, blockSize: size) { #expect(a.encode() == frame) }
            }
        }
    }

    @Test func addressedRequestsCarryTheUIDLSBFirst() throws {
        let frame: [UInt8] = [0x22, 0x21] + Self.slix2.onAir + [0x00, 0xE1, 0x40, 0x30, 0x01]
        let r = try ISO15693Request.decode(frame)
        #expect(r.uid == Self.slix2 && r.flags.address)
        #expect(r.command == .writeSingleBlock(block: 0, data: [0xE1, 0x40, 0x30, 0x01]))
        #expect(r.summary == "Write Single Block 0: E1 40 30 01")
        let read = ISO15693Request(flags: .addressed(), command: .readMultipleBlocks(first: 0, count: 5), uid: Self.slix2)
        #expect(read.encode() == [0x22, 0x23] + Self.slix2.onAir + [0x00, 0x04])
        #expect(read.summary == "Read Multiple Blocks 0–4")
    }

    @Test func extendedCommandsAndProtocolExtensionUseTwoByteBlockNumbers() throws {
        #expect(try ISO15693Request.decode([0x02, 0x30, 0x34, 0x12]).command == .extendedReadSingleBlock(block: 0x1234))
        #expect(try ISO15693Request.decode([0x02, 0x33, 0x00, 0x01, 0xFF, 0x00]).command == .extendedReadMultipleBlocks(first: 0x100, count: 256))
        #expect(try ISO15693Request.decode([0x0A, 0x20, 0x34, 0x12]).command == .readSingleBlock(block: 0x1234))
        #expect(try ISO15693Request.decode([0x02, 0x20, 0x34]).command == .readSingleBlock(block: 0x34))
        // Extended Get System Information: the request flags come before the UID.
        let egsi = try ISO15693Request.decode([0x22, 0x3B, 0x7F] + Self.slix2.onAir)
        #expect(egsi.command == .extendedGetSystemInformation(infoRequest: 0x7F) && egsi.uid == Self.slix2)
    }

    @Test func customCommandsCarryTheManufacturerBeforeTheUID() throws {
        let r = try ISO15693Request.decode([0x22, 0xB2, 0x04] + Self.slix2.onAir)
        #expect(r.command == .custom(code: 0xB2, manufacturer: 0x04, parameters: []) && r.uid == Self.slix2)
        #expect(r.command.name == "Get Random Number")
        #expect(r.summary == "Get Random Number (NXP Semiconductors custom 0xB2)")
        #expect(ISO15693Command.custom(code: 0xA0, manufacturer: 0x02, parameters: []).name == "Read Configuration")
        #expect(ISO15693Command.custom(code: 0xD0, manufacturer: 0x04, parameters: []).name == "custom command 0xD0")
        #expect(ISO15693CustomCommand.name(code: 0xBC, manufacturer: 0x04)?.confidence == .single)
        #expect(ISO15693Command.proprietary(code: 0xE5, parameters: []).name == "proprietary command 0xE5")
        #expect(try ISO15693Request.decode([0x02, 0x05, 0x01]).command == .rfu(code: 0x05, parameters: [0x01]))
    }

    @Test(arguments: [
        ([], DecodeError(offset: 0, expected: "request flags", found: "end of data")),
        ([0x26], DecodeError(offset: 1, expected: "command code", found: "end of data")),
        ([0x26, 0x01], DecodeError(offset: 2, expected: "mask length (bits)", found: "end of data")),
        ([0x26, 0x01, 0x10, 0xAA], DecodeError(offset: 3, expected: "mask value (2 bytes for 16 bits)", found: "1 byte")),
        ([0x36, 0x01], DecodeError(offset: 2, expected: "AFI (the AFI flag is set)", found: "end of data")),
        ([0x22, 0x20, 1, 2, 3], DecodeError(offset: 2, expected: "UID (8 bytes, LSB first: the address flag is set)", found: "3 bytes")),
        ([0x02, 0x20], DecodeError(offset: 2, expected: "block number", found: "end of data")),
        ([0x02, 0x20, 0x01, 0x02], DecodeError(offset: 3, expected: "end of Read Single Block", found: "1 extra byte")),
        ([0x02, 0x21, 0x01], DecodeError(offset: 3, expected: "data of 1 block (a non-empty multiple of 1 bytes)", found: "0 bytes")),
        ([0x02, 0x24, 0x00, 0x01, 1, 2, 3], DecodeError(offset: 4, expected: "data of 2 blocks (a non-empty multiple of 2 bytes)", found: "3 bytes")),
        ([0x02, 0x23, 0x00], DecodeError(offset: 3, expected: "number of blocks − 1", found: "end of data")),
        ([0x02, 0x33, 0x00, 0x00, 0x01], DecodeError(offset: 4, expected: "number of blocks − 1 (2 bytes, LSB first)", found: "1 byte")),
        ([0x02, 0x30, 0x05], DecodeError(offset: 2, expected: "block number (2 bytes, LSB first)", found: "1 byte")),
        ([0x02, 0xA2], DecodeError(offset: 2, expected: "IC manufacturer code (custom command)", found: "end of data")),
        ([0x02, 0x27], DecodeError(offset: 2, expected: "AFI", found: "end of data")),
    ] as [([UInt8], DecodeError)])
    func malformedRequestsNameOffsetAndExpectation(bytes: [UInt8], error: DecodeError) {
        #expect(throws: error) { try ISO15693Request.decode(bytes) }
    }

    // protocols.md §6.4: Get System Information walked by its flags, sizes stored minus one.
    @Test func systemInformationIsWalkedByItsFlags() throws {
        let request = ISO15693Request(flags: .addressed(), command: .getSystemInformation, uid: Self.slix2)
        let full = try ISO15693Response.decode([0x00, 0x0F] + Self.slix2.onAir + [0x01, 0x3D, 0x4F, 0x03, 0x01], answering: request)
        guard case .systemInformation(let info) = full.body else { Issue.record("no system information"); return }
        #expect(info.uid == Self.slix2 && info.dsfid == 0x01 && info.afi == 0x3D && info.icReference == 0x01)
        #expect(info.memorySize == ISO15693MemorySize(blockCount: 80, blockSize: 4))
        #expect(info.flagNames == ["DSFID", "AFI", "memory size", "IC reference"])
        // Without DSFID and AFI the memory size comes right after the UID (PM3 reads fixed offsets here).
        let sparse = try ISO15693Response.decode([0x00, 0x0C] + Self.slix2.onAir + [0x4F, 0x03, 0x01], answering: request)
        guard case .systemInformation(let s) = sparse.body else { Issue.record("no system information"); return }
        #expect(s.dsfid == nil && s.afi == nil && s.memorySize?.blockCount == 80 && s.icReference == 0x01)
        // neard's b5: a 2-byte block count.
        let wide = try ISO15693Response.decode([0x00, 0x14] + Self.slix2.onAir + [0xFF, 0x07, 0x03], answering: request)
        guard case .systemInformation(let w) = wide.body else { Issue.record("no system information"); return }
        #expect(w.memorySize == ISO15693MemorySize(blockCount: 2048, blockSize: 4, wideCount: true))
        #expect(throws: DecodeError(offset: 10, expected: "DSFID (information flag b1)", found: "end of data")) {
            try ISO15693Response.decode([0x00, 0x01] + Self.slix2.onAir, answering: request)
        }
        #expect(throws: DecodeError(offset: 2, expected: "UID (8 bytes, LSB first)", found: "3 bytes")) {
            try ISO15693Response.decode([0x00, 0x0F, 1, 2, 3], answering: request)
        }
    }

    @Test func extendedSystemInformation() throws {
        let request = ISO15693Request(flags: .nonAddressed(), command: .extendedGetSystemInformation(infoRequest: 0x3F))
        let bytes: [UInt8] = [0x00, 0x3C] + Self.slix2.onAir + [0xFF, 0x07, 0x03, 0x51, 0x3F, 0x1F, 0x00, 0x00]
        guard case .systemInformation(let info) = try ISO15693Response.decode(bytes, answering: request).body else {
            Issue.record("no system information"); return
        }
        #expect(info.memorySize == ISO15693MemorySize(blockCount: 2048, blockSize: 4, wideCount: true))
        #expect(info.icReference == 0x51 && info.commandList == [0x3F, 0x1F, 0x00, 0x00] && info.twoByteAddressing == true)
    }

    @Test func blockReadsWithAndWithoutSecurityStatus() throws {
        let plain = ISO15693Request(flags: .addressed(), command: .readMultipleBlocks(first: 1, count: 2), uid: Self.slix2)
        let data: [UInt8] = [0x00, 1, 2, 3, 4, 5, 6, 7, 8]
        #expect(try ISO15693Response.decode(data, answering: plain, blockSize: 4).body
                == .blocks(first: 1, [ISO15693Block(data: [1, 2, 3, 4]), ISO15693Block(data: [5, 6, 7, 8])]))
        let option = ISO15693Request(flags: .addressed(option: true), command: .readSingleBlock(block: 2), uid: Self.slix2)
        let answer = try ISO15693Response.decode([0x00, 0x01, 0xAA, 0xBB, 0xCC, 0xDD], answering: option)
        #expect(answer.body == .blocks(first: 2, [ISO15693Block(securityStatus: 0x01, data: [0xAA, 0xBB, 0xCC, 0xDD])]))
        guard case .blocks(_, let blocks) = answer.body else { return }
        #expect(blocks.first?.isLocked == true)
        #expect(throws: DecodeError(offset: 1, expected: "2 blocks of 4 bytes", found: "6 bytes")) {
            try ISO15693Response.decode([0x00, 1, 2, 3, 4, 5, 6], answering: plain, blockSize: 4)
        }
        #expect(throws: DecodeError(offset: 1, expected: "data of 2 blocks (block size unknown: the bytes must split evenly)", found: "7 bytes")) {
            try ISO15693Response.decode([0x00, 1, 2, 3, 4, 5, 6, 7], answering: plain)
        }
        #expect(throws: DecodeError(offset: 1, expected: "a block size of 1…32 bytes", found: "\(Int.max)")) {
            try ISO15693Response.decode([0x00, 1, 2, 3, 4], answering: plain, blockSize: Int.max)
        }
        let status = ISO15693Request(flags: .addressed(), command: .getMultipleBlockSecurityStatus(first: 0, count: 3), uid: Self.slix2)
        #expect(try ISO15693Response.decode([0x00, 0x00, 0x01, 0x00], answering: status).body == .securityStatus(first: 0, [0, 1, 0]))
    }

    static let read2 = ISO15693Request(flags: .addressed(), command: .readMultipleBlocks(first: 0, count: 2), uid: slix2)
    static let inventory = ISO15693Request(flags: .inventory(), command: .inventory(afi: nil, maskLength: 0, mask: []))
    static let status3 = ISO15693Request(flags: .nonAddressed(), command: .getMultipleBlockSecurityStatus(first: 0, count: 3))

    @Test(arguments: [
        ([], inventory, nil, DecodeError(offset: 0, expected: "response flags", found: "end of data")),
        ([0x01], inventory, nil, DecodeError(offset: 1, expected: "error code (the error flag is set)", found: "end of data")),
        ([0x00], inventory, nil, DecodeError(offset: 1, expected: "DSFID", found: "end of data")),
        ([0x00, 0x00, 0x81, 0xDC], inventory, nil, DecodeError(offset: 2, expected: "UID (8 bytes, LSB first)", found: "2 bytes")),
        ([0x00, 0x00] + slix2.onAir + [0x00], inventory, nil, DecodeError(offset: 10, expected: "end of Inventory answer", found: "1 extra byte")),
        ([0x00, 0x00, 0x01], status3, nil, DecodeError(offset: 1, expected: "3 block security status bytes", found: "2 bytes")),
        ([0x00], read2, nil, DecodeError(offset: 1, expected: "data of 2 blocks (block size unknown: the bytes must split evenly)", found: "end of data")),
        ([0x00, 1, 2, 3, 4], read2, 4, DecodeError(offset: 1, expected: "2 blocks of 4 bytes", found: "4 bytes")),
        ([0x00, 0x04] + slix2.onAir + [0x4F], ISO15693Request(flags: .nonAddressed(), command: .getSystemInformation), nil,
         DecodeError(offset: 11, expected: "block size − 1 (b5–b1)", found: "end of data")),
        ([0x00, 0x20], ISO15693Request(flags: .nonAddressed(), command: .extendedGetSystemInformation(infoRequest: 0x20)), nil,
         DecodeError(offset: 2, expected: "UID (8 bytes, LSB first)", found: "end of data")),
    ] as [([UInt8], ISO15693Request, Int?, DecodeError)])
    func malformedAnswersNameOffsetAndExpectation(bytes: [UInt8], request: ISO15693Request, blockSize: Int?, error: DecodeError) {
        #expect(throws: error) { try ISO15693Response.decode(bytes, answering: request, blockSize: blockSize) }
    }

    /// What an emulator sends, byte for byte as in Traces/iso15693-format-and-write.nfctrace
    /// (written by an independent Python CRC).
    @Test func encodedAnswersMatchTheTrace() {
        #expect(ISO15693Response(body: .inventory(dsfid: 0, uid: Self.slix2)).frame()
                == Hex.parse("00 00 81 DC D0 49 08 01 04 E0 82 86"))
        let info = ISO15693SystemInformation(uid: Self.slix2, dsfid: 0, afi: 0, memorySize: ISO15693MemorySize(blockCount: 80, blockSize: 4), icReference: 1)
        #expect(ISO15693Response(body: .systemInformation(info)).frame() == Hex.parse("00 0F 81 DC D0 49 08 01 04 E0 00 00 4F 03 01 EA DD"))
        #expect(ISO15693Response.done.frame() == [0x00, 0x78, 0xF0])
        #expect(ISO15693Response.error(.blockNotAvailable).frame() == [0x01, 0x10, 0x1E, 0x06])
        let write = ISO15693Request(flags: .addressed(), command: .writeSingleBlock(block: 0, data: [0xE1, 0x40, 0x30, 0x01]), uid: Self.slix2)
        #expect(write.frame() == Hex.parse("22 21 81 DC D0 49 08 01 04 E0 00 E1 40 30 01 EA 3A"))
    }

    @Test func errorAnswersAreNamed() throws {
        let read = ISO15693Request(flags: .addressed(), command: .readSingleBlock(block: 80), uid: Self.slix2)
        let answer = try ISO15693Response.decode([0x01, 0x10], answering: read)
        #expect(answer.body == .error(.blockNotAvailable) && answer.flags.error)
        #expect(ISO15693ErrorCode.blockNotAvailable.meaning == "block not available: it does not exist")
        #expect(ISO15693ErrorCode.blockLocked.meaning == "block locked, its content cannot be changed")
        #expect(ISO15693ErrorCode(rawValue: 0xB0).meaning == "custom error code of the IC manufacturer")
        #expect(ISO15693ErrorCode(rawValue: 0x55).meaning == "RFU error code")
        #expect(ISO15693Response.error(.commandNotSupported).frame() == CRC.appending(.b, to: [0x01, 0x01]))
        #expect(throws: DecodeError(offset: 2, expected: "end of error response", found: "1 extra byte")) {
            try ISO15693Response.decode([0x01, 0x10, 0x00], answering: read)
        }
        #expect(throws: DecodeError(offset: 1, expected: "end of Write Single Block answer (the flags byte alone)", found: "1 extra byte")) {
            try ISO15693Response.decode([0x00, 0x00], answering: ISO15693Request(flags: .nonAddressed(), command: .writeSingleBlock(block: 1, data: [0])))
        }
    }
}
