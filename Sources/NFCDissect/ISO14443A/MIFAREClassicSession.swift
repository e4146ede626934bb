import NFCCore

/// What the dissector follows of a MIFARE Classic card inside an ISO 14443-A session: the
/// authentication in progress, the cipher once a key fits, and the blocks seen in clear.
struct MIFAREClassicSession {
    /// The three-pass authentication (protocols-wave2.md §2.4), step by step.
    struct Authentication {
        /// Unknown for a nested authentication whose AUTH frame could not be decrypted (it is
        /// recognised by its shape: 4 bytes answered by a 4-byte nonce).
        var keyType: MIFAREClassicCommand.KeyType?
        var block: UInt8?
        /// The AUTH frame; nested when it came encrypted inside a session.
        var frame: Int
        var nested: Bool
        var nonce: MIFAREClassicAuthentication.TagNonce?
        /// Where the plain nonce goes in `nonces` once known.
        var nonceIndex: Int?
        /// Set once {nR}{aR} came and a key fit.
        var opened: MIFAREClassicAuthentication.Opened?
        /// {nR}{aR} once they came, and the frame.
        var readerAnswer: (frame: Int, encryptedNR: UInt32, encryptedAR: UInt32)?
        /// The parity bits on air of {nT} and of {nR}{aR} (nil where the capture has none or they
        /// cannot be trusted): they tell the card's nonce without a key (nested recovery).
        var nonceParity: [UInt8]?
        var answerParity: [UInt8]?
        /// A key the reader's answer was made with, which the card does not hold: it decrypts
        /// {nT} to no nonce the card could have sent (a reader trying a wrong key, nested).
        var readerKey: MIFAREClassicKey?
        var readerAnswered: Bool { readerAnswer != nil }
        var sector: Int? { block.map { MIFAREClassicLayout.sector(ofBlock: Int($0)) } }
        /// `key A, sector 2` or `sector unknown`.
        var target: String {
            guard let keyType, let sector else { return "key and sector unknown" }
            return "key \(keyType.rawValue), sector \(sector)"
        }
    }

    /// A key that opened an authentication, and the first frame it did.
    struct FoundKey: Equatable {
        var sector: Int?
        var keyType: MIFAREClassicCommand.KeyType?
        var key: MIFAREClassicKey
        var frame: Int
        /// The key as output shows it (masked when it was recovered and not asked for).
        var shown: String
    }

    /// The tag frame the dissector waits for.
    enum Expecting {
        case nonce
        case tagAnswer
        case answer(MIFAREClassicCommand)
        /// An encrypted reader frame that could not be read: its answer cannot be either (a
        /// 4-byte answer to a 4-byte frame is taken for a nested authentication's nonce).
        case undecryptable(frame: Int, length: Int)
        /// A Gen1a backdoor command: a 4-bit ACK.
        case magic
    }

    var authentication: Authentication?
    /// After a completed authentication: the sector it opened and, with a key, the running
    /// cipher. Every later frame in both directions is encrypted.
    var encrypted: (sector: Int?, keyType: MIFAREClassicCommand.KeyType?)?
    var cipher: Crypto1?
    var continuation = MIFAREClassicCommand.Continuation.none
    /// The block of a WRITE whose data frame was sent.
    var writingBlock: Int?
    /// The card's transfer buffer as far as the session shows it (a value operation on a block
    /// whose value was seen); nil when unknown.
    var transferBuffer: MIFAREClassicValueBlock?
    var blocks: [Int: [UInt8]] = [:]
    var written: Set<Int> = []
    /// Blocks as first read, before any write of the session: the card as it came.
    var firstRead: [Int: [UInt8]] = [:]
    /// The tag nonces of the session in order; nil for a nested one no key decrypted.
    var nonces: [UInt32?] = []
    /// Whether the card's plain nonces came from the weak 16-bit generator (nil before one was
    /// seen): then every nonce it sends is one of the generator's outputs.
    var weakGenerator: Bool?
    /// The last plain nonce and its frame: a nested nonce is near it in the generator's order.
    var lastPlainNonce: UInt32?
    /// Each nested authentication's {nT}, by its place in `nonces` (for the rebuilt card:
    /// `MIFAREClassicReconstruction.encryptedNonces`).
    var nestedNonces: [Int: MIFAREClassicReconstruction.EncryptedNonce] = [:]
    var keys: [FoundKey] = []
    var failedAuthentications: [(frame: Int, sector: Int?, keyType: MIFAREClassicCommand.KeyType?)] = []

    init() {}

    /// An authentication under way or done: frames are Crypto1's.
    var inSession: Bool { encrypted != nil || authentication != nil }

    /// After HALT: no authentication and no cipher, what the session learnt kept.
    init(keepingFrom old: MIFAREClassicSession) {
        blocks = old.blocks
        written = old.written
        firstRead = old.firstRead
        nonces = old.nonces
        nestedNonces = old.nestedNonces
        weakGenerator = old.weakGenerator
        lastPlainNonce = old.lastPlainNonce
        keys = old.keys
        failedAuthentications = old.failedAuthentications
    }
}
