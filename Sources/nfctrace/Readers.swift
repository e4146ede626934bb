import ArgumentParser
import NFCCapture
import NFCCore
import NFCReaders

/// `nfctrace readers`: what `replay --against libnfc:…` and `pcsc:…` can reach.
struct Readers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the libnfc devices and PC/SC readers replay --against can use.",
        discussion: """
            Each line starts with the --against value that names the reader: libnfc:CONNSTRING (the \
            devices LIBNFC_DEVICE and libnfc's configuration name, then those its drivers find by \
            scanning), pcsc:NAME (the readers pcscd knows, with the ATR of the card on each).

            Exit codes: 0 the listing ran (even when it found nothing), 74 neither libnfc nor pcscd \
            could be asked.
            """
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "text, or json (one object per reader).")
    var format: OutputFormat = .text

    func run() throws {
        let out = try ByteOutput.create("-")
        var reached = 0
        if let devices = LibNFCTarget.devices() {
            reached += 1
            for d in devices {
                switch format {
                case .text: out.write("libnfc:\(PrintableText.forTerminal(d))\n")
                case .json: out.write("{\"type\":\"reader\",\"stack\":\"libnfc\",\"against\":\(JSONText.quoted("libnfc:" + d)),\"connstring\":\(JSONText.quoted(d))}\n")
                }
            }
            if devices.isEmpty { CLI.warn("libnfc: no device found (LIBNFC_DEVICE=driver:port names one, e.g. pn532_uart:/dev/ttyUSB0)") }
        } else {
            CLI.warn("libnfc: cannot initialise")
        }
        do {
            let readers = try PCSCTarget.listReaders()
            reached += 1
            for r in readers {
                let card = r.atr.map { "card on it, ATR \(Hex.string($0, separator: ""))" } ?? "no card"
                switch format {
                case .text: out.write("pcsc:\(PrintableText.forTerminal(r.name))  (\(card))\n")
                case .json:
                    out.write("{\"type\":\"reader\",\"stack\":\"pcsc\",\"against\":\(JSONText.quoted("pcsc:" + r.name)),\"name\":\(JSONText.quoted(r.name))"
                              + ",\"atr\":" + (r.atr.map { JSONText.quoted(Hex.string($0, separator: "")) } ?? "null") + "}\n")
                }
            }
            if readers.isEmpty { CLI.warn("pcsc: no reader is connected") }
        } catch {
            CLI.warn("pcsc: " + error.description)
        }
        try out.finish()
        if reached == 0 { throw CLIFailure(message: "neither libnfc nor pcscd could be asked", code: .ioError) }
    }
}
