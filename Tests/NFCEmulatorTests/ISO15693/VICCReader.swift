import Testing
import NFCCore
@testable import NFCEmulator

/// Drives an emulated VICC like a reader: hex requests with CRC_B (ISO/IEC 13239) appended,
/// answers checked for their CRC and returned without it.
struct VICCReader {
    let tag: ISO15693Tag

    /// The UID as sent on air (LSB first), to put into addressed requests.
    var uid: String { Hex.string(tag.memory.uid.onAir) }

    func send(_ hex: String, crc: Bool = true) -> Frame? {
        let b = Hex.parse(hex) ?? []
        return tag.respond(to: Frame(.data(.readerToTag), technology: .iso15693, bytes: crc ? CRC.appending(.b, to: b) : b,
                                     crcStripped: !crc))
    }

    /// The answer's payload (its CRC checked), or nil for silence.
    func answer(_ hex: String) -> [UInt8]? {
        guard let f = send(hex) else { return nil }
        #expect(CRC.check(.b, f.bytes) == .ok, "answer to \(hex) has a bad CRC")
        #expect(f.technology == .iso15693 && f.event == .data(.tagToReader))
        return Array(f.bytes.dropLast(2))
    }
}

/// UID E0 04 01 08 49 D0 DC 81 (ICODE SLIX2 by its type bits), on air.
let slix2OnAir = "81 DC D0 49 08 01 04 E0"

/// A SLIX2-configured tag with a blank memory (block n holds n n n n) unless `configure` says otherwise.
func slix2Tag(configure: (inout ISO15693TagMemory) -> Void = { _ in }) throws -> (ISO15693Tag, VICCReader) {
    try vicc(.slix2, configure: configure)
}

func vicc(_ configuration: ISO15693TagConfiguration, uid: ISO15693UID = ISO15693Dump.slix2UID,
          configure: (inout ISO15693TagMemory) -> Void = { _ in }) throws -> (ISO15693Tag, VICCReader) {
    var memory = ISO15693TagMemory(uid: uid, blockCount: configuration.blockCount, blockSize: configuration.blockSize,
                                   icode: configuration.nxpCustomCommands ? ICODEData(signature: Array(0..<32)) : nil)
    for n in 0..<min(256, memory.blockCount) {
        memory.setBlock(n, [UInt8](repeating: UInt8(n), count: memory.blockSize))
    }
    configure(&memory)
    let tag = try #require(ISO15693Tag(configuration: configuration, memory: memory, randomSeed: 42))
    return (tag, VICCReader(tag: tag))
}

/// A 2048-block generic tag (ST25DV64K-sized) that needs the extended commands.
let largeGeneric = ISO15693TagConfiguration.generic(blockCount: 2048, blockSize: 4, icReference: 0x26)
