#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NFCCapture

// rename(2) by a name that `FileSystem.rename` does not hide.
#if canImport(Glibc)
private func systemRename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
#elseif canImport(Darwin)
private func systemRename(_ from: String, _ to: String) -> Int32 { Darwin.rename(from, to) }
#endif

/// The few file operations `nfctrace fuzz` needs (directories of corpus and crash files),
/// through libc so the CLI does not pull in Foundation.
enum FileSystem {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func size(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    /// Names in a directory (no `.` and `..`), sorted; empty when it cannot be read.
    static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            // d_name is a fixed CChar tuple: 256 bytes on Glibc, 1024 on Darwin.
            let capacity = MemoryLayout.size(ofValue: entry.pointee.d_name)
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: capacity) { String(cString: $0) } }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `mkdir -p`.
    static func makeDirectories(_ path: String) throws(CLIFailure) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if !isDirectory(current) && mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw CLIFailure(message: "cannot create \(current): \(String(cString: strerror(errno)))", code: .ioError)
            }
        }
    }

    static func read(_ path: String) throws(CLIFailure) -> [UInt8] {
        do {
            return try InputLimit.read(path, limit: InputLimit.corpusFile, what: "a seed or corpus file")
        } catch {
            throw CLIFailure(message: error.description, code: error.exitCode)
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(CLIFailure) {
        do {
            let out = try ByteOutput.create(path)
            out.write(bytes)
            try out.finish()
        } catch {
            throw CLIFailure(message: error.description, code: .ioError)
        }
    }

    static func remove(_ path: String) { unlink(path) }

    /// `rm -rf` of a directory nfctrace made itself (corpus swaps).
    static func removeTree(_ path: String) {
        for name in list(path) {
            let p = path + "/" + name
            if isDirectory(p) { removeTree(p) } else { unlink(p) }
        }
        rmdir(path)
    }

    static func rename(_ from: String, _ to: String) throws(CLIFailure) {
        guard systemRename(from, to) == 0 else { throw CLIFailure(message: "cannot move \(from) to \(to): \(String(cString: strerror(errno)))", code: .ioError) }
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The absolute path of a possibly relative one.
    /// The last component of a path ("Traces/a.pcap" → "a.pcap").
    static func baseName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    static func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : currentDirectory() + "/" + path }

    /// Shell quoting for commands printed for the user to copy.
    static func quoted(_ s: String) -> String {
        s.allSatisfy { $0.isLetter || $0.isNumber || "/._-=+:@".contains($0) } ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
