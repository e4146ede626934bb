import NFCCore

/// The ISO/IEC 15693-3 commands (10.3, 10.4) and the NXP custom ones, executed on the tag's
/// state; each returns the outcome `reply` turns into a frame.
extension ISO15693Tag {
    func execute(_ r: ISO15693Request, mode: Mode, frame: Frame) -> Frame? {
        let command = r.command
        switch command {
        case .inventory:
            // Inventory without the inventory flag: b5–b6 mean select/address, no VICC answers.
            return nil
        case .stayQuiet:
            // Always addressed, never answered (10.3.2); Selected and Ready both go Quiet.
            if mode == .addressed { state = .quiet }
            return nil
        case .select where mode != .addressed:
            // Select is executed in addressed mode only (10.4.6); nothing to answer.
            return nil
        default:
            break
        }
        guard configuration.supports(command) else { return reply(.error(.commandNotSupported), mode: mode, to: frame) }
        let option = r.flags.option
        if option && !configuration.acceptsOptionFlag(command) {
            return reply(.error(.optionNotSupported), mode: mode, to: frame)
        }
        let outcome = outcome(of: command, option: option)
        // Write-alike commands with the option flag answer after the reader's EOF (7.3.1 Table 4);
        // the EOF is no frame, so the answer is returned at once and marked.
        let afterEOF = option && isWriteAlike(command)
        return reply(outcome, mode: mode, afterEOF: afterEOF, to: frame)
    }

    private func isWriteAlike(_ c: ISO15693Command) -> Bool {
        switch c {
        case .writeSingleBlock, .writeMultipleBlocks, .lockBlock, .writeAFI, .lockAFI, .writeDSFID, .lockDSFID,
             .extendedWriteSingleBlock, .extendedWriteMultipleBlocks, .extendedLockBlock:
            return true
        default:
            return false
        }
    }

    private func outcome(of command: ISO15693Command, option: Bool) -> Outcome {
        switch command {
        case .select:
            state = .selected
            return .answer(.done)
        case .resetToReady:
            state = .ready
            return .answer(.done)
        case .readSingleBlock(let b), .extendedReadSingleBlock(let b):
            return read(first: Int(b), count: 1, securityStatus: option)
        case .readMultipleBlocks(let f, let n), .extendedReadMultipleBlocks(let f, let n):
            return read(first: Int(f), count: n, securityStatus: option)
        case .writeSingleBlock(let b, let d), .extendedWriteSingleBlock(let b, let d):
            return write(first: Int(b), count: 1, data: d)
        case .writeMultipleBlocks(let f, let n, let d), .extendedWriteMultipleBlocks(let f, let n, let d):
            return write(first: Int(f), count: n, data: d)
        case .lockBlock(let b), .extendedLockBlock(let b):
            return lock(Int(b))
        case .getMultipleBlockSecurityStatus(let f, let n), .extendedGetMultipleBlockSecurityStatus(let f, let n):
            let first = Int(f)
            guard memory.contains(first), first + n <= memory.blockCount else { return .error(.blockNotAvailable) }
            return .answer(ISO15693Response(body: .securityStatus(first: first, (first..<first + n).map(memory.securityStatus))))
        case .writeAFI(let v):
            // A locked AFI cannot change (12); Lock AFI on a locked AFI is "already locked" (11).
            guard !memory.afiLocked else { return .error(.blockLocked) }
            memory.afi = v
            return .answer(.done)
        case .lockAFI:
            guard !memory.afiLocked else { return .error(.blockAlreadyLocked) }
            memory.afiLocked = true
            return .answer(.done)
        case .writeDSFID(let v):
            guard !memory.dsfidLocked else { return .error(.blockLocked) }
            memory.dsfid = v
            return .answer(.done)
        case .lockDSFID:
            guard !memory.dsfidLocked else { return .error(.blockAlreadyLocked) }
            memory.dsfidLocked = true
            return .answer(.done)
        case .getSystemInformation:
            return .answer(ISO15693Response(body: .systemInformation(systemInformation())))
        case .extendedGetSystemInformation(let requested):
            return .answer(ISO15693Response(body: .systemInformation(extendedSystemInformation(requested))))
        case .custom(let code, _, let parameters):
            return custom(code, parameters: parameters)
        default:
            return .error(.commandNotSupported)
        }
    }

    // MARK: blocks

    /// Read Single / Multiple Blocks (10.4.1, 10.4.4): a block past the last is not available
    /// (`10`, as the Texas Instruments Tag-it answers per ChameleonMini's TITagitstandard.c);
    /// with the option flag each block comes after its security status byte.
    private func read(first: Int, count: Int, securityStatus: Bool) -> Outcome {
        guard count >= 1, memory.contains(first), first + count <= memory.blockCount else { return .error(.blockNotAvailable) }
        let blocks = (first..<first + count).map { n in
            ISO15693Block(securityStatus: securityStatus ? memory.securityStatus(n) : nil, data: memory.block(n))
        }
        return .answer(ISO15693Response(body: .blocks(first: first, blocks)))
    }

    /// Write Single / Multiple Blocks (10.4.2, 10.4.5). Checked before anything is written, so
    /// a refused Write Multiple Blocks changes nothing: data that is not `count` blocks of the
    /// block size is a format error (`02`), a block past the last `10`, a locked block `12`, a
    /// failing block `13`.
    private func write(first: Int, count: Int, data: [UInt8]) -> Outcome {
        guard count >= 1, data.count == count * memory.blockSize else { return .error(.commandNotRecognised) }
        guard memory.contains(first), first + count <= memory.blockCount else { return .error(.blockNotAvailable) }
        let range = first..<first + count
        if range.contains(where: memory.isLocked) { return .error(.blockLocked) }
        if range.contains(where: memory.failingBlocks.contains) { return .error(.blockProgrammingFailed) }
        for (k, n) in range.enumerated() {
            memory.setBlock(n, data[k * memory.blockSize..<(k + 1) * memory.blockSize])
        }
        return .answer(.done)
    }

    /// Lock Block (10.4.3): permanent. `10` past the last block, `11` when already locked,
    /// `14` when the lock fails.
    private func lock(_ n: Int) -> Outcome {
        guard memory.contains(n) else { return .error(.blockNotAvailable) }
        guard !memory.isLocked(n) else { return .error(.blockAlreadyLocked) }
        guard !memory.failingBlocks.contains(n) else { return .error(.blockLockFailed) }
        memory.setLocked(n)
        return .answer(.done)
    }

    // MARK: system information

    /// Get System Information (10.4.12): the fields the configuration reports. The memory size
    /// is sent minus one (protocols.md §9 #18) and only fits 256 blocks; larger memories leave
    /// it to Extended Get System Information.
    func systemInformation() -> ISO15693SystemInformation {
        let flags = configuration.systemInformationFlags
        let fitsOneByte = memory.blockCount <= 256
        return ISO15693SystemInformation(
            uid: memory.uid,
            dsfid: flags & ISO15693SystemInformation.dsfidFlag != 0 ? memory.dsfid : nil,
            afi: flags & ISO15693SystemInformation.afiFlag != 0 ? memory.afi : nil,
            memorySize: flags & ISO15693SystemInformation.memorySizeFlag != 0 && fitsOneByte
                ? ISO15693MemorySize(blockCount: memory.blockCount, blockSize: memory.blockSize) : nil,
            icReference: flags & ISO15693SystemInformation.icReferenceFlag != 0 ? configuration.icReference : nil)
    }

    /// Extended Get System Information (`3B`): the requested fields the VICC has — DSFID, AFI,
    /// memory size (2-byte count), IC reference, and the MOI flag when block numbers need 2
    /// bytes. The command list and CSI (b6, b7) are not emulated and never reported.
    private func extendedSystemInformation(_ requested: UInt8) -> ISO15693SystemInformation {
        let info = ISO15693SystemInformation.self
        var flags = requested & (info.dsfidFlag | info.afiFlag | info.memorySizeFlag | info.icReferenceFlag)
        if requested & info.b5Flag != 0 && memory.blockCount > 256 { flags |= info.b5Flag }
        return ISO15693SystemInformation(
            layout: .extended, infoFlags: flags, uid: memory.uid,
            dsfid: flags & info.dsfidFlag != 0 ? memory.dsfid : nil,
            afi: flags & info.afiFlag != 0 ? memory.afi : nil,
            memorySize: flags & info.memorySizeFlag != 0
                ? ISO15693MemorySize(blockCount: memory.blockCount, blockSize: memory.blockSize, wideCount: true) : nil,
            icReference: flags & info.icReferenceFlag != 0 ? configuration.icReference : nil)
    }

    // MARK: NXP custom commands

    /// GET RANDOM NUMBER, READ SIGNATURE and GET NXP SYSTEM INFORMATION take no parameters:
    /// more bytes are a format error (`02`).
    private func custom(_ code: UInt8, parameters: [UInt8]) -> Outcome {
        guard let command = ISO15693NXPCustomCommand(rawValue: code) else { return .error(.commandNotSupported) }
        guard parameters.isEmpty else { return .error(.commandNotRecognised) }
        let icode = memory.icode ?? ICODEData()
        switch command {
        case .getRandomNumber:
            let r = UInt16.random(in: 0...UInt16.max, using: &random)
            return .answer(ISO15693Response(body: .data([UInt8(truncatingIfNeeded: r), UInt8(truncatingIfNeeded: r >> 8)])))
        case .readSignature:
            return .answer(ISO15693Response(body: .data(icode.signature)))
        case .getNXPSystemInformation:
            var locks: UInt8 = 0
            if memory.afiLocked { locks |= ISO15693NXPSystemInformation.afiLocked }
            if icode.easLocked { locks |= ISO15693NXPSystemInformation.easLocked }
            if memory.dsfidLocked { locks |= ISO15693NXPSystemInformation.dsfidLocked }
            if icode.protectionLocked { locks |= ISO15693NXPSystemInformation.protectionLocked }
            let info = ISO15693NXPSystemInformation(protectionPointer: icode.protectionPointer, protectionCondition: icode.protectionCondition,
                                                    lockBits: locks, featureFlags: ISO15693NXPSystemInformation.slix2FeatureFlags)
            return .answer(ISO15693Response(body: .data(info.encode())))
        }
    }
}
