import Testing
import NFCCore
import NFCTestInputs
@testable import NFCEmulator

/// The emulated FeliCa cards survive any frame: random bytes, random bytes behind a right LEN
/// and code, and well-formed commands with random fields aimed at the card's own IDm. Every
/// answer is a valid frame (LEN, CRC_F like the request) that decodes as the answer to the
/// command, and the card's state can still be saved and loaded afterwards.
@Suite struct FeliCaRandomFrameTests {
    static let codes: [UInt8] = [0x00, 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x10, 0x3C, 0x3E, 0x38, 0xF0, 0x5A]

    static func command(_ idm: FeliCaIDm, _ rng: inout some RandomNumberGenerator) -> FeliCaCommand {
        func u8() -> UInt8 { UInt8.random(in: 0...255, using: &rng) }
        func u16() -> UInt16 { UInt16.random(in: 0...0xFFFF, using: &rng) }
        let target = Int.random(in: 0..<8, using: &rng) == 0 ? FeliCaIDm(rawValue: UInt64.random(in: 0...UInt64.max, using: &rng)) : idm
        let known: [UInt16] = [0x000B, 0x0009, 0x090F, 0x008B, 0x100B, 0x1A8B, 0xFFFF]
        func service() -> FeliCaServiceCode { FeliCaServiceCode(Bool.random(using: &rng) ? known.randomElement(using: &rng) ?? 0 : u16()) }
        func element(_ services: Int) -> FeliCaBlockListElement {
            let number: UInt16 = Bool.random(using: &rng) ? UInt16.random(in: 0...20, using: &rng) : [0x80, 0x88, 0x90, 0x91, 0x92, 0xA0, u16()].randomElement(using: &rng) ?? 0
            return FeliCaBlockListElement(serviceOrder: UInt8.random(in: 0...UInt8(max(0, min(15, services))), using: &rng), blockNumber: number,
                                          accessMode: Int.random(in: 0..<6, using: &rng) == 0 ? u8() & 7 : 0)
        }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            let codes: [UInt16] = [0xFFFF, 0x12FC, 0x88B4, 0x0003, 0xFE00, 0x8E4B, 0xFF00, u16()]
            return .polling(systemCode: codes.randomElement(using: &rng) ?? 0xFFFF, requestCode: u8() % 4, timeSlots: u8() % 16)
        case 1: return .requestService(idm: target, nodes: (0..<Int.random(in: 0...34, using: &rng)).map { _ in service() })
        case 2: return .requestResponse(idm: target)
        case 3, 4:
            let services = (0..<Int.random(in: 0...3, using: &rng)).map { _ in service() }
            let blocks = (0..<Int.random(in: 0...5, using: &rng)).map { _ in element(services.count) }
            if Bool.random(using: &rng) { return .readWithoutEncryption(idm: target, services: services, blocks: blocks) }
            return .writeWithoutEncryption(idm: target, services: services, blocks: blocks,
                                           data: (0..<16 * blocks.count).map { _ in u8() })
        case 5: return .searchServiceCode(idm: target, index: Bool.random(using: &rng) ? u16() % 12 : u16())
        case 6: return .requestSystemCode(idm: target)
        default: return .other(code: FeliCaCode(codes.randomElement(using: &rng) ?? 0x5A), idm: target, parameters: (0..<Int.random(in: 0...6, using: &rng)).map { _ in u8() })
        }
    }

    static func frame(_ idm: FeliCaIDm, _ rng: inout some RandomNumberGenerator) -> Frame {
        var bytes: [UInt8]
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 1:
            let body = (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            bytes = FeliCaLength.prefixed([codes.randomElement(using: &rng) ?? 0x06] + idm.bytes + body)
        default:
            bytes = command(idm, &rng).encode()
        }
        let stripped = Int.random(in: 0..<4, using: &rng) == 0
        if !stripped { bytes = CRC.appending(.felica, to: bytes) }
        if Int.random(in: 0..<20, using: &rng) == 0, !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= 0x10 }
        return Frame(.data(.readerToTag), technology: .felica, bytes: bytes, crcStripped: stripped)
    }

    @Test(arguments: ["felica-lite-s", "suica", "felica-two-systems"])
    func survivesRandomFrames(builtIn: String) throws {
        let dump = try #require(BuiltInTag.named(builtIn)?.make())
        let card = try #require(dump.makeTag() as? FeliCaCard)
        let seed = TestSeed(0xFE11_CA01)
        var rng = seed.generator
        var answered = 0
        for i in 0..<20_000 {
            if i % 500 == 0 { card.fieldOff(); card.fieldOn() }
            let frame = Self.frame(card.idm, &rng)
            guard let answer = card.respond(to: frame) else { continue }
            answered += 1
            let payload = frame.crcStripped ? answer.bytes : Array(answer.bytes.dropLast(2))
            #expect(answer.crcStripped == frame.crcStripped, "\(seed)")
            if !frame.crcStripped { #expect(CRC.check(.felica, answer.bytes) == .ok, "\(seed)") }
            #expect(FeliCaLength.check(payload) == .ok, "answer \(Hex.string(answer.bytes)), \(seed)")
            // The answer decodes as the answer to the command the card took the frame for.
            let request = frame.crcStripped ? frame.bytes : Array(frame.bytes.dropLast(2))
            let command = try #require(try? FeliCaCommand.decode(request), "answered an undecodable frame \(Hex.string(frame.bytes)), \(seed)")
            #expect((try? FeliCaResponse.decode(payload, answering: command)) != nil, "\(Hex.string(answer.bytes)) does not answer \(Hex.string(request)), \(seed)")
        }
        #expect(answered > 1000, "the generator reaches the card's commands, \(seed)")
        let saved = try #require(card.savedDump(), "\(seed)")
        #expect((try? TagDump.load(saved, name: "after-fuzz.nfc").makeTag()) != nil, "\(seed)")
    }
}
