// FuzzISO7816Codec: the body and the shape come from the registry (FuzzTargetInfo.all says what it checks).
import FuzzSupport

fuzz("FuzzISO7816Codec")
