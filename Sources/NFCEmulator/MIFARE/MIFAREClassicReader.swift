import NFCCore

/// A MIFARE Classic reader in software, for an emulated card: activation, Crypto1
/// authentication (plain and nested) and commands, every frame both ways recorded. What the
/// tests and the Classic traces of Traces/ drive the emulator with.
public final class MIFAREClassicReader {
    public let tag: EmulatedTag
    /// Every frame both ways, as a capture of the exchange would hold them.
    public private(set) var frames: [Frame] = []
    private var cipher: Crypto1?
    public private(set) var uid: [UInt8] = []

    public init(_ tag: EmulatedTag) { self.tag = tag }

    /// Sends `payload` (CRC added when `crc`), encrypted in a session; returns the answer in clear
    /// (4-bit answers as one byte) or nil for silence.
    @discardableResult
    public func send(_ payload: [UInt8], bits: UInt8 = 8, crc: Bool = true) -> [UInt8]? {
        var bytes = crc ? CRC.appending(.a, to: payload) : payload
        var parityErrors: [Int] = []
        if var c = cipher {
            let (sent, parity) = c.encrypt(bytes)
            bytes = sent
            parityErrors = Crypto1.parityErrors(sent: sent, parity: parity)
            cipher = c
        }
        let frame = Frame(.data(.readerToTag), bytes: bytes, lastByteBits: bits, parityErrors: parityErrors)
        frames.append(frame)
        guard let answer = tag.respond(to: frame) else { return nil }
        frames.append(answer)
        guard var c = cipher else { return answer.bytes }
        defer { cipher = c }
        if answer.lastByteBits == 4 { return [c.crypt(bits: 4, of: answer.bytes[0])] }
        return c.crypt(answer.bytes)
    }

    /// The reader switches its field off and on, as readers do between cards.
    public func fieldReset() {
        tag.fieldOff()
        frames.append(Frame(.fieldOff))
        tag.fieldOn()
        frames.append(Frame(.fieldOn))
        cipher = nil
    }

    public func activate() {
        if cipher != nil { fieldReset() }
        cipher = nil
        send([0x52], bits: 7, crc: false)
        send([0x93, 0x20], crc: false)
        guard let cl1 = frames.last?.bytes else { return }
        uid = Array(cl1.prefix(4))
        send([0x93, 0x70] + cl1)
    }

    /// AUTH with `key`; true when the card accepted it.
    public func authenticate(_ keyType: MIFAREClassicCommand.KeyType, block: UInt8, key: UInt64, nr: UInt32 = 0x1234_5678) -> Bool {
        let nested = cipher != nil
        guard let ntBytes = send(MIFAREClassicCommand.authenticate(keyType, block: block).encode()), ntBytes.count == 4 else { return false }
        var c = Crypto1(key: Crypto1.key(key))
        let u = MIFARENonce.value(uid)
        // In a session the reader decrypted {nT} with the old stream; it is really under the new key.
        let nt = nested ? c.wordDecrypting(MIFARENonce.value(frames.last!.bytes), xor: u) : { c.word(input: u ^ MIFARENonce.value(ntBytes)); return MIFARENonce.value(ntBytes) }()
        let encNR = nr ^ c.word(input: nr)
        let encAR = MIFARENonce.successor(nt, 64) ^ c.word()
        cipher = nil
        let frame = Frame(.data(.readerToTag), bytes: MIFARENonce.bytes(encNR) + MIFARENonce.bytes(encAR))
        frames.append(frame)
        guard let answer = tag.respond(to: frame) else { return false }
        frames.append(answer)
        guard MIFARENonce.value(answer.bytes) ^ c.word() == MIFARENonce.successor(nt, 96) else { return false }
        cipher = c
        return true
    }
}
