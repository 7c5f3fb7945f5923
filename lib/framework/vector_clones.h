// Internal: SCHEDKIT_VECTOR_CLONES marks a loop-heavy function over score
// columns for an AVX2 copy beside the baseline one; the loader picks the copy
// the CPU runs. The package targets baseline x86-64, whose SSE2 has no 64-bit
// compare and only two 64-bit lanes.
//
// Not under ThreadSanitizer: the loader runs the copies' resolver before the
// TSan runtime is set up, and the instrumented resolver crashes every binary
// at start.
#ifndef SCHEDKIT_LIB_FRAMEWORK_VECTOR_CLONES_H_
#define SCHEDKIT_LIB_FRAMEWORK_VECTOR_CLONES_H_

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SCHEDKIT_TSAN)
#define SCHEDKIT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SCHEDKIT_VECTOR_CLONES
#endif

#endif  // SCHEDKIT_LIB_FRAMEWORK_VECTOR_CLONES_H_
