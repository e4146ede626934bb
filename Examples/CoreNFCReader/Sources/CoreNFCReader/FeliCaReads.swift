import Foundation
import NFCTestKit

/// A university student ID (FeliCa, common area FE00): service 1A8B, block 0 the student
/// number in ASCII, block 1 the name in half-width katakana (Shift_JIS).
public struct StudentID: Equatable {
    public var number: String
    public var name: String
    public init(number: String, name: String) {
        self.number = number
        self.name = name
    }
}

/// One Suica history record (service 090F, 16 bytes, newest first).
public struct SuicaRecord: Equatable {
    public var date: DateComponents
    public var balance: Int
}

/// What the system-switch flow reads from a card with two systems.
public struct TwoSystems: Equatable {
    public var systemCodes: [Data]
    public var memberNumber: String
    public var studentNumber: String
    public var idmAfterSwitch: Data
}

public enum FeliCaReads {
    /// Service codes and block list elements as Core NFC takes them: 2 bytes little endian, and
    /// the 2-byte block list form `80 NN`.
    static func service(_ code: UInt16) -> Data { Data([UInt8(code & 0xFF), UInt8(code >> 8)]) }
    static func block(_ n: Int) -> Data { Data([0x80, UInt8(n)]) }

    static func feliCa(_ tag: NFCTag) throws -> NFCFeliCaTag {
        guard case .feliCa(let f) = tag else { throw ReaderFailure.wrongTag }
        return f
    }

    /// Reads `blocks` of `service`, status flags checked.
    static func read(_ tag: NFCFeliCaTag, service code: UInt16, blocks: [Int]) async throws -> [Data] {
        let (sf1, sf2, data) = try await tag.readWithoutEncryption(serviceCodeList: [service(code)], blockList: blocks.map(block))
        guard sf1 == 0 else { throw ReaderFailure.statusFlags(sf1, sf2) }
        return data
    }

    static func text(_ data: Data, encoding: String.Encoding) -> String {
        let trimmed = data.prefix { $0 != 0 }
        return (String(data: trimmed, encoding: encoding) ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// Polling for FE00 happens in the session (Info.plist lists it); one block per read, as the
    /// article's app did.
    public static func studentID(on tag: NFCTag) async throws -> StudentID {
        let card = try feliCa(tag)
        guard card.currentSystemCode == Data([0xFE, 0x00]) else { throw ReaderFailure.wrongTag }
        let number = try await read(card, service: 0x1A8B, blocks: [0])
        let name = try await read(card, service: 0x1A8B, blocks: [1])
        return StudentID(number: text(number[0], encoding: .ascii), name: text(name[0], encoding: .shiftJIS))
    }

    /// Request Service for 090F, then the 12 newest records in two reads (10 + 2).
    public static func suicaHistory(on tag: NFCTag) async throws -> [SuicaRecord] {
        let card = try feliCa(tag)
        let versions = try await card.requestService(nodeCodeList: [service(0x090F)])
        guard versions.first != Data([0xFF, 0xFF]) else { throw ReaderFailure.wrongTag }
        let records = try await read(card, service: 0x090F, blocks: Array(0..<10)) + read(card, service: 0x090F, blocks: [10, 11])
        return records.compactMap { r in
            guard r.count == 16, r[r.startIndex] != 0 else { return nil }
            let b = [UInt8](r)
            var date = DateComponents()
            date.year = 2000 + Int(b[4] >> 1)
            date.month = Int(b[4] & 1) << 3 | Int(b[5] >> 5)
            date.day = Int(b[5] & 0x1F)
            return SuicaRecord(date: date, balance: Int(b[10]) | Int(b[11]) << 8)
        }
    }

    /// Found under system 8E4B: list the systems, read the member number (100B), then poll for
    /// FE00: the card answers with the IDm of its second system, used from then on (1A8B).
    public static func systemSwitch(on tag: NFCTag) async throws -> TwoSystems {
        let card = try feliCa(tag)
        let systems = try await card.requestSystemCode()
        let member = try await read(card, service: 0x100B, blocks: [0])
        _ = try await card.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1)
        let student = try await read(card, service: 0x1A8B, blocks: [0])
        return TwoSystems(systemCodes: systems, memberNumber: text(member[0], encoding: .ascii),
                          studentNumber: text(student[0], encoding: .ascii), idmAfterSwitch: card.currentIDm)
    }
}
