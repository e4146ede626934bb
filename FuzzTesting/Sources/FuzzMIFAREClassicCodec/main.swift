// FuzzMIFAREClassicCodec: the shape from the registry (FuzzTargetInfo.all says what it checks), the body from
// CoreCodecTargets, so that this executable links no dissector or emulator.
import FuzzHarness
import NFCFuzzCodecTargets

fuzz("FuzzMIFAREClassicCodec", bodies: CoreCodecTargets.body)
