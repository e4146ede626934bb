import Testing
import NFCCore

/// `TextWriter` writes what the interpolations it replaces wrote.
@Suite struct TextWriterTests {
    @Test(arguments: [0, 1, 9, 10, 99, 100, 504, 999_999, -1, -10, Int.max, Int.min])
    func decimalIsTheInterpolation(_ n: Int) {
        var w = TextWriter(capacity: 4)
        w.decimal(n)
        #expect(w.string == "\(n)")
    }

    @Test func hexByteIsHexByte() {
        for b in 0...255 {
            var w = TextWriter(capacity: 4)
            w.hexByte(UInt8(b))
            #expect(w.string == Hex.byte(UInt8(b)))
        }
    }

    @Test func piecesFollowEachOtherPastTheReservedCapacity() {
        var w = TextWriter(capacity: 2)
        let name = String(repeating: "é", count: 40)
        w.write("DATA pages ")
        w.hexByte(0x03)
        w.write("…")
        w.decimal(42)
        w.write(name)
        #expect(w.string == "DATA pages 0x03…42" + name)
        #expect(TextWriter(capacity: 0).string == "")
    }
}
