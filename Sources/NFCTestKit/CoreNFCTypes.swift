import Foundation
import NFCCore

// The value types of Core NFC's tag APIs, named and shaped as Core NFC names them in Swift, so
// that an app's NFC code reads the same against this kit as against Core NFC. Where a Core NFC
// type is a class (`NFCNDEFMessage`, `NFCISO7816APDU`) the kit's is a value with the same
// members. Byte layouts are not written here: they come from NFCCore's codecs.

/// `NFCTagReaderSession.PollingOption`.
public struct PollingOption: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let iso14443 = PollingOption(rawValue: 1 << 0)
    public static let iso15693 = PollingOption(rawValue: 1 << 1)
    public static let iso18092 = PollingOption(rawValue: 1 << 2)
    /// Not simulated: no PACE tag model exists in nfctrace.
    public static let pace = PollingOption(rawValue: 1 << 3)
}

/// `NFCMiFareFamily`.
public enum NFCMiFareFamily: UInt, Sendable, Hashable {
    case unknown = 1, ultralight = 2, plus = 3, desfire = 4
}

/// `NFCNDEFStatus`.
public enum NFCNDEFStatus: UInt, Sendable, Hashable {
    case notSupported = 1, readWrite = 2, readOnly = 3
}

/// `NFCFeliCaPollingRequestCode` (`PollingRequestCode` in Swift).
public enum PollingRequestCode: Int, Sendable, Hashable {
    case noRequest = 0, systemCode = 1, communicationPerformance = 2
}

/// `NFCFeliCaPollingTimeSlot` (`PollingTimeSlot` in Swift).
public enum PollingTimeSlot: Int, Sendable, Hashable {
    case max1 = 0, max2 = 1, max4 = 3, max8 = 7, max16 = 15
}

/// `NFCISO15693RequestFlag` (`RequestFlag` in Swift): the request flags byte the app gives.
public struct RequestFlag: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let dualSubCarriers = RequestFlag(rawValue: 1 << 0)
    public static let highDataRate = RequestFlag(rawValue: 1 << 1)
    public static let protocolExtension = RequestFlag(rawValue: 1 << 3)
    public static let select = RequestFlag(rawValue: 1 << 4)
    public static let address = RequestFlag(rawValue: 1 << 5)
    public static let option = RequestFlag(rawValue: 1 << 6)
    public static let commandSpecificBit8 = RequestFlag(rawValue: 1 << 7)
}

/// `NFCISO15693SystemInfo`: -1 where the tag's answer does not carry the field (as Core NFC
/// documents for `getSystemInfo`).
public struct NFCISO15693SystemInfo: Sendable, Hashable {
    public var uniqueIdentifier: Data
    public var dataStorageFormatIdentifier: Int
    public var applicationFamilyIdentifier: Int
    public var blockSize: Int
    public var totalBlocks: Int
    public var icReference: Int

    public init(uniqueIdentifier: Data, dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int,
                blockSize: Int, totalBlocks: Int, icReference: Int) {
        self.uniqueIdentifier = uniqueIdentifier
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}

/// `NFCISO7816APDU`: the command as the app builds it; encoded by NFCCore's `CommandAPDU`.
/// `expectedResponseLength` -1 means no Le, as in Core NFC; 256 (65536 extended) asks for all.
public struct NFCISO7816APDU: Sendable, Hashable {
    public var instructionClass: UInt8
    public var instructionCode: UInt8
    public var p1Parameter: UInt8
    public var p2Parameter: UInt8
    public var data: Data?
    public var expectedResponseLength: Int

    public init(instructionClass: UInt8, instructionCode: UInt8, p1Parameter: UInt8, p2Parameter: UInt8,
                data: Data, expectedResponseLength: Int) {
        self.instructionClass = instructionClass
        self.instructionCode = instructionCode
        self.p1Parameter = p1Parameter
        self.p2Parameter = p2Parameter
        self.data = data.isEmpty ? nil : data
        self.expectedResponseLength = expectedResponseLength
    }

    /// Nil when `data` is no well-formed command APDU (Core NFC's failable initialiser).
    public init?(data: Data) {
        guard let apdu = try? CommandAPDU.decode(Array(data)) else { return nil }
        self.init(apdu)
    }

    init(_ apdu: CommandAPDU) {
        self.init(instructionClass: apdu.cla, instructionCode: apdu.ins, p1Parameter: apdu.p1, p2Parameter: apdu.p2,
                  data: Data(apdu.data), expectedResponseLength: apdu.le ?? -1)
    }

    /// The NFCCore command: extended length when the data or Le do not fit the short form.
    public var command: CommandAPDU {
        let body = data.map(Array.init) ?? []
        let le = expectedResponseLength < 0 ? nil : expectedResponseLength
        let extended = body.count > 255 || (le ?? 0) > 256
        return CommandAPDU(cla: instructionClass, ins: instructionCode, p1: p1Parameter, p2: p2Parameter,
                           data: body, le: le, extended: extended)
    }
}

/// `NFCTypeNameFormat`.
public enum NFCTypeNameFormat: UInt8, Sendable, Hashable {
    case empty = 0, nfcWellKnown = 1, media = 2, absoluteURI = 3, nfcExternal = 4, unknown = 5, unchanged = 6
}

/// `NFCNDEFPayload`: one record, its fields as Core NFC gives them.
public struct NFCNDEFPayload: Sendable, Hashable {
    public var typeNameFormat: NFCTypeNameFormat
    public var type: Data
    public var identifier: Data
    public var payload: Data

    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        typeNameFormat = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
    }

    /// `NFCNDEFPayload.wellKnownTypeTextPayload(string:locale:)`, built by NFCCore's Text record.
    public static func wellKnownTypeTextPayload(string: String, locale: Locale) -> NFCNDEFPayload? {
        let language = locale.identifier.split(separator: "_").first.map(String.init) ?? "en"
        return (try? NDEFRecord.text(string, language: language)).map(NFCNDEFPayload.init)
    }

    /// `NFCNDEFPayload.wellKnownTypeURIPayload(string:)`.
    public static func wellKnownTypeURIPayload(string: String) -> NFCNDEFPayload? {
        NFCNDEFPayload(NDEFRecord.uri(string))
    }

    /// `wellKnownTypeTextPayload()`: the text and its language, nil for other records.
    public func wellKnownTypeTextPayload() -> (String?, Locale?) {
        guard let bytes = try? NDEFMessage([record]).encode(),
              case .text(let t)? = NDEFMessage.decode(bytes).records.first?.payload else { return (nil, nil) }
        return (t.text, Locale(identifier: t.language))
    }

    init(_ record: NDEFRecord) {
        self.init(format: NFCTypeNameFormat(rawValue: record.tnf.rawValue) ?? .unknown, type: Data(record.type),
                  identifier: Data(record.id), payload: Data(record.payload))
    }

    var record: NDEFRecord {
        NDEFRecord(tnf: NDEFTypeNameFormat(rawValue: typeNameFormat.rawValue) ?? .unknown, type: Array(type),
                   id: Array(identifier), payload: Array(payload))
    }
}

/// `NFCNDEFMessage`: records, `length` the encoded size.
public struct NFCNDEFMessage: Sendable, Hashable {
    public var records: [NFCNDEFPayload]

    public init(records: [NFCNDEFPayload]) { self.records = records }

    /// Nil when `data` is no NDEF message NFCCore's strict decoder accepts.
    public init?(data: Data) {
        guard let message = try? NDEFMessage(strict: Array(data)) else { return nil }
        self.init(message)
    }

    init(_ message: NDEFMessage) { records = message.records.map(NFCNDEFPayload.init) }

    public var message: NDEFMessage { NDEFMessage(records.map(\.record)) }

    /// The encoded message; nil when a record cannot be encoded (a type over 255 bytes).
    public var encoded: [UInt8]? { try? message.encode() }

    public var length: Int { encoded?.count ?? 0 }
}
