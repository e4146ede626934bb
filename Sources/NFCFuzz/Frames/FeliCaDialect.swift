import NFCCore

/// FeliCa (JIS X 6319-4) and NFC Forum Type 3 Tag frames through `FeliCaCommand` and
/// `FeliCaResponse` (protocols.md §5): service and block lists, block counts, IDm, block data.
struct FeliCaDialect: FrameDialect {
    let technology = Technology.felica
    let memory = Type3Shape()

    static let serviceCodes: [UInt16] = [0x000B, 0x0009, 0x090F, 0x1809, 0x108F, 0x0048, 0x008B, 0xFFFF, 0x0000]
    static let systemCodes: [UInt16] = [0xFFFF, 0x12FC, 0x0003, 0x88B4, 0xFE00, 0x8008]

    static func idm(_ r: inout FuzzRandom) -> FeliCaIDm {
        FeliCaIDm(rawValue: r.pick(0x0114_B3A1_2233_4455, 0x01FE_0102_0304_0506, 0x0000_0000_0000_0000, r.next()))
    }

    static func services(_ r: inout FuzzRandom) -> [FeliCaServiceCode] {
        (0..<r.pick(1, 1, 2, 3, 0, 16, 17)).map { _ in FeliCaServiceCode(r.chance(80) ? (r.element(serviceCodes) ?? 0x000B) : r.uint16()) }
    }

    static func blocks(_ r: inout FuzzRandom, services: Int) -> [FeliCaBlockListElement] {
        (0..<r.pick(1, 1, 2, 4, 0, 15, 16)).map { i in
            let order = r.chance(90) ? UInt8(r.below(max(1, services))) : UInt8(r.below(16))
            let number: UInt16 = r.chance(70) ? UInt16(i) : (r.chance(50) ? UInt16(r.pick(0x80, 0x88, 0x0E, 0xFF)) : r.uint16())
            return FeliCaBlockListElement(serviceOrder: order, blockNumber: number, accessMode: r.chance(95) ? 0 : UInt8(r.below(8)),
                                          form: r.chance(80) ? nil : .threeByte)
        }
    }

    static func command(_ r: inout FuzzRandom, idm: FeliCaIDm) -> FeliCaCommand {
        let services = Self.services(&r)
        let blocks = Self.blocks(&r, services: services.count)
        switch r.below(11) {
        case 0, 1: return .polling(systemCode: r.element(systemCodes) ?? 0xFFFF, requestCode: r.pick(0, 1, 2, 3), timeSlots: r.pick(0, 1, 3, 7, 0x0F, 0xFF))
        case 2: return .requestService(idm: idm, nodes: services)
        case 3: return .requestResponse(idm: idm)
        case 4, 5: return .readWithoutEncryption(idm: idm, services: services, blocks: blocks)
        case 6: return .writeWithoutEncryption(idm: idm, services: services, blocks: blocks, data: r.bytes(16 * blocks.count))
        case 7: return .searchServiceCode(idm: idm, index: r.uint16())
        case 8: return .requestSystemCode(idm: idm)
        case 9: return r.pick(.requestSpecificationVersion(idm: idm, reserved: 0), .getSystemStatus(idm: idm, reserved: 0), .resetMode(idm: idm, reserved: 0))
        default: return .other(code: FeliCaCode(r.pick(0x0E, 0x10, 0x14, 0x1A, 0x24, 0x32, 0x3A, 0xA0, r.byte() & 0xFE)), idm: idm, parameters: r.bytes(r.below(12)))
        }
    }

    func session(_ m: inout MutationContext) -> [FuzzFrame] {
        let image = memory.sessionContent(&m)
        let idm = Self.idm(&m.random)
        let pmm = FeliCaPMm(rawValue: m.random.pick(0x0010_0B4B_428F_FF00, 0x0012_0B4B_4293_FF00, 0x00F1_0000_0001_4300))
        func r(_ c: FeliCaCommand) -> FuzzFrame { .data(.reader, technology, payload: c.encode(), crc: true) }
        func t(_ a: FeliCaResponse) -> FuzzFrame { .data(.tag, technology, payload: a.encode(), crc: true) }
        let ndef = FeliCaServiceCode.ndefRead
        var frames: [FuzzFrame] = [FuzzFrame(.fieldOn, technology),
            r(.polling(systemCode: m.random.pick(0xFFFF, 0x12FC), requestCode: 1, timeSlots: 0)),
            t(.polling(idm: idm, pmm: pmm, requestData: 0x12FC))]
        if m.random.chance(50) { frames += [r(.requestService(idm: idm, nodes: [ndef])), t(.requestService(idm: idm, keyVersions: [0x0000]))] }
        let blockCount = image.count / 16
        var first = 0
        while first < min(blockCount, 32) {
            let n = min(m.random.pick(1, 4, 4, 12), blockCount - first)
            let list = (first..<(first + n)).map { FeliCaBlockListElement(serviceOrder: 0, blockNumber: UInt16($0)) }
            let data = (first..<(first + n)).map { Array(image[($0 * 16)..<($0 * 16 + 16)]) }
            frames += [r(.readWithoutEncryption(idm: idm, services: [ndef], blocks: list)),
                       t(.readWithoutEncryption(idm: idm, status: .success, blocks: data))]
            first += n
        }
        if m.random.chance(20) {
            let list = [FeliCaBlockListElement(serviceOrder: 0, blockNumber: UInt16(m.random.below(4)))]
            frames += [r(.writeWithoutEncryption(idm: idm, services: [.ndefWrite], blocks: list, data: m.random.bytes(16))),
                       t(.writeWithoutEncryption(idm: idm, status: m.random.pick(.success, FeliCaStatusFlags(sf1: 0x01, sf2: 0xA8))))]
        }
        if m.random.chance(20) { frames += [r(.requestSystemCode(idm: idm)), t(.requestSystemCode(idm: idm, systemCodes: [0x12FC, 0x0003]))] }
        frames.append(FuzzFrame(.fieldOff, technology))
        return frames
    }

    func readerFrame(_ m: inout MutationContext) -> FuzzFrame {
        .data(.reader, technology, payload: Self.command(&m.random, idm: Self.idm(&m.random)).encode(), crc: true)
    }

    func mutateReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let bytes = FeliCaCommandShape.mutate(Array(frame.payloadDroppingValidCRC()), &m) else { return nil }
        return .data(.reader, technology, payload: bytes, crc: !frame.crcStripped)
    }

    func decodes(_ frame: FuzzFrame) -> Bool {
        guard let payload = frame.payload(ifValidCRC: nil).map(Array.init) else { return false }
        return (try? FeliCaCommand.decode(payload)) != nil
    }

    func breakReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let bytes = FeliCaCommandShape.breakCommand(Array(frame.payloadDroppingValidCRC()), &m) else { return nil }
        return .data(.reader, technology, payload: bytes, crc: !frame.crcStripped)
    }

    func answer(to request: FuzzFrame?, _ m: inout MutationContext) -> FuzzFrame? {
        let command = request.flatMap { try? FeliCaCommand.decode(Array($0.payloadDroppingValidCRC())) }
        let idm = command?.idm ?? Self.idm(&m.random)
        let status = m.random.chance(75) ? FeliCaStatusFlags.success
            : FeliCaStatusFlags(sf1: m.random.pick(0x01, 0xFF, 0x02), sf2: m.random.pick(0xA1, 0xA2, 0xA3, 0xA6, 0xA8, 0xB2, 0x70))
        let response: FeliCaResponse
        switch command {
        case .polling(_, let rc, _)?:
            response = .polling(idm: idm, pmm: FeliCaPMm(rawValue: m.random.next()), requestData: rc == 0 ? nil : m.random.pick(0x12FC, 0x0003, 0x0083))
        case .requestService(_, let nodes)?: response = .requestService(idm: idm, keyVersions: nodes.map { _ in m.random.pick(0x0000, 0xFFFF) })
        case .readWithoutEncryption(_, _, let blocks)?:
            response = .readWithoutEncryption(idm: idm, status: status, blocks: status.isSuccess ? blocks.map { _ in FeliCaBlocksShape.block(&m.random) } : [])
        case .writeWithoutEncryption?: response = .writeWithoutEncryption(idm: idm, status: status)
        case .requestSystemCode?: response = .requestSystemCode(idm: idm, systemCodes: (0..<m.random.below(4)).map { _ in m.random.element(Self.systemCodes) ?? 0 })
        case .requestResponse?: response = .requestResponse(idm: idm, mode: UInt8(m.random.below(4)))
        case .requestSpecificationVersion?:
            response = .requestSpecificationVersion(idm: idm, status: status, version: status.isSuccess ? FeliCaSpecificationVersion(basicVersion: 0x0300, optionVersions: [0x0300]) : nil)
        case .resetMode?: response = .resetMode(idm: idm, status: status)
        default: response = .other(code: FeliCaCode((command?.code.rawValue ?? m.random.byte()) &+ 1), idm: idm, parameters: m.random.bytes(m.random.below(10)))
        }
        return .data(.tag, technology, payload: response.encode(), crc: request?.crcStripped != true)
    }
}
