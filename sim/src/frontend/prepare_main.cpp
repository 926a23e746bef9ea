// tgsim-prepare: the front end for build systems (the CMake function tgsim_add_cuda_library).
//   tgsim-prepare IN OUT                      OUT = the source Clang is given for IN
//   tgsim-prepare --compile IN OBJ DEPFILE [-I DIR | -D NAME[=VALUE] | -U NAME]...
//                                             IN compiled into the object OBJ (DEPFILE: its headers)
// Exit 2 with the message (or the compiler's output) on an error.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "compile.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  const bool compile = argc >= 5 && std::string(argv[1]) == "--compile";
  if (!compile && argc != 3) {
    std::cerr << "usage: tgsim-prepare IN OUT | tgsim-prepare --compile IN OBJ DEPFILE [-I DIR | -D NAME[=VALUE] | -U NAME]...\n";
    return 2;
  }
  // The user's include folders and macros, each as one argument (-IDIR) or two (-I DIR).
  std::vector<std::string> flags;
  for (int i = 5; compile && i < argc; ++i) {
    const std::string a = argv[i];
    const std::string opt = a.substr(0, 2);
    if (opt != "-I" && opt != "-D" && opt != "-U") {
      std::cerr << "tgsim-prepare: unknown option " << a << " (only -I, -D and -U)\n";
      return 2;
    }
    if (a.size() > 2) {
      flags.push_back(a);
    } else if (i + 1 < argc) {
      flags.push_back(a + argv[++i]);
    } else {
      std::cerr << "tgsim-prepare: " << a << " needs a value\n";
      return 2;
    }
  }
  const std::string in_path = argv[compile ? 2 : 1];
  std::ifstream in(in_path, std::ios::binary);
  if (!in) {
    std::cerr << "tgsim-prepare: cannot read " << in_path << "\n";
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    using namespace tgsim::frontend;
    const std::string prepared = prepare_source(ss.str(), fs::absolute(in_path).string());
    if (!compile) {
      std::ofstream(argv[2], std::ios::binary) << prepared;
      return 0;
    }
    const std::string obj = argv[3], src = obj + ".cpp";
    std::ofstream(src, std::ios::binary) << prepared;
    std::vector<std::string> cmd = compile_command(toolchain(), language_of(in_path), src, obj, false,
                                                   fs::absolute(in_path).parent_path().string());
    add_user_flags(cmd, flags);
    cmd.insert(cmd.end(), {"-MD", "-MF", argv[4]});
    std::string output;
    const int rc = run_process(cmd, &output);
    std::cerr << output;
    return rc == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 2;
  }
}
