import NFCCore

/// Read / Write Without Encryption on a FeliCa Standard system (protocols.md §5.3–§5.6).
///
/// The whole command is checked before anything is read or written (a refused Write changes
/// nothing), elements in list order, the first problem answers:
///
/// | check | status |
/// |---|---|
/// | no or more than 16 services (§9 #14: Sony/PM3 allow 16, T3T readers only need 15) | `FF A1` |
/// | no or more than 15 blocks | `FF A2` |
/// | element names a service beyond the service list | element + `A3` |
/// | access mode other than `000` (`001` only for a purse cash-back service) | element + `A7` |
/// | service not in the current system (§9 #13: Sony/PM3 `A6`; nfcpy's emulator says `FF A1`) | element + `A6` |
/// | service needs a key (even attribute) — "Area or Service … cannot be accessed" (Sony) | element + `A5` |
/// | Write to a read-only service (random/cyclic read-only, purse read-only) | element + `A4` |
/// | block number beyond the service's blocks (§9 #13: nfcpy's emulator says `A2`) | element + `A8` |
/// | Write to a cyclic service names a block other than 0, the record being added | element + `A8` |
/// | a second Write to the same cyclic service in one command | element + `AF` |
/// | purse cash-back beyond `FFFFFFFF`, or decrement below 0 | element + `01` |
///
/// SF1 names the element Sony's way, its number in the block list (§9 #12; the dissector reads
/// SF1 the same way, docs/felica.md).
extension FeliCaCardSystem {
    static let location = FeliCaStatusFlags.LocationConvention.listNumber

    /// The answer to Read Without Encryption: status and, when it is `00 00`, the blocks.
    func read(services: [FeliCaServiceCode], blocks list: [FeliCaBlockListElement]) -> (FeliCaStatusFlags, [[UInt8]]) {
        if let refusal = refusal(services: services, blocks: list, writing: nil) { return (refusal, []) }
        var out: [[UInt8]] = []
        for b in list {
            guard let service = services.dropFirst(Int(b.serviceOrder)).first, let data = block(service, Int(b.blockNumber)) else { continue }
            out.append(data)
        }
        return (.success, out)
    }

    /// Write Without Encryption: checks everything, then writes every element in list order.
    mutating func write(services: [FeliCaServiceCode], blocks list: [FeliCaBlockListElement], data: [UInt8]) -> FeliCaStatusFlags {
        if let refusal = refusal(services: services, blocks: list, writing: data) { return refusal }
        for (i, b) in list.enumerated() {
            guard let service = services.dropFirst(Int(b.serviceOrder)).first else { continue }
            let new = Array(data.dropFirst(16 * i).prefix(16))
            let number = Int(b.blockNumber)
            switch service.organisation {
            case .cyclic?:
                pushRecord(service, new)
            case .purse?:
                if let result = purseResult(service, number, new) { setBlock(service, number, result) }
            default:
                setBlock(service, number, new)
            }
        }
        return .success
    }

    /// The first problem of the command, or nil. `writing` holds a Write's block data.
    func refusal(services: [FeliCaServiceCode], blocks list: [FeliCaBlockListElement], writing: [UInt8]?) -> FeliCaStatusFlags? {
        let problems = FeliCaListProblem.check(services: services, blocks: list)
        if let whole = problems.first(where: { $0.element == nil }) { return .command(sf2: whole.statusFlag2) }
        var cyclicWritten: Set<UInt16> = []
        // Purse results of earlier elements of the same command, so that two operations on one
        // purse block add up the way the card would execute them.
        var purses: [UInt16: [Int: [UInt8]]] = [:]
        for (i, b) in list.enumerated() {
            func refuse(_ sf2: UInt8) -> FeliCaStatusFlags { .element(i, sf2: sf2, Self.location) }
            if let p = problems.first(where: { $0.element == i }) { return refuse(p.statusFlag2) }
            guard let service = services.dropFirst(Int(b.serviceOrder)).first, hasService(service) else { return refuse(0xA6) }
            if service.needsKey { return refuse(0xA5) }
            let cashBack = service.attribute & 0x3E == 0x12
            if b.accessMode == 1 && !cashBack { return refuse(0xA7) }
            let number = Int(b.blockNumber)
            guard let data = writing else {
                if number >= blockCount(service) { return refuse(0xA8) }
                continue
            }
            if !service.isWritable { return refuse(0xA4) }
            if service.organisation == .cyclic {
                if number != 0 || blockCount(service) == 0 { return refuse(0xA8) }
                if cyclicWritten.contains(service.number) { return refuse(0xAF) }
                cyclicWritten.insert(service.number)
                continue
            }
            guard let current = purses[service.number]?[number] ?? block(service, number) else { return refuse(0xA8) }
            if service.organisation == .purse {
                let new = Array(data.dropFirst(16 * i).prefix(16))
                guard let result = Self.purseOperation(service, current: current, written: new) else { return refuse(0x01) }
                purses[service.number, default: [:]][number] = result
            }
        }
        return nil
    }

    /// The purse block after a write (nil: under- or overflow). Direct writes replace the
    /// block; cash-back adds and decrement subtracts bytes 0–3 of the written block; both keep
    /// bytes 4–13 and take the execution ID written (protocols.md §5.4, FeliCaPurseBlock).
    static func purseOperation(_ service: FeliCaServiceCode, current: [UInt8], written: [UInt8]) -> [UInt8]? {
        switch service.attribute & 0x3E {
        case 0x12, 0x14:
            guard var purse = try? FeliCaPurseBlock.decode(current), let op = try? FeliCaPurseBlock.decode(written) else { return nil }
            if service.attribute & 0x3E == 0x12 {
                let (sum, overflow) = purse.value.addingReportingOverflow(op.value)
                if overflow { return nil }
                purse.value = sum
            } else {
                guard op.value <= purse.value else { return nil }
                purse.value -= op.value
            }
            purse.executionID = op.executionID
            return purse.bytes
        default:
            return written
        }
    }

    private func purseResult(_ service: FeliCaServiceCode, _ number: Int, _ written: [UInt8]) -> [UInt8]? {
        guard let current = block(service, number) else { return nil }
        return Self.purseOperation(service, current: current, written: written)
    }
}
