// Core NFC's own tags and session behind the kit's protocols, so that the app's reader code is
// written once: real tags on the phone, simulated ones in tests. Core NFC exists on iOS (and Mac
// Catalyst) only; this file is compiled there and nowhere else. CI runs on Linux, so it has not
// been compiled by CI: docs/testing-core-nfc-code.md says so. Every Core NFC call used here is
// the completion-handler form of iOS 13, wrapped in a continuation, so no newer SDK is assumed.
#if canImport(CoreNFC) && os(iOS)
import CoreNFC
import Foundation

@available(iOS 13.0, *)
enum CoreNFCBridge {
    static func apdu(_ a: NFCISO7816APDU) -> CoreNFC.NFCISO7816APDU {
        CoreNFC.NFCISO7816APDU(instructionClass: a.instructionClass, instructionCode: a.instructionCode, p1Parameter: a.p1Parameter,
                               p2Parameter: a.p2Parameter, data: a.data ?? Data(), expectedResponseLength: a.expectedResponseLength)
    }

    static func message(_ m: CoreNFC.NFCNDEFMessage) -> NFCNDEFMessage {
        NFCNDEFMessage(records: m.records.map {
            NFCNDEFPayload(format: NFCTypeNameFormat(rawValue: $0.typeNameFormat.rawValue) ?? .unknown, type: $0.type,
                           identifier: $0.identifier, payload: $0.payload)
        })
    }

    static func message(_ m: NFCNDEFMessage) -> CoreNFC.NFCNDEFMessage {
        CoreNFC.NFCNDEFMessage(records: m.records.map {
            CoreNFC.NFCNDEFPayload(format: CoreNFC.NFCTypeNameFormat(rawValue: $0.typeNameFormat.rawValue) ?? .unknown,
                                   type: $0.type, identifier: $0.identifier, payload: $0.payload)
        })
    }

    /// Core NFC's errors become the kit's, code and ISO 15693 error code kept.
    static func error(_ e: Error) -> Error {
        guard let r = e as? CoreNFC.NFCReaderError, let code = NFCReaderError.Code(rawValue: r.code.rawValue) else { return e }
        var details: [String: Int] = [:]
        if let v = r.errorUserInfo[NFCReaderError.iso15693TagResponseErrorKey] as? Int { details[NFCReaderError.iso15693TagResponseErrorKey] = v }
        return NFCReaderError(code, details: details, message: r.localizedDescription)
    }

    static func flags(_ f: RequestFlag) -> CoreNFC.RequestFlag { CoreNFC.RequestFlag(rawValue: f.rawValue) }

    /// Runs a completion-handler call as `async`, the error translated.
    static func call<T>(_ body: (@escaping (T?, Error?) -> Void) -> Void) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, Error>) in
            body { value, error in
                if let error { c.resume(throwing: Self.error(error)) } else if let value { c.resume(returning: value) } else {
                    c.resume(throwing: NFCReaderError(.readerTransceiveErrorTagResponseError, message: "Core NFC returned nothing"))
                }
            }
        }
    }

    static func done(_ body: (@escaping (Error?) -> Void) -> Void) async throws {
        let _: Bool = try await call { k in body { k(true, $0) } }
    }
}

/// The NDEF half every adapter shares.
@available(iOS 13.0, *)
public class CoreNFCNDEFTagAdapter: NFCCallbackQueue {
    let ndef: CoreNFC.NFCNDEFTag
    /// The session's queue: completion handlers of the kit's forms run there, as Core NFC delivers
    /// on it.
    public let callbackQueue: DispatchQueue

    init(ndef: CoreNFC.NFCNDEFTag, queue: DispatchQueue) {
        self.ndef = ndef
        callbackQueue = queue
    }

    /// Core NFC's `isAvailable`: the tag is still in the field and the session is alive.
    public var isAvailable: Bool { ndef.isAvailable }

    /// Core NFC's `queryNDEFStatus` on the tag this adapter wraps: whether the tag holds NFC Forum
    /// NDEF data and whether it may be written, with the largest NDEF message it can take, in
    /// bytes.
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        let (status, capacity): (CoreNFC.NFCNDEFStatus, Int) = try await CoreNFCBridge.call { k in
            ndef.queryNDEFStatus { s, n, e in k((s, n), e) }
        }
        return (NFCNDEFStatus(rawValue: status.rawValue) ?? .notSupported, capacity)
    }
    /// Core NFC's `readNDEF` on the tag this adapter wraps: the NDEF message on the tag, read by
    /// its NFC Forum tag type's procedure.
    public func readNDEF() async throws -> NFCNDEFMessage {
        CoreNFCBridge.message(try await CoreNFCBridge.call { k in ndef.readNDEF { m, e in k(m, e) } })
    }
    /// Core NFC's `writeNDEF` on the tag this adapter wraps: writes `ndefMessage` by the tag type's
    /// NFC Forum procedure, replacing the message there.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try await CoreNFCBridge.done { k in ndef.writeNDEF(CoreNFCBridge.message(ndefMessage), completionHandler: k) }
    }
    /// Core NFC's `writeLock` on the tag this adapter wraps: makes the tag's NDEF data read-only
    /// for good (the tag type's NFC Forum lock procedure).
    public func writeLock() async throws {
        try await CoreNFCBridge.done { k in ndef.writeLock(completionHandler: k) }
    }
}

/// Core NFC's `NFCMiFareTag` (NTAG/Ultralight, DESFire, Plus, MIFARE ISO-DEP cards) behind the
/// kit's `NFCMiFareTag`.
@available(iOS 13.0, *)
public final class CoreNFCMiFareTag: CoreNFCNDEFTagAdapter, NFCMiFareTag {
    /// The Core NFC tag behind this adapter, for calls the kit does not mirror.
    public let tag: CoreNFC.NFCMiFareTag
    init(_ tag: CoreNFC.NFCMiFareTag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    /// The chip family Core NFC identified: Ultralight, Plus, DESFire or unknown.
    public var mifareFamily: NFCMiFareFamily { NFCMiFareFamily(rawValue: tag.mifareFamily.rawValue) ?? .unknown }
    /// The tag's UID (4, 7 or 10 bytes), as anticollision gave it.
    public var identifier: Data { tag.identifier }
    /// The ATS's historical bytes of an ISO-DEP card; nil for a Type 2 tag, which has no ATS.
    public var historicalBytes: Data? { tag.historicalBytes }
    /// Core NFC's `sendMiFareCommand` on the tag this adapter wraps: a native command
    /// (NTAG/Ultralight READ 30h, WRITE A2h, GET_VERSION 60h …; on an ISO-DEP card, a native frame
    /// in I-blocks), the CRC added on air and removed from the answer.
    public func sendMiFareCommand(commandPacket: Data) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.sendMiFareCommand(commandPacket: commandPacket) { d, e in k(d, e) } }
    }
    /// Core NFC's `sendMiFareISO7816Command` on the tag this adapter wraps: an ISO 7816-4 command
    /// APDU to a MIFARE card that speaks ISO-DEP (DESFire, Plus): the response data, SW1 and SW2.
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await CoreNFCBridge.call { k in tag.sendMiFareISO7816Command(CoreNFCBridge.apdu(apdu)) { d, a, b, e in k((d, a, b), e) } }
    }
}

/// Core NFC's `NFCISO7816Tag` (an ISO-DEP card one of the app's Info.plist AIDs selected) behind
/// the kit's `NFCISO7816Tag`.
@available(iOS 13.0, *)
public final class CoreNFCISO7816Tag: CoreNFCNDEFTagAdapter, NFCISO7816Tag {
    /// The Core NFC tag behind this adapter, for calls the kit does not mirror.
    public let tag: CoreNFC.NFCISO7816Tag
    init(_ tag: CoreNFC.NFCISO7816Tag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    /// The Info.plist AID the card answered SELECT for during discovery, as upper-case hex.
    public var initialSelectedAID: String { tag.initialSelectedAID }
    /// The card's UID from ISO 14443-3 anticollision.
    public var identifier: Data { tag.identifier }
    /// The historical bytes of the card's ATS (ISO 14443-A), nil when there are none.
    public var historicalBytes: Data? { tag.historicalBytes }
    /// The application data of an ISO 14443-B card's ATQB; nil for a Type A card.
    public var applicationData: Data? { tag.applicationData }
    /// Whether the ATQB's application data is coded in a proprietary way (14443-B only).
    public var proprietaryApplicationDataCoding: Bool { tag.proprietaryApplicationDataCoding }
    /// Core NFC's `sendCommand` on the tag this adapter wraps: one ISO 7816-4 command APDU over
    /// ISO-DEP (ISO/IEC 14443-4), chaining and WTX handled by the link: the response data, SW1 and
    /// SW2.
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await CoreNFCBridge.call { k in tag.sendCommand(apdu: CoreNFCBridge.apdu(apdu)) { d, a, b, e in k((d, a, b), e) } }
    }
}

/// Core NFC's `NFCFeliCaTag` behind the kit's `NFCFeliCaTag`.
@available(iOS 13.0, *)
public final class CoreNFCFeliCaTag: CoreNFCNDEFTagAdapter, NFCFeliCaTag {
    /// The Core NFC tag behind this adapter, for calls the kit does not mirror.
    public let tag: CoreNFC.NFCFeliCaTag
    init(_ tag: CoreNFC.NFCFeliCaTag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    /// The system code of the system the last Polling selected, 2 bytes, big-endian.
    public var currentSystemCode: Data { tag.currentSystemCode }
    /// The 8-byte IDm of the system the last Polling selected: the card's address in every command.
    public var currentIDm: Data { tag.currentIDm }
    /// Core NFC's `polling` on the tag this adapter wraps: polling (command 00h) for `systemCode`:
    /// the card's PMm, and the system code (or communication performance) `requestCode` asks for.
    /// The IDm the card answers with becomes `currentIDm`.
    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (manufactureParameter: Data, requestData: Data) {
        try await CoreNFCBridge.call { k in
            tag.polling(systemCode: systemCode, requestCode: CoreNFC.PollingRequestCode(rawValue: requestCode.rawValue) ?? .systemCode,
                        timeSlot: CoreNFC.PollingTimeSlot(rawValue: timeSlot.rawValue) ?? .max1) { p, r, e in k((p, r), e) }
        }
    }
    /// Core NFC's `requestService` on the tag this adapter wraps: request Service (02h): the key
    /// version of each area or service of `nodeCodeList` (2 bytes, little-endian), FFFFh for one
    /// the card does not have.
    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.requestService(nodeCodeList: nodeCodeList) { d, e in k(d, e) } }
    }
    /// Core NFC's `requestResponse` on the tag this adapter wraps: request Response (04h): the
    /// card's current mode (0 after Polling).
    public func requestResponse() async throws -> Int {
        try await CoreNFCBridge.call { k in tag.requestResponse { m, e in k(m, e) } }
    }
    /// Core NFC's `readWithoutEncryption` on the tag this adapter wraps: read Without Encryption
    /// (06h): the 16-byte blocks of `blockList` from the services of `serviceCodeList`, with status
    /// flags 1 and 2 (both 0 on success), returned rather than thrown, as in Core NFC.
    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int, blockData: [Data]) {
        try await CoreNFCBridge.call { k in tag.readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { a, b, d, e in k((a, b, d), e) } }
    }
    /// Core NFC's `writeWithoutEncryption` on the tag this adapter wraps: write Without Encryption
    /// (08h): `blockData`, 16 bytes each, into the blocks of `blockList`; status flags 1 and 2
    /// returned rather than thrown.
    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int) {
        try await CoreNFCBridge.call { k in
            tag.writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) { a, b, e in k((a, b), e) }
        }
    }
    /// Core NFC's `requestSystemCode` on the tag this adapter wraps: request System Code (0Ch): the
    /// system codes on the card, 2 bytes each, big-endian.
    public func requestSystemCode() async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.requestSystemCode { d, e in k(d, e) } }
    }
    /// Core NFC's `sendFeliCaCommand` on the tag this adapter wraps: any FeliCa command:
    /// `commandPacket` is the command code, IDm and parameters without LEN (LEN and the CRC are
    /// added on air); the answer comes back without LEN and CRC.
    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.sendFeliCaCommand(commandPacket: commandPacket) { d, e in k(d, e) } }
    }
}

/// Core NFC's `NFCISO15693Tag` (NFC-V) behind the kit's `NFCISO15693Tag`; request flags passed
/// through unchanged.
@available(iOS 13.0, *)
public final class CoreNFCISO15693Tag: CoreNFCNDEFTagAdapter, NFCISO15693Tag {
    /// The Core NFC tag behind this adapter, for calls the kit does not mirror.
    public let tag: CoreNFC.NFCISO15693Tag
    init(_ tag: CoreNFC.NFCISO15693Tag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    /// The tag's 8-byte UID, in the order Core NFC gives it.
    public var identifier: Data { tag.identifier }
    /// The IC manufacturer code from the UID (ISO/IEC 7816-6: 04h NXP, 02h STMicroelectronics, 07h
    /// Texas Instruments …).
    public var icManufacturerCode: Int { tag.icManufacturerCode }
    /// The IC serial number: the UID's 6 bytes after E0h and the manufacturer code.
    public var icSerialNumber: Data { tag.icSerialNumber }
    private func f(_ flags: RequestFlag) -> CoreNFC.RequestFlag { CoreNFCBridge.flags(flags) }

    /// Core NFC's `readSingleBlock` on the tag this adapter wraps: READ SINGLE BLOCK (ISO/IEC
    /// 15693-3 command 20h): block `blockNumber`'s data, its block security status byte first when
    /// `requestFlags` has the option flag.
    public func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.readSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber) { d, e in k(d, e) } }
    }
    /// Core NFC's `writeSingleBlock` on the tag this adapter wraps: WRITE SINGLE BLOCK (21h):
    /// `dataBlock`, one block long, into block `blockNumber`.
    public func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        try await CoreNFCBridge.done { k in tag.writeSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: k) }
    }
    /// Core NFC's `readMultipleBlocks` on the tag this adapter wraps: READ MULTIPLE BLOCKS (23h):
    /// the blocks of `blockRange`, one `Data` each.
    public func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.readMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
    /// Core NFC's `writeMultipleBlocks` on the tag this adapter wraps: WRITE MULTIPLE BLOCKS (24h):
    /// `dataBlocks` into the blocks of `blockRange`.
    public func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await CoreNFCBridge.done { k in tag.writeMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: k) }
    }
    /// Core NFC's `lockBlock` on the tag this adapter wraps: LOCK BLOCK (22h): block `blockNumber`
    /// becomes read-only for good.
    public func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.lockBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, completionHandler: k) }
    }
    /// Core NFC's `getSystemInfo` on the tag this adapter wraps: GET SYSTEM INFORMATION (2Bh) as
    /// Core NFC's tuple: DSFID, AFI, block size, block count and IC reference, -1 for each field
    /// the answer leaves out.
    public func getSystemInfo(requestFlags: RequestFlag) async throws -> (dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int, blockSize: Int, totalBlocks: Int, icReference: Int) {
        try await CoreNFCBridge.call { k in tag.getSystemInfo(requestFlags: f(requestFlags)) { a, b, c, d, i, e in k((a, b, c, d, i), e) } }
    }
    /// Core NFC's `systemInfo` on the tag this adapter wraps: GET SYSTEM INFORMATION (2Bh) as one
    /// value: UID, DSFID, AFI, block size and count, IC reference (-1 where the answer leaves a
    /// field out).
    public func systemInfo(requestFlags: RequestFlag) async throws -> NFCISO15693SystemInfo {
        let i = try await getSystemInfo(requestFlags: requestFlags)
        return NFCISO15693SystemInfo(uniqueIdentifier: tag.identifier, dataStorageFormatIdentifier: i.dataStorageFormatIdentifier,
                                     applicationFamilyIdentifier: i.applicationFamilyIdentifier, blockSize: i.blockSize,
                                     totalBlocks: i.totalBlocks, icReference: i.icReference)
    }
    /// Core NFC's `writeAFI` on the tag this adapter wraps: WRITE AFI (27h): the tag's Application
    /// Family Identifier.
    public func writeAFI(requestFlags: RequestFlag, afi: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.writeAFI(requestFlags: f(requestFlags), afi: afi, completionHandler: k) }
    }
    /// Core NFC's `lockAFI` on the tag this adapter wraps: LOCK AFI (28h): the AFI can no longer be
    /// written.
    public func lockAFI(requestFlags: RequestFlag) async throws {
        try await CoreNFCBridge.done { k in tag.lockAFI(requestFlags: f(requestFlags), completionHandler: k) }
    }
    /// Core NFC's `writeDSFID` on the tag this adapter wraps: WRITE DSFID (29h): the tag's Data
    /// Storage Format Identifier.
    public func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.writeDSFID(requestFlags: f(requestFlags), dsfid: dsfid, completionHandler: k) }
    }
    /// Core NFC's `lockDFSID` on the tag this adapter wraps: LOCK DSFID (2Ah), under Core NFC's
    /// spelling `lockDFSID`: the DSFID can no longer be written.
    public func lockDFSID(requestFlags: RequestFlag) async throws {
        try await CoreNFCBridge.done { k in tag.lockDFSID(requestFlags: f(requestFlags), completionHandler: k) }
    }
    /// Core NFC's `stayQuiet` on the tag this adapter wraps: STAY QUIET (02h), addressed: the tag
    /// stops answering until it leaves the field or is selected; it sends no answer.
    public func stayQuiet() async throws {
        try await CoreNFCBridge.done { k in tag.stayQuiet(completionHandler: k) }
    }
    /// Core NFC's `getMultipleBlockSecurityStatus` on the tag this adapter wraps: GET MULTIPLE
    /// BLOCK SECURITY STATUS (2Ch): one block security status per block of `blockRange` (bit 0 set:
    /// the block is locked).
    public func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        try await CoreNFCBridge.call { k in tag.getMultipleBlockSecurityStatus(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
    /// Core NFC's `extendedReadSingleBlock` on the tag this adapter wraps: EXTENDED READ SINGLE
    /// BLOCK (30h): READ SINGLE BLOCK with a 16-bit block number, for tags of more than 256 blocks.
    public func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.extendedReadSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber) { d, e in k(d, e) } }
    }
    /// Core NFC's `extendedWriteSingleBlock` on the tag this adapter wraps: EXTENDED WRITE SINGLE
    /// BLOCK (31h): WRITE SINGLE BLOCK with a 16-bit block number.
    public func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        try await CoreNFCBridge.done { k in tag.extendedWriteSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: k) }
    }
    /// Core NFC's `extendedLockBlock` on the tag this adapter wraps: EXTENDED LOCK BLOCK (32h):
    /// LOCK BLOCK with a 16-bit block number.
    public func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int) async throws {
        try await CoreNFCBridge.done { k in tag.extendedLockBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, completionHandler: k) }
    }
    /// Core NFC's `extendedReadMultipleBlocks` on the tag this adapter wraps: EXTENDED READ
    /// MULTIPLE BLOCKS (33h): READ MULTIPLE BLOCKS with 16-bit block numbers.
    public func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.extendedReadMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
    /// Core NFC's `customCommand` on the tag this adapter wraps: a custom command (codes A0h–DFh)
    /// carrying the tag's IC manufacturer code and `customRequestParameters`; the answer's data
    /// after its flags byte.
    public func customCommand(requestFlags: RequestFlag, customCommandCode: Int, customRequestParameters: Data) async throws -> Data {
        try await CoreNFCBridge.call { k in
            tag.customCommand(requestFlags: f(requestFlags), customCommandCode: customCommandCode, customRequestParameters: customRequestParameters) { d, e in k(d, e) }
        }
    }
}

/// Core NFC's `NFCTagReaderSession` behind the kit's protocol: the app's delegate gets the kit's
/// tag adapters; `connect(to:)` connects the Core NFC tag they wrap.
@available(iOS 13.0, *)
public final class CoreNFCTagReaderSession: NSObject, NFCTagReaderSession, CoreNFC.NFCTagReaderSessionDelegate {
    private var session: CoreNFC.NFCTagReaderSession!
    private weak var delegate: NFCTagReaderSessionDelegate?
    private let queue: DispatchQueue
    private var wrapped: [(kit: AnyObject, real: CoreNFC.NFCTag)] = []
    private var connected: NFCTag?

    /// Nil when Core NFC cannot make the session (no NFC on this device).
    public init?(pollingOption: PollingOption, delegate: NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        self.delegate = delegate
        self.queue = queue ?? .main
        super.init()
        var options: CoreNFC.NFCTagReaderSession.PollingOption = []
        if pollingOption.contains(.iso14443) { options.insert(.iso14443) }
        if pollingOption.contains(.iso15693) { options.insert(.iso15693) }
        if pollingOption.contains(.iso18092) { options.insert(.iso18092) }
        guard let s = CoreNFC.NFCTagReaderSession(pollingOption: options, delegate: self, queue: queue) else { return nil }
        session = s
    }

    /// The text Core NFC's scanning sheet shows; set it to guide the user.
    public var alertMessage: String {
        get { session.alertMessage }
        set { session.alertMessage = newValue }
    }
    /// Whether the session has begun and not been invalidated.
    public var isReady: Bool { session.isReady }
    /// The tag the app connected to, nil before `connect(to:)`.
    public var connectedTag: NFCTag? { connected }
    /// Shows the scanning sheet and starts polling for the technologies of the polling option.
    public func begin() { session.begin() }
    /// Ends the session; the delegate gets `readerSessionInvalidationErrorUserCanceled`.
    public func invalidate() { session.invalidate() }
    /// Ends the session with `errorMessage` shown on the sheet as the failure.
    public func invalidate(errorMessage: String) { session.invalidate(errorMessage: errorMessage) }
    /// Drops the detected tag and polls again; the delegate is told of the tags found anew.
    public func restartPolling() { session.restartPolling() }

    /// Connects to `tag`, one the delegate was given; later commands go to it.
    public func connect(to tag: NFCTag) async throws {
        guard let real = wrapped.first(where: { $0.kit === (tag.base as AnyObject) })?.real else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "not a tag this session detected")
        }
        try await CoreNFCBridge.done { k in session.connect(to: real, completionHandler: k) }
        connected = tag
    }

    /// Completion-handler form of `connect(to:)`: the handler gets nil or the error.
    public func connect(to tag: NFCTag, completionHandler: @escaping (Error?) -> Void) {
        Task { do { try await connect(to: tag); completionHandler(nil) } catch { completionHandler(error) } }
    }

    /// Nil for a kind of tag a later Core NFC may add and the kit does not know.
    private func wrap(_ tag: CoreNFC.NFCTag) -> NFCTag? {
        let kit: NFCTag
        switch tag {
        case .feliCa(let t): kit = .feliCa(CoreNFCFeliCaTag(t, queue: queue))
        case .iso7816(let t): kit = .iso7816(CoreNFCISO7816Tag(t, queue: queue))
        case .iso15693(let t): kit = .iso15693(CoreNFCISO15693Tag(t, queue: queue))
        case .miFare(let t): kit = .miFare(CoreNFCMiFareTag(t, queue: queue))
        @unknown default: return nil
        }
        wrapped.append((kit.base as AnyObject, tag))
        return kit
    }

    /// Core NFC's delegate call: the session is active; passed on to the app's delegate.
    public func tagReaderSessionDidBecomeActive(_ session: CoreNFC.NFCTagReaderSession) {
        delegate?.tagReaderSessionDidBecomeActive(self)
    }
    /// Core NFC's delegate call: the session ended; passed on with the error translated to the
    /// kit's `NFCReaderError`.
    public func tagReaderSession(_ session: CoreNFC.NFCTagReaderSession, didInvalidateWithError error: Error) {
        delegate?.tagReaderSession(self, didInvalidateWithError: CoreNFCBridge.error(error))
    }
    /// Core NFC's delegate call: tags were found; passed on as the kit's adapters around them.
    public func tagReaderSession(_ session: CoreNFC.NFCTagReaderSession, didDetect tags: [CoreNFC.NFCTag]) {
        wrapped.removeAll()
        delegate?.tagReaderSession(self, didDetect: tags.compactMap(wrap))
    }
}
#endif
