import Testing
import NFCCore
@testable import NFCDissect

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

    @Test(arguments: [[], [0x00], [0x04, 0xA2, 0x2C], Array(0...255)] as [[UInt8]])
    func hexBytesIsHexString(_ bytes: [UInt8]) {
        var w = TextWriter(capacity: 4)
        w.hexBytes(bytes)
        #expect(w.string == Hex.string(bytes))
        var slice = TextWriter(capacity: 4)
        slice.hexBytes(bytes.dropFirst())
        #expect(slice.string == Hex.string(bytes.dropFirst()))
    }

    @Test func hexValueIsHexValue() {
        let values: [UInt64] = [0, 0x44, 0x0044, 0x1A8B, 0xFFFF, 0x1234_5678_9ABC_DEF0, .max]
        for v in values {
            for digits in [0, 1, 2, 4, 8, 16, 20] {
                var w = TextWriter(capacity: 4)
                w.hexValue(v, digits: digits)
                #expect(w.string == Hex.value(v, digits: digits), "\(v) \(digits)")
            }
        }
        var w = TextWriter(capacity: 4)
        w.hexValue(UInt16(0x0044), digits: 4)
        #expect(w.string == "0044")
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

    /// The writer keeps its bytes in a buffer of its own: a copy must not write into the
    /// original's (value semantics, as with the array it replaced).
    @Test func aCopyWritesIntoItsOwnBuffer() {
        var a = TextWriter(capacity: 64)
        a.write("page ")
        var b = a
        b.write("0x04")
        a.write("0x05")
        #expect(a.string == "page 0x05")
        #expect(b.string == "page 0x04")
        var c = b
        c.hexByte(0x3A)
        c.decimal(-7)
        c.hexBytes([1, 2] as [UInt8])
        c.hexValue(0x44, digits: 4)
        #expect(b.string == "page 0x04")
        #expect(c.string == "page 0x040x3A-701 020044")
    }
}
