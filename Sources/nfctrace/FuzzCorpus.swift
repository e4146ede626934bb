import NFCFuzz
import NFCFuzzTargets

/// `nfctrace fuzz --make-corpus Corpus` (scripts/make-corpus): seeds and a dictionary per target.
enum FuzzCorpus {
    static func write(into folder: String, traces: String) throws(CLIFailure) {
        var inputs: [CorpusBuilder.Trace] = []
        for name in FileSystem.list(traces) where name.hasSuffix(".nfctrace") || name.hasSuffix(".pcap") || name.hasSuffix(".pcapng") {
            inputs.append(CorpusBuilder.Trace(name: name, bytes: try FileSystem.read(traces + "/" + name)))
        }
        try FileSystem.makeDirectories(folder)
        var total = 0
        for target in FuzzTargetInfo.all {
            let dir = folder + "/" + target.name
            try FileSystem.makeDirectories(dir)
            // Regenerated from scratch: a seed that is no longer made must not linger.
            for old in FileSystem.list(dir) where old.hasPrefix("seed-") { FileSystem.remove(dir + "/" + old) }
            let seeds = CorpusBuilder.seeds(for: target, traces: inputs)
            for seed in seeds { try FileSystem.write(seed.bytes, to: dir + "/" + seed.name) }
            let dictionary = FuzzDictionary.text(StructuredMutator(shape: target.shape).dictionary, title: "\(target.name) (\(target.shape.rawValue))")
            try FileSystem.write(Array(dictionary.utf8), to: folder + "/" + target.name + ".dict")
            total += seeds.count
            CLI.warn("fuzz: \(target.name): \(seeds.count) seeds")
        }
        print("\(total) seeds for \(FuzzTargetInfo.all.count) targets in \(folder)")
    }
}
