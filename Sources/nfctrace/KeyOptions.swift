import ArgumentParser
import NFCCore

/// `--keys FILE` and `--no-default-keys`: the MIFARE Classic keys a command tries (dissect,
/// replay and emulate rebuild cards from traces with them).
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("keys"), help: ArgumentHelp(
        "MIFARE Classic key dictionary: one key of 12 hex digits per line, # comments (Proxmark3 .dic and Flipper dictionaries read as they are). Repeatable; tried before the built-in keys.",
        valueName: "file"))
    var keyFiles: [String] = []

    @Flag(name: .customLong("no-default-keys"), help: "Do not try the built-in well-known MIFARE Classic keys (docs/mifare-classic.md).")
    var noDefaultKeys = false

    /// The keys of the files, then the built-in ones. A malformed file is a data error (65).
    func load() throws -> MIFAREClassicKeyList {
        var keys = MIFAREClassicKeyList()
        for path in keyFiles {
            let text = String(decoding: try InputLimit.read(path, limit: InputLimit.keyFile, what: "a key file"), as: UTF8.self)
            do {
                keys.append(contentsOf: try MIFAREClassicKeyList.parse(text, name: path))
            } catch {
                throw CLIFailure(message: error.description, code: .dataError)
            }
        }
        if !noDefaultKeys { keys.append(contentsOf: .defaults) }
        return keys
    }
}
