import Foundation
import Testing
import NFCCore
@testable import NFCDissect

/// The frame object's enum members are written as fixed text per case; they must say what the
/// enums' raw values say, for every case.
@Suite struct JSONRendererTests {
    static func object(_ d: FrameDissection) throws -> [String: Any] {
        var out: [UInt8] = []
        JSONRenderer().render(.frame(d), into: &out)
        return try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
    }

    @Test func technologiesTimeUnitsAndCRCKindsAsTheirRawValues() throws {
        for technology in Technology.allCases {
            for unit in TimeUnit.allCases {
                for kind in CRC.Kind.allCases {
                    let frame = Frame(.data(.readerToTag), technology: technology, bytes: [0x30, 0x03],
                                      start: Timestamp(1_234, unit))
                    let o = try Self.object(FrameDissection(number: 1, frame: frame, crc: .ok(kind)))
                    #expect(o["technology"] as? String == technology.rawValue)
                    #expect(o["time_unit"] as? String == unit.rawValue)
                    #expect(o["crc"] as? String == "ok")
                    #expect(o["crc_kind"] as? String == kind.rawValue)
                    #expect(o["start"] as? Int == 1_234)
                }
            }
        }
    }
}
