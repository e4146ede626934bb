import NFCCore

/// What the dissector follows of an ISO-DEP conversation (ISO/IEC 14443-4; protocols-wave2.md
/// §3.3): block numbers, chained blocks being joined in each direction, the command APDU waiting
/// for its answer, and the application the card runs.
struct ISODEPState {
    /// The block number the reader's next I- or R(ACK)-block must carry (rule A: 0 first; rule B:
    /// it toggles when the tag answers with an I-block or R(ACK) of the same number).
    var readerBlockNumber: UInt8 = 0
    /// The number of the reader's last I- or R-block, which the tag's answer repeats.
    var lastReaderBlockNumber: UInt8?
    var readerChain: Chain?
    var tagChain: Chain?
    /// The last whole command APDU (its last frame), until its whole answer arrives.
    var command: (frame: Int, apdu: CommandAPDU)?
    var application = ISO7816Application()
    /// Whole APDU exchanges, for a card rebuilt from the trace; and whether the tag asked for
    /// time (S(WTX)) since the last command.
    var exchanges: [ISODEPReconstruction.Exchange] = []
    var commandBytes: [UInt8]?
    /// A native DESFire command waiting for its answer.
    var nativeDESFire: (code: UInt8, data: [UInt8])?
    /// A MIFARE Plus command waiting for its answer.
    var nativePlus: (code: UInt8, data: [UInt8])?
    /// The card spoke MIFARE Plus SL0/SL3 (its ATS said so, or it answered a Plus authentication).
    var mifarePlus = false
    var timeAsked = false
    /// The capture's tool wrote its own PCBs (said once, see `ISODEPFrames.isToolPCB`).
    var toolPCBNoted = false
    /// `dissect --show-secrets`: card numbers and cardholder data printed whole.
    var revealCardData = false

    /// The whole answer to the command waiting for one, kept for a card rebuilt from the trace.
    mutating func recordAnswer(_ response: [UInt8]) {
        guard let command = commandBytes else { return }
        exchanges.append(ISODEPReconstruction.Exchange(command: command, response: response, askedForTime: timeAsked))
        commandBytes = nil
    }

    /// INF of chained I-blocks, joined in order.
    struct Chain {
        var firstFrame: Int
        var blocks = 0
        var bytes: [UInt8] = []
        /// Why the joined bytes cannot be trusted (a part is missing from the capture), or nil.
        var gap: String?
    }

    /// The tag's last I-block: a block with the same PCB and INF that follows it before the
    /// reader's next I-block is the same block sent again (after R(NAK), ISO/IEC 14443-4 §7.5.4
    /// rule 11) or recorded twice, and is not part of the answer a second time.
    var lastTagBlock: TagBlock?
    /// The frame of a reader R(ACK) that acknowledged a tag block the capture does not hold: the
    /// answer that follows lacks its start.
    var answerStartMissing: Int?

    struct TagBlock {
        var frame: Int
        var pcb: UInt8
        var inf: [UInt8]
        /// The bytes its frame showed masked, in frame offsets: a repeat hides the same ones.
        var masked: [Range<Int>]
        var summary: String
    }
}

/// The card's application state as the APDUs show it: what is selected, and for an NFC Forum
/// Type 4 Tag its CC and NDEF files as far as they were read or written.
struct ISO7816Application {
    var selectedApplication: [UInt8]?
    var selectedFile: UInt16?
    /// The Type 4 NDEF application was selected (and answered 9000).
    var type4: Bool = false
    /// The reader asked for a payment application (PPSE, PSE or a scheme's AID) in this session:
    /// its answers fail closed when they cannot be read with certainty.
    var paymentNamed = false
    /// Bytes of the CC file and the NDEF file, by offset, as read or written.
    var ccFile = TagMemoryImage(bytes: [], known: [])
    var ndefFile = TagMemoryImage(bytes: [], known: [])
    /// The NDEF file as first read, before any write of the session: the tag's starting state.
    var ndefFileAsFound = TagMemoryImage(bytes: [], known: [])
    /// Offsets of the NDEF file UPDATE BINARY wrote in this session.
    var ndefWrittenBytes = Set<Int>()
    var ndefWritten: Bool { !ndefWrittenBytes.isEmpty }
    /// What the card's DESFire answers showed: it answered as a DESFire, the version it gave,
    /// the application selected, the authentication that succeeded (its command and key), for
    /// the session's headline.
    var desfireAnswered = false
    var desfireVersion: String?
    var desfireApplication: UInt32?
    var desfireAuthentication: (code: UInt8, key: UInt8)?
    /// The key number of an authentication under way.
    var desfireAuthenticating: UInt8?
    /// A DESFire command whose answer comes in parts (`91 AF`, then `90 AF` for the next).
    var desfireChain: (code: UInt8, data: [UInt8])?
    /// File settings read, by file number: how READ DATA answers are to be read.
    var desfireFiles: [UInt8: DESFire.FileSettings] = [:]
    /// EMV: the data object lists the card's answers defined, and the GENERATE ACs seen.
    var emvPDOL: [EMV.DataObjectListEntry]?
    var emvCDOL1: [EMV.DataObjectListEntry]?
    var emvCDOL2: [EMV.DataObjectListEntry]?
    var emvGenerateACs = 0
    /// The CC once its first 15 bytes are known.
    var capabilityContainer: Type4CapabilityContainer? {
        guard let bytes = ccFile.knownPrefix(Type4CapabilityContainer.Layout.minimumLength) else { return nil }
        return try? Type4CapabilityContainer.decode(bytes)
    }
    var ndefFileID: UInt16 { capabilityContainer?.ndefFile.fileID ?? Type4Tag.defaultNDEFFile }

    /// NLEN and the message as the NDEF file holds them, once NLEN was read: where NLEN sits,
    /// its value, the message's range, and the first of its bytes not read (nil: all were).
    var ndefContent: (nlenRange: Range<Int>, nlen: Int, message: Range<Int>, firstMissing: Int?)? {
        let nlenRange = capabilityContainer?.ndefFile.lengthRange ?? Type4CapabilityContainer.FileControl.defaultLengthRange
        guard let lengthBytes = ndefFile.knownPrefix(nlenRange.count) else { return nil }
        let nlen = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        let message = nlenRange.upperBound..<nlenRange.upperBound + nlen
        return (nlenRange, nlen, message, ndefFile.firstUnknown(in: message))
    }
}
