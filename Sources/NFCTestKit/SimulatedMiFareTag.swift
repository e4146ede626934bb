import Foundation
import NFCCore
import NFCEmulator

/// A 14443-A tag as Core NFC hands it to the app as `NFCMiFareTag`: NTAG/Ultralight (Type 2),
/// or an ISO-DEP card no AID of the app selected (DESFire, Plus, others).
public final class SimulatedMiFareTag: SimulatedTag, NFCMiFareTag {
    /// The chip family, as Core NFC reports it: Ultralight for NTAG/Ultralight (Type 2), DESFire or
    /// Plus from the ATS and GET_VERSION, unknown otherwise.
    public let mifareFamily: NFCMiFareFamily
    /// The tag's UID (4, 7 or 10 bytes) from anticollision.
    public let identifier: Data
    /// The historical bytes of an ISO-DEP card's ATS; nil for a Type 2 tag, which has no ATS.
    public let historicalBytes: Data?
    var isoDEP: ISODEPLink?
    /// The chip, from GET_VERSION during discovery: where its dynamic lock bytes are.
    let model: Type2TagModel?

    init(session: SimulatedTagReaderSession, air: SimulatedAir, activation: ISO14443AActivation, family: NFCMiFareFamily) {
        mifareFamily = family
        identifier = Data(activation.uid)
        historicalBytes = activation.ats.map { Data($0.historicalBytes) }
        model = activation.version.flatMap { Type2TagModel(version: $0) }
        isoDEP = activation.ats.map { _ in ISODEPLink(frameSize: activation.frameSize) }
        super.init(session: session, air: air)
    }

    /// Core NFC adds the CRC and removes the tag's; a 4-bit ACK comes back as one byte `0A`, a
    /// 4-bit NAK as `readerTransceiveErrorTagResponseError` with the NAK in the details.
    public func sendMiFareCommand(commandPacket: Data) async throws -> Data {
        guard !commandPacket.isEmpty else { throw NFCReaderError(.readerErrorInvalidParameterLength, message: "empty command") }
        if isoDEP != nil { return Data(try isoDEP!.exchange(Array(commandPacket), with: self)) }
        let answer = try send(Array(commandPacket))
        if answer.lastByteBits == 4, let ack = Type2Acknowledgement(nibble: answer.bytes.first ?? 0) {
            switch ack {
            case .ack: return Data([ack.nibble])
            case .nak(let nak):
                throw NFCReaderError(.readerTransceiveErrorTagResponseError, details: [NFCReaderError.miFareNAKKey: Int(nak.rawValue)],
                                     message: "NAK \(Hex.byte(nak.rawValue)): \(nak.meaning)")
            }
        }
        return Data(answer.bytes)
    }

    /// An ISO 7816-4 command APDU to a MIFARE card that speaks ISO-DEP (DESFire, Plus): the
    /// response data, SW1 and SW2. Throws `readerErrorUnsupportedFeature` on a Type 2 tag.
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        guard isoDEP != nil else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "this tag does not speak ISO-DEP")
        }
        try ready()
        return try isoDEP!.send(apdu, with: self)
    }

    // NDEF: the Type 2 mapping on NTAG/Ultralight, the Type 4 one on ISO-DEP cards.

    /// The NFC Forum Type 2 status from the CC (page 3) on NTAG/Ultralight, the Type 4 one on an
    /// ISO-DEP card.
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        if isoDEP != nil { return try Type4NDEF(tag: self).status() }
        return try Type2NDEF(tag: self).status()
    }

    /// The NDEF message: the Type 2 NDEF Message TLV read with READ on NTAG/Ultralight, the Type 4
    /// NDEF file on an ISO-DEP card.
    public func readNDEF() async throws -> NFCNDEFMessage {
        if isoDEP != nil { return try Type4NDEF(tag: self).read() }
        return try Type2NDEF(tag: self).read()
    }

    /// Writes `ndefMessage` by the Type 2 procedure on NTAG/Ultralight (the NDEF Message TLV and a
    /// Terminator TLV, WRITE to the pages they cover from page 4) or, on an ISO-DEP card, the
    /// Type 4 one.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        if isoDEP != nil { return try Type4NDEF(tag: self).write(ndefMessage) }
        try Type2NDEF(tag: self).write(ndefMessage)
    }

    /// Type 2 only: ISO-DEP cards have no standard way to lock their NDEF file.
    public func writeLock() async throws {
        guard isoDEP == nil else {
            throw NFCReaderError(.readerErrorUnsupportedFeature, message: "writeLock on an ISO-DEP card is not simulated (no NFC Forum procedure)")
        }
        try Type2NDEF(tag: self).lock()
    }

    func apdu(_ apdu: NFCISO7816APDU) throws -> (Data, UInt8, UInt8) {
        try ready()
        return try isoDEP!.send(apdu, with: self)
    }
}

/// The NFC Forum Type 2 mapping as Core NFC drives it: READ of the CC, READs of the data area
/// until the NDEF TLV ends, WRITEs of whole pages. Layouts from NFCCore's `Type2Memory`.
struct Type2NDEF {
    let tag: SimulatedMiFareTag

    private func read(page: Int) throws -> [UInt8] {
        let answer = try tag.send(Type2Command.read(page: UInt8(truncatingIfNeeded: page)).encode())
        guard answer.lastByteBits == 8, answer.bytes.count == 16 else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "READ \(page) was refused")
        }
        return answer.bytes
    }

    private func capabilityContainer() throws -> (Type2CapabilityContainer, [UInt8])? {
        let head = try read(page: 0)
        guard let cc = try? Type2CapabilityContainer.decode(Array(head[Type2Memory.capabilityContainerRange])), cc.isNDEF else { return nil }
        return (cc, head)
    }

    func status() throws -> (NFCNDEFStatus, Int) {
        guard let (cc, _) = try capabilityContainer() else { return (.notSupported, 0) }
        let capacity = cc.dataAreaSize - (cc.dataAreaSize > 0xFE ? 4 : 2)
        return (cc.writeAccess == .granted ? .readWrite : .readOnly, max(0, capacity))
    }

    func read() throws -> NFCNDEFMessage {
        guard let (cc, head) = try capabilityContainer() else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no NDEF capability container")
        }
        let end = Type2Memory.dataAreaStart + cc.dataAreaSize
        var bytes = head
        var known = [Bool](repeating: true, count: head.count)
        while bytes.count < end {
            let image = TagMemoryImage(bytes: bytes + [UInt8](repeating: 0, count: end - bytes.count),
                                       known: known + [Bool](repeating: false, count: end - bytes.count))
            let layout = Type2Memory.decode(image)
            if let ndef = layout.ndef, ndef.tlv.isComplete { return try message(ndef) }
            if layout.tlvArea?.tlvs.last?.tag == .terminator { break }
            bytes += try read(page: bytes.count / 4)
            known = [Bool](repeating: true, count: bytes.count)
        }
        let layout = Type2Memory.decode(TagMemoryImage(bytes: Array(bytes.prefix(end))))
        guard let ndef = layout.ndef else { throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no NDEF Message TLV") }
        return try message(ndef)
    }

    private func message(_ ndef: TagNDEFMessage) throws -> NFCNDEFMessage {
        guard ndef.result.isValid else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the NDEF message is malformed")
        }
        return NFCNDEFMessage(ndef.result.message)
    }

    private func write(page: Int, _ bytes: [UInt8]) throws {
        let answer = try tag.send(Type2Command.write(page: UInt8(page), data: bytes).encode())
        guard answer.lastByteBits == 4, Type2Acknowledgement(nibble: answer.bytes.first ?? 0) == .ack else {
            throw NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure, message: "WRITE \(page) was refused")
        }
    }

    /// The NFC Forum procedure for read-only: the CC's write access to 0F, then every static and
    /// dynamic lock bit set (the lock bytes are OR-ed in by the chip).
    func lock() throws {
        guard let (cc, head) = try capabilityContainer() else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no NDEF capability container")
        }
        guard cc.writeAccess == .granted else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "already read-only") }
        var locked = cc
        locked.access = cc.access & 0xF0 | 0x0F
        try write(page: Type2Memory.capabilityContainerRange.lowerBound / 4, locked.bytes)
        // Page 2 is BCC1, the internal byte (both ignored by a WRITE) and the two static lock bytes.
        let lockPage = Type2Memory.HeaderLayout.staticLock.offset / 4
        try write(page: lockPage, Array(head[lockPage * 4..<Type2Memory.HeaderLayout.staticLock.offset])
                  + [UInt8](repeating: 0xFF, count: Type2Memory.HeaderLayout.staticLock.width))
        if let page = tag.model?.memoryMap.dynamicLockPage { try write(page: page, [0xFF, 0xFF, 0xFF, 0x00]) }
    }

    func write(_ message: NFCNDEFMessage) throws {
        guard !message.records.isEmpty, let encoded = message.encoded else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "an empty message")
        }
        guard let (cc, head) = try capabilityContainer() else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no NDEF capability container")
        }
        guard cc.writeAccess == .granted else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the CC says read-only") }
        let image: [UInt8]
        do {
            image = try Type2Memory.image(capabilityContainer: cc, message: encoded, header: Array(head[0..<12]))
        } catch {
            throw NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, message: "\(error)")
        }
        // Only the pages the TLV and its terminator cover.
        let used = 2 + (encoded.count > 0xFE ? 2 : 0) + encoded.count + 1
        let lastPage = (Type2Memory.dataAreaStart + min(used, cc.dataAreaSize) + 3) / 4
        for page in (Type2Memory.dataAreaStart / 4)..<lastPage {
            try write(page: page, Array(image[page * 4..<page * 4 + 4]))
        }
    }
}

/// The NFC Forum Type 4 mapping: SELECT the NDEF application, the CC file, the NDEF file; READ
/// and UPDATE BINARY within the CC's MLe/MLc.
struct Type4NDEF {
    let send: (NFCISO7816APDU) throws -> (Data, UInt8, UInt8)

    init(tag: SimulatedMiFareTag) { send = tag.apdu }
    init(tag: SimulatedISO7816Tag) { send = { apdu in try tag.apdu(apdu) } }

    private func command(_ ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int = -1) throws -> (data: [UInt8], ok: Bool) {
        let (d, sw1, sw2) = try send(NFCISO7816APDU(instructionClass: 0x00, instructionCode: ins, p1Parameter: p1, p2Parameter: p2,
                                                   data: Data(data), expectedResponseLength: le))
        return (Array(d), StatusWord(sw1, sw2) == .success)
    }

    private func select(file: UInt16) throws -> Bool {
        try command(ISO7816Instruction.select, p1: 0x00, p2: 0x0C, data: [UInt8(file >> 8), UInt8(file & 0xFF)]).ok
    }

    private func capabilityContainer() throws -> Type4CapabilityContainer? {
        guard try command(ISO7816Instruction.select, p1: 0x04, p2: 0x00, data: Type4Tag.ndefApplication, le: 256).ok,
              try select(file: Type4Tag.ccFile) else { return nil }
        let (data, ok) = try command(ISO7816Instruction.readBinary, p1: 0, p2: 0, le: 15)
        guard ok else { return nil }
        return try? Type4CapabilityContainer.decode(data)
    }

    private func readBinary(_ offset: Int, _ count: Int) throws -> [UInt8] {
        let (data, ok) = try command(ISO7816Instruction.readBinary, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: count)
        guard ok else { throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "READ BINARY at \(offset) was refused") }
        return data
    }

    func status() throws -> (NFCNDEFStatus, Int) {
        guard let cc = try capabilityContainer() else { return (.notSupported, 0) }
        let capacity = Int(cc.ndefFile.maxSize) - cc.ndefFile.lengthFieldSize
        return (cc.ndefFile.writeAccess == 0 ? .readWrite : .readOnly, max(0, capacity))
    }

    func read() throws -> NFCNDEFMessage {
        guard let cc = try capabilityContainer(), try select(file: cc.ndefFile.fileID) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "no NDEF application or file")
        }
        let lengthBytes = try readBinary(0, cc.ndefFile.lengthFieldSize)
        let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        let chunk = max(1, Int(cc.maxReadLength))
        var message: [UInt8] = []
        while message.count < length {
            let part = try readBinary(cc.ndefFile.lengthFieldSize + message.count, min(chunk, length - message.count))
            guard !part.isEmpty else { break }
            message += part
        }
        guard let decoded = try? NDEFMessage(strict: message) else {
            throw NFCReaderError(.readerTransceiveErrorTagResponseError, message: "the NDEF message is malformed")
        }
        return NFCNDEFMessage(decoded)
    }

    func write(_ message: NFCNDEFMessage) throws {
        guard !message.records.isEmpty, let encoded = message.encoded else {
            throw NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage, message: "an empty message")
        }
        guard let cc = try capabilityContainer(), try select(file: cc.ndefFile.fileID) else {
            throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "no NDEF application or file")
        }
        guard cc.ndefFile.writeAccess == 0 else { throw NFCReaderError(.ndefReaderSessionErrorTagNotWritable, message: "the NDEF file is read-only") }
        let width = cc.ndefFile.lengthFieldSize
        guard encoded.count + width <= Int(cc.ndefFile.maxSize) else {
            throw NFCReaderError(.ndefReaderSessionErrorTagSizeTooSmall, message: "\(encoded.count) bytes do not fit \(cc.ndefFile.maxSize)")
        }
        func update(_ offset: Int, _ bytes: [UInt8]) throws {
            guard try command(ISO7816Instruction.updateBinary, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), data: bytes).ok else {
                throw NFCReaderError(.ndefReaderSessionErrorTagUpdateFailure, message: "UPDATE BINARY at \(offset) was refused")
            }
        }
        func length(_ n: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * $0)) } }
        // NLEN 0 first, the message, then its length: a torn write leaves an empty file, not a wrong one.
        try update(0, length(0))
        let chunk = max(1, Int(cc.maxWriteLength))
        var offset = 0
        while offset < encoded.count {
            let part = Array(encoded[offset..<min(encoded.count, offset + chunk)])
            try update(width + offset, part)
            offset += part.count
        }
        try update(0, length(encoded.count))
    }
}
