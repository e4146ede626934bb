import Testing
import NFCCore
@testable import NFCDissect

/// The one-line view writes numbers and a line's hex bytes into stack buffers sized for them
/// (`Decimal.append`, `TextRenderer.appendPlainData`). These tests write every size those buffers
/// are made for and compare with the plain formatting; a buffer one byte too small traps in the
/// test build (buffer subscripts are checked there).
@Suite struct TextLineTests {
    @Test func decimalsAreRightAlignedAsStringFormatsThem() {
        let values: [Int64] = [0, 7, -7, 9, 10, -10, 99, 100, 123_456, -123_456, 999_999_999, 1_000_000_000,
                               Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        for v in values {
            for width in 0...30 {
                var out: [UInt8] = [0x41]
                Decimal.append(v, width: width, into: &out)
                let digits = String(v)
                let expected = "A" + String(repeating: " ", count: max(0, width - digits.count)) + digits
                #expect(String(decoding: out, as: UTF8.self) == expected, "\(v) in \(width)")
            }
        }
    }

    /// Frames of 0 to 40 bytes, whole or with a short last byte: the data column holds the
    /// bytes in hex, 16 to a line, `(n)` after a short last byte, as `Hex.string` writes them.
    @Test func dataColumnsHoldEveryByteOfTheFrame() {
        for count in 0...40 {
            for lastBits: UInt8 in [8, 4, 7] where count > 0 || lastBits == 8 {
                let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xA5) }
                let frame = Frame(.data(.readerToTag), bytes: bytes, lastByteBits: lastBits)
                var out: [UInt8] = []
                TextRenderer().render(.frame(FrameDissection(number: 1, frame: frame)), into: &out)
                let lines = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                var expected: [String] = []
                for start in stride(from: 0, to: max(count, 1), by: 16) {
                    let chunk = bytes[start..<min(count, start + 16)]
                    expected.append(Hex.string(chunk) + (chunk.endIndex == count && lastBits != 8 ? "(\(lastBits))" : ""))
                }
                #expect(lines.count == expected.count, "\(count) bytes, \(lastBits) bits")
                for (i, line) in lines.enumerated() where i < expected.count {
                    let data = line.dropFirst(i == 0 ? 25 : 24)
                    #expect(data.hasPrefix(expected[i]), "\(count) bytes, \(lastBits) bits, line \(i): \(line)")
                    let rest = data.dropFirst(expected[i].count)
                    #expect(rest.isEmpty || rest.first == " ", "\(count) bytes, line \(i): nothing after the bytes but the columns")
                }
            }
        }
    }
}
