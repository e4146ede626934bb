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

// Two more planted deep bugs, chosen (2026-11-27) before the benchmark was run or anything tuned,
// where no breakage rule of NFCFuzz points: the mutators know these structures (Smart Poster
// records, FeliCa block lists) but have no rule for these mistakes.

/// A careful reader of an NDEF message with one planted bug inside a Smart Poster's nested
/// message: a size record ("s") is read as the 4-byte big-endian number the Smart Poster RTD
/// defines, checking only that its payload is not empty. Both messages are checked (MB/ME, short
/// and long records, ID lengths, no chunks, lengths that use the message exactly).
public enum SmartPosterSizeParser {
    public static func parse(_ message: [UInt8]) -> [UInt32] {
        guard let records = records(message) else { return [] }
        var sizes: [UInt32] = []
        for poster in records where poster.tnf == 1 && poster.type == [0x53, 0x70] {
            guard let nested = Self.records(poster.payload) else { continue }
            for record in nested where record.tnf == 1 && record.type == [0x73] {
                let p = record.payload
                guard let first = p.first else { continue }
                // The planted bug: no check that the payload holds four bytes.
                sizes.append(UInt32(first) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3]))
            }
        }
        return sizes
    }

    /// The records of a well-formed message, or nil.
    static func records(_ message: [UInt8]) -> [(tnf: UInt8, type: [UInt8], payload: [UInt8])]? {
        var out: [(UInt8, [UInt8], [UInt8])] = []
        var i = 0
        while i < message.count {
            let header = message[i]
            let short = header & 0x10 != 0, hasID = header & 0x08 != 0
            let headerLength = 2 + (short ? 1 : 4) + (hasID ? 1 : 0)
            guard header & 0x20 == 0, (header & 0x80 != 0) == out.isEmpty, headerLength <= message.count - i else { return nil }
            let typeLength = Int(message[i + 1])
            var payloadLength = Int(message[i + 2])
            if !short { payloadLength = message[(i + 2)...(i + 5)].reduce(0) { $0 << 8 | Int($1) } }
            let idLength = hasID ? Int(message[i + headerLength - 1]) : 0
            let start = i + headerLength
            guard typeLength <= message.count - start, idLength <= message.count - start - typeLength,
                  payloadLength <= message.count - start - typeLength - idLength else { return nil }
            let payloadStart = start + typeLength + idLength
            out.append((header & 0x07, Array(message[start..<(start + typeLength)]), Array(message[payloadStart..<(payloadStart + payloadLength)])))
            i = payloadStart + payloadLength
            if header & 0x40 != 0 { return i == message.count ? out : nil }
        }
        return nil
    }
}

/// A careful reader of a FeliCa Read/Write Without Encryption command (`LEN code IDm n services
/// m blocks [data]`, no CRC) with one planted bug in the block list: a 3-byte element (bit 7 of
/// its first byte clear) is checked for two bytes instead of three, so a command whose last
/// element is a 3-byte one cut short by one byte (with LEN matching) reads past the end.
public enum BlockListParser {
    public static func parse(_ command: [UInt8]) -> [(service: UInt16, block: UInt16)] {
        guard command.count >= 12, Int(command[0]) == command.count, command[1] == 0x06 || command[1] == 0x08 else { return [] }
        let serviceCount = Int(command[10])
        guard (1...16).contains(serviceCount), 11 + 2 * serviceCount < command.count else { return [] }
        let services = (0..<serviceCount).map { UInt16(command[11 + 2 * $0]) | UInt16(command[12 + 2 * $0]) << 8 }
        var i = 11 + 2 * serviceCount
        let blockCount = Int(command[i])
        i += 1
        guard (1...16).contains(blockCount) else { return [] }
        var out: [(UInt16, UInt16)] = []
        for _ in 0..<blockCount {
            guard i < command.count else { return [] }
            let head = command[i]
            let order = Int(head & 0x0F)
            guard order < serviceCount else { return [] }
            if head & 0x80 != 0 {
                guard i + 2 <= command.count else { return [] }
                out.append((services[order], UInt16(command[i + 1])))
                i += 2
            } else {
                guard i + 2 <= command.count else { return [] }   // the planted bug: a 3-byte element needs i + 3
                out.append((services[order], UInt16(command[i + 1]) | UInt16(command[i + 2]) << 8))
                i += 3
            }
        }
        let dataLength = command[1] == 0x08 ? 16 * blockCount : 0
        return command.count - i == dataLength ? out : []
    }
}
