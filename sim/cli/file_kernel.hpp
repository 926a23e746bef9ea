// A user's own kernel file on the command line: `tgsim run|check FILE.cu|FILE.metal --kernel K
// --grid X[,Y[,Z]] --block X[,Y[,Z]] [--shared BYTES] [--threads-in-grid X[,Y[,Z]]] ARG...`.
// FILE is compiled by tgsim's front end into a cached shared object (compile.hpp), loaded, and
// the kernel named K is launched with one ARG per parameter:
//   TYPE[COUNT]          a buffer of COUNT elements, random values (fixed seed);
//   TYPE[COUNT]=0        zeros;  =iota  0, 1, 2, ...;  =@FILE.bin  the file's bytes
//   TYPE:VALUE           a scalar: int:256, uint:256, float:1.5, double:2, long:-1
//   struct:FILE.bin      a struct passed by value: the file holds exactly its bytes
//   {NAME=VALUE,...}     the same struct field by field (struct_arg.hpp)
// K is a name ("scale", "tiled<16>") or, for overloads, a name with parameter types ("scale(int*, int)").
// TYPE: char uchar short ushort int uint long ulong float double, and the vector types
// (float2, float4, int2, int4, uint4, uchar4, ...) as buffer elements.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <map>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <tgsim/kernel/abi.h>
#include <tgsim/launch.hpp>

namespace CLI {
class App;
}

namespace tgsim::cli {

struct FileLaunch {
  std::string file, kernel;
  std::string grid, block, grid_threads;  // "X[,Y[,Z]]"
  std::size_t shared = 0;
  std::string stack;  // --stack BYTES: LaunchConfig::stack_bytes (empty: its default)
  bool cooperative = false;  // --cooperative: LaunchConfig::cooperative (grid.sync())
  // --count: "hardware" (the default: accesses ptxas merges into one wider instruction are one,
  // as Nsight Compute counts them) or "source" (one per source access; sim/pass/vectorize.cpp)
  std::string count = "hardware";
  std::vector<std::string> args;
  std::vector<std::string> include_dirs, defines;  // -I DIR, -D NAME[=VALUE] or NAME(ARGS)=VALUE
  std::vector<std::string> pre_includes;           // --pre-include FILE (the compiler's -include)
  std::vector<std::string> constants;  // --constant NAME=VALUE: a Metal [[function_constant]]
  bool list_kernels = false;  // --kernel without a name: the file's kernels are listed (KernelListing)
  // --save PARAM=PATH, --expect PARAM=PATH[:RTOL] (buffers_out.hpp)
  std::vector<std::string> save, expect;
  // The bytes of buffer ARG i given by the caller instead of its initialiser (the Python
  // module's numpy arrays): COUNT elements of its TYPE, copied in before the launch.
  std::map<std::size_t, const void*> host_data;
};

// The compiler flags of -I and -D (absolute include folders, checked macro names); UsageError
// for a -D that is no NAME[=VALUE] or a -I that is no folder.
std::vector<std::string> compile_flags(const FileLaunch& f);

// `--kernel` without a name: the file's kernels, one signature a line, printed to stdout with
// exit status 0 (main.cpp); from the file's listing, which compiles no kernel's body.
struct KernelListing : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A usage error: exit status 2 with this one line. CompileError (compile.hpp) is exit 2 too.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct FileBuffer {
  std::string name;  // "arg 0 (A)"
  std::string param;  // the parameter's name from debug info ("A"), or ""
  std::size_t index = 0;  // the parameter's 0-based position
  std::string type;  // element type as given
  std::size_t count = 0, elem_bytes = 0;
  std::vector<unsigned char> bytes;  // after the launch
};

struct FileRun {
  Report report;
  std::string count;  // FileLaunch::count
  std::string file, signature;  // "matmul(const float* A, ..., int n)" as the pass recorded it
  std::vector<FileBuffer> buffers;
};

// Compiles, loads and runs; `base` carries the run options (threads, schedule, check, cache).
// With `keep_buffers` the buffers' contents after the launch are copied into FileRun::buffers
// (`check` compares two runs'); without, buffers stays empty and no copy is made.
FileRun run_file(const FileLaunch& f, const DeviceProfile& profile, LaunchConfig base, bool keep_buffers = true);

// FILE compiled (through the cache) and loaded, and the kernel f.kernel names chosen from its
// kernels (the only one when f.kernel is empty); UsageError or CompileError otherwise. The
// description lives as long as the process (a loaded module is never unloaded).
const tgsim_kernel_desc& file_kernel(const FileLaunch& f);

// The element type a pointer parameter's C type names, in ARG words ("const unsigned int*" ->
// "uint"); "*" for a pointer to pointers; "" where it cannot be told (no debug info, void*, a
// struct or a type no ARG names): then any buffer binds.
std::string pointee_arg_type(std::string c_type);

// "X[,Y[,Z]]" -> Dim3 (each at least 1); UsageError naming `what` otherwise.
Dim3 parse_dim3(const std::string& s, const char* what);
// --stack BYTES: decimal, from 16 KiB to 1 GiB (the limits run_launch checks for the C++ API).
std::size_t parse_stack(const std::string& s);

bool looks_like_kernel_file(const std::string& arg);
// The options a kernel FILE takes (ARG..., --kernel, --grid, --block, --shared,
// --threads-in-grid), the same for run, check and explain; `verb` names the command in the help.
void add_file_options(CLI::App& app, FileLaunch& f, const std::string& verb);  // ends in .cu, .cuh, .metal or .cpp

// The errors of a kernel file's run that are the command's (a cache, compile or usage error):
// reported (report_error, exit status 2); any other exception is rethrown.
int file_error(std::ostream& err, const FileLaunch& f, std::exception_ptr e);
// A CompileError's text as printed: the compiler's diagnostics as they are, a message of tgsim's
// own (the compiler printed nothing, the compiled file did not load) in the current language.
std::string compile_error_text(const std::string& what);

// `tgsim run FILE ...`: prints the report (or JSON) and returns the exit status: 0 clean, 1
// findings, 2 usage or compile error (the compiler's output on `err`).
// With `advice` (--advice), the rules of the costliest lines follow the report (or are its
// "advice" array), each "pad" rule's fix tried by a re-run unless `try_pads` is off (try_pad.hpp).
int run_file_command(std::ostream& os, std::ostream& err, const FileLaunch& f, const DeviceProfile& profile,
                     const LaunchConfig& base, bool json, bool advice = false, bool try_pads = true);
// `tgsim check FILE ...` (check_file.cpp): the checker on under each schedule of `schedule`
// (parse_schedule; "both": in-order and reverse), the union of their findings, and the
// buffers compared; the same exit statuses.
int check_file(std::ostream& os, std::ostream& err, const FileLaunch& f, const DeviceProfile& profile,
               const LaunchConfig& base, bool json, const std::string& schedule);
// `tgsim check FILE --json`'s object (check_file's runs, without printing); with `first`, the
// first schedule's run (its buffers) too. Throws what run_file throws, UsageError for a bad
// schedule, --save or --expect.
std::string check_file_json(const FileLaunch& f, const DeviceProfile& profile, const LaunchConfig& base,
                            const std::string& schedule, FileRun* first = nullptr);
// A run's report as `tgsim run FILE --json` prints it.
std::string file_json(const FileRun& r, int indent);
// A path a report names, as the user should read it: the kernel file as `given` on the command
// line, any other file relative to the current directory when it lies inside it (relative_path).
std::string shown_path(const std::string& path, const std::string& given);
// shown_path on the "file" and "file2" of each element of a JSON array (sites, findings).
template <class Json>
void show_paths(Json& list, const std::string& given) {
  for (auto& e : list)
    for (const char* k : {"file", "file2"})
      if (e.contains(k) && e[k].is_string()) e[k] = shown_path(e[k].template get<std::string>(), given);
}


}  // namespace tgsim::cli
