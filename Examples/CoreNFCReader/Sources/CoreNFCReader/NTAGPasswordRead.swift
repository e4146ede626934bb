import Foundation
import NFCTestKit

/// What the NTAG215 flow reads: the PACK the tag answered PWD_AUTH with, and its NDEF message.
public struct NTAGRead: Equatable {
    public var pack: Data
    public var message: NFCNDEFMessage
}

/// The first article's flow: PWD_AUTH with the app's password, READ of the CC, READs of the
/// first pages of the data area, then FAST_READ of the rest in whole 4-page units, the NDEF
/// Message TLV found with a careful parser, the message decoded.
public enum NTAGPasswordRead {
    static let pwdAuth: UInt8 = 0x1B
    static let read: UInt8 = 0x30
    static let fastRead: UInt8 = 0x3A

    public static func run(on tag: NFCTag, password: Data) async throws -> NTAGRead {
        guard case .miFare(let mifare) = tag, mifare.mifareFamily == .ultralight else { throw ReaderFailure.wrongTag }
        let pack: Data
        do {
            pack = try await mifare.sendMiFareCommand(commandPacket: Data([pwdAuth]) + password)
        } catch let e as NFCReaderError where e.code == .readerTransceiveErrorTagResponseError {
            throw ReaderFailure.wrongPassword
        }
        let cc = try await mifare.sendMiFareCommand(commandPacket: Data([read, 3]))
        guard cc.count == 16, cc[0] == 0xE1 else { throw ReaderFailure.notFormatted }
        let dataAreaPages = Int(cc[2]) * 8 / 4
        // READ gives 4 pages; two of them hold the TLV header and the start of the message.
        var area = Data()
        var page = 4
        for _ in 0..<2 {
            area += try await mifare.sendMiFareCommand(commandPacket: Data([read, UInt8(page)]))
            page += 4
            if case .complete = NDEFTLVParser.find(in: area) { break }
        }
        while case .needMore(let bytes) = NDEFTLVParser.find(in: area) {
            let pages = ((bytes + 15) / 16) * 4
            let last = min(page + pages - 1, 4 + dataAreaPages - 1)
            guard last >= page else { break }
            area += try await mifare.sendMiFareCommand(commandPacket: Data([fastRead, UInt8(page), UInt8(last)]))
            page = last + 1
        }
        switch NDEFTLVParser.find(in: area) {
        case .complete(let bytes):
            if bytes.isEmpty { return NTAGRead(pack: pack, message: NFCNDEFMessage(records: [])) }
            guard let message = NFCNDEFMessage(data: bytes) else { throw ReaderFailure.malformedNDEF("the NDEF message does not decode") }
            return NTAGRead(pack: pack, message: message)
        case .needMore: throw ReaderFailure.malformedNDEF("the NDEF TLV runs past the data area")
        case .none: throw ReaderFailure.malformedNDEF("no NDEF Message TLV")
        case .malformed(let why): throw ReaderFailure.malformedNDEF(why)
        }
    }
}

/// The TLV walk of a Type 2 data area, written with care: every length is checked against the
/// bytes there are before it is used, and a TLV that runs past them asks for more instead of
/// reading out of bounds.
public enum NDEFTLVParser {
    public enum Outcome: Equatable {
        /// The NDEF Message TLV's value.
        case complete(Data)
        /// The NDEF Message TLV (or the TLVs before it) needs this many bytes more.
        case needMore(Int)
        /// A Terminator TLV or the end came before any NDEF Message TLV.
        case none
        case malformed(String)
    }

    public static func find(in area: Data) -> Outcome {
        let bytes = [UInt8](area)
        var i = 0
        while i < bytes.count {
            let tag = bytes[i]
            if tag == 0x00 { i += 1; continue }          // NULL TLV
            if tag == 0xFE { return .none }               // Terminator TLV
            guard i + 1 < bytes.count else { return .needMore(1) }
            var length = Int(bytes[i + 1])
            var valueStart = i + 2
            if length == 0xFF {                           // 3-byte length form
                guard i + 3 < bytes.count else { return .needMore(i + 4 - bytes.count) }
                length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                guard length >= 0xFF else { return .malformed("3-byte length \(length) below 255") }
                valueStart = i + 4
            }
            let end = valueStart + length
            guard end <= bytes.count else { return .needMore(end - bytes.count) }
            if tag == 0x03 { return .complete(Data(bytes[valueStart..<end])) }
            i = end
        }
        return .needMore(1)
    }
}
