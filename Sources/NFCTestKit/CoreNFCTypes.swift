import Foundation
import NFCCore

// The value types of Core NFC's tag APIs, named and shaped as Core NFC names them in Swift, so
// that an app's NFC code reads the same against this kit as against Core NFC. Where a Core NFC
// type is a class (`NFCNDEFMessage`, `NFCISO7816APDU`) the kit's is a value with the same
// members. Byte layouts are not written here: they come from NFCCore's codecs.

/// `NFCTagReaderSession.PollingOption`.
public struct PollingOption: OptionSet, Sendable, Hashable {
    /// The option bits, as Core NFC's `PollingOption` raw value.
    public let rawValue: Int
    /// The options of `rawValue`'s bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// ISO/IEC 14443 (NFC-A, NFC-B): MIFARE/NTAG tags and ISO-DEP cards.
    public static let iso14443 = PollingOption(rawValue: 1 << 0)
    /// ISO/IEC 15693 (NFC-V) vicinity tags.
    public static let iso15693 = PollingOption(rawValue: 1 << 1)
    /// ISO/IEC 18092 (NFC-F): FeliCa cards, found by the Info.plist system codes.
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
    /// The request flags byte of ISO/IEC 15693-3 (bits 1 to 8 as bit 0 to 7).
    public let rawValue: UInt8
    /// The flags of `rawValue`'s bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Bit 1, Sub-carrier_flag: the tag answers on two sub-carriers.
    public static let dualSubCarriers = RequestFlag(rawValue: 1 << 0)
    /// Bit 2, Data_rate_flag: the tag answers at the high data rate.
    public static let highDataRate = RequestFlag(rawValue: 1 << 1)
    /// Bit 4, Protocol_Extension_flag: the protocol format is extended (RFU in ISO/IEC 15693-3).
    public static let protocolExtension = RequestFlag(rawValue: 1 << 3)
    /// Bit 5, Select_flag: only a tag in the selected state executes the request.
    public static let select = RequestFlag(rawValue: 1 << 4)
    /// Bit 6, Address_flag: the request carries the tag's UID and only that tag executes it.
    public static let address = RequestFlag(rawValue: 1 << 5)
    /// Bit 7, Option_flag: the command's option (block security status in read answers, waiting for
    /// EOF on writes).
    public static let option = RequestFlag(rawValue: 1 << 6)
    /// Bit 8, RFU in the standard: its meaning is the command's.
    public static let commandSpecificBit8 = RequestFlag(rawValue: 1 << 7)
}

/// `NFCISO15693SystemInfo`: -1 where the tag's answer does not carry the field (as Core NFC
/// documents for `getSystemInfo`).
public struct NFCISO15693SystemInfo: Sendable, Hashable {
    /// The tag's 8-byte UID.
    public var uniqueIdentifier: Data
    /// The DSFID: how the data in memory is organised (0 when not set), -1 when not in the answer.
    public var dataStorageFormatIdentifier: Int
    /// The AFI: the application family the tag belongs to, -1 when not in the answer.
    public var applicationFamilyIdentifier: Int
    /// Bytes per block (1 to 32), -1 when the answer gives no memory size.
    public var blockSize: Int
    /// Number of blocks (1 to 256), -1 when the answer gives no memory size.
    public var totalBlocks: Int
    /// The IC reference the manufacturer assigns (chip and revision), -1 when not in the answer.
    public var icReference: Int

    /// System information from its fields; -1 for a field the tag's answer leaves out.
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
    /// CLA: the class byte (secure messaging, logical channel, chaining).
    public var instructionClass: UInt8
    /// INS: the instruction (A4h SELECT, B0h READ BINARY, …).
    public var instructionCode: UInt8
    /// P1: the instruction's first parameter byte.
    public var p1Parameter: UInt8
    /// P2: the instruction's second parameter byte.
    public var p2Parameter: UInt8
    /// The command data field (Lc follows from its length); nil for none.
    public var data: Data?
    /// Le: the number of response bytes expected; -1 for no Le field, 256 (65536 extended) for all
    /// available.
    public var expectedResponseLength: Int

    /// A command APDU from its fields, as Core NFC's initialiser takes them; empty `data` means no
    /// data field.
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
    /// The record's TNF (3 bits of its header): how `type` is to be read.
    public var typeNameFormat: NFCTypeNameFormat
    /// The record type, read as the TNF says (`T`, `U` for well-known types, a MIME type, an
    /// external type name).
    public var type: Data
    /// The record's ID field; empty when it has none.
    public var identifier: Data
    /// The record's payload bytes.
    public var payload: Data

    /// A record from its TNF, type, ID and payload.
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
    /// The message's records, in order (MB on the first, ME on the last when encoded).
    public var records: [NFCNDEFPayload]

    /// A message of `records`.
    public init(records: [NFCNDEFPayload]) { self.records = records }

    /// Nil when `data` is no NDEF message NFCCore's strict decoder accepts.
    public init?(data: Data) {
        guard let message = try? NDEFMessage(strict: Array(data)) else { return nil }
        self.init(message)
    }

    init(_ message: NDEFMessage) { records = message.records.map(NFCNDEFPayload.init) }

    /// The message as NFCCore's `NDEFMessage`, for checks with nfctrace's NDEF codec.
    public var message: NDEFMessage { NDEFMessage(records.map(\.record)) }

    /// The encoded message; nil when a record cannot be encoded (a type over 255 bytes).
    public var encoded: [UInt8]? { try? message.encode() }

    /// The encoded message's size in bytes (0 when a record cannot be encoded).
    public var length: Int { encoded?.count ?? 0 }
}
