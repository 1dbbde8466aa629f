// libFuzzer's entry for programs that have their own main. SwiftPM links every executable
// with `--defsym main=<Module>_main`, so libFuzzer's main cannot be the program's; the fuzz
// targets' @main calls this instead. It is defined by the runtime -sanitize=fuzzer links, and
// only referenced when built with -DFUZZING, so a normal build needs no libFuzzer.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *_Nonnull argc, char *_Nullable *_Nonnull *_Nonnull argv,
                        int (*_Nonnull callback)(const uint8_t *_Nonnull data, size_t size));
