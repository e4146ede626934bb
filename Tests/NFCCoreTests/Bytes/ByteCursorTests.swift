import Testing
@testable import NFCCore

@Suite struct ByteCursorTests {
    @Test func readsInBothByteOrders() throws {
        var c = ByteCursor([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE])
        #expect(try c.readUInt16BE("a") == 0x1234)
        #expect(try c.readUInt16LE("b") == 0x7856)
        #expect(try c.readUInt24BE("c") == 0x9ABCDE)
        #expect(c.isAtEnd)
    }

    @Test func shortReadThrowsWithOffsetAndExpectation() {
        var c = ByteCursor([0x01, 0x02, 0x03])
        _ = try? c.readUInt8("x")
        #expect(throws: DecodeError(offset: 1, expected: "4-byte password", found: "2 bytes")) {
            try c.readBytes(4, "4-byte password")
        }
        #expect(c.offset == 1, "a failed read does not move the cursor")
    }

    @Test func subCursorReportsOffsetsOfTheWhole() throws {
        var c = ByteCursor([0, 1, 2, 3, 4, 5])
        try c.skip(2, "header")
        var sub = try c.readSubCursor(2, "body")
        _ = try sub.readUInt8("b0")
        #expect(sub.offset == 3)
        #expect(throws: DecodeError.self) { try sub.readUInt16BE("two bytes") }
        #expect(c.offset == 4)
    }

    @Test func hexRoundTripAndTolerantParsing() {
        #expect(Hex.string([0x04, 0xA2, 0x2C]) == "04 A2 2C")
        #expect(Hex.parse("04 a2 2c") == [0x04, 0xA2, 0x2C])
        #expect(Hex.parse("04a22c") == [0x04, 0xA2, 0x2C])
        #expect(Hex.parse("04:A2:2C") == [0x04, 0xA2, 0x2C])
        #expect(Hex.parse("0x04 0xA2") == [0x04, 0xA2])
        #expect(Hex.parse("4 A") == [0x04, 0x0A])
        #expect(Hex.parse("zz") == nil)
        #expect(Hex.parse("") == [])
        #expect(Hex.value(0x090F, digits: 4) == "090F")
    }
}
