// The registry of every target: what most executables here fuzz through `fuzz(name)`.
@_exported import FuzzHarness
import NFCFuzzTargets

/// Fuzzes the registry's target of that name (`FuzzTargetInfo.all`, `FuzzTargets.body`).
public func fuzz(_ name: String) -> Never { fuzz(name, bodies: FuzzTargets.body) }
