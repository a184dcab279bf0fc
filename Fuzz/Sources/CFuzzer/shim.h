#ifndef HIVE_CFUZZER_SHIM_H
#define HIVE_CFUZZER_SHIM_H

// libFuzzer's driver, linked by -sanitize=fuzzer. SwiftPM makes an executable's entry
// point MODULE_main (and links main to it), so libFuzzer's own main is not used: each
// target's MODULE_main hands its arguments to LLVMFuzzerRunDriver instead.

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
