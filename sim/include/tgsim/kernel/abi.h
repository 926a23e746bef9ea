/* The contract between kernel code compiled by tgsim's front end and the tgsim library.
 *
 * A kernel translation unit (.cu, or .metal through the Metal adapter) is compiled by Clang with
 * tgsim's LLVM pass (sim/frontend/). The pass sees every load and store of the optimised code
 * and appends one 8-byte record to the running lane's log inline (the layout below); the
 * accesses of a block between two calls share one capacity check, whose slow path
 * __tgsim_reserve() makes room (a constant load always calls __tgsim_access()). A device function keeps the lane's cursor in registers and
 * writes it back to the LaneBuf before each call that may reach the library and before it
 * returns (reloading cur and end after the call), and looks its sites' tags up once at entry
 * (__tgsim_resolve_tags on a tag-cache miss); calls to the __tgsim_* functions that take a site first
 * get the site of the call's source line:column from the pass (the headers pass 0).
 * Plain C so that both Clang (kernel side) and GCC (library side) read the same layout. */
#ifndef TGSIM_KERNEL_ABI_H
#define TGSIM_KERNEL_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

#define TGSIM_ABI_VERSION 9

/* The running thread (tgsim::ThreadCtx), as instrumented code reads it. */
#define TGSIM_OFF_THREAD_IDX 0   /* 3 x uint32: threadIdx */
#define TGSIM_OFF_BLOCK_IDX 12   /* blockIdx */
#define TGSIM_OFF_BLOCK_DIM 24   /* blockDim */
#define TGSIM_OFF_GRID_DIM 36    /* gridDim (threadgroups) */
#define TGSIM_OFF_LINEAR_TID 48  /* uint32: x-fastest index in the group */
#define TGSIM_OFF_LOG 72         /* the lane's log cursor: {uint64* cur; uint64* end} */
#define TGSIM_OFF_TAGS 80        /* the worker's tag cache: 256 x {uint64 key; uint64 tag} */
#define TGSIM_OFF_CHECKING 88    /* uint8: the checker is on (stores also report their bytes) */
#define TGSIM_OFF_SHARED 96      /* the group's shared memory arena */
#define TGSIM_OFF_GRID_ORIGIN 104 /* 3 x uint32: first thread of a partial Metal grid (0) */
#define TGSIM_OFF_GRID_SIZE 116  /* 3 x uint32: Metal threads in the grid (dispatchThreads) */
#define TGSIM_OFF_DYNAMIC_SHARED 128 /* the arena + the launched kernel's dynamic_shared_offset */

/* Access kinds a site can have (tgsim::detail::AccessKind). The pass emits LOAD and STORE for
 * memory it cannot place at compile time; the library decides global, shared or local from the
 * address when the warp instruction is formed. */
#define TGSIM_KIND_CONSTANT_LOAD 7
#define TGSIM_KIND_LOAD 12
#define TGSIM_KIND_STORE 13

/* One source site: the layout of libstdc++'s std::source_location::__impl, so the library can
 * treat a pass-made site as a source_location. The pass aligns sites to 16 bytes. An access the
 * optimiser made of two source accesses (a store sunk from both arms of an if) names both
 * lines: `line` the first, and the column field holds the second line above the column
 * (tgsim_site_also; 0: none). */
struct tgsim_site {
  const char* file;
  const char* function;
  unsigned line;
  unsigned column;
  unsigned flags; /* past source_location's fields: TGSIM_SITE_VOLATILE, TGSIM_SITE_CONSTANT_VALUE */
};
/* The site is a volatile load or store (CUDA's volatile: a relaxed access at system scope, so
 * global ones take part in no data race; the checker treats them as atomics). */
#define TGSIM_SITE_VOLATILE 1u
/* The site is a store whose value is a constant of the program (after optimisation): its bytes
 * are the same in every run (the checker's equal-value rule, Checker::same_value_note). */
#define TGSIM_SITE_CONSTANT_VALUE 2u
/* A load of 16 bytes that ptxas makes of three 4-byte elements of an aligned window of four (one
 * LDS.128): (flags & TGSIM_SITE_GAP_MASK) >> TGSIM_SITE_GAP_SHIFT is 1 + the element the program
 * does not read (0: none). The hardware reads it; the checker does not (it may be unwritten). */
#define TGSIM_SITE_GAP_SHIFT 2
#define TGSIM_SITE_GAP_MASK (7u << TGSIM_SITE_GAP_SHIFT)
#define TGSIM_SITE_COLUMN_MASK 0xffffu
#define TGSIM_SITE_ALSO_SHIFT 16
#define TGSIM_SITE_LINE_MAX 0xffffu
static inline unsigned tgsim_site_column(unsigned column_field) { return column_field & TGSIM_SITE_COLUMN_MASK; }
static inline unsigned tgsim_site_also(unsigned column_field) { return column_field >> TGSIM_SITE_ALSO_SHIFT; }

/* What a compiled kernel module holds; registered by a constructor the pass adds. */
/* One C parameter (args[i] of the trampoline points at its value, as cudaLaunchKernel's do). */
struct tgsim_param_desc {
  const char* type;  /* as the pass sees it: "ptr", "i8", "i16", "i32", "i64", "f32", "f64", "struct"
                        (a struct or class passed by value), "agg" (one without debug info) */
  const char* name;  /* from debug info, or "" */
  const char* c_type; /* from debug info: "const float*", or "" */
  unsigned long long bytes; /* the value's size */
  /* A struct's fields from debug info (for an ARG {name=value,...}), "" without: entries
     "NAME:KIND:OFFSET:BYTES:COUNT" joined by ';'. KIND: 'i' signed, 'u' unsigned (bool, enum,
     pointer), 'f' floating, 'h' half, 'b' bfloat16, '?' one no ARG can give (a bit-field, an
     array of structs; NAME then ends in " (WHY)"). BYTES: of one element; COUNT: 0 for a scalar,
     else the elements of an array or vector (at OFFSET + j * BYTES). A nested struct's fields are
     named OUTER.INNER. */
  const char* fields;
};
/* A shared array (__shared__, Metal threadgroup) a kernel reaches, where the kernel's layout puts
 * it, so that findings name it ("tileB[0][3]"). An extern __shared__ array has bytes 0 and rank
 * 1: its extent is the launch's dynamic bytes / elem_bytes; its offset is the kernel's
 * dynamic_shared_offset. */
struct tgsim_shared_desc {
  const char* name;                  /* from debug info ("tileB"), else the symbol */
  unsigned long long offset;         /* in the group's arena */
  unsigned long long bytes;
  unsigned long long elem_bytes;     /* the innermost element */
  unsigned rank;                     /* array dimensions (0: a scalar or struct) */
  const unsigned long long* extents; /* outermost first */
  const char* file;                  /* where it is declared, or "" */
  unsigned line;
};
struct tgsim_kernel_desc {
  void* fn;                          /* the kernel function */
  const char* name;                  /* demangled, without parameters: "matmul_tiled<16>" */
  const char* mangled;
  void (*trampoline)(void** args);   /* calls fn with *(T*)args[i] for each parameter */
  unsigned nparams;
  const struct tgsim_param_desc* params;
  unsigned long long static_shared;  /* bytes of static shared memory it reaches */
  const char* file;                  /* where it is defined */
  unsigned line;
  unsigned nshared;                  /* the shared arrays it reaches */
  const struct tgsim_shared_desc* shared;
  unsigned long long dynamic_shared_offset; /* its extern __shared__ arrays: after its own static
                                               layout, aligned to 16 */
};
struct tgsim_var_desc {
  void* addr;
  unsigned long long bytes;
  const char* name;
  unsigned kind; /* 0: __device__ variable (global memory), 1: __constant__ */
};
struct tgsim_module_desc {
  unsigned version; /* TGSIM_ABI_VERSION */
  unsigned nkernels;
  const struct tgsim_kernel_desc* kernels;
  unsigned nvars;
  const struct tgsim_var_desc* vars;
  unsigned long long shared_static_bytes;  /* the module's static shared layout */
  unsigned long long dynamic_shared_offset; /* the largest kernel's (each kernel has its own) */
};

/* Library entry points (defined in libtgsim; exported by the tgsim command for modules it loads). */
void __tgsim_register_module(const struct tgsim_module_desc* m);
void __tgsim_unregister_module(const struct tgsim_module_desc* m);
void* __tgsim_thread(void) __attribute__((const));
void __tgsim_access(void* thread, const void* site, unsigned kind, unsigned long long addr,
                    unsigned width);
void __tgsim_note_store(void* thread, unsigned long long addr, unsigned width);
/* Room for n more records in the running lane's log (a block's records share one capacity
 * check; the pass calls this when the check fails). */
void __tgsim_reserve(void* thread, unsigned n);
/* The tags of n keys (a function's sites, checked at its entry against the tag cache), in place.
 * A key is the site's address | kind | (log2 of the width in bytes) << 56; a tag is the
 * record's top 16 bits, pre-shifted, valid on this worker for the rest of the launch. */
#define TGSIM_KEY_SITE_MASK 0x00FFFFFFFFFFFFF0ull
#define TGSIM_KEY_KIND_MASK 0xFull
#define TGSIM_KEY_WIDTH_SHIFT 56
void __tgsim_resolve_tags(void* thread, unsigned long long* keys, unsigned n);
/* The tags of n keys into tags (a function with many sites, at its entry). */
void __tgsim_load_tags(void* thread, const unsigned long long* keys, unsigned long long* tags, unsigned n);

/* Synchronisation. Sites: pass 0, the pass fills in the call's source location. */
void __tgsim_barrier(const void* site);
/* Metal's threadgroup_barrier(flags): a barrier that orders only the memory `flags` names
 * (TGSIM_METAL_MEM_DEVICE, _THREADGROUP: Metal's mem_flags bits); a thread that returned before it
 * while others reach it is a finding (undefined behaviour in Metal). */
#define TGSIM_METAL_MEM_DEVICE 1u
#define TGSIM_METAL_MEM_THREADGROUP 2u
void __tgsim_metal_barrier(const void* site, unsigned flags);
/* __syncthreads_count (op 0), _and (1), _or (2): a barrier that also reduces `pred`. */
int __tgsim_barrier_reduce(const void* site, int op, int pred);
/* cooperative_groups' grid sync: every thread of the grid waits (a cooperative launch only). */
void __tgsim_grid_sync(const void* site);
/* 1 in a cooperative launch (cudaLaunchCooperativeKernel, `tgsim run --cooperative`), else 0. */
int __tgsim_grid_is_valid(void);
/* __threadfence_block (0), __threadfence (1), __threadfence_system (2). */
void __tgsim_fence(const void* site, int scope);

/* Warp collectives: shuffles, votes, __syncwarp, SIMD-group reductions. */
enum tgsim_collective_op {
  TGSIM_SHFL_IDX, TGSIM_SHFL_UP, TGSIM_SHFL_DOWN, TGSIM_SHFL_XOR,
  TGSIM_BALLOT, TGSIM_ANY, TGSIM_ALL, TGSIM_SYNCWARP,
  TGSIM_REDUCE_SUM, TGSIM_REDUCE_MAX, TGSIM_REDUCE_MIN,
  TGSIM_PREFIX_SUM_EXCLUSIVE, TGSIM_PREFIX_SUM_INCLUSIVE, TGSIM_MATCH_ANY
};
/* The value type of a collective's operand (shuffles move 1 word for 4-byte types, 2 for 8). */
enum tgsim_value_type { TGSIM_I32, TGSIM_U32, TGSIM_I64, TGSIM_U64, TGSIM_F32, TGSIM_F64,
                        /* atomics only (ADD): a 4-byte pair of binary16 or bfloat16 values */
                        TGSIM_F16X2, TGSIM_BF16X2 };
/* For shuffles `arg` is the lane, delta or xor mask and `width` the segment width (32 = warp). */
unsigned long long __tgsim_collective(const void* site, int op, int type, unsigned mask,
                                      unsigned long long value, int arg, int width);
unsigned __tgsim_activemask(const void* site);
/* Lane count of the running thread's SIMD group / warp (32). */

/* Atomics on global or shared memory (the address decides); returns the old value's bits. */
enum tgsim_atomic_op {
  TGSIM_ATOMIC_ADD, TGSIM_ATOMIC_SUB, TGSIM_ATOMIC_EXCH, TGSIM_ATOMIC_MIN, TGSIM_ATOMIC_MAX,
  TGSIM_ATOMIC_INC, TGSIM_ATOMIC_DEC, TGSIM_ATOMIC_CAS, TGSIM_ATOMIC_AND, TGSIM_ATOMIC_OR,
  TGSIM_ATOMIC_XOR, TGSIM_ATOMIC_LOAD, TGSIM_ATOMIC_STORE
};
/* Or'ed into an atomic's op by the pass where nvcc combines the warp's lanes into one atomic of
 * one lane (sim/pass/atomic_aggregation.cpp): counted as one lane's access. */
#define TGSIM_ATOMIC_WARP_AGGREGATED 0x100
/* Or'ed in by <cuda/atomic> (libcu++'s atomic_ref): LIBCU, its loads and stores are atomic accesses
 * for the checker (recorded as loads and stores); RELEASE, a release order at device or system
 * scope (the thread's earlier stores are released, as by __threadfence() before the atomic);
 * BLOCK_SCOPE, a block- or thread-scope operation, which releases nothing to other groups;
 * NO_ACQUIRE, an operation that does not acquire (a store, or a relaxed or release order): the
 * thread's later loads are acquired only after a device-scope fence that follows it. */
#define TGSIM_ATOMIC_LIBCU 0x200
#define TGSIM_ATOMIC_RELEASE 0x400
#define TGSIM_ATOMIC_BLOCK_SCOPE 0x800
#define TGSIM_ATOMIC_NO_ACQUIRE 0x1000
unsigned long long __tgsim_atomic(const void* site, int op, int type, void* addr,
                                  unsigned long long operand, unsigned long long compare);

/* clock() and clock64(): in a kernel, the running thread's count of its reads in this block
 * (1, 2, 3, ...), deterministic and monotonic but not a cycle count; in host code, the host's
 * clock() (CUDA's host clock()). */
unsigned long long __tgsim_clock(const void* site);
/* __nanosleep() in a kernel: the running thread lets the other threads of its group run first
 * (no time passes); in host code nothing. */
void __tgsim_yield(const void* site);

/* printf from a kernel: printed after the launch in (group, thread) order. */
int __tgsim_printf(const void* site, const char* format, ...);
/* A kernel-side error (a Metal or CUDA feature tgsim does not model): a finding at the site. */
void __tgsim_unsupported(const void* site, const char* what);

/* Faults (the pass, sim/pass/faults.cpp; the library, sim/src/frontend/faults.cpp). An integer division
 * by zero (what 0) or INT_MIN / -1 (what 1): a finding, and the thread goes on with the GPU's
 * value. A failed assert(), and a trap (what 0 __trap(), 1 asm("trap;"), 2 __brkpt() or
 * asm("brkpt;"), 3 abort(), 4 __builtin_trap(), 5 __builtin_debugtrap(), 6 an `unreachable` the optimiser left where it deleted
 * undefined behaviour): a finding, and the thread ends. A thread that ran `iterations`
 * iterations of one loop without leaving it: a watchdog finding, and its group ends. */
void __tgsim_int_fault(const void* site, int what);
void __tgsim_assert_fail(const void* site, const char* expr, const char* file, unsigned line,
                         const char* function) __attribute__((noreturn));
void __tgsim_trap(const void* site, int what) __attribute__((noreturn));
/* memset (src null: the byte `value`) or memcpy/memmove of n bytes, n unknown to the compiler, in
 * kernel code (the pass replaces the call): both ranges must lie in memory the thread may touch
 * (else an out-of-bounds finding naming the address, and the thread ends); the bytes move and
 * their accesses are recorded. */
void __tgsim_memop(const void* site, void* dst, const void* src, int value, unsigned long long n);
/* The device heap: malloc/new and free/delete in kernel code. */
void* __tgsim_device_malloc(const void* site, unsigned long long bytes);
void __tgsim_device_free(const void* site, void* p);
/* A store to the __constant__ variable `name` (the pass removed the store). */
void __tgsim_constant_store(const void* site, const char* name) __attribute__((noreturn));
void __tgsim_loop_budget(const void* site, unsigned long long iterations) __attribute__((noreturn));
/* An access of `bytes` bytes at byte `offset` (as a signed number: before the start is negative)
 * of the thread's local array `name` ("" when unnamed) of `extent` bytes, outside it
 * (sim/pass/local_bounds.cpp): an out-of-bounds finding, and the thread ends. */
void __tgsim_local_out_of_bounds(const void* site, const char* name, long long offset, unsigned long long bytes,
                                 unsigned long long extent) __attribute__((noreturn));
/* Index `dim` (0-based, an inner dimension) of the shared array `name` of `shape` ("[32][33]") is
 * outside its dimension though the element lies inside the array (sim/pass/dims.cpp); then
 * `rank` long long values: the index in each dimension, outermost first. A finding; the access
 * goes on. */
void __tgsim_index_out_of_range(const void* site, const char* name, const char* shape, unsigned dim,
                                unsigned rank, ...);

#ifdef __cplusplus
}
#endif
#endif
