import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CStream
import NFCCapture

/// `nfctrace`: record, dissect, emulate, replay and fuzz NFC reader–tag exchanges.
struct NFCTrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nfctrace",
        abstract: "Dissect, convert, emulate, replay and fuzz NFC reader–tag traces.",
        discussion: """
            Reads pcap/pcapng (LINKTYPE_ISO_14443), nfctrace text traces and Proxmark3 .trace files; \
            the format is detected from the content. Use - for standard input or output.

            Exit codes: 0 success, 1 findings (when asked to fail on them), 2 usage error, \
            65 bad input data, 74 I/O error.
            """,
        version: "0.1.0",
        subcommands: [Dissect.self, Report.self, Convert.self, Emulate.self, Replay.self, Readers.self, NDEFCommand.self, Fuzz.self, MFKey.self]
    )
}

/// Runs the command line with nfctrace's exit codes (ArgumentParser's usage errors become 2).
@main
enum Main {
    static func main() {
        SignalPath.start()
        do {
            let arguments = try CommandLinePrepass.prepare(Array(CommandLine.arguments.dropFirst()),
                                                           subcommands: NFCTrace.configuration.subcommands)
            var command = try NFCTrace.parseAsRoot(arguments)
            try command.run()
            finishStandardOutput()
        } catch let error as CaptureError {
            CLI.fail(error.description, code: error.exitCode)
        } catch let error as CLIFailure {
            CLI.fail(error.message, code: error.code)
        } catch {
            let code = NFCTrace.exitCode(for: error)
            if code == .success {   // --help, --version
                print(NFCTrace.fullMessage(for: error))
                finishStandardOutput()
                exit(ExitStatus.success.rawValue)
            }
            // ArgumentParser's messages quote the arguments: written by nfctrace's stderr writer,
            // which escapes them for the terminal.
            FileHandleOutput.standardError(NFCTrace.fullMessage(for: error) + "\n")
            exit(code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue)
        }
    }

    /// What `print` left in stdio's buffer goes out here, and a write that fails there (a full
    /// disk, `> /dev/full`, a closed pipe) fails the command: `mfkey` printed its key into a full
    /// disk and exited 0 (issue 51, point 17).
    static func finishStandardOutput() {
        if nfctrace_flush_stdout() != 0 {
            CLI.fail("standard output: \(String(cString: strerror(errno)))", code: .ioError)
        }
    }
}
