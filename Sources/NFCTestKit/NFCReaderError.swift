import Foundation

/// `NFCReaderError`: the error every tag call and the session report, with Core NFC's codes
/// (raw values as in Apple's `NFCReaderError.Code`) and user-info keys.
public struct NFCReaderError: Error, CustomNSError, Hashable, CustomStringConvertible {
    /// Core NFC's error codes, with Apple's raw values: reader errors 1–8, transceive errors
    /// 100–105, session invalidation 200–204, tag command configuration 300, NDEF session errors
    /// 400–403.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case readerErrorUnsupportedFeature = 1
        case readerErrorSecurityViolation = 2
        case readerErrorInvalidParameter = 3
        case readerErrorInvalidParameterLength = 4
        case readerErrorParameterOutOfBound = 5
        case readerErrorRadioDisabled = 6
        case readerErrorIneligible = 7
        case readerErrorAccessNotAccepted = 8
        case readerTransceiveErrorTagConnectionLost = 100
        case readerTransceiveErrorRetryExceeded = 101
        case readerTransceiveErrorTagResponseError = 102
        case readerTransceiveErrorSessionInvalidated = 103
        case readerTransceiveErrorTagNotConnected = 104
        case readerTransceiveErrorPacketTooLong = 105
        case readerSessionInvalidationErrorUserCanceled = 200
        case readerSessionInvalidationErrorSessionTimeout = 201
        case readerSessionInvalidationErrorSessionTerminatedUnexpectedly = 202
        case readerSessionInvalidationErrorSystemIsBusy = 203
        case readerSessionInvalidationErrorFirstNDEFTagRead = 204
        case tagCommandConfigurationErrorInvalidParameters = 300
        case ndefReaderSessionErrorTagNotWritable = 400
        case ndefReaderSessionErrorTagUpdateFailure = 401
        case ndefReaderSessionErrorTagSizeTooSmall = 402
        case ndefReaderSessionErrorZeroLengthMessage = 403
    }

    /// Core NFC's key for the ISO 15693 error code of a tag's error answer.
    public static let iso15693TagResponseErrorKey = "NFCISO15693TagResponseErrorCode"
    /// The kit's key for the 4-bit NAK value of a MIFARE answer (Core NFC's own delivery of a
    /// NAK is not documented; docs/testing-core-nfc-code.md).
    public static let miFareNAKKey = "NFCTestKitMiFareNAK"

    /// Which error: the reason as Core NFC codes it.
    public let code: Code
    /// Integer facts about the error (the ISO 15693 error code, the NAK value).
    public let details: [String: Int]
    /// What happened, in words, for test failure messages.
    public let message: String

    /// An error with `code`, integer `details` under Core NFC's (or the kit's) user-info keys and a
    /// message for test output.
    public init(_ code: Code, details: [String: Int] = [:], message: String = "") {
        self.code = code
        self.details = details
        self.message = message
    }

    /// Core NFC's error domain, `NFCError`, so bridged `NSError`s compare as Core NFC's do.
    public static var errorDomain: String { "NFCError" }
    /// The code's raw value, as `NSError.code`.
    public var errorCode: Int { code.rawValue }
    /// The details and, when there is one, the message under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = details
        if !message.isEmpty { info[NSLocalizedDescriptionKey] = message }
        return info
    }

    /// Errors are equal by code and details, as Core NFC's compare by domain and code; the
    /// message is prose.
    public static func == (lhs: NFCReaderError, rhs: NFCReaderError) -> Bool { lhs.code == rhs.code && lhs.details == rhs.details }
    /// Hashes what `==` compares: the code and the details.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(details)
    }

    /// "NFCReaderError CODE (name): message", for test failure output.
    public var description: String { "NFCReaderError \(code.rawValue) (\(code))" + (message.isEmpty ? "" : ": \(message)") }

    /// The ISO 15693 error code of a tag's error answer.
    public var iso15693ErrorCode: Int? { details[Self.iso15693TagResponseErrorKey] }
}
