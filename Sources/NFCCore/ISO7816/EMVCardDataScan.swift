/// Masking that fails closed (DESIGN.md, "Secrets stay masked"; issue 44, point 2): when a
/// payment application's answer cannot be parsed with certainty — a block of it is missing from
/// the capture or repeated, its command was not captured, its data is no BER-TLV — the values
/// `BERTLVTags.secret` names cannot be found by their tags, so every run of bytes that could be
/// card data is hidden instead.
extension EMV {
    /// The registered application providers (the first 5 bytes of an AID) of the payment schemes.
    static let paymentProviders: Set<[UInt8]> = Set(schemes.map { Array($0.0.prefix(5)) })

    /// Whether `aid` is a payment system environment (PPSE, PSE) or a payment scheme's application.
    public static func isPaymentApplication(_ aid: [UInt8]) -> Bool {
        aid == ppse || aid == pse || paymentProviders.contains(Array(aid.prefix(5)))
    }

    /// Digits a run must hold before it could be a card number: ISO/IEC 7812 numbers have 12–19.
    static let shortestCardNumber = 12
    /// At an edge where the capture cut the data (a lost block before or after), a shorter run
    /// could be part of a card number: 6 digits and more are hidden whole there.
    static let shortestCutRun = 6

    /// Byte ranges of `data` that could hold card data:
    /// - runs of BCD digits that could be a card number (12 digits or more, `F`-padded), and
    ///   track-2-shaped runs (digits, separator `D`, digits): hidden as `hiddenBytes` hides a
    ///   card number (first 6 and last 4 digits and the expiry date stay);
    /// - at an edge the capture cut (`cutAtStart`, `cutAtEnd`), a run of 6 digits or more, and a
    ///   leading run of printable text (the rest of a name), hidden whole;
    /// - the value of a cardholder-data tag (`5F20`, `56`, `9F1F`) wherever its tag, a plausible
    ///   length and printable text stand, hidden whole.
    public static func possibleCardData(in data: [UInt8], cutAtStart: Bool = false, cutAtEnd: Bool = false) -> [Range<Int>] {
        var hidden: [Range<Int>] = []
        var i = 0
        while i < data.count {
            guard let run = digitRun(data, from: i) else {
                i += 1
                continue
            }
            let bytes = Array(data[run.bytes])
            let touchesCut = (cutAtStart && run.bytes.lowerBound == 0) || (cutAtEnd && run.bytes.upperBound == data.count)
            if run.digits >= shortestCardNumber && !run.allZero {
                let tag: UInt32 = run.separated ? 0x57 : 0x5A
                hidden += hiddenBytes(tag: tag, value: bytes).map { $0.lowerBound + run.bytes.lowerBound..<$0.upperBound + run.bytes.lowerBound }
                if touchesCut { hidden.append(run.bytes) }
            } else if touchesCut && run.digits >= shortestCutRun && !run.allZero {
                hidden.append(run.bytes)
            }
            i = run.bytes.upperBound
        }
        hidden += cardholderText(data)
        if cutAtStart {
            let printable = data.prefix { (0x20...0x7E).contains($0) }.count
            if printable >= 3 { hidden.append(0..<printable) }
        }
        return merged(hidden)
    }

    /// A run of BCD digits starting at byte `start`: digits, at most one separator `D` followed by
    /// digits, then `F` padding; its bytes (a byte holding any of it belongs to the run), how many
    /// digits it holds, whether it has a separator, and whether every digit is 0.
    static func digitRun(_ data: [UInt8], from start: Int) -> (bytes: Range<Int>, digits: Int, separated: Bool, allZero: Bool)? {
        var digits = 0, separated = false, allZero = true
        var nibble = start * 2
        let end = data.count * 2
        func value(_ n: Int) -> UInt8 { n & 1 == 0 ? data[n / 2] >> 4 : data[n / 2] & 0x0F }
        while nibble < end {
            let v = value(nibble)
            if v <= 9 {
                digits += 1
                if v != 0 { allZero = false }
            } else if v == 0x0D, !separated, digits > 0 {
                separated = true
            } else {
                break
            }
            nibble += 1
        }
        // `F` padding up to the byte's end belongs to the run.
        if nibble < end, nibble & 1 == 1, value(nibble) == 0x0F { nibble += 1 }
        guard digits > 0 else { return nil }
        return (start..<(nibble + 1) / 2, digits, separated, allZero)
    }

    /// Values of the cardholder-data tags found by their tag bytes alone.
    static func cardholderText(_ data: [UInt8]) -> [Range<Int>] {
        let textTags = BERTLVTags.secret.subtracting(cardNumberTags)
        var hidden: [Range<Int>] = []
        for i in data.indices {
            for tag in textTags {
                let tagBytes = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
                guard data[i...].starts(with: tagBytes) else { continue }
                let at = i + tagBytes.count
                guard at < data.count else { continue }
                let length = Int(data[at])
                // Names and track 1 are short: 2–79 bytes, printable (EMV Book 3, annex A).
                guard (2...79).contains(length) else { continue }
                let value = at + 1..<min(at + 1 + length, data.count)
                guard !value.isEmpty, data[value].allSatisfy({ (0x20...0x7E).contains($0) }) else { continue }
                hidden.append(value)
            }
        }
        return hidden
    }

    /// Ranges sorted and joined where they touch or overlap.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for r in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}

extension EMV {
    /// The templates a payment application's answer to `command` starts with (EMV Book 3 §6.5):
    /// the FCI `6F` to SELECT, `70` to READ RECORD, `77` or `80` to GET PROCESSING OPTIONS,
    /// GENERATE AC and INTERNAL AUTHENTICATE; nil when the command does not say.
    public static func answerTemplates(_ command: CommandAPDU) -> Set<UInt32>? {
        switch (command.cla & 0xF0, command.ins) {
        case (0x00, ISO7816Instruction.select): return [0x6F]
        case (0x00, ISO7816Instruction.readRecord): return [0x70]
        case (0x00, ISO7816Instruction.internalAuthenticate), (0x80, 0xA8), (0x80, 0xAE): return [0x77, 0x80]
        default: return nil
        }
    }

    /// Whether answer data (or its first part) starts with a template `command`'s answer may
    /// start with; true when the command does not say or no data has arrived.
    public static func startsAsAnswer(to command: CommandAPDU, _ data: [UInt8]) -> Bool {
        guard let templates = answerTemplates(command), !data.isEmpty else { return true }
        guard case .success(let t) = BERTLV.readTag(data, at: 0, end: data.count) else { return false }
        return templates.contains(t.tag)
    }
}
