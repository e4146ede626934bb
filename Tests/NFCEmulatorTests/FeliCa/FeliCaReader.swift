import Foundation
import Testing
import NFCCapture
import NFCCore
import NFCDissect
@testable import NFCEmulator

/// Drives an emulated FeliCa card like a reader: commands encoded with the codec, CRC_F added,
/// answers checked for CRC_F and decoded in the context of the command.
struct FeliCaReader {
    let card: FeliCaCard

    init(_ dump: FeliCaDump) {
        card = FeliCaCard(memory: dump.memory, communicationPerformance: dump.communicationPerformance)
            ?? FeliCaCard(memory: FeliCaDump.twoSystems().memory)!
    }

    init(_ memory: FeliCaCardMemory) { self.init(FeliCaDump(memory: memory)) }

    /// The raw answer frame to `bytes` (CRC_F appended unless `crc` is false, then sent as stripped).
    func frame(_ bytes: [UInt8], crc: Bool = true) -> Frame? {
        card.respond(to: Frame(.data(.readerToTag), technology: .felica, bytes: crc ? CRC.appending(.felica, to: bytes) : bytes,
                               crcStripped: !crc))
    }

    func send(_ command: FeliCaCommand) -> FeliCaResponse? {
        guard let f = frame(command.encode()) else { return nil }
        #expect(CRC.check(.felica, f.bytes) == .ok, "answer to \(command.code.name) has a bad CRC_F")
        do {
            return try FeliCaResponse.decode(Array(f.bytes.dropLast(2)), answering: command)
        } catch {
            Issue.record("answer \(Hex.string(f.bytes)) to \(command.code.name) does not decode: \(error)")
            return nil
        }
    }

    func poll(_ sc: UInt16, rc: UInt8 = 0, tsn: UInt8 = 0) -> FeliCaResponse? { send(.polling(systemCode: sc, requestCode: rc, timeSlots: tsn)) }

    var idm: FeliCaIDm { card.idm }

    func read(_ services: [UInt16], _ blocks: [FeliCaBlockListElement], idm: FeliCaIDm? = nil) -> FeliCaResponse? {
        send(.readWithoutEncryption(idm: idm ?? self.idm, services: services.map { FeliCaServiceCode($0) }, blocks: blocks))
    }

    func write(_ services: [UInt16], _ blocks: [FeliCaBlockListElement], _ data: [UInt8]) -> FeliCaResponse? {
        send(.writeWithoutEncryption(idm: idm, services: services.map { FeliCaServiceCode($0) }, blocks: blocks, data: data))
    }

    /// Status flags of a Read/Write answer.
    func status(_ r: FeliCaResponse?) -> FeliCaStatusFlags? { r?.status }

    func blocks(_ r: FeliCaResponse?) -> [[UInt8]]? {
        if case .readWithoutEncryption(_, let s, let b)? = r, s.isSuccess { return b }
        return nil
    }
}

/// Block list element `n` of service `order` (2-byte form when the number fits).
func el(_ n: UInt16, _ order: UInt8 = 0, mode: UInt8 = 0) -> FeliCaBlockListElement {
    FeliCaBlockListElement(serviceOrder: order, blockNumber: n, accessMode: mode)
}

func sf(_ sf1: UInt8, _ sf2: UInt8) -> FeliCaStatusFlags { FeliCaStatusFlags(sf1: sf1, sf2: sf2) }

func block(_ text: String) -> [UInt8] { Array((Array(text.utf8) + [UInt8](repeating: 0, count: 16)).prefix(16)) }

/// A FeliCa Standard system with a few services of every kind, for the rule tests.
func standardCard(_ configure: (inout FeliCaCardSystem) -> Void = { _ in }) -> FeliCaReader {
    var s = FeliCaCardSystem(code: 0xFE00, idm: FeliCaIDm(rawValue: 0x0101_0A10_8E1B_234C), pmm: FeliCaDump.standardPMm,
                             keyVersion: 0x0011, nodes: [FeliCaCardSystem.rootArea])
    s.addService(FeliCaServiceCode(0x1A8B), keyVersion: 0x0002, blocks: [block("2024A1234"), block("NAME")])   // random RO, no key
    s.addService(FeliCaServiceCode(0x1A89), keyVersion: 0x0002)                                              // its RW overlap
    s.addService(FeliCaServiceCode(0x1B08), keyVersion: 0x0003, blocks: [block("SECRET")])                   // random RW with key
    s.addService(FeliCaServiceCode(0x1C0D), blocks: [block("R0"), block("R1"), block("R2")])                // cyclic RW, no key
    s.addService(FeliCaServiceCode(0x1C0F))                                                                  // its RO overlap
    s.addService(FeliCaServiceCode(0x1D11), blocks: [FeliCaPurseBlock(value: 1000).bytes])                  // purse direct
    s.addService(FeliCaServiceCode(0x1D13))                                                                  // cashback
    s.addService(FeliCaServiceCode(0x1D15))                                                                  // decrement
    s.addService(FeliCaServiceCode(0x1D17))                                                                  // purse read-only
    configure(&s)
    return FeliCaReader(.standard([s]))
}
