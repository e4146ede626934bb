@testable import NFCCore

/// Builds consistent ISO 15693 requests and answers of every kind from random bytes, for the
/// round-trip properties.
enum ISO15693Samples {
    static let requestKinds = 32

    /// `b` needs at least 48 bytes.
    static func request(kind: Int, bytes b: [UInt8]) -> ISO15693Request {
        let uid = ISO15693UID(msbFirst: b[0..<8])
        let addressed = b[8] & 0x01 != 0
        // Random flag bits, but never inventory or address (those follow the command and UID).
        var flags = ISO15693RequestFlags(rawValue: b[9] & ~(ISO15693RequestFlags.inventoryMask | ISO15693RequestFlags.b6Mask))
        let small = Int(b[10] % 4) + 1          // block count for writes
        let size = Int(b[11] % 8) + 1           // block size for writes
        let block8 = UInt16(b[12])
        let block16 = UInt16(b[12]) | UInt16(b[13]) << 8
        let count8 = Int(b[14]) + 1
        let count16 = (Int(b[14]) | Int(b[15]) << 8) + 1
        let data = Array(b[16..<16 + small * size])
        let params = Array(b[16..<16 + Int(b[10] % 12)])
        let standardBlock = flags.protocolExtension ? block16 : block8
        let command: ISO15693Command
        switch kind % requestKinds {
        case 0:
            flags = .inventory(oneSlot: b[9] & 0x20 != 0, afi: b[9] & 0x10 != 0, highDataRate: b[9] & 0x02 != 0)
            let length = b[13] % 65
            let mask = Array(b[16..<16 + (Int(length) + 7) / 8])
            return ISO15693Request(flags: flags, command: .inventory(afi: flags.afi ? b[15] : nil, maskLength: length, mask: mask))
        case 1: command = .stayQuiet
        case 2: command = .readSingleBlock(block: standardBlock)
        case 3: command = .writeSingleBlock(block: standardBlock, data: Array(data.prefix(size)))
        case 4: command = .lockBlock(block: standardBlock)
        case 5: command = .readMultipleBlocks(first: standardBlock, count: count8)
        case 6: command = .writeMultipleBlocks(first: standardBlock, count: small, data: data)
        case 7: command = .select
        case 8: command = .resetToReady
        case 9: command = .writeAFI(b[13])
        case 10: command = .lockAFI
        case 11: command = .writeDSFID(b[13])
        case 12: command = .lockDSFID
        case 13: command = .getSystemInformation
        case 14: command = .getMultipleBlockSecurityStatus(first: standardBlock, count: count8)
        case 15: command = .fastReadMultipleBlocks(first: standardBlock, count: count8)
        case 16: command = .extendedReadSingleBlock(block: block16)
        case 17: command = .extendedWriteSingleBlock(block: block16, data: Array(data.prefix(size)))
        case 18: command = .extendedLockBlock(block: block16)
        case 19: command = .extendedReadMultipleBlocks(first: block16, count: count16)
        case 20: command = .extendedWriteMultipleBlocks(first: block16, count: small, data: data)
        case 21: command = .security([.authenticate, .keyUpdate, .authCommCryptoFormatIndicator, .secureCommCryptoFormatIndicator,
                                      .challenge, .readBuffer][Int(b[13] % 6)], parameters: params)
        case 22: command = .extendedGetSystemInformation(infoRequest: b[13])
        case 23: command = .extendedGetMultipleBlockSecurityStatus(first: block16, count: count16)
        case 24: command = .fastExtendedReadMultipleBlocks(first: block16, count: count16)
        case 25: command = .custom(code: 0xA0 + b[13] % 0x40, manufacturer: b[15], parameters: params)
        case 26: command = .proprietary(code: 0xE0 + b[13] % 0x20, parameters: params)
        case 27:
            let rfu: [UInt8] = Array(0x03...0x1F) + [0x2E, 0x2F] + Array(0x3E...0x9F)
            command = .rfu(code: rfu[Int(b[13]) % rfu.count], parameters: params)
        case 28: command = .readMultipleBlocks(first: standardBlock, count: small)
        case 29: command = .readSingleBlock(block: standardBlock)
        case 30: command = .extendedReadMultipleBlocks(first: block16, count: small)
        default: command = .getMultipleBlockSecurityStatus(first: standardBlock, count: small)
        }
        return ISO15693Request(flags: flags, command: command, uid: addressed ? uid : nil)
    }

    /// An answer `request` can get, built from `b` (at least 200 bytes); `blockSize` for reads.
    static func response(to request: ISO15693Request, bytes b: [UInt8], blockSize: Int) -> ISO15693Response {
        if b[0] & 0x07 == 0 { return .error(ISO15693ErrorCode(rawValue: b[1])) }
        let flags = ISO15693ResponseFlags(rawValue: b[2] & ~ISO15693ResponseFlags.errorMask)
        let uid = ISO15693UID(msbFirst: b[3..<11]) ?? ISO15693UID(value: 0)
        let command = request.command
        let body: ISO15693Response.Body
        switch command {
        case .inventory: body = .inventory(dsfid: b[11], uid: uid)
        case _ where command.readsBlocks:
            let range = command.blockRange ?? (0, 1)
            let blocks = (0..<range.count).map { i in
                ISO15693Block(securityStatus: request.flags.option ? b[12 + i] : nil,
                              data: Array(b[20 + i * blockSize..<20 + (i + 1) * blockSize]))
            }
            body = .blocks(first: range.first, blocks)
        case .getMultipleBlockSecurityStatus, .extendedGetMultipleBlockSecurityStatus:
            let range = command.blockRange ?? (0, 1)
            body = .securityStatus(first: range.first, Array(b[20..<20 + range.count]))
        case .getSystemInformation:
            let memory = b[12] & 1 != 0 ? ISO15693MemorySize(blockCount: Int(b[13]) + 1, blockSize: Int(b[14] % 32) + 1,
                                                              wideCount: b[12] & 2 != 0, rfuBits: b[15]) : nil
            var info = ISO15693SystemInformation(uid: uid, dsfid: b[12] & 4 != 0 ? b[16] : nil, afi: b[12] & 8 != 0 ? b[17] : nil,
                                                 memorySize: memory, icReference: b[12] & 16 != 0 ? b[18] : nil)
            if memory?.wideCount == true { info.memorySize?.blockCount = Int(b[13]) << 8 | Int(b[19]) + 1 }
            info.trailing = b[12] & 32 != 0 ? [b[20]] : []
            body = .systemInformation(info)
        case .extendedGetSystemInformation:
            var flags = b[12]
            if flags & ISO15693SystemInformation.csiFlag != 0 { flags &= ~ISO15693SystemInformation.csiFlag }
            let memory = flags & ISO15693SystemInformation.memorySizeFlag != 0
                ? ISO15693MemorySize(blockCount: Int(b[13]) << 8 | Int(b[14]) + 1, blockSize: Int(b[15] % 32) + 1, wideCount: true) : nil
            body = .systemInformation(ISO15693SystemInformation(
                layout: .extended, infoFlags: flags, uid: uid,
                dsfid: flags & 1 != 0 ? b[16] : nil, afi: flags & 2 != 0 ? b[17] : nil, memorySize: memory,
                icReference: flags & 8 != 0 ? b[18] : nil, commandList: flags & 0x20 != 0 ? Array(b[20..<24]) : nil,
                trailing: b[0] & 0x80 != 0 ? [b[24]] : []))
        case .stayQuiet, .writeSingleBlock, .lockBlock, .writeMultipleBlocks, .select, .resetToReady, .writeAFI, .lockAFI,
             .writeDSFID, .lockDSFID, .extendedWriteSingleBlock, .extendedLockBlock, .extendedWriteMultipleBlocks:
            body = .done
        default:
            body = .data(Array(b[20..<20 + Int(b[11] % 40)]))
        }
        return ISO15693Response(flags: flags, body: body)
    }
}
