import Foundation
import Testing

/// Runs a program to completion with a deadline: stdout and stderr are drained at the same time
/// (a child filling one pipe cannot block), and a child still running at the deadline is killed
/// and reported, so a hung tool fails its test instead of hanging the suite.
enum ChildProcess {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var timedOut: Bool
    }

    static func run(_ executable: String, _ arguments: [String], directory: String? = nil, environment: [String: String]? = nil,
                    stdin: Data? = nil, seconds: Double = 120) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        let drained = DispatchGroup()
        nonisolated(unsafe) var o = Data(), e = Data()
        DispatchQueue.global().async(group: drained) { o = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: drained) { e = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        let timedOut = !wait(p, seconds: seconds)
        if timedOut {
            kill(p.processIdentifier, SIGKILL)
            _ = wait(p, seconds: 5)
            Issue.record("\(executable) \(arguments.joined(separator: " ")) ran longer than \(Int(seconds)) s and was killed")
        }
        _ = drained.wait(timeout: .now() + 5)
        return Result(status: p.isRunning ? -1 : p.terminationStatus, stdout: o, stderr: e, timedOut: timedOut)
    }

    /// Waits until the file being written atomically to `path` (AtomicFile's `.NAME.nfctrace-XXXXXX`
    /// beside it) holds at least `bytes`: a replay that records is then well under way.
    static func waitForPartialFile(_ path: String, bytes: Int, seconds: Double) -> Bool {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".nfctrace-"
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for n in names where n.hasPrefix(prefix) {
                let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + n)[.size] as? Int) ?? 0
                if size >= bytes { return true }
            }
            usleep(50_000)
        }
        return false
    }

    /// Whether `p` ended within `seconds`.
    static func wait(_ p: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning {
            if Date() >= deadline { return false }
            usleep(2_000)
        }
        return true
    }
}

/// `nfctrace emulate …` as a child of a test: started, read until its log says `ready`, stopped
/// by its PID (SIGTERM, then SIGKILL after 10 s, which the test records as an issue).
class EmulatorChild {
    let process = Process()
    let stderr = Pipe()
    private(set) var log = ""

    init(_ arguments: [String], ready: String, environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["emulate"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !log.contains(ready) && Date() < deadline && process.isRunning {
            log += String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self)
        }
    }

    func stop() -> Int32 {
        process.terminate()
        if !ChildProcess.wait(process, seconds: 10) {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the emulator did not stop within 10 s of SIGTERM")
            _ = ChildProcess.wait(process, seconds: 5)
        }
        log += String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus
    }
}
