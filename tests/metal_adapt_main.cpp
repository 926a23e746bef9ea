// tgsim_metal_adapt IN OUT: writes the Metal adapter's C++ for IN to OUT (the seed-compile tests).
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "frontend/metal_adapter.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: tgsim_metal_adapt IN.metal OUT.cpp\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "tgsim_metal_adapt: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    const std::string out = tgsim::frontend::adapt_metal(text.str(), argv[1]);
    std::ofstream(argv[2], std::ios::binary) << out;
  } catch (const std::runtime_error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  return 0;
}
