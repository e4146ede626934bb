import Foundation
import Testing
import NFCCore

/// The one factory image of a Type 2 tag against the NTAG213/215/216 datasheet and a blank
/// NTAG216 read by a Proxmark3.
@Suite struct Type2FactoryImageTests {
    static let dump: String = {
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/../shared/dumps/pm3_ntag216-empty.json"
    }()

    @Test func ntag21xConfigurationIsTheDatasheetsDefaults() {
        let cfg = Type2FactoryImage.configuration(.ntag21x)
        // NTAG213/215/216 datasheet §8.5.7: MIRROR 04h, RFUI, MIRROR_PAGE 00h, AUTH0 FFh.
        #expect(Array(cfg[0..<4]) == [0x04, 0x00, 0x00, 0xFF])
        // ACCESS 00h: PROT 0, CFGLCK 0, NFC_CNT_EN 0, NFC_CNT_PWD_PROT 0, AUTHLIM 000b.
        #expect(cfg[4] == 0x00)
        // PWD FFFFFFFFh, PACK 0000h, two RFUI bytes.
        #expect(Array(cfg[8..<16]) == [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00])
        // Ultralight EV1: MOD 00h, AUTH0 FFh, ACCESS 00h, VCTID 05h.
        #expect(Array(Type2FactoryImage.configuration(.ultralightEV1)[0..<8]) == [0x00, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: dump), "../shared/dumps is not beside this checkout"))
    func ntag216MatchesABlankTagFromTheDynamicLockPageOn() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.dump))) as? [String: Any])
        let blocks = try #require(json["blocks"] as? [String: String])
        let image = Type2FactoryImage.pages(.ntag216, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        // Pages E2h (dynamic lock, RFUI byte BDh), E3h CFG0, E4h CFG1 (byte 1 reads 05h though
        // the datasheet calls it RFUI), E5h PWD (the Proxmark3 shows the default it knows).
        for page in 0xE2...0xE5 {
            let text = try #require(blocks["\(page)"])
            let real = try #require(Hex.parse(text))
            #expect(Array(image[page * 4..<page * 4 + 4]) == real, "page \(Hex.byte(UInt8(page)))")
        }
    }

    @Test func emptyNDEFImageAndFactoryTagAreTheSameBytes() throws {
        let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
        for model in [Type2TagModel.ntag213, .ntag215, .ntag216] {
            let encoded = try Type2Memory.image(model: model, message: [], header: Type2FactoryImage.header(uid: uid))
            #expect(encoded == Type2FactoryImage.pages(model, uid: uid), "\(model)")
        }
        let header = Type2FactoryImage.header(uid: uid)
        #expect(header[3] == 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2 && header[8] == 0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6 && header[9] == 0x48)
    }
}
