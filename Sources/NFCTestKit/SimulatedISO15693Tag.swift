import Foundation
import NFCCore

/// An ISO 15693 (NFC-V) tag as Core NFC hands it to the app. The app's request flags go on air
/// as given; with `.address` the tag's UID is put in the request. Requests and answers are
/// NFCCore's `ISO15693Request` / `ISO15693Response`; an error answer is
/// `readerTransceiveErrorTagResponseError` with the ISO 15693 error code in the details under
/// Core NFC's key.
public final class SimulatedISO15693Tag: SimulatedTag, NFCISO15693Tag {
    /// The tag's 8-byte UID (E0h, manufacturer code, serial number), as Core NFC gives it.
    public let identifier: Data
    /// The IC manufacturer code from the UID (ISO/IEC 7816-6: 04h NXP, 02h STMicroelectronics, 07h
    /// Texas Instruments …).
    public let icManufacturerCode: Int
    /// The IC serial number: the UID's last 6 bytes.
    public let icSerialNumber: Data
    let uid: ISO15693UID
    private var blockSize: Int?

    init(session: SimulatedTagReaderSession, air: SimulatedAir, uid: ISO15693UID) {
        self.uid = uid
        identifier = Data(uid.bytes)
        icManufacturerCode = Int(uid.manufacturerCode)
        icSerialNumber = Data(uid.bytes.suffix(6))
        super.init(session: session, air: air)
    }

    @discardableResult
    private func request(_ flags: RequestFlag, _ command: ISO15693Command) throws -> ISO15693Response.Body {
        let request = ISO15693Request(flags: ISO15693RequestFlags(rawValue: flags.rawValue & ~ISO15693RequestFlags.inventoryMask),
                                      command: command, uid: flags.contains(.address) ? uid : nil)
        let answer = try send(request.encode())
        guard let response = try? ISO15693Response.decode(answer.bytes, answering: request, blockSize: blockSize) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the answer to \(command.name) cannot be read")
        }
        if case .error(let code) = response.body {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, details: [NFCReaderError.iso15693TagResponseErrorKey: Int(code.rawValue)],
                                 message: "\(command.name): error \(Hex.byte(code.rawValue))")
        }
        return response.body
    }

    private func blocks(_ body: ISO15693Response.Body) throws -> [Data] {
        guard case .blocks(_, let blocks) = body else { throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no blocks in the answer") }
        return blocks.map { Data($0.data) }
    }

    /// With the option flag Core NFC returns the security status byte before the block's data.
    private func blockData(_ body: ISO15693Response.Body) throws -> Data {
        guard case .blocks(_, let blocks) = body, let b = blocks.first else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no block in the answer")
        }
        return Data((b.securityStatus.map { [$0] } ?? []) + b.data)
    }

    static func range(_ r: NSRange) throws -> (UInt16, Int) {
        guard r.location >= 0, r.length >= 1, r.location + r.length <= 0x10000 else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, message: "block range \(r.location)+\(r.length)")
        }
        return (UInt16(r.location), r.length)
    }

    /// READ SINGLE BLOCK (ISO/IEC 15693-3 command 20h): block `blockNumber`'s data, its block
    /// security status byte first when `requestFlags` has the option flag.
    public func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws -> Data {
        try blockData(request(requestFlags, .readSingleBlock(block: UInt16(blockNumber))))
    }
    /// WRITE SINGLE BLOCK (21h): `dataBlock`, one block long, into block `blockNumber`.
    public func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        try request(requestFlags, .writeSingleBlock(block: UInt16(blockNumber), data: Array(dataBlock)))
    }
    /// READ MULTIPLE BLOCKS (23h): the blocks of `blockRange`, one `Data` each.
    public func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let (first, count) = try Self.range(blockRange)
        return try blocks(request(requestFlags, .readMultipleBlocks(first: first, count: count)))
    }
    /// WRITE MULTIPLE BLOCKS (24h): `dataBlocks` into the blocks of `blockRange`.
    public func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        let (first, count) = try Self.range(blockRange)
        try request(requestFlags, .writeMultipleBlocks(first: first, count: count, data: dataBlocks.flatMap { Array($0) }))
    }
    /// LOCK BLOCK (22h): block `blockNumber` becomes read-only for good.
    public func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws {
        try request(requestFlags, .lockBlock(block: UInt16(blockNumber)))
    }

    /// GET SYSTEM INFORMATION (2Bh) as one value: UID, DSFID, AFI, block size and count, IC
    /// reference (-1 where the answer leaves a field out).
    public func systemInfo(requestFlags: RequestFlag) async throws -> NFCISO15693SystemInfo {
        guard case .systemInformation(let info) = try request(requestFlags, .getSystemInformation) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no system information in the answer")
        }
        if let size = info.memorySize { blockSize = size.blockSize }
        return NFCISO15693SystemInfo(uniqueIdentifier: Data(info.uid.bytes), dataStorageFormatIdentifier: info.dsfid.map(Int.init) ?? -1,
                                     applicationFamilyIdentifier: info.afi.map(Int.init) ?? -1, blockSize: info.memorySize?.blockSize ?? -1,
                                     totalBlocks: info.memorySize?.blockCount ?? -1, icReference: info.icReference.map(Int.init) ?? -1)
    }

    /// GET SYSTEM INFORMATION (2Bh) as Core NFC's tuple: DSFID, AFI, block size, block count and IC
    /// reference, -1 for each field the answer leaves out.
    public func getSystemInfo(requestFlags: RequestFlag) async throws -> (dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int, blockSize: Int, totalBlocks: Int, icReference: Int) {
        let i = try await systemInfo(requestFlags: requestFlags)
        return (i.dataStorageFormatIdentifier, i.applicationFamilyIdentifier, i.blockSize, i.totalBlocks, i.icReference)
    }

    /// WRITE AFI (27h): the tag's Application Family Identifier.
    public func writeAFI(requestFlags: RequestFlag, afi: UInt8) async throws { try request(requestFlags, .writeAFI(afi)) }
    /// LOCK AFI (28h): the AFI can no longer be written.
    public func lockAFI(requestFlags: RequestFlag) async throws { try request(requestFlags, .lockAFI) }
    /// WRITE DSFID (29h): the tag's Data Storage Format Identifier.
    public func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8) async throws { try request(requestFlags, .writeDSFID(dsfid)) }
    /// LOCK DSFID (2Ah), under Core NFC's spelling `lockDFSID`: the DSFID can no longer be written.
    public func lockDFSID(requestFlags: RequestFlag) async throws { try request(requestFlags, .lockDSFID) }

    /// Stay Quiet has no answer: the tag is silent by design, so silence is success here.
    public func stayQuiet() async throws {
        do {
            try request([.highDataRate, .address], .stayQuiet)
        } catch let e as NFCReaderError where e.code == .readerTransceiveErrorTagConnectionLost && air.present {
            return
        }
    }

    /// GET MULTIPLE BLOCK SECURITY STATUS (2Ch): one block security status per block of
    /// `blockRange` (bit 0 set: the block is locked).
    public func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        let (first, count) = try Self.range(blockRange)
        guard case .securityStatus(_, let status) = try request(requestFlags, .getMultipleBlockSecurityStatus(first: first, count: count)) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no security status in the answer")
        }
        return status.map { NSNumber(value: $0) }
    }

    /// EXTENDED READ SINGLE BLOCK (30h): READ SINGLE BLOCK with a 16-bit block number, for tags of
    /// more than 256 blocks.
    public func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int) async throws -> Data {
        try blockData(request(requestFlags, .extendedReadSingleBlock(block: UInt16(clamping: blockNumber))))
    }
    /// EXTENDED WRITE SINGLE BLOCK (31h): WRITE SINGLE BLOCK with a 16-bit block number.
    public func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        try request(requestFlags, .extendedWriteSingleBlock(block: UInt16(clamping: blockNumber), data: Array(dataBlock)))
    }
    /// EXTENDED LOCK BLOCK (32h): LOCK BLOCK with a 16-bit block number.
    public func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int) async throws {
        try request(requestFlags, .extendedLockBlock(block: UInt16(clamping: blockNumber)))
    }
    /// EXTENDED READ MULTIPLE BLOCKS (33h): READ MULTIPLE BLOCKS with 16-bit block numbers.
    public func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        let (first, count) = try Self.range(blockRange)
        return try blocks(request(requestFlags, .extendedReadMultipleBlocks(first: first, count: count)))
    }

    /// Custom commands carry the tag's IC manufacturer code, as Core NFC puts it in.
    public func customCommand(requestFlags: RequestFlag, customCommandCode: Int, customRequestParameters: Data) async throws -> Data {
        guard (0xA0...0xDF).contains(customCommandCode) else {
            throw NFCReaderError(.readerErrorParameterOutOfBound, message: "custom command codes are A0…DF")
        }
        let body = try request(requestFlags, .custom(code: UInt8(customCommandCode), manufacturer: uid.manufacturerCode,
                                                     parameters: Array(customRequestParameters)))
        if case .data(let d) = body { return Data(d) }
        return Data()
    }

    // NDEF: the NFC Forum Type 5 mapping (CC in block 0, TLVs after it), read and written with
    // single-block commands, addressed, high data rate.

    private static let ndefFlags: RequestFlag = [.highDataRate, .address]

    /// The CC, and with `walk` the TLVs read block by block until the NDEF TLV ends.
    private func memoryLayout(walk: Bool) async throws -> (Type5MemoryLayout, [UInt8], Int) {
        let size = try await systemInfo(requestFlags: Self.ndefFlags)
        let blockSize = max(1, size.blockSize), total = max(1, size.totalBlocks)
        var bytes: [UInt8] = []
        while bytes.count < 8 && bytes.count / blockSize < total {
            bytes += try await readSingleBlock(requestFlags: Self.ndefFlags, blockNumber: UInt8(bytes.count / blockSize))
        }
        let end = blockSize * total
        while true {
            let layout = Type5Memory.decode(TagMemoryImage(bytes: bytes + [UInt8](repeating: 0, count: end - bytes.count),
                                                           known: [Bool](repeating: true, count: bytes.count) + [Bool](repeating: false, count: end - bytes.count)))
            let done = !walk || layout.capabilityContainer?.isNDEF != true || layout.ndef?.tlv.isComplete == true
                || layout.tlvArea?.tlvs.last?.tag == .terminator || bytes.count >= end
            if done { return (layout, bytes, blockSize) }
            bytes += try await readSingleBlock(requestFlags: Self.ndefFlags, blockNumber: UInt8(truncatingIfNeeded: bytes.count / blockSize))
        }
    }

    /// The NFC Forum Type 5 status from the Capability Container in block 0: read-write when its
    /// write access is "always"; capacity the data area less the NDEF TLV's header.
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        let (layout, _, _) = try await memoryLayout(walk: false)
        guard let cc = layout.capabilityContainer, cc.isNDEF else { return (.notSupported, 0) }
        let capacity = cc.dataAreaSize - (cc.dataAreaSize > 0xFE ? 4 : 2)
        return (cc.writeAccess == .always ? .readWrite : .readOnly, max(0, capacity))
    }

    /// The NDEF message of the Type 5 tag: the CC, then the TLVs read block by block until the NDEF
    /// Message TLV ends (addressed, high data rate).
    public func readNDEF() async throws -> NFCNDEFMessage {
        let (layout, _, _) = try await memoryLayout(walk: true)
        guard layout.capabilityContainer?.isNDEF == true, let ndef = layout.ndef, ndef.result.isValid else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no NDEF message on the tag")
        }
        return NFCNDEFMessage(ndef.result.message)
    }

    /// Writes `ndefMessage` into the NDEF Message TLV after the CC, block by block, with a
    /// Terminator TLV when it fits.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        guard !ndefMessage.records.isEmpty, let encoded = ndefMessage.encoded else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "an empty message")
        }
        let (layout, head, blockSize) = try await memoryLayout(walk: false)
        guard let cc = layout.capabilityContainer, cc.isNDEF else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the tag is not formatted for NDEF (no CC)")
        }
        guard cc.writeAccess == .always else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the CC says read-only") }
        var area: [UInt8]
        do { area = try TagTLV.encode(.ndef, value: encoded) } catch {
            throw NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, message: "\(error)")
        }
        if area.count < cc.dataAreaSize { area.append(0xFE) }
        guard area.count <= cc.dataAreaSize else {
            throw NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, message: "\(area.count) bytes do not fit \(cc.dataAreaSize)")
        }
        // The CC's own bytes stay; the TLVs start right after it and are padded to whole blocks.
        let start = cc.length
        var bytes = [UInt8](repeating: 0, count: start) + area
        if bytes.count % blockSize != 0 { bytes += [UInt8](repeating: 0, count: blockSize - bytes.count % blockSize) }
        let firstBlock = start / blockSize
        bytes.replaceSubrange(firstBlock * blockSize..<start, with: head[firstBlock * blockSize..<start])
        for block in firstBlock..<(bytes.count / blockSize) {
            try await writeSingleBlock(requestFlags: Self.ndefFlags, blockNumber: UInt8(truncatingIfNeeded: block),
                                       dataBlock: Data(bytes[block * blockSize..<(block + 1) * blockSize]))
        }
    }

    /// The NFC Forum procedure for read-only: the CC's write access to "never", then every block
    /// of the CC and the data area locked.
    public func writeLock() async throws {
        let (layout, head, blockSize) = try await memoryLayout(walk: false)
        guard var cc = layout.capabilityContainer, cc.isNDEF else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the tag is not formatted for NDEF (no CC)")
        }
        guard cc.writeAccess == .always else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "already read-only") }
        cc.versionAndAccess |= 0x03
        var first = Array(head.prefix(blockSize))
        first.replaceSubrange(0..<min(blockSize, cc.length), with: cc.bytes.prefix(blockSize))
        try await writeSingleBlock(requestFlags: Self.ndefFlags, blockNumber: 0, dataBlock: Data(first))
        let blocks = (cc.length + cc.dataAreaSize + blockSize - 1) / blockSize
        for block in 0..<min(blocks, 256) {
            try await lockBlock(requestFlags: Self.ndefFlags, blockNumber: UInt8(block))
        }
    }
}
