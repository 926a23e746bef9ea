// What a kernel file's counts count, read by tgsim's pass from this variable's presence: compiled
// with -DTGSIM_COUNT_SOURCE (tgsim run FILE --count source) the pass records one access per
// source access and merges none of the adjacent accesses ptxas merges into one wider instruction
// (sim/pass/vectorize.cpp); without it, what the GPU executes.
#pragma once

#ifdef TGSIM_COUNT_SOURCE
#ifdef __cplusplus
extern "C"
#endif
__attribute__((weak, used)) char __tgsim_count_source = 1;
#endif
