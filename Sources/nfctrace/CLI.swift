import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCapture
import NFCCore

/// An error that carries its own exit code and message.
struct CLIFailure: Error {
    var message: String
    var code: ExitStatus

    static func usage(_ message: String) -> CLIFailure { CLIFailure(message: message, code: .usage) }
    static func findings(_ message: String) -> CLIFailure { CLIFailure(message: message, code: .findings) }
}

enum FileHandleOutput {
    /// Messages quote inputs and arguments: escaped for the terminal (PrintableText), lines kept.
    static func standardError(_ text: String) {
        var t = PrintableText.forTerminal(text, keepingLines: true)
        t.withUTF8 { p in _ = write(STDERR_FILENO, p.baseAddress, p.count) }
    }
}

enum CLI {
    static func fail(_ message: String, code: ExitStatus) -> Never {
        AtomicFile.discardAllPending()
        FileHandleOutput.standardError("nfctrace: \(message)\n")
        exit(code.rawValue)
    }

    /// Ends the process with `code` (for a message already written some other way).
    static func end(_ code: ExitStatus) -> Never {
        AtomicFile.discardAllPending()
        exit(code.rawValue)
    }

    static func warn(_ message: String) {
        FileHandleOutput.standardError("nfctrace: \(message)\n")
    }

    /// Colour only on a terminal and only when NO_COLOR is unset (https://no-color.org).
    static func useColor(_ mode: ColorMode, output: ByteOutput) -> Bool {
        switch mode {
        case .always: return true
        case .never: return false
        case .auto:
            if let v = getenv("NO_COLOR"), v.pointee != 0 { return false }
            return output.isTerminal
        }
    }
}

/// The rule that nothing nfctrace writes may replace a file it reads (DESIGN.md, "Writes are
/// atomic"), checked before any output is created.
enum OutputCheck {
    /// Throws a usage error when `output` is the same file as one of `inputs` (device and inode,
    /// so links and other spellings of the path count too; `-` is standard input or output).
    /// Standard output counts by what it is open on: `convert in.pcap - >> in.pcap` would append
    /// to its own input, and one FIFO as input and output would read back what it wrote.
    static func refuseOverwriting(_ output: String?, inputs: [String?], option: String = "output") throws(CLIFailure) {
        guard let output, let target = output == "-" ? FileIdentity(descriptor: STDOUT_FILENO) : FileIdentity(path: output) else { return }
        let shown = output == "-" ? "<stdout>" : output
        for case let input? in inputs {
            let identity = input == "-" ? FileIdentity(descriptor: STDIN_FILENO) : FileIdentity(path: input)
            if identity == target {
                throw CLIFailure.usage("\(option) \(shown) is the input \(input == "-" ? "<stdin>" : input): nfctrace does not write onto a file it reads; write elsewhere, then move the file")
            }
        }
    }
}

enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

extension Technology: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { Technology.allCases.map(\.rawValue) }
}

extension CaptureFormat: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }
    public static var allValueStrings: [String] { CaptureFormat.allCases.map(\.rawValue) }
}

/// Options shared by every command that reads a capture.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("from"), help: "Input format instead of detecting it (pcap, pcapng, nfctrace, pm3, pm3list, nfclab).")
    var format: CaptureFormat?

    @Option(name: .customLong("tech"), help: "Technology of frames whose format does not say (14443a, 14443b, felica, 15693, iclass). Proxmark3 traces default to 14443a.")
    var technology: Technology?

    var readOptions: CaptureReadOptions { CaptureReadOptions(format: format, technology: technology) }
}

extension PcapEncapsulation: ExpressibleByArgument {}
