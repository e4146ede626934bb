import Foundation
import NFCCore

/// A FeliCa card as Core NFC hands it to the app: found by polling one of the app's Info.plist
/// system codes, addressed by the IDm that polling returned. Commands built and answers read by
/// NFCCore's `FeliCaCommand` / `FeliCaResponse`; LEN and CRC are Core NFC's business.
public final class SimulatedFeliCaTag: SimulatedTag, NFCFeliCaTag {
    /// The system code of the system the last Polling selected, 2 bytes, big-endian.
    public private(set) var currentSystemCode: Data
    /// The 8-byte IDm of the system the last Polling selected: the card's address in every command.
    public private(set) var currentIDm: Data
    var idm: FeliCaIDm

    init(session: SimulatedTagReaderSession, air: SimulatedAir, idm: FeliCaIDm, systemCode: UInt16) {
        self.idm = idm
        currentIDm = Data(idm.bytes)
        currentSystemCode = Data([UInt8(systemCode >> 8), UInt8(systemCode & 0xFF)])
        super.init(session: session, air: air)
    }

    /// The card's answer to `command`, decoded as its answer; a wrong answer code or another
    /// card's IDm is a response error.
    private func exchange(_ command: FeliCaCommand) throws -> FeliCaResponse {
        let answer = try send(command.encode())
        guard let response = try? FeliCaResponse.decode(answer.bytes, answering: command) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the card's answer cannot be read as the answer to \(command.code)")
        }
        if let expected = command.idm, response.idm != expected {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the answer carries another IDm")
        }
        return response
    }

    static func systemCode(_ data: Data) throws -> UInt16 {
        guard data.count == 2 else { throw NFCReaderError(.readerErrorInvalidParameterLength, message: "a system code is 2 bytes") }
        return UInt16(data[data.startIndex]) << 8 | UInt16(data[data.startIndex + 1])
    }

    /// Service and area codes as the app gives them: 2 bytes, little endian as on air.
    static func serviceCodes(_ list: [Data]) throws -> [FeliCaServiceCode] {
        try list.map { d in
            guard d.count == 2 else { throw NFCReaderError(.readerErrorInvalidParameterLength, message: "a service code is 2 bytes") }
            return FeliCaServiceCode(UInt16(d[d.startIndex]) | UInt16(d[d.startIndex + 1]) << 8)
        }
    }

    static func blocks(_ list: [Data]) throws -> [FeliCaBlockListElement] {
        try list.map { d in
            guard let e = FeliCaBlockListElement(bytes: d) else {
                throw NFCReaderError(.readerErrorInvalidParameter, message: "a block list element is 2 or 3 bytes")
            }
            return e
        }
    }

    /// Polling (command 00h) for `systemCode`: the card's PMm, and the system code (or
    /// communication performance) `requestCode` asks for. The IDm the card answers with becomes
    /// `currentIDm`.
    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (manufactureParameter: Data, requestData: Data) {
        let code = try Self.systemCode(systemCode)
        let command = FeliCaCommand.polling(systemCode: code, requestCode: UInt8(requestCode.rawValue), timeSlots: UInt8(timeSlot.rawValue))
        guard case .polling(let newIDm, let pmm, let requestData) = try exchange(command) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no polling answer")
        }
        // The card answers with the IDm of the system it switched to; later commands use it.
        idm = newIDm
        currentIDm = Data(newIDm.bytes)
        if requestCode == .systemCode, let r = requestData { currentSystemCode = Data([UInt8(r >> 8), UInt8(r & 0xFF)]) }
        return (Data(pmm.bytes), requestData.map { Data([UInt8($0 >> 8), UInt8($0 & 0xFF)]) } ?? Data())
    }

    /// Request Service (02h): the key version of each area or service of `nodeCodeList` (2 bytes,
    /// little-endian), FFFFh for one the card does not have.
    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        guard case .requestService(_, let versions) = try exchange(.requestService(idm: idm, nodes: try Self.serviceCodes(nodeCodeList))) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError)
        }
        return versions.map { Data([UInt8($0 & 0xFF), UInt8($0 >> 8)]) }
    }

    /// Request Response (04h): the card's current mode (0 after Polling).
    public func requestResponse() async throws -> Int {
        guard case .requestResponse(_, let mode) = try exchange(.requestResponse(idm: idm)) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError)
        }
        return Int(mode)
    }

    /// Status flags come back as values, not errors, as in Core NFC: the app checks them.
    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int, blockData: [Data]) {
        let command = FeliCaCommand.readWithoutEncryption(idm: idm, services: try Self.serviceCodes(serviceCodeList), blocks: try Self.blocks(blockList))
        guard case .readWithoutEncryption(_, let status, let blocks) = try exchange(command) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError)
        }
        return (Int(status.sf1), Int(status.sf2), blocks.map { Data($0) })
    }

    /// Write Without Encryption (08h): `blockData`, 16 bytes each, into the blocks of `blockList`;
    /// status flags 1 and 2 returned rather than thrown.
    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int) {
        let command = FeliCaCommand.writeWithoutEncryption(idm: idm, services: try Self.serviceCodes(serviceCodeList),
                                                           blocks: try Self.blocks(blockList), data: blockData.flatMap { Array($0) })
        guard case .writeWithoutEncryption(_, let status) = try exchange(command) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError)
        }
        return (Int(status.sf1), Int(status.sf2))
    }

    /// Request System Code (0Ch): the system codes on the card, 2 bytes each, big-endian.
    public func requestSystemCode() async throws -> [Data] {
        guard case .requestSystemCode(_, let codes) = try exchange(.requestSystemCode(idm: idm)) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError)
        }
        return codes.map { Data([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }
    }

    /// The packet without LEN (Core NFC inserts LEN and CRC); the answer without LEN and CRC.
    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        guard !commandPacket.isEmpty, commandPacket.count < 255 else {
            throw NFCReaderError(.readerErrorInvalidParameterLength, message: "a FeliCa packet is 1 to 254 bytes")
        }
        let answer = try send([UInt8(commandPacket.count + 1)] + Array(commandPacket))
        return Data(answer.bytes.dropFirst())
    }

    // NDEF: the NFC Forum Type 3 mapping. The Attribute Information Block is block 0 of the
    // NDEF service (read 000B, write 0009); the message follows in blocks 1…, read Nbr and
    // written Nbw blocks at a time, the AIB's WriteF set while the write is under way.
    static let ndefRead: UInt16 = 0x000B
    static let ndefWrite: UInt16 = 0x0009

    private func readBlocks(_ blocks: Range<Int>) throws -> [[UInt8]] {
        let command = FeliCaCommand.readWithoutEncryption(idm: idm, services: [FeliCaServiceCode(Self.ndefRead)],
                                                          blocks: blocks.map { FeliCaBlockListElement(serviceOrder: 0, blockNumber: UInt16($0)) })
        guard case .readWithoutEncryption(_, let status, let data) = try exchange(command), status.isSuccess else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the NDEF service could not be read")
        }
        return data
    }

    private func writeBlocks(_ first: Int, _ data: [[UInt8]]) throws {
        let command = FeliCaCommand.writeWithoutEncryption(idm: idm, services: [FeliCaServiceCode(Self.ndefWrite)],
                                                           blocks: data.indices.map { FeliCaBlockListElement(serviceOrder: 0, blockNumber: UInt16(first + $0)) },
                                                           data: data.flatMap { $0 })
        guard case .writeWithoutEncryption(_, let status) = try exchange(command), status.isSuccess else {
            throw NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure, message: "the NDEF service refused a write")
        }
    }

    /// The AIB, nil when the card has no Type 3 NDEF service (or its checksum is wrong).
    private func attributeBlock() throws -> Type3AttributeInformationBlock? {
        let command = FeliCaCommand.readWithoutEncryption(idm: idm, services: [FeliCaServiceCode(Self.ndefRead)],
                                                          blocks: [FeliCaBlockListElement(serviceOrder: 0, blockNumber: 0)])
        guard case .readWithoutEncryption(_, let status, let data) = try exchange(command), status.isSuccess, let block = data.first,
              let aib = try? Type3AttributeInformationBlock.decode(block), aib.checksumIsValid else { return nil }
        return aib
    }

    /// The NFC Forum Type 3 status from the Attribute Information Block (block 0 of service 000Bh):
    /// read-only when its RWFlag says so; capacity Nmaxb × 16 bytes. `.notSupported` without such a
    /// service or with a bad AIB checksum.
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        try ready()
        guard let aib = try attributeBlock() else { return (.notSupported, 0) }
        return (aib.isReadOnly ? .readOnly : .readWrite, Int(aib.nmaxb) * FeliCaBlockListElement.blockSize)
    }

    /// The NDEF message of the Type 3 NDEF service: Ln bytes from block 1 on, Nbr blocks per Read
    /// Without Encryption. Fails while the AIB's WriteF says a write is under way.
    public func readNDEF() async throws -> NFCNDEFMessage {
        try ready()
        guard let aib = try attributeBlock(), !aib.isWriting else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no complete Type 3 NDEF data")
        }
        let size = FeliCaBlockListElement.blockSize
        let count = (Int(aib.ln) + size - 1) / size
        var bytes: [UInt8] = []
        var next = 1
        while next <= count {
            let n = min(max(1, Int(aib.nbr)), count - next + 1)
            bytes += try readBlocks(next..<next + n).flatMap { $0 }
            next += n
        }
        guard let message = try? NDEFMessage(strict: Array(bytes.prefix(Int(aib.ln)))) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the NDEF message is malformed")
        }
        return NFCNDEFMessage(message)
    }

    /// Writes `ndefMessage` by the Type 3 procedure: AIB with WriteF set, the message Nbw blocks at
    /// a time (service 0009h), then the AIB with the new Ln and WriteF cleared.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try ready()
        guard !ndefMessage.records.isEmpty, let encoded = ndefMessage.encoded else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "an empty message")
        }
        guard var aib = try attributeBlock() else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no Type 3 NDEF service") }
        guard !aib.isReadOnly else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the AIB says read-only") }
        let size = FeliCaBlockListElement.blockSize
        guard encoded.count <= Int(aib.nmaxb) * size else {
            throw NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, message: "\(encoded.count) bytes do not fit \(Int(aib.nmaxb) * size)")
        }
        aib.writeF = 0x0F
        try writeBlocks(0, [aib.withComputedChecksum.bytes])
        let padded = encoded + [UInt8](repeating: 0, count: (size - encoded.count % size) % size)
        let blocks = stride(from: 0, to: padded.count, by: size).map { Array(padded[$0..<$0 + size]) }
        var next = 0
        while next < blocks.count {
            let n = min(max(1, Int(aib.nbw)), blocks.count - next)
            try writeBlocks(1 + next, Array(blocks[next..<next + n]))
            next += n
        }
        aib.writeF = 0x00
        aib.ln = UInt32(encoded.count)
        try writeBlocks(0, [aib.withComputedChecksum.bytes])
    }

    /// The Type 3 procedure: the AIB's RWFlag to 00 (read-only). The card's own write
    /// protection (a FeliCa Lite-S MC block) is not touched.
    public func writeLock() async throws {
        try ready()
        guard var aib = try attributeBlock() else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no Type 3 NDEF service") }
        guard !aib.isReadOnly else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "already read-only") }
        aib.rwFlag = 0x00
        try writeBlocks(0, [aib.withComputedChecksum.bytes])
    }
}
