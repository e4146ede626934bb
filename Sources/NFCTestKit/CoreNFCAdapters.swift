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
    public let callbackQueue: DispatchQueue

    init(ndef: CoreNFC.NFCNDEFTag, queue: DispatchQueue) {
        self.ndef = ndef
        callbackQueue = queue
    }

    public var isAvailable: Bool { ndef.isAvailable }

    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        let (status, capacity): (CoreNFC.NFCNDEFStatus, Int) = try await CoreNFCBridge.call { k in
            ndef.queryNDEFStatus { s, n, e in k((s, n), e) }
        }
        return (NFCNDEFStatus(rawValue: status.rawValue) ?? .notSupported, capacity)
    }
    public func readNDEF() async throws -> NFCNDEFMessage {
        CoreNFCBridge.message(try await CoreNFCBridge.call { k in ndef.readNDEF { m, e in k(m, e) } })
    }
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try await CoreNFCBridge.done { k in ndef.writeNDEF(CoreNFCBridge.message(ndefMessage), completionHandler: k) }
    }
    public func writeLock() async throws {
        try await CoreNFCBridge.done { k in ndef.writeLock(completionHandler: k) }
    }
}

@available(iOS 13.0, *)
public final class CoreNFCMiFareTag: CoreNFCNDEFTagAdapter, NFCMiFareTag {
    public let tag: CoreNFC.NFCMiFareTag
    init(_ tag: CoreNFC.NFCMiFareTag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    public var mifareFamily: NFCMiFareFamily { NFCMiFareFamily(rawValue: tag.mifareFamily.rawValue) ?? .unknown }
    public var identifier: Data { tag.identifier }
    public var historicalBytes: Data? { tag.historicalBytes }
    public func sendMiFareCommand(commandPacket: Data) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.sendMiFareCommand(commandPacket: commandPacket) { d, e in k(d, e) } }
    }
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await CoreNFCBridge.call { k in tag.sendMiFareISO7816Command(CoreNFCBridge.apdu(apdu)) { d, a, b, e in k((d, a, b), e) } }
    }
}

@available(iOS 13.0, *)
public final class CoreNFCISO7816Tag: CoreNFCNDEFTagAdapter, NFCISO7816Tag {
    public let tag: CoreNFC.NFCISO7816Tag
    init(_ tag: CoreNFC.NFCISO7816Tag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    public var initialSelectedAID: String { tag.initialSelectedAID }
    public var identifier: Data { tag.identifier }
    public var historicalBytes: Data? { tag.historicalBytes }
    public var applicationData: Data? { tag.applicationData }
    public var proprietaryApplicationDataCoding: Bool { tag.proprietaryApplicationDataCoding }
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await CoreNFCBridge.call { k in tag.sendCommand(apdu: CoreNFCBridge.apdu(apdu)) { d, a, b, e in k((d, a, b), e) } }
    }
}

@available(iOS 13.0, *)
public final class CoreNFCFeliCaTag: CoreNFCNDEFTagAdapter, NFCFeliCaTag {
    public let tag: CoreNFC.NFCFeliCaTag
    init(_ tag: CoreNFC.NFCFeliCaTag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    public var currentSystemCode: Data { tag.currentSystemCode }
    public var currentIDm: Data { tag.currentIDm }
    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (manufactureParameter: Data, requestData: Data) {
        try await CoreNFCBridge.call { k in
            tag.polling(systemCode: systemCode, requestCode: CoreNFC.PollingRequestCode(rawValue: requestCode.rawValue) ?? .systemCode,
                        timeSlot: CoreNFC.PollingTimeSlot(rawValue: timeSlot.rawValue) ?? .max1) { p, r, e in k((p, r), e) }
        }
    }
    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.requestService(nodeCodeList: nodeCodeList) { d, e in k(d, e) } }
    }
    public func requestResponse() async throws -> Int {
        try await CoreNFCBridge.call { k in tag.requestResponse { m, e in k(m, e) } }
    }
    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int, blockData: [Data]) {
        try await CoreNFCBridge.call { k in tag.readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { a, b, d, e in k((a, b, d), e) } }
    }
    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int) {
        try await CoreNFCBridge.call { k in
            tag.writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) { a, b, e in k((a, b), e) }
        }
    }
    public func requestSystemCode() async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.requestSystemCode { d, e in k(d, e) } }
    }
    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.sendFeliCaCommand(commandPacket: commandPacket) { d, e in k(d, e) } }
    }
}

@available(iOS 13.0, *)
public final class CoreNFCISO15693Tag: CoreNFCNDEFTagAdapter, NFCISO15693Tag {
    public let tag: CoreNFC.NFCISO15693Tag
    init(_ tag: CoreNFC.NFCISO15693Tag, queue: DispatchQueue) {
        self.tag = tag
        super.init(ndef: tag, queue: queue)
    }
    public var identifier: Data { tag.identifier }
    public var icManufacturerCode: Int { tag.icManufacturerCode }
    public var icSerialNumber: Data { tag.icSerialNumber }
    private func f(_ flags: RequestFlag) -> CoreNFC.RequestFlag { CoreNFCBridge.flags(flags) }

    public func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.readSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber) { d, e in k(d, e) } }
    }
    public func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws {
        try await CoreNFCBridge.done { k in tag.writeSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: k) }
    }
    public func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.readMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
    public func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws {
        try await CoreNFCBridge.done { k in tag.writeMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: k) }
    }
    public func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.lockBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, completionHandler: k) }
    }
    public func getSystemInfo(requestFlags: RequestFlag) async throws -> (dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int, blockSize: Int, totalBlocks: Int, icReference: Int) {
        try await CoreNFCBridge.call { k in tag.getSystemInfo(requestFlags: f(requestFlags)) { a, b, c, d, i, e in k((a, b, c, d, i), e) } }
    }
    public func systemInfo(requestFlags: RequestFlag) async throws -> NFCISO15693SystemInfo {
        let i = try await getSystemInfo(requestFlags: requestFlags)
        return NFCISO15693SystemInfo(uniqueIdentifier: tag.identifier, dataStorageFormatIdentifier: i.dataStorageFormatIdentifier,
                                     applicationFamilyIdentifier: i.applicationFamilyIdentifier, blockSize: i.blockSize,
                                     totalBlocks: i.totalBlocks, icReference: i.icReference)
    }
    public func writeAFI(requestFlags: RequestFlag, afi: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.writeAFI(requestFlags: f(requestFlags), afi: afi, completionHandler: k) }
    }
    public func lockAFI(requestFlags: RequestFlag) async throws {
        try await CoreNFCBridge.done { k in tag.lockAFI(requestFlags: f(requestFlags), completionHandler: k) }
    }
    public func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8) async throws {
        try await CoreNFCBridge.done { k in tag.writeDSFID(requestFlags: f(requestFlags), dsfid: dsfid, completionHandler: k) }
    }
    public func lockDFSID(requestFlags: RequestFlag) async throws {
        try await CoreNFCBridge.done { k in tag.lockDFSID(requestFlags: f(requestFlags), completionHandler: k) }
    }
    public func stayQuiet() async throws {
        try await CoreNFCBridge.done { k in tag.stayQuiet(completionHandler: k) }
    }
    public func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [NSNumber] {
        try await CoreNFCBridge.call { k in tag.getMultipleBlockSecurityStatus(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
    public func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int) async throws -> Data {
        try await CoreNFCBridge.call { k in tag.extendedReadSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber) { d, e in k(d, e) } }
    }
    public func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data) async throws {
        try await CoreNFCBridge.done { k in tag.extendedWriteSingleBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: k) }
    }
    public func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int) async throws {
        try await CoreNFCBridge.done { k in tag.extendedLockBlock(requestFlags: f(requestFlags), blockNumber: blockNumber, completionHandler: k) }
    }
    public func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data] {
        try await CoreNFCBridge.call { k in tag.extendedReadMultipleBlocks(requestFlags: f(requestFlags), blockRange: blockRange) { d, e in k(d, e) } }
    }
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

    public var alertMessage: String {
        get { session.alertMessage }
        set { session.alertMessage = newValue }
    }
    public var isReady: Bool { session.isReady }
    public var connectedTag: NFCTag? { connected }
    public func begin() { session.begin() }
    public func invalidate() { session.invalidate() }
    public func invalidate(errorMessage: String) { session.invalidate(errorMessage: errorMessage) }
    public func restartPolling() { session.restartPolling() }

    public func connect(to tag: NFCTag) async throws {
        guard let real = wrapped.first(where: { $0.kit === (tag.base as AnyObject) })?.real else {
            throw NFCReaderError(.readerErrorInvalidParameter, message: "not a tag this session detected")
        }
        try await CoreNFCBridge.done { k in session.connect(to: real, completionHandler: k) }
        connected = tag
    }

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

    public func tagReaderSessionDidBecomeActive(_ session: CoreNFC.NFCTagReaderSession) {
        delegate?.tagReaderSessionDidBecomeActive(self)
    }
    public func tagReaderSession(_ session: CoreNFC.NFCTagReaderSession, didInvalidateWithError error: Error) {
        delegate?.tagReaderSession(self, didInvalidateWithError: CoreNFCBridge.error(error))
    }
    public func tagReaderSession(_ session: CoreNFC.NFCTagReaderSession, didDetect tags: [CoreNFC.NFCTag]) {
        wrapped.removeAll()
        delegate?.tagReaderSession(self, didDetect: tags.compactMap(wrap))
    }
}
#endif
