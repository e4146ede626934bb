import Testing
import NFCCore
@testable import NFCEmulator

/// The emulator survives any frame, and random frames never break what the standard makes
/// permanent: a lock stays, a locked block, AFI or DSFID keeps its value; every answer is a
/// well-formed answer to its request; a quiet VICC never answers an inventory.
@Suite struct ISO15693RandomFrameTests {
    static var unspecified: ISO15693TagConfiguration {
        var c = ISO15693TagConfiguration.generic(blockCount: 64, blockSize: 32, name: "unspecified errors")
        c.errorStyle = .unspecified
        return c
    }

    @Test(arguments: [ISO15693TagConfiguration.slix2, .st25dv04k, largeGeneric, unspecified])
    func survivesRandomFrames(configuration: ISO15693TagConfiguration) throws {
        let (tag, _) = try vicc(configuration) { $0.setLocked(1); $0.failingBlocks = [3] }
        var rng = SplitMix64(seed: 0x15693)
        let uid = tag.memory.uid.onAir
        var lockedContent: [Int: [UInt8]] = [1: tag.memory.block(1)]
        var frozenAFI: UInt8? = nil
        var frozenDSFID: UInt8? = nil
        var answers = 0
        for i in 0..<20_000 {
            if i % 997 == 0 { tag.fieldOff(); tag.fieldOn() }
            if i % 13 == 0 { _ = tag.endOfFrame() }
            let flags = [0x02, 0x22, 0x12, 0x26, 0x06, 0x36, 0x62, 0x42, 0x0A, UInt8.random(in: 0...255, using: &rng)]
                .randomElement(using: &rng) ?? 0x02
            let code = [0x01, 0x02, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x30, 0x31,
                        0x32, 0x33, 0x34, 0x3B, 0x3C, 0xAB, 0xB2, 0xBD, UInt8.random(in: 0...255, using: &rng)]
                .randomElement(using: &rng) ?? 0x20
            var payload: [UInt8] = [flags, code]
            if code >= 0xA0 && code <= 0xDF { payload.append(Bool.random(using: &rng) ? 0x04 : UInt8.random(in: 0...255, using: &rng)) }
            if flags & 0x24 == 0x20 { payload += Int.random(in: 0..<5, using: &rng) == 0 ? (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) } : uid }
            payload += (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let mode = Int.random(in: 0..<10, using: &rng)
            var bytes = mode < 2 ? payload : CRC.appending(.b, to: payload)
            if mode == 2 { bytes[bytes.count - 1] ^= 0x01 }
            let request = Frame(.data(.readerToTag), technology: .iso15693, bytes: bytes, crcStripped: mode < 2)
            let wasQuiet = tag.state == .quiet
            guard let answer = tag.respond(to: request) else { continue }
            answers += 1
            #expect(mode != 2, "a frame with a wrong CRC is answered")
            #expect(!(wasQuiet && flags & 0x04 != 0), "a quiet VICC answers an inventory")
            let body = mode < 2 ? answer.bytes : Array(answer.bytes.dropLast(2))
            if mode >= 2 { #expect(CRC.check(.b, answer.bytes) == .ok) }
            if let decoded = try? ISO15693Request.decode(payload) {
                #expect(throws: Never.self) { _ = try ISO15693Response.decode(body, answering: decoded, blockSize: tag.memory.blockSize) }
            } else {
                #expect(body == [0x01, 0x02] || body == [0x01, 0x0F], "a request that does not decode gets a format error")
            }
            for n in 0..<min(tag.memory.blockCount, 300) where tag.memory.isLocked(n) && lockedContent[n] == nil {
                lockedContent[n] = tag.memory.block(n)
            }
            if tag.memory.afiLocked && frozenAFI == nil { frozenAFI = tag.memory.afi }
            if tag.memory.dsfidLocked && frozenDSFID == nil { frozenDSFID = tag.memory.dsfid }
        }
        for (n, content) in lockedContent {
            #expect(tag.memory.isLocked(n) && tag.memory.block(n) == content, "locked block \(n) changed")
        }
        if let frozenAFI { #expect(tag.memory.afi == frozenAFI && tag.memory.afiLocked) }
        if let frozenDSFID { #expect(tag.memory.dsfid == frozenDSFID && tag.memory.dsfidLocked) }
        #expect(tag.memory.blockCount == configuration.blockCount && tag.memory.data.count == configuration.blockCount * configuration.blockSize)
        #expect(tag.memory.block(3) == [UInt8](repeating: 3, count: configuration.blockSize), "the failing block was never programmed")
        #expect(answers > 1_000, "random frames reach the commands")
        #expect(lockedContent.count > 1, "random Lock Blocks happened")
    }
}
