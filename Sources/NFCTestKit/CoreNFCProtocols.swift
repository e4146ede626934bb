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

    /// Whether the tag is still present and the session alive: the base tag's `isAvailable`.
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
    /// Does nothing: a delegate need not be told that the session became active (optional in Core
    /// NFC).
    public func tagReaderSessionDidBecomeActive(_ session: any NFCTagReaderSession) {}
    /// Does nothing: a delegate need not handle detected tags this way (optional in Core NFC).
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
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Whether the tag
    /// holds NFC Forum NDEF data and whether it may be written, with the largest NDEF message it
    /// can take, in bytes. The handler runs on the callback queue with the result or the error.
    public func queryNDEFStatus(completionHandler: @escaping (NFCNDEFStatus, Int, Error?) -> Void) {
        complete({ try await self.queryNDEFStatus() }) { r in
            switch r {
            case .success(let (s, n)): completionHandler(s, n, nil)
            case .failure(let e): completionHandler(.notSupported, 0, e)
            }
        }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: The NDEF message
    /// on the tag, read by its NFC Forum tag type's procedure. The handler runs on the callback
    /// queue with the result or the error.
    public func readNDEF(completionHandler: @escaping (NFCNDEFMessage?, Error?) -> Void) {
        complete({ try await self.readNDEF() }) { r in completionHandler(try? r.get(), r.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Writes
    /// `ndefMessage` by the tag type's NFC Forum procedure, replacing the message there. The
    /// handler runs on the callback queue with the result or the error.
    public func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeNDEF(ndefMessage) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Makes the tag's
    /// NDEF data read-only for good (the tag type's NFC Forum lock procedure). The handler runs on
    /// the callback queue with the result or the error.
    public func writeLock(completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeLock() }) { completionHandler($0.error) }
    }
}

extension NFCMiFareTag {
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: A native command
    /// (NTAG/Ultralight READ 30h, WRITE A2h, GET_VERSION 60h …; on an ISO-DEP card, a native frame
    /// in I-blocks), the CRC added on air and removed from the answer. The handler runs on the
    /// callback queue with the result or the error.
    public func sendMiFareCommand(commandPacket: Data, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.sendMiFareCommand(commandPacket: commandPacket) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: An ISO 7816-4
    /// command APDU to a MIFARE card that speaks ISO-DEP (DESFire, Plus): the response data, SW1
    /// and SW2. The handler runs on the callback queue with the result or the error.
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, Error?) -> Void) {
        complete({ try await self.sendMiFareISO7816Command(apdu) }) { r in
            let (d, sw1, sw2) = (try? r.get()) ?? (Data(), 0, 0)
            completionHandler(d, sw1, sw2, r.error)
        }
    }
}

extension NFCISO7816Tag {
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: One ISO 7816-4
    /// command APDU over ISO-DEP (ISO/IEC 14443-4), chaining and WTX handled by the link: the
    /// response data, SW1 and SW2. The handler runs on the callback queue with the result or the
    /// error.
    public func sendCommand(apdu: NFCISO7816APDU, completionHandler: @escaping (Data, UInt8, UInt8, Error?) -> Void) {
        complete({ try await self.sendCommand(apdu: apdu) }) { r in
            let (d, sw1, sw2) = (try? r.get()) ?? (Data(), 0, 0)
            completionHandler(d, sw1, sw2, r.error)
        }
    }
}

extension NFCFeliCaTag {
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Polling (command
    /// 00h) for `systemCode`: the card's PMm, and the system code (or communication performance)
    /// `requestCode` asks for. The IDm the card answers with becomes `currentIDm`. The handler runs
    /// on the callback queue with the result or the error.
    public func polling(systemCode: Data, requestCode: PollingRequestCode, timeSlot: PollingTimeSlot,
                        completionHandler: @escaping (Data, Data, Error?) -> Void) {
        complete({ try await self.polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) }) { r in
            let v = try? r.get()
            completionHandler(v?.manufactureParameter ?? Data(), v?.requestData ?? Data(), r.error)
        }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Request Service
    /// (02h): the key version of each area or service of `nodeCodeList` (2 bytes, little-endian),
    /// FFFFh for one the card does not have. The handler runs on the callback queue with the result
    /// or the error.
    public func requestService(nodeCodeList: [Data], completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.requestService(nodeCodeList: nodeCodeList) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Request Response
    /// (04h): the card's current mode (0 after Polling). The handler runs on the callback queue
    /// with the result or the error.
    public func requestResponse(completionHandler: @escaping (Int, Error?) -> Void) {
        complete({ try await self.requestResponse() }) { completionHandler((try? $0.get()) ?? 0, $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Read Without
    /// Encryption (06h): the 16-byte blocks of `blockList` from the services of `serviceCodeList`,
    /// with status flags 1 and 2 (both 0 on success), returned rather than thrown, as in Core NFC.
    /// The handler runs on the callback queue with the result or the error.
    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data], completionHandler: @escaping (Int, Int, [Data], Error?) -> Void) {
        complete({ try await self.readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) }) { r in
            let v = try? r.get()
            completionHandler(v?.statusFlag1 ?? 0, v?.statusFlag2 ?? 0, v?.blockData ?? [], r.error)
        }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Write Without
    /// Encryption (08h): `blockData`, 16 bytes each, into the blocks of `blockList`; status flags 1
    /// and 2 returned rather than thrown. The handler runs on the callback queue with the result or
    /// the error.
    public func writeWithoutEncryption(serviceCodeList: [Data], blockList: [Data], blockData: [Data], completionHandler: @escaping (Int, Int, Error?) -> Void) {
        complete({ try await self.writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) }) { r in
            let v = try? r.get()
            completionHandler(v?.statusFlag1 ?? 0, v?.statusFlag2 ?? 0, r.error)
        }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Request System
    /// Code (0Ch): the system codes on the card, 2 bytes each, big-endian. The handler runs on the
    /// callback queue with the result or the error.
    public func requestSystemCode(completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.requestSystemCode() }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: Any FeliCa
    /// command: `commandPacket` is the command code, IDm and parameters without LEN (LEN and the
    /// CRC are added on air); the answer comes back without LEN and CRC. The handler runs on the
    /// callback queue with the result or the error.
    public func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.sendFeliCaCommand(commandPacket: commandPacket) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
}

extension NFCISO15693Tag {
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: READ SINGLE
    /// BLOCK (ISO/IEC 15693-3 command 20h): block `blockNumber`'s data, its block security status
    /// byte first when `requestFlags` has the option flag. The handler runs on the callback queue
    /// with the result or the error.
    public func readSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.readSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: WRITE SINGLE
    /// BLOCK (21h): `dataBlock`, one block long, into block `blockNumber`. The handler runs on the
    /// callback queue with the result or the error.
    public func writeSingleBlock(requestFlags: RequestFlag, blockNumber: UInt8, dataBlock: Data, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber, dataBlock: dataBlock) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: READ MULTIPLE
    /// BLOCKS (23h): the blocks of `blockRange`, one `Data` each. The handler runs on the callback
    /// queue with the result or the error.
    public func readMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.readMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: LOCK BLOCK
    /// (22h): block `blockNumber` becomes read-only for good. The handler runs on the callback
    /// queue with the result or the error.
    public func lockBlock(requestFlags: RequestFlag, blockNumber: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: GET SYSTEM
    /// INFORMATION (2Bh) as Core NFC's tuple: DSFID, AFI, block size, block count and IC reference,
    /// -1 for each field the answer leaves out. The handler runs on the callback queue with the
    /// result or the error.
    public func getSystemInfo(requestFlags: RequestFlag, completionHandler: @escaping (Int, Int, Int, Int, Int, Error?) -> Void) {
        complete({ try await self.getSystemInfo(requestFlags: requestFlags) }) { r in
            let v = try? r.get()
            completionHandler(v?.dataStorageFormatIdentifier ?? -1, v?.applicationFamilyIdentifier ?? -1, v?.blockSize ?? -1,
                              v?.totalBlocks ?? -1, v?.icReference ?? -1, r.error)
        }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: GET SYSTEM
    /// INFORMATION (2Bh) as one value: UID, DSFID, AFI, block size and count, IC reference (-1
    /// where the answer leaves a field out). The handler runs on the callback queue with the result
    /// or the error.
    public func systemInfo(requestFlags: RequestFlag, resultHandler: @escaping (Result<NFCISO15693SystemInfo, Error>) -> Void) {
        complete({ try await self.systemInfo(requestFlags: requestFlags) }, resultHandler)
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: WRITE AFI (27h):
    /// the tag's Application Family Identifier. The handler runs on the callback queue with the
    /// result or the error.
    public func writeAFI(requestFlags: RequestFlag, afi: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeAFI(requestFlags: requestFlags, afi: afi) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: WRITE DSFID
    /// (29h): the tag's Data Storage Format Identifier. The handler runs on the callback queue with
    /// the result or the error.
    public func writeDSFID(requestFlags: RequestFlag, dsfid: UInt8, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeDSFID(requestFlags: requestFlags, dsfid: dsfid) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: WRITE MULTIPLE
    /// BLOCKS (24h): `dataBlocks` into the blocks of `blockRange`. The handler runs on the callback
    /// queue with the result or the error.
    public func writeMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, dataBlocks: [Data], completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.writeMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange, dataBlocks: dataBlocks) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: LOCK AFI (28h):
    /// the AFI can no longer be written. The handler runs on the callback queue with the result or
    /// the error.
    public func lockAFI(requestFlags: RequestFlag, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockAFI(requestFlags: requestFlags) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: LOCK DSFID
    /// (2Ah), under Core NFC's spelling `lockDFSID`: the DSFID can no longer be written. The
    /// handler runs on the callback queue with the result or the error.
    public func lockDFSID(requestFlags: RequestFlag, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.lockDFSID(requestFlags: requestFlags) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: STAY QUIET
    /// (02h), addressed: the tag stops answering until it leaves the field or is selected; it sends
    /// no answer. The handler runs on the callback queue with the result or the error.
    public func stayQuiet(completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.stayQuiet() }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: GET MULTIPLE
    /// BLOCK SECURITY STATUS (2Ch): one block security status per block of `blockRange` (bit 0 set:
    /// the block is locked). The handler runs on the callback queue with the result or the error.
    public func getMultipleBlockSecurityStatus(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([NSNumber], Error?) -> Void) {
        complete({ try await self.getMultipleBlockSecurityStatus(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: EXTENDED READ
    /// SINGLE BLOCK (30h): READ SINGLE BLOCK with a 16-bit block number, for tags of more than 256
    /// blocks. The handler runs on the callback queue with the result or the error.
    public func extendedReadSingleBlock(requestFlags: RequestFlag, blockNumber: Int, completionHandler: @escaping (Data, Error?) -> Void) {
        complete({ try await self.extendedReadSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler((try? $0.get()) ?? Data(), $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: EXTENDED WRITE
    /// SINGLE BLOCK (31h): WRITE SINGLE BLOCK with a 16-bit block number. The handler runs on the
    /// callback queue with the result or the error.
    public func extendedWriteSingleBlock(requestFlags: RequestFlag, blockNumber: Int, dataBlock: Data, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.extendedWriteSingleBlock(requestFlags: requestFlags, blockNumber: blockNumber, dataBlock: dataBlock) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: EXTENDED LOCK
    /// BLOCK (32h): LOCK BLOCK with a 16-bit block number. The handler runs on the callback queue
    /// with the result or the error.
    public func extendedLockBlock(requestFlags: RequestFlag, blockNumber: Int, completionHandler: @escaping (Error?) -> Void) {
        complete({ try await self.extendedLockBlock(requestFlags: requestFlags, blockNumber: blockNumber) }) { completionHandler($0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: EXTENDED READ
    /// MULTIPLE BLOCKS (33h): READ MULTIPLE BLOCKS with 16-bit block numbers. The handler runs on
    /// the callback queue with the result or the error.
    public func extendedReadMultipleBlocks(requestFlags: RequestFlag, blockRange: NSRange, completionHandler: @escaping ([Data], Error?) -> Void) {
        complete({ try await self.extendedReadMultipleBlocks(requestFlags: requestFlags, blockRange: blockRange) }) { completionHandler((try? $0.get()) ?? [], $0.error) }
    }
    /// Completion-handler form (Core NFC's iOS 13 API) of the `async` requirement: A custom command
    /// (codes A0h–DFh) carrying the tag's IC manufacturer code and `customRequestParameters`; the
    /// answer's data after its flags byte. The handler runs on the callback queue with the result
    /// or the error.
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
