import ArgumentParser
@main struct NFCTrace: ParsableCommand {}
