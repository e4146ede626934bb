/// Planted-bug parsers for the fuzzer benchmark (scripts/bench-fuzz). They live only here, in
/// the fuzz package: they exist to be crashed. Both read a Type 2 memory image (page 0 on).

/// A known-naive TLV reader, as the first source article writes one: it trusts every length.
/// It traps on a truncated TLV (no length byte, a 3-byte length cut short) and on a length
/// past the end of the data (`removeFirst(n)` on fewer than n bytes).
public enum NaiveTLVParser {
    public static func parse(_ image: [UInt8]) -> [(tag: UInt8, value: [UInt8])] {
        guard image.count > 16 else { return [] }
        var data = image[16...]
        var out: [(UInt8, [UInt8])] = []
        while !data.isEmpty {
            let tag = data.removeFirst()
            if tag == 0xFE { break }
            if tag == 0x00 { continue }
            var length = Int(data.removeFirst())
            if length == 0xFF { length = Int(data.removeFirst()) << 8 | Int(data.removeFirst()) }
            let value = Array(data.prefix(length))
            data.removeFirst(length)
            out.append((tag, value))
        }
        return out
    }
}

/// A careful reader with one planted deep bug. The memory layout, the TLVs and the NDEF
/// framing are all checked (CC magic and version, TLV lengths against the data area, MB/ME,
/// short records only, lengths that use the message exactly); only inside a well-known Text
/// record does it trust the status byte's language length: `payload[1...n]` traps when n
/// reaches past the payload. Reaching it takes a valid image, a valid NDEF TLV and a valid
/// message around one malformed Text record.
public enum DeepTextParser {
    public static func parse(_ image: [UInt8]) -> [String] {
        guard image.count >= 16, image[12] == 0xE1, image[13] >> 4 == 1 else { return [] }
        let end = min(image.count, 16 + Int(image[14]) * 8)
        var i = 16
        while i < end {
            let tag = image[i]
            i += 1
            if tag == 0xFE { break }
            if tag == 0x00 { continue }
            guard i < end else { return [] }
            var length = Int(image[i])
            i += 1
            if length == 0xFF {
                guard i + 2 <= end else { return [] }
                length = Int(image[i]) << 8 | Int(image[i + 1])
                i += 2
            }
            guard length <= end - i else { return [] }
            if tag == 0x03 { return texts(Array(image[i..<(i + length)])) }
            i += length
        }
        return []
    }

    static func texts(_ message: [UInt8]) -> [String] {
        var out: [String] = []
        var i = 0
        var first = true
        while i < message.count {
            let header = message[i]
            // Short records only, MB exactly on the first, no ID, no chunks.
            guard header & 0x10 != 0, (header & 0x80 != 0) == first, header & 0x28 == 0, i + 3 <= message.count else { return [] }
            let typeLength = Int(message[i + 1]), payloadLength = Int(message[i + 2])
            let typeStart = i + 3
            guard typeLength <= message.count - typeStart, payloadLength <= message.count - typeStart - typeLength else { return [] }
            let type = Array(message[typeStart..<(typeStart + typeLength)])
            let payload = Array(message[(typeStart + typeLength)..<(typeStart + typeLength + payloadLength)])
            i = typeStart + typeLength + payloadLength
            first = false
            if header & 0x07 == 0x01, type == [0x54], let status = payload.first {
                let languageLength = Int(status & 0x3F)
                let language = payload[1...languageLength]   // the planted bug: no check against payload.count
                out.append(String(decoding: language, as: UTF8.self))
            }
            if header & 0x40 != 0 { return i == message.count ? out : [] }
        }
        return []
    }
}
