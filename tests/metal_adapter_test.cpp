// The Metal adapter (sim/src/frontend/metal_adapter.cpp): the exact output of each rule on small
// kernels, its errors, and on the seed kernels of tests/metal that lines and columns are kept.
// (That each seed's output compiles with clang++-14 is the metal_compile_* CTest of each file.)
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "frontend/metal_adapter.hpp"

using tgsim::frontend::adapt_metal;

namespace {

const std::string kPrelude = "#include <metal_stdlib>\nusing namespace metal;\n";

// The adapted text after the prelude and the #line directive.
std::string code(std::string_view src, std::string_view file = "k.metal") {
  std::string out = adapt_metal(src, file);
  const std::string head = kPrelude + "#line 1 \"" + std::string(file) + "\"\n";
  EXPECT_EQ(out.substr(0, head.size()), head);
  return out.substr(head.size());
}

std::string error(std::string_view src) {
  try {
    adapt_metal(src, "e.metal");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> r;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) r.push_back(l);
  return r;
}

TEST(MetalAdapter, KernelDevicePointerAndPosition) {
  EXPECT_EQ(code("kernel void f(device float* a [[buffer(0)]], uint id [[thread_position_in_grid]]) {\n"
                 "  a[id] = 1;\n}\n"),
            "extern \"C++\" __global__ void f(       float* a                                                   ) {"
            " if (!__tgsim_metal_in_grid()) return;"
            " uint id = __tgsim_metal_attr<uint>(__tgsim_metal_thread_position_in_grid());\n"
            "  a[id] = 1;\n}\n");
}

TEST(MetalAdapter, ConstantReferenceByValueAndBufferOrder) {
  EXPECT_EQ(code("kernel void g(constant uint& n [[buffer(2)]],\n"
                 "              device const float* x [[buffer(1)]],\n"
                 "              device float* y [[buffer(0)]]) {\n}\n"),
            "extern \"C++\" __global__ void g(float* y                      ,\n"
            "                     const float* x              ,\n"
            "              const uint n                       ) { if (!__tgsim_metal_in_grid()) return;\n}\n");
  // In order already: edited in place, columns kept; constant T* stays a pointer.
  EXPECT_EQ(code("kernel void g(constant float* w [[buffer(0)]], constant int& n [[buffer(1)]]) {}"),
            "extern \"C++\" __global__ void g(const    float* w              , const    int  n              )"
            " { if (!__tgsim_metal_in_grid()) return;}");
}

TEST(MetalAdapter, ThreadgroupStorageDynamicSharedAndProgramConstants) {
  EXPECT_EQ(code("constant float w[] = {1.0f, 2.0f};\n"
                 "kernel void h(device float* out [[buffer(0)]],\n"
                 "              threadgroup float* scratch [[threadgroup(0)]],\n"
                 "              ushort2 lid [[thread_position_in_threadgroup]]) {\n"
                 "  threadgroup float t[16];\n"
                 "  threadgroup float* p = t; // threadgroup device\n"
                 "  out[0] = p[lid.x] + w[0]; const char* s = \"constant device\";\n}\n"),
            "const    float w[] = {1.0f, 2.0f};\n"
            "namespace __tgsim_threadgroup_h { extern thread_local float scratch[]; } "
            "extern \"C++\" __global__ void h(       float* out               \n"
            "                                                            \n"
            "                                                            ) {"
            " if (!__tgsim_metal_in_grid()) return;"
            " float* scratch = __tgsim_threadgroup_h::scratch;"
            " ushort2 lid = __tgsim_metal_attr<ushort2>(__tgsim_metal_thread_position_in_threadgroup());\n"
            "  thread_local float t[16];\n"
            "              float* p = t; // threadgroup device\n"
            "  out[0] = p[lid.x] + w[0]; const char* s = \"constant device\";\n}\n");
}

TEST(MetalAdapter, ThreadgroupArrayParameterMovesIntoTheBody) {
  EXPECT_EQ(code("kernel void e(threadgroup float s[N][N + 1], uint i [[thread_index_in_threadgroup]]) {}"),
            "extern \"C++\" __global__ void e(" + std::string(69, ' ') + ")"
            " { if (!__tgsim_metal_in_grid()) return; thread_local float s[N][N + 1];"
            " uint i = __tgsim_metal_attr<uint>(__tgsim_metal_thread_index_in_threadgroup());}");
}

TEST(MetalAdapter, KernelAttributeAndHelpers) {
  EXPECT_EQ(code("[[kernel]] void k(device int* a [[ buffer(0) ]]) {}\n"),
            "extern \"C++\" __global__ void k(       int* a                ) { if (!__tgsim_metal_in_grid()) return;}\n");
  // Helpers: address spaces in pointer and reference types go; no kernel rewrite.
  EXPECT_EQ(code("float f(thread float& x, device const float* p, threadgroup int* q) { return x; }"),
            "float f(       float& x,        const float* p,             int* q) { return x; }");
}

TEST(MetalAdapter, EveryPositionAttribute) {
  for (const char* a : {"thread_position_in_grid", "thread_position_in_threadgroup",
                        "threadgroup_position_in_grid", "threads_per_threadgroup", "threadgroups_per_grid",
                        "threads_per_grid", "thread_index_in_threadgroup", "thread_index_in_simdgroup",
                        "simdgroup_index_in_threadgroup", "threads_per_simdgroup"}) {
    const std::string out = code(std::string("kernel void f(uint3 v [[") + a + "]]) {}");
    EXPECT_NE(out.find(std::string(" uint3 v = __tgsim_metal_attr<uint3>(__tgsim_metal_") + a + "());"),
              std::string::npos)
        << out;
  }
}

TEST(MetalAdapter, ParametersWithoutIndexTakeTheNext) {
  EXPECT_EQ(code("kernel void f(device int* a [[buffer(1)]], device int* b) {}"),
            "extern \"C++\" __global__ void f(       int* a              ,        int* b) { if (!__tgsim_metal_in_grid()) return;}");
}

// Apple's samples name buffer indices by the enumerators of a header shared with host code.
TEST(MetalAdapter, BufferIndexNamedByEnumerator) {
  // Values from enumerators declared before (Apple's ModernRenderingWithMetal): a = 2, b = 3, c = 1.
  EXPECT_NE(code("enum { Base = 2 }; enum { a = Base, b, c = b - 2 };\n"
                 "kernel void g(device int* x [[buffer(b)]], device int* y [[buffer(c)]], device int* z [[buffer(c+1)]]) {}")
                .find("void g(int* y"),
            std::string::npos);
  EXPECT_EQ(code("typedef enum { IndexOut = 0x1u, IndexN, IndexIn = 0 } Index;\n"
                 "kernel void g(device float* y [[buffer(IndexOut)]], device const float* x [[buffer(Index::IndexIn)]],\n"
                 "              constant uint& n [[buffer(IndexN)]]) {}"),
            "typedef enum { IndexOut = 0x1u, IndexN, IndexIn = 0 } Index;\n"
            "extern \"C++\" __global__ void g(const float* x                              , float* y                   "
            "                       ,\n"
            "              const    uint  n                   ) { if (!__tgsim_metal_in_grid()) return;}");
}

// A file of Apple's samples: render stages beside a kernel. The vertex and fragment functions are
// left out (blanked, lines kept), the render attributes of struct members ignored.
TEST(MetalAdapter, RenderStagesAreLeftOut) {
  const std::string out = code(
      "struct V { float4 p [[position]]; float2 uv [[user(uv)]]; half4 c [[color(0)]]; };\n"
      "vertex V vs(uint id [[vertex_id]], constant float4* p [[buffer(0)]]) { V v; v.p = p[id]; return v; }\n"
      "fragment float4 fs(V in [[stage_in]], texture2d<half> t [[texture(0)]]) { return in.p; }\n"
      "fragment half4 fd(V in [[stage_in]]);\n"
      "kernel void k(device float* a [[buffer(0)]]) { a[0] = 1; }\n");
  EXPECT_EQ(out.find("vs("), std::string::npos);
  EXPECT_EQ(out.find("fs("), std::string::npos);
  EXPECT_EQ(out.find("fd("), std::string::npos);
  EXPECT_EQ(out.find("[["), std::string::npos);
  EXPECT_NE(out.find("struct V { float4 p "), std::string::npos);
  const std::size_t k = out.find("extern \"C++\" __global__ void k(");
  ASSERT_NE(k, std::string::npos);
  EXPECT_EQ(std::count(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(k), '\n'), 4) << out;  // line 5 still
}

// A texture becomes its texels and four numbers after the buffers, a sampler one number after
// the textures (texture index order, then sampler index order), each declared in the body.
TEST(MetalAdapter, TexturesAndSamplers) {
  const std::string adapted = code(
      "kernel void k(sampler s [[sampler(0)]], texture2d<float, access::write> o [[texture(1)]],\n"
      "              texture2d<float> i [[texture(0)]], device float* b [[buffer(0)]]) {}");
  EXPECT_EQ(std::count(adapted.begin(), adapted.end(), '\n'), 1) << adapted;  // lines kept
  std::string out;  // runs of blanks as one space, none before a comma
  for (char c : adapted) {
    if (c == '\n') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    if (c == ',' && !out.empty() && out.back() == ' ') out.pop_back();
    out += c;
  }
  const std::size_t params = out.find("(float* b, void* __tgsim_tex_2d__i, unsigned __tgsim_texw_i, unsigned "
                                      "__tgsim_texh_i, unsigned __tgsim_texd_i, unsigned __tgsim_texf_i,");
  EXPECT_NE(params, std::string::npos) << out;
  EXPECT_NE(out.find("unsigned __tgsim_texf_o, unsigned __tgsim_sampler_s )"), std::string::npos) << out;
  EXPECT_NE(out.find("texture2d<float, access::write> o(__tgsim_tex_2d__o, __tgsim_texw_o, __tgsim_texh_o, "
                     "__tgsim_texd_o, __tgsim_texf_o, \"o\", false);"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("sampler s = metal::sampler::from_bits(__tgsim_sampler_s);"), std::string::npos) << out;
}

// A line marker the preprocessor put inside a vertex function (for a run of comment lines) stays
// when the function is left out: the lines after it keep their numbers.
TEST(MetalAdapter, RenderStagesKeepLineMarkers) {
  const std::string out = code("vertex float4 vs() {\n# 12 \"k.metal\"\n  return 0;\n}\n"
                               "kernel void k(device float* a [[buffer(0)]]) {}\n");
  EXPECT_NE(out.find("\n# 12 \"k.metal\"\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("return 0"), std::string::npos) << out;
}

TEST(MetalAdapter, Errors) {
  EXPECT_EQ(error("kernel void f(\n  device float* a [[buffer(0)]],\n  uint i [[thread_position_in_gird]]) {}"),
            "e.metal:3:10: unknown or unsupported kernel parameter attribute [[thread_position_in_gird]]");
  EXPECT_EQ(error("kernel void f(texture2d_ms<float> t [[texture(0)]]) {}"),
            "e.metal:1:15: [[texture(0)]] on a parameter of type 'texture2d_ms<float>': tgsim models texture1d, "
            "texture2d, texture3d, texture2d_array, texturecube, depth2d and depth2d_array");
  EXPECT_EQ(error("kernel void f(texture2d<float> a [[texture(1)]], texture2d<float> b [[texture(1)]]) {}"),
            "e.metal:1:50: texture or sampler index 1 is used twice");
  EXPECT_EQ(error("kernel void f(float s [[sampler(0)]]) {}"),
            "e.metal:1:15: [[sampler(0)]] on a parameter of type 'float': a sampler parameter is a sampler");
  EXPECT_EQ(error("kernel void f(device int* a [[buffer(0)]], device int* b [[buffer(0)]]) {}"),
            "e.metal:1:44: buffer index 0 is used twice");
  EXPECT_EQ(error("kernel void f(device int* a [[buffer(x)]]) {}"),
            "e.metal:1:29: [[buffer(x)]]: the buffer index must be an integer literal or an enumerator "
            "declared with one");
  EXPECT_EQ(error("enum E { x = 2 * 1 };\nkernel void f(device int* a [[buffer(x)]]) {}"),
            "e.metal:2:29: [[buffer(x)]]: the buffer index must be an integer literal or an enumerator "
            "declared with one");
  EXPECT_EQ(error("struct S { float4 p [[positon]]; };"),
            "e.metal:1:21: unknown or unsupported attribute [[positon]] outside a kernel's parameters");
  EXPECT_EQ(error("kernel void f(threadgroup float* a [[threadgroup(0)]], threadgroup int* b [[threadgroup(1)]]) {}"),
            "e.metal:1:75: only one [[threadgroup(n)]] parameter is supported");
  EXPECT_EQ(error("kernel void f(threadgroup float& a [[threadgroup(0)]]) {}"),
            "e.metal:1:15: a [[threadgroup(n)]] parameter must be a pointer");
  EXPECT_EQ(error("kernel int f() {}"), "e.metal:1:1: a kernel must return void");
  EXPECT_EQ(error("/* open"), "e.metal:1:1: unterminated comment");
  EXPECT_EQ(code("[[maybe_unused]] int x;"), "[[maybe_unused]] int x;");
}

TEST(MetalAdapter, CommentsStringsAndDirectivesAreKept) {
  const std::string src =
      "#define device_count 3 // kernel void\n/* threadgroup float x[2]; */\nconst char* s = \"device\";\n";
  EXPECT_EQ(code(src), src);
  EXPECT_EQ(adapt_metal("", "a \"b\".metal"), kPrelude + "#line 1 \"a \\\"b\\\".metal\"\n");
}

// Every seed kernel: same line count, each line unchanged unless it holds a Metal keyword or
// is a kernel's `{` line (which only gains text at its end); barriers keep line and column.
TEST(MetalAdapter, SeedKernelsKeepLinesAndColumns) {
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TGSIM_METAL_SEEDS)) {
    if (entry.path().extension() != ".metal") continue;
    ++seeds;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::vector<std::string> src = lines(ss.str());
    const std::vector<std::string> out = lines(code(ss.str(), entry.path().string()));
    ASSERT_EQ(src.size(), out.size()) << entry.path();
    int bodies = 0, barriers = 0;
    for (size_t i = 0; i < src.size(); ++i) {
      const std::string& s = src[i];
      if (out[i].find("__tgsim_metal_in_grid") != std::string::npos) {
        ++bodies;
        EXPECT_EQ(out[i].substr(0, s.size()), s) << entry.path() << ":" << i + 1;
      } else if (s.find("device") == std::string::npos && s.find("constant") == std::string::npos &&
                 s.find("threadgroup ") == std::string::npos && s.find("kernel") == std::string::npos &&
                 s.find("[[") == std::string::npos) {
        EXPECT_EQ(out[i], s) << entry.path() << ":" << i + 1;
      }
      const size_t b = s.find("threadgroup_barrier(");
      if (b != std::string::npos) {
        ++barriers;
        EXPECT_EQ(out[i].find("threadgroup_barrier("), b) << entry.path() << ":" << i + 1;
      }
    }
    EXPECT_GE(bodies, 1) << entry.path();
    if (entry.path().filename().string().find("tiled") != std::string::npos) {
      EXPECT_EQ(barriers, 2);
    }
  }
  EXPECT_EQ(seeds, 6);
}

}  // namespace
