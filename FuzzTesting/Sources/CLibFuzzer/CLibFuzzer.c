// Only the declaration in include/CLibFuzzer.h matters; SwiftPM needs one source file per C target.
#include "CLibFuzzer.h"
