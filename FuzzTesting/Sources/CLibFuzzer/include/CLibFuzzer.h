#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own mutation (dictionary, CMP traces, byte operations), callable from a custom
/// mutator. Provided by libFuzzer at link time (-fsanitize=fuzzer).
size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

#endif
