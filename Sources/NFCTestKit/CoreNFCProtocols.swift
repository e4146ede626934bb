import Foundation

// The tag and session APIs of Core NFC as protocols, method for method: the app's NFC code is
// written against these, the kit's simulated tags conform, and on Apple platforms thin adapters
// make Core NFC's own tags and session conform (CoreNFCAdapters.swift). The `async` forms are the
// requirements; the completion-handler forms call them and deliver on the tag's callback queue
// (the session's queue, as Core NFC delivers).

/// Where completion handlers run: the session's queue.
public protocol NFCCallbackQueue: AnyObject {
    var callbackQueue: DispatchQueue { get }
}

/// `NFCNDEFTag`.
public protocol NFCNDEFTag: NFCCallbackQueue {
    var isAvailable: Bool { get }
    func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int)
    func readNDEF() async throws -> NFCNDEFMessage
    func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws
    func writeLock() async throws
}

/// `NFCMiFareTag`.
public protocol NFCMiFareTag: NFCNDEFTag {
    var mifareFamily: NFCMiFareFamily { get }
    var identifier: Data { get }
    var historicalBytes: Data? { get }
    func sendMiFareCommand(commandPacket: Data) async throws -> Data
    func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8)
}

/// `NFCFeliCaTag`.
public protocol NFCFeliCaTag: NFCNDEFTag {
    var currentSystemCode: Data { get }
    var currentIDm: Data { get }
    func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot) async throws -> (manufactureParameter: Data, requestData: Data)
    func requestService(nodeCodeList: [Data]) async throws -> [Data]
    func requestResponse() async throws -> Int
    func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int, blockData: [Data])
    func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data]) async throws -> (statusFlag1: Int, statusFlag2: Int)
    func requestSystemCode() async throws -> [Data]
    func sendFeliCaCommand(commandPacket: Data) async throws -> Data
}

/// `NFCISO15693Tag`.
public protocol NFCISO15693Tag: NFCNDEFTag {
    var identifier: Data { get }
    var icManufacturerCode: Int { get }
    var icSerialNumber: Data { get }
    func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws -> Data
    func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data) async throws
    func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data]
    func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data]) async throws
    func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8) async throws
    func getSystemInfo(requestFlags: RequestFlag) async throws -> (dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int, blockSize: Int, totalBlocks: Int, icReference: Int)
    func systemInfo(requestFlags: RequestFlag) async throws -> NFCISO15693SystemInfo
    func writeAFI(requestFlags: RequestFlag, afi: UInt8) async throws
    func lockAFI(requestFlags: RequestFlag) async throws
    func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8) async throws
    /// Core NFC's spelling.
    func lockDFSID(requestFlags: RequestFlag) async throws
    func stayQuiet() async throws
    func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [NSNumber]
    func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int) async throws -> Data
    func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data) async throws
    func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int) async throws
    func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange) async throws -> [Data]
    func customCommand(requestFlags: RequestFlag, customCommandCode: Int, customRequestParameters: Data) async throws -> Data
}

/// `NFCISO7816Tag`.
public protocol NFCISO7816Tag: NFCNDEFTag {
    var initialSelectedAID: String { get }
    var identifier: Data { get }
    var historicalBytes: Data? { get }
    var applicationData: Data? { get }
    var proprietaryApplicationDataCoding: Bool { get }
    func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8)
}

/// `NFCTag`: what a session detects.
public enum NFCTag {
    case feliCa(any NFCFeliCaTag)
    case iso7816(any NFCISO7816Tag)
    case iso15693(any NFCISO15693Tag)
    case miFare(any NFCMiFareTag)

    /// The tag object, whatever its kind.
    public var base: any NFCNDEFTag {
        switch self {
        case .feliCa(let t): return t
        case .iso7816(let t): return t
        case .iso15693(let t): return t
        case .miFare(let t): return t
        }
    }

    public var isAvailable: Bool { base.isAvailable }
}

/// `NFCTagReaderSession` (with `NFCReaderSession`'s members): what the app's reader class
/// talks to. `SimulatedTagReaderSession` and, on Apple platforms, `CoreNFCTagReaderSession`.
public protocol NFCTagReaderSession: AnyObject {
    var alertMessage: String { get set }
    var isReady: Bool { get }
    var connectedTag: NFCTag? { get }
    func begin()
    func invalidate()
    func invalidate(errorMessage: String)
    func restartPolling()
    func connect(to tag: NFCTag) async throws
    func connect(to tag: NFCTag, completionHandler: @escaping (Error?) -> Void)
}

/// `NFCTagReaderSessionDelegate`.
public protocol NFCTagReaderSessionDelegate: AnyObject {
    func tagReaderSessionDidBecomeActive(_ session: any NFCTagReaderSession)
    func tagReaderSession(_ session: any NFCTagReaderSession, didInvalidateWithError error: Error)
    func tagReaderSession(_ session: any NFCTagReaderSession, didDetect tags: [NFCTag])
}

extension NFCTagReaderSessionDelegate {
    public func tagReaderSessionDidBecomeActive(_ session: any NFCTagReaderSession) {}
    public func tagReaderSession(_ session: any NFCTagReaderSession, didDetect tags: [NFCTag]) {}
}

// MARK: - Completion-handler forms

/// A result that is sendable across the hop to the callback queue (the values are plain data).
struct Delivered<T>: @unchecked Sendable { let value: T }

extension NFCCallbackQueue {
    /// Runs `work` and hands its outcome to `deliver` on the callback queue.
    func complete<T>(_ work: @escaping () async throws -> T, _ deliver: @escaping (Result<T, Error>) -> Void) {
        let queue = callbackQueue
        let box = Delivered(value: (work, deliver))
        Task {
            let outcome: Result<T, Error>
            do { outcome = .success(try await box.value.0()) } catch { outcome = .failure(error) }
            let result = Delivered(value: outcome)
            queue.async { box.value.1(result.value) }
        }
    }
}

extension NFCNDEFTag {
    public func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, Error?) -> Void) {
        complete({ try await self.queryNDEFStatus() }) { r in
            switch r {
            case .success(let (s, n)): completionHandler(s, n, nil)
            case .failure(let e): completionHandler(.notSupported, 0, e)
            }
        }
    }
    public func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, Error?) -> Void) {
        complete({ try await self.readNDEF() }) { r in completionHandler(try? r.get(), r.error) }
    }
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeNDEF(ndefMessage) }) { completionHandler($0.error) }
    }
    public func writeLock(completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeLock() }) { completionHandler($0.error) }
    }
}

extension NFCMiFareTag {
    public func sendMiFareCommand(commandPacket: Data, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.sendMiFareCommand(commandPacket: commandPacket) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, Error?) -> Void) {
        complete({ try await self.sendMiFareISO7816Command(apdu) }) { r in
            let (d, sw1, sw2) = (try? r.get()) ?? (Data(), 0, 0)
            completionHandler(d, sw1, sw2, r.error)
        }
    }
}

extension NFCISO7816Tag {
    public func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, Error?) -> Void) {
        complete({ try await self.sendCommand(apdu: apdu) }) { r in
            let (d, sw1, sw2) = (try? r.get()) ?? (Data(), 0, 0)
            completionHandler(d, sw1, sw2, r.error)
        }
    }
}

extension NFCFeliCaTag {
    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot,
                        completionHandler: @escaping (Data, Data, Error?) -> Void) {
        complete({ try await self.polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) }) { r in
            let v = try? r.get()
            completionHandler(v?.manufactureParameter ?? Data(), v?.requestData ?? Data(), r.error)
        }
    }
    public func requestService(nodeCodeList: [Data], completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.requestService(nodeCodeList: nodeCodeList) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    public func requestResponse(completionHandler: @escaping (Int, Error?) -> Void) {
        complete({ try await self.requestResponse() }) { completionHandler((try? $0.get()) ?? 0, $0.error) }
    }
    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data], completionHandler: @escaping (Int, Int, [Data], Error?) -> Void) {
        complete({ try await self.readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) }) { r in
            let v = try? r.get()
            completionHandler(v?.statusFlag1 ?? 0, v?.statusFlag2 ?? 0, v?.blockData ?? [], r.error)
        }
    }
    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data], completionHandler: @escaping (Int, Int, Error?) -> Void) {
        complete({ try await self.writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) }) { r in
            let v = try? r.get()
            completionHandler(v?.statusFlag1 ?? 0, v?.statusFlag2 ?? 0, r.error)
        }
    }
    public func requestSystemCode(completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.requestSystemCode() }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    public func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.sendFeliCaCommand(commandPacket: commandPacket) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
}

extension NFCISO15693Tag {
    public func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.readSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    public func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber, dataBlock: dataBlock) }) { completionHandler($0.error) }
    }
    public func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.readMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    public func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler($0.error) }
    }
    public func getSystemInfo(requestFlags: RequestFlag, completionHandler: @escaping (Int, Int, Int, Int, Int, Error?) -> Void) {
        complete({ try await self.getSystemInfo(requestFlags: requestFlags) }) { r in
            let v = try? r.get()
            completionHandler(v?.dataStorageFormatIdentifier ?? -1, v?.applicationFamilyIdentifier ?? -1, v?.blockSize ?? -1,
                              v?.totalBlocks ?? -1, v?.icReference ?? -1, r.error)
        }
    }
    public func systemInfo(requestFlags: RequestFlag, resultHandler: @escaping (Result<NFCISO15693SystemInfo, Error>) -> Void) {
        complete({ try await self.systemInfo(requestFlags: requestFlags) }, resultHandler)
    }
    public func writeAFI(requestFlags: RequestFlag, afi: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeAFI(requestFlags: requestFlags, afi: afi) }) { completionHandler($0.error) }
    }
    public func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeDSFID(requestFlags: requestFlags, dsfid: dsfid) }) { completionHandler($0.error) }
    }
    public func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data], completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange, dataBlocks: dataBlocks) }) { completionHandler($0.error) }
    }
    public func lockAFI(requestFlags: RequestFlag, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockAFI(requestFlags: requestFlags) }) { completionHandler($0.error) }
    }
    public func lockDFSID(requestFlags: RequestFlag, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockDFSID(requestFlags: requestFlags) }) { completionHandler($0.error) }
    }
    public func stayQuiet(completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.stayQuiet() }) { completionHandler($0.error) }
    }
    public func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([NSNumber], Error?) -> Void) {
        complete({ try await self.getMultipleBlockSecurityStatus(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    public func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.extendedReadSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    public func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.extendedWriteSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber, dataBlock: dataBlock) }) { completionHandler($0.error) }
    }
    public func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.extendedLockBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler($0.error) }
    }
    public func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.extendedReadMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    public func customCommand(requestFlags: RequestFlag, customCommandCode: Int, customRequestParameters: Data,
                              completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.customCommand(requestFlags: requestFlags, customCommandCode: customCommandCode,
                                                customRequestParameters: customRequestParameters) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
