import Foundation
import NFCTestKit

/// The ISO 15693 article's flow: read the CC in block 0, write one (NFC Forum Type 5, version
/// 1.0, read/write, the tag's whole memory) when it is missing, then write the NDEF message.
public enum ISO15693Format {
    /// Addressed, high data rate: what the article's app passed to every call.
    static let flags: RequestFlag = [.highDataRate, .address]

    static func tag(_ tag: NFCTag) throws -> NFCISO15693Tag {
        guard case .iso15693(let v) = tag else { throw ReaderFailure.wrongTag }
        return v
    }

    /// True when the tag had to be formatted first.
    @discardableResult
    public static func formatAndWrite(_ message: NFCNDEFMessage, on nfcTag: NFCTag) async throws -> Bool {
        let tag = try tag(nfcTag)
        let info = try await tag.systemInfo(requestFlags: flags)
        guard info.blockSize == 4 || info.blockSize == 8, info.totalBlocks > 2 else { throw ReaderFailure.wrongTag }
        let block0 = try await tag.readSingleBlock(requestFlags: flags, blockNumber: 0)
        var formatted = false
        if block0.first != 0xE1 {
            // MLEN counts 8-byte units after the 4-byte CC; 0x01 says Read Multiple Blocks works.
            let mlen = UInt8(min(0xFF, (info.blockSize * info.totalBlocks - 4) / 8))
            var cc = Data([0xE1, 0x40, mlen, 0x01])
            if info.blockSize == 8 { cc += Data(count: 4) }
            try await tag.writeSingleBlock(requestFlags: flags, blockNumber: 0, dataBlock: cc)
            formatted = true
        }
        try await tag.writeNDEF(message)
        return formatted
    }

    /// Reads the NDEF message; a tag with no CC is `notFormatted`.
    public static func readMessage(on nfcTag: NFCTag) async throws -> NFCNDEFMessage {
        let tag = try tag(nfcTag)
        let (status, _) = try await tag.queryNDEFStatus()
        guard status != .notSupported else { throw ReaderFailure.notFormatted }
        return try await tag.readNDEF()
    }
}
