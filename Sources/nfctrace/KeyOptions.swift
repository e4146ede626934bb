import ArgumentParser
import NFCCore

/// `--keys FILE` and `--no-default-keys`: the MIFARE Classic keys a command tries (dissect,
/// replay and emulate rebuild cards from traces with them).
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("keys"), help: ArgumentHelp(
        "Key dictionary: one key per line, 12 hex digits (MIFARE Classic) or 32 (Ultralight C 3DES / Ultralight AES), # comments (Proxmark3 .dic and Flipper dictionaries read as they are). Repeatable; tried before the built-in keys.",
        valueName: "file"))
    var keyFiles: [String] = []

    @Flag(name: .customLong("no-default-keys"), help: "Do not try the built-in well-known MIFARE Classic and Ultralight keys (docs/mifare-classic.md, docs/ultralight-authentication.md).")
    var noDefaultKeys = false

    /// The keys of the files, then the built-in ones. A malformed file is a data error (65).
    func load() throws -> KeyList {
        var keys = KeyList()
        for path in keyFiles {
            let text = String(decoding: try InputLimit.read(path, limit: InputLimit.keyFile, what: "a key file"), as: UTF8.self)
            do {
                keys.append(contentsOf: try KeyList.parse(text, name: path))
            } catch {
                throw CLIFailure(message: error.description, code: .dataError)
            }
        }
        if !noDefaultKeys { keys.append(contentsOf: .defaults) }
        return keys
    }
}
