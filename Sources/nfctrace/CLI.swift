import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import NFCCapture
import NFCCore

/// An error that carries its own exit code and message.
struct CLIFailure: Error {
    var message: String
    var code: Int32

    static func usage(_ message: String) -> CLIFailure { CLIFailure(message: message, code: 2) }
    static func findings(_ message: String) -> CLIFailure { CLIFailure(message: message, code: 1) }
}

enum FileHandleOutput {
    static func standardError(_ text: String) {
        var t = text
        t.withUTF8 { p in _ = write(STDERR_FILENO, p.baseAddress, p.count) }
    }
}

enum CLI {
    static func fail(_ message: String, code: Int32) -> Never {
        FileHandleOutput.standardError("nfctrace: \(message)\n")
        exit(code)
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
    @Option(name: .customLong("from"), help: "Input format instead of detecting it (pcap, pcapng, nfctrace, pm3).")
    var format: CaptureFormat?

    @Option(name: .customLong("tech"), help: "Technology of frames whose format does not say (14443a, 14443b, felica, 15693). Proxmark3 traces default to 14443a.")
    var technology: Technology?

    var readOptions: CaptureReadOptions { CaptureReadOptions(format: format, technology: technology) }
}

extension PcapEncapsulation: ExpressibleByArgument {}
