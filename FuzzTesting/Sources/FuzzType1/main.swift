// FuzzType1: the body and the shape come from the registry (FuzzTargetInfo.all says what it checks).
import FuzzSupport

fuzz("FuzzType1")
