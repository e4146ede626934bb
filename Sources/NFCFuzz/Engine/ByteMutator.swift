/// Plain byte-level mutations, the kind libFuzzer applies when it knows nothing of the format.
///
/// Inside a libFuzzer target the context hands byte mutation to libFuzzer itself
/// (`LLVMFuzzerMutate`, which also knows the dictionary and the CMP traces); this is the
/// portable version used by `nfctrace fuzz --exec`, the emulator's `--fuzz` mode and the tests.
public enum ByteMutator {
    /// Boundary values that parsers get wrong: zero, one, sign bits, all ones.
    static let interesting8: [UInt8] = [0x00, 0x01, 0x02, 0x03, 0x07, 0x0F, 0x10, 0x1F, 0x20, 0x3F, 0x40, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF]
    static let interesting16: [UInt16] = [0x0000, 0x0001, 0x00FF, 0x0100, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF]

    /// Applies 1…4 stacked mutations (as libFuzzer stacks its own), staying within `maxSize`.
    public static func mutate(_ bytes: inout [UInt8], maxSize: Int, dictionary: [[UInt8]], random: inout FuzzRandom) {
        let rounds = 1 + random.below(4)
        for _ in 0..<rounds { mutateOnce(&bytes, maxSize: maxSize, dictionary: dictionary, random: &random) }
        if bytes.count > maxSize { bytes.removeLast(bytes.count - maxSize) }
    }

    static func mutateOnce(_ bytes: inout [UInt8], maxSize: Int, dictionary: [[UInt8]], random: inout FuzzRandom) {
        if bytes.isEmpty {
            bytes = random.element(dictionary) ?? [random.byte()]
            return
        }
        let at = random.below(bytes.count)
        switch random.below(12) {
        case 0: bytes[at] ^= 1 << UInt8(random.below(8))
        case 1: bytes[at] = random.byte()
        case 2: bytes[at] = random.element(interesting8) ?? 0
        case 3:
            // Arithmetic: lengths and counts off by a little.
            let delta = UInt8(1 + random.below(8))
            bytes[at] = random.bool() ? bytes[at] &+ delta : bytes[at] &- delta
        case 4:
            let v = random.element(interesting16) ?? 0
            let pair: [UInt8] = random.bool() ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
            bytes.replaceSubrange(at..<min(bytes.count, at + 2), with: pair)
        case 5:
            if bytes.count < maxSize { bytes.insert(random.byte(), at: at) }
        case 6:
            let n = 1 + random.below(min(8, bytes.count))
            bytes.removeSubrange(at..<min(bytes.count, at + n))
        case 7:
            // Duplicate a run: repeated records, repeated TLVs.
            let n = 1 + random.below(min(16, bytes.count - at))
            let run = Array(bytes[at..<(at + n)])
            if bytes.count + n <= maxSize { bytes.insert(contentsOf: run, at: random.below(bytes.count + 1)) }
        case 8:
            if let word = random.element(dictionary), bytes.count + word.count <= maxSize {
                bytes.insert(contentsOf: word, at: random.below(bytes.count + 1))
            }
        case 9:
            if let word = random.element(dictionary) {
                bytes.replaceSubrange(at..<min(bytes.count, at + word.count), with: word)
            }
        case 10:
            bytes.removeLast(bytes.count - random.below(bytes.count))
        default:
            // Copy a run over another place (moves a length field onto data and back).
            let n = 1 + random.below(min(8, bytes.count))
            let from = random.below(bytes.count - n + 1)
            let run = Array(bytes[from..<(from + n)])
            bytes.replaceSubrange(at..<min(bytes.count, at + n), with: run)
        }
    }
}
