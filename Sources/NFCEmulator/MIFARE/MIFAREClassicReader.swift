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

    /// Microseconds since the reader started: every recorded frame gets its time on air at
    /// 106 kbit/s (9.44 µs a bit, parity included), answers 90 µs after their request, the
    /// reader's next frame 300 µs after.
    public private(set) var time: Int64 = 0

    public init(_ tag: EmulatedTag) { self.tag = tag }

    /// A reader for a card another reader side already activated (`uid`: the last cascade
    /// level's 4 bytes are what Crypto1 takes).
    public init(_ tag: EmulatedTag, activatedUID uid: [UInt8]) {
        self.tag = tag
        self.uid = Array(uid.suffix(4))
    }

    private func record(_ frame: Frame, after gap: Int64) {
        var f = frame
        let bits = f.bytes.isEmpty ? 0 : (f.bytes.count - 1) * 9 + Int(f.lastByteBits) + (f.lastByteBits == 8 ? 1 : 0)
        time += gap
        f.start = Timestamp(time, .microseconds)
        time += Int64((Double(bits) * 9.44).rounded())
        f.end = Timestamp(time, .microseconds)
        frames.append(f)
    }

    private func event(_ e: Frame.Event) {
        time += 1_000
        var f = Frame(e)
        f.start = Timestamp(time, .microseconds)
        frames.append(f)
    }

    /// Sends `payload` (CRC added when `crc`), encrypted in a session; returns the answer in clear
    /// (4-bit answers as one byte) or nil for silence.
    @discardableResult
    public func send(_ payload: [UInt8], bits: UInt8 = 8, crc: Bool = true) -> [UInt8]? {
        var bytes = crc ? CRCBytes(payload: payload, kind: .a).bytes : payload
        var parityErrors: [Int] = []
        if var c = cipher {
            let (sent, parity) = c.encrypt(bytes)
            bytes = sent
            parityErrors = Crypto1.parityErrors(sent: sent, parity: parity)
            cipher = c
        }
        let frame = Frame(.data(.readerToTag), bytes: bytes, lastByteBits: bits, parityErrors: parityErrors)
        record(frame, after: 300)
        guard let answer = tag.respond(to: frame) else { return nil }
        record(answer, after: 90)
        guard var c = cipher else { return answer.bytes }
        defer { cipher = c }
        if answer.lastByteBits == 4 { return [c.crypt(bits: 4, of: answer.bytes[0])] }
        return c.crypt(answer.bytes)
    }

    /// The reader switches its field off and on, as readers do between cards.
    /// The field comes on (the first thing a capture shows).
    public func fieldOn() {
        tag.fieldOn()
        event(.fieldOn)
    }

    public func fieldOff() {
        tag.fieldOff()
        event(.fieldOff)
        cipher = nil
    }

    public func fieldReset() {
        tag.fieldOff()
        event(.fieldOff)
        tag.fieldOn()
        event(.fieldOn)
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
        // {nR} with nR fed to the cipher, then {aR}: each byte's parity bit encrypted with the
        // keystream bit of the next byte's first bit, as a reader sends it (a sniffer of a real
        // reader sees them so; nested key recovery reads them).
        let (encNR, nrParity) = c.encrypt(MIFARENonce.bytes(nr), input: MIFARENonce.bytes(nr))
        let (encAR, arParity) = c.encrypt(MIFARENonce.bytes(MIFARENonce.successor(nt, 64)))
        cipher = nil
        let sent = encNR + encAR
        let frame = Frame(.data(.readerToTag), bytes: sent, parityErrors: Crypto1.parityErrors(sent: sent, parity: nrParity + arParity))
        record(frame, after: 300)
        guard let answer = tag.respond(to: frame) else { return false }
        record(answer, after: 90)
        guard MIFARENonce.value(answer.bytes) ^ c.word() == MIFARENonce.successor(nt, 96) else { return false }
        cipher = c
        return true
    }
}
