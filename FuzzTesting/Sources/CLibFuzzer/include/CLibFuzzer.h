#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own mutation (dictionary, CMP traces, byte operations), callable from a custom
/// mutator. Provided by libFuzzer at link time (-fsanitize=fuzzer).
size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

/// libFuzzer's driver (what its own `main` calls): parses the flags in argv and fuzzes `UserCb`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

#endif
