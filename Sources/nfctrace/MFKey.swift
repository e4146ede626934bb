import ArgumentParser
import NFCCore

struct MFKey: TakesValueLists {
    static let configuration = CommandConfiguration(
        commandName: "mfkey",
        abstract: "Recover a MIFARE Classic key from sniffed authentications.",
        discussion: """
            One whole authentication (mfkey64):      nfctrace mfkey UID NT NR AR AT
            Two where the card never answered (mfkey32, also with two different nonces):
                                                     nfctrace mfkey UID NT0 NR0 AR0 NT1 NR1 AR1
            Every value is 8 hex digits as traces show the bytes (UID: the 4 bytes of the last \
            cascade level; NR, AR, AT: the encrypted values as sent). Prints "key: XXXXXXXXXXXX", \
            exit 1 when no key fits.
            """
    )

    @Argument(help: "UID and the authentication values, 8 hex digits each.")
    var values: [String] = []

    mutating func validate() throws { values = CommandLinePrepass.expand(values) }

    func run() throws {
        guard values.count == 5 || values.count == 7 else {
            throw CLIFailure.usage("expected UID NT NR AR AT (5 values) or UID NT0 NR0 AR0 NT1 NR1 AR1 (7 values), got \(values.count)")
        }
        var words: [UInt32] = []
        for v in values {
            guard v.count == 8, v.allSatisfy(\.isHexDigit), let bytes = Hex.parse(v) else {
                throw CLIFailure.usage("\"\(PrintableText.escaped(Array(v.utf8), limit: 20))\" is not 8 hex digits")
            }
            words.append(MIFARENonce.value(bytes))
        }
        let key: [UInt8]?
        if words.count == 5 {
            key = Crypto1Recovery.key(uid: words[0], nt: words[1], encryptedNR: words[2], encryptedAR: words[3], encryptedAT: words[4])
        } else {
            let first = Crypto1Recovery.ReaderAnswer(nt: words[1], encryptedNR: words[2], encryptedAR: words[3])
            let second = Crypto1Recovery.ReaderAnswer(nt: words[4], encryptedNR: words[5], encryptedAR: words[6])
            guard first != second else {
                throw CLIFailure.usage("the two authentications are the same: every key that fits one fits the other; give two different ones")
            }
            let shown = 16
            let found = Crypto1Recovery.keys(uid: words[0], first, second, atMost: shown + 1)
            if found.count > 1 {
                for k in found.prefix(shown) { print("candidate: \(Hex.string(k, separator: ""))") }
                throw CLIFailure.findings("\(found.count > shown ? "more than \(shown)" : "\(found.count)") keys fit both authentications, so none is the key; add a third authentication or the card's answer {aT} (5 values)")
            }
            key = found.first
        }
        guard let key else { throw CLIFailure.findings("no key fits") }
        print("key: \(Hex.string(key, separator: ""))")
    }
}
