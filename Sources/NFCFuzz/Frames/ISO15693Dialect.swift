import NFCCore

/// ISO/IEC 15693 (NFC-V) and NFC Forum Type 5 frames through `ISO15693Request` and
/// `ISO15693Response` (protocols.md §6).
struct ISO15693Dialect: FrameDialect {
    let technology = Technology.iso15693
    let memory = Type5Shape()

    func session(_ m: inout MutationContext) -> [FuzzFrame] {
        var image = memory.sessionContent(&m)
        let blockSize = m.random.pick(4, 4, 8, 32)
        if image.count % blockSize != 0 { image += [UInt8](repeating: 0, count: blockSize - image.count % blockSize) }
        let blockCount = image.count / blockSize
        let uid = ISO15693RequestShape.uid(&m.random)
        func r(_ q: ISO15693Request) -> FuzzFrame { .data(.reader, technology, payload: q.encode(), crc: true) }
        func t(_ a: ISO15693Response) -> FuzzFrame { .data(.tag, technology, payload: a.encode(), crc: true) }
        let addressed = m.random.bool()
        let flags: ISO15693RequestFlags = addressed ? .addressed() : .nonAddressed()
        var frames: [FuzzFrame] = [FuzzFrame(.fieldOn, technology),
            r(ISO15693Request(flags: .inventory(), command: .inventory(afi: nil, maskLength: 0, mask: []))),
            t(ISO15693Response(body: .inventory(dsfid: 0, uid: uid)))]
        if m.random.chance(70) {
            let info = ISO15693SystemInformation(uid: uid, dsfid: 0, afi: 0,
                                                 memorySize: ISO15693MemorySize(blockCount: blockCount, blockSize: blockSize, wideCount: blockCount > 256),
                                                 icReference: m.random.byte())
            frames += [r(ISO15693Request(flags: flags, command: .getSystemInformation, uid: addressed ? uid : nil)),
                       t(ISO15693Response(body: .systemInformation(info)))]
        }
        let option = m.random.chance(20)
        var first = 0
        while first < min(blockCount, 64) {
            let n = m.random.chance(40) ? 1 : min(blockCount - first, m.random.pick(2, 4, 8))
            var f = flags
            f.option = option
            let command: ISO15693Command = n == 1 ? .readSingleBlock(block: UInt16(first)) : .readMultipleBlocks(first: UInt16(first), count: n)
            let blocks = (first..<(first + n)).map { ISO15693Block(securityStatus: option ? 0 : nil, data: Array(image[($0 * blockSize)..<(($0 + 1) * blockSize)])) }
            frames += [r(ISO15693Request(flags: f, command: command, uid: addressed ? uid : nil)), t(ISO15693Response(body: .blocks(first: first, blocks)))]
            first += n
        }
        if m.random.chance(20) {
            frames += [r(ISO15693Request(flags: flags, command: .writeSingleBlock(block: UInt16(m.random.below(blockCount)), data: m.random.bytes(blockSize)), uid: addressed ? uid : nil)),
                       t(m.random.chance(80) ? .done : .error(ISO15693ErrorCode(rawValue: m.random.pick(0x12, 0x13, 0x10, 0x0F))))]
        }
        frames.append(FuzzFrame(.fieldOff, technology))
        return frames
    }

    func readerFrame(_ m: inout MutationContext) -> FuzzFrame {
        .data(.reader, technology, payload: ISO15693RequestShape.request(&m.random).encode(), crc: true)
    }

    func mutateReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let bytes = ISO15693RequestShape.mutate(Array(frame.payloadDroppingValidCRC()), &m) else { return nil }
        return .data(.reader, technology, payload: bytes, crc: !frame.crcStripped)
    }

    func decodes(_ frame: FuzzFrame) -> Bool {
        guard let payload = frame.payload(ifValidCRC: nil).map(Array.init) else { return false }
        return (try? ISO15693Request.decode(payload)) != nil
    }

    func breakReader(_ frame: FuzzFrame, _ m: inout MutationContext) -> FuzzFrame? {
        guard let bytes = ISO15693RequestShape.breakRequest(Array(frame.payloadDroppingValidCRC()), &m) else { return nil }
        return .data(.reader, technology, payload: bytes, crc: !frame.crcStripped)
    }

    func answer(to request: FuzzFrame?, _ m: inout MutationContext) -> FuzzFrame? {
        let q = request.flatMap { try? ISO15693Request.decode(Array($0.payloadDroppingValidCRC())) }
        let response: ISO15693Response
        if m.random.chance(15) {
            response = .error(ISO15693ErrorCode(rawValue: m.random.pick(0x01, 0x02, 0x03, 0x0F, 0x10, 0x12, 0x13, 0xA0)))
        } else {
            switch q?.command {
            case .inventory?: response = ISO15693Response(body: .inventory(dsfid: m.random.byte(), uid: ISO15693RequestShape.uid(&m.random)))
            case .getSystemInformation?, .extendedGetSystemInformation?:
                let info = ISO15693SystemInformation(uid: q?.uid ?? ISO15693RequestShape.uid(&m.random), dsfid: m.random.chance(50) ? 0 : nil,
                                                     afi: m.random.chance(50) ? m.random.byte() : nil,
                                                     memorySize: m.random.chance(80) ? ISO15693MemorySize(blockCount: 1 + m.random.below(256), blockSize: m.random.pick(4, 8, 32)) : nil,
                                                     icReference: m.random.chance(50) ? m.random.byte() : nil)
                response = ISO15693Response(body: .systemInformation(info))
            case let command? where command.readsBlocks:
                let range = command.blockRange ?? (first: 0, count: 1)
                let size = m.random.pick(4, 8, 32)
                let blocks = (0..<min(range.count, 64)).map { _ in ISO15693Block(securityStatus: q?.flags.option == true ? 0 : nil, data: m.random.bytes(size)) }
                response = ISO15693Response(body: .blocks(first: range.first, blocks))
            case let command? where command.code == 0x2C || command.code == 0x3C:
                let range = command.blockRange ?? (first: 0, count: 1)
                response = ISO15693Response(body: .securityStatus(first: range.first, (0..<min(range.count, 64)).map { _ in m.random.pick(0, 1) }))
            case .custom?, .proprietary?, .security?: response = ISO15693Response(body: .data(m.random.bytes(m.random.below(12))))
            default: response = .done
            }
        }
        return .data(.tag, technology, payload: response.encode(), crc: request?.crcStripped != true)
    }
}
