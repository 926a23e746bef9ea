// Metal kernels counted as their CUDA twins (tests/frontend/metal_vectors.metal, vectors.cu):
// a vector load or store is one access of its full width in both languages, also in
// threadgroup memory; a [[threadgroup(n)]] parameter is counted and checked as a threadgroup
// array and sized by the launch's dynamic bytes (--shared).
#include <gtest/gtest.h>

#include <tgsim/tgsim.hpp>

// As the Metal adapter declares them (parameters in buffer order, positions removed).
void mtl_copy_float4(const float* in, float* out);
void mtl_copy_uchar4(const unsigned char* in, unsigned char* out);
void mtl_copy_int2(const int* in, int* out);
void mtl_scale_float4(const float* in, float* out);
void mtl_widen_uchar4(const unsigned char* in, float* out);
void mtl_tile_float4(const float* in, float* out);
void mtl_neighbour_static(float* out);
void mtl_neighbour_param(float* out);
void mtl_neighbour_param_synced(float* out);
void cu_copy_float4(const float* in, float* out);
void cu_copy_uchar4(const unsigned char* in, unsigned char* out);
void cu_copy_int2(const int* in, int* out);
void cu_tile_float4(const float* in, float* out);

namespace {

using tgsim::AccessCounters;
using tgsim::Dim3;

void expect_counts(const AccessCounters& c, std::uint64_t accesses, std::uint64_t instructions,
                   std::uint64_t sectors, std::uint64_t bytes, const char* what) {
  EXPECT_EQ(c.thread_accesses, accesses) << what;
  EXPECT_EQ(c.instructions, instructions) << what;
  EXPECT_EQ(c.sectors, sectors) << what;
  EXPECT_EQ(c.bytes, bytes) << what;
}

// 256 float4s (one group of 256 threads, 8 warps): each warp loads and stores 512 bytes in one
// instruction, 16 sectors: 256 accesses, 8 instructions, 128 sectors each way.
TEST(MetalCounts, Float4CopyIsOneSixteenByteAccessAsInCuda) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1024, "in"), out = dev.alloc<float>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = float(i);
  tgsim::Report m = tgsim::launch(mtl_copy_float4, Dim3(1), Dim3(256), 0, in.data(), out.data());
  EXPECT_EQ(out[1023], 1023.0f);
  tgsim::Report c = tgsim::launch(cu_copy_float4, Dim3(1), Dim3(256), 0, in.data(), out.data());
  for (const tgsim::Report* r : {&m, &c}) {
    expect_counts(r->counters.global_load, 256, 8, 128, 4096, r->kernel.c_str());
    expect_counts(r->counters.global_store, 256, 8, 128, 4096, r->kernel.c_str());
  }
  // Operators and functions read a vector operand whole: v[i] * 2 + v[i] is two 16-byte loads.
  tgsim::Report s = tgsim::launch(mtl_scale_float4, Dim3(1), Dim3(256), 0, in.data(), out.data());
  EXPECT_EQ(out[5], 15.0f);
  EXPECT_EQ(s.counters.global_load.thread_accesses % 256, 0u);
  EXPECT_EQ(s.counters.global_load.bytes, s.counters.global_load.thread_accesses * 16);
  expect_counts(s.counters.global_store, 256, 8, 128, 4096, "mtl_scale_float4");
}

// 256 uchar4s: one 4-byte access per thread, 128 bytes per warp, 4 sectors.
TEST(MetalCounts, Uchar4CopyIsOneFourByteAccessAsInCuda) {
  tgsim::Device dev;
  auto in = dev.alloc<unsigned char>(1024, "in"), out = dev.alloc<unsigned char>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = static_cast<unsigned char>(i * 7);
  tgsim::Report m = tgsim::launch(mtl_copy_uchar4, Dim3(1), Dim3(256), 0, in.data(), out.data());
  EXPECT_EQ(out[1001], static_cast<unsigned char>(1001 * 7));
  tgsim::Report c = tgsim::launch(cu_copy_uchar4, Dim3(1), Dim3(256), 0, in.data(), out.data());
  for (const tgsim::Report* r : {&m, &c}) {
    expect_counts(r->counters.global_load, 256, 8, 32, 1024, r->kernel.c_str());
    expect_counts(r->counters.global_store, 256, 8, 32, 1024, r->kernel.c_str());
  }
  // float4(uchar4) reads the uchar4 once.
  auto wide = dev.alloc<float>(1024, "wide");
  tgsim::Report w = tgsim::launch(mtl_widen_uchar4, Dim3(1), Dim3(256), 0, in.data(), wide.data());
  EXPECT_EQ(wide[1001], float(static_cast<unsigned char>(1001 * 7)));
  expect_counts(w.counters.global_load, 256, 8, 32, 1024, "mtl_widen_uchar4");
  expect_counts(w.counters.global_store, 256, 8, 128, 4096, "mtl_widen_uchar4");
}

TEST(MetalCounts, Int2CopyIsOneEightByteAccessAsInCuda) {
  tgsim::Device dev;
  auto in = dev.alloc<int>(512, "in"), out = dev.alloc<int>(512, "out");
  for (int i = 0; i < 512; ++i) in[i] = i;
  tgsim::Report m = tgsim::launch(mtl_copy_int2, Dim3(1), Dim3(256), 0, in.data(), out.data());
  EXPECT_EQ(out[511], 511);
  tgsim::Report c = tgsim::launch(cu_copy_int2, Dim3(1), Dim3(256), 0, in.data(), out.data());
  for (const tgsim::Report* r : {&m, &c}) {
    expect_counts(r->counters.global_load, 256, 8, 64, 2048, r->kernel.c_str());
    expect_counts(r->counters.global_store, 256, 8, 64, 2048, r->kernel.c_str());
  }
}

// float4s through threadgroup memory: each warp stores and loads 512 bytes, 4 wavefronts.
TEST(MetalCounts, Float4InThreadgroupMemoryAsInCuda) {
  tgsim::Device dev;
  auto in = dev.alloc<float>(1024, "in"), out = dev.alloc<float>(1024, "out");
  for (int i = 0; i < 1024; ++i) in[i] = float(i);
  tgsim::LaunchConfig cfg;
  cfg.grid = Dim3(1);
  cfg.block = Dim3(256);
  cfg.check = true;
  tgsim::Report m = dev.launch(cfg, mtl_tile_float4, in.data(), out.data());
  EXPECT_EQ(out[0], 1020.0f);
  EXPECT_EQ(out[3], 1023.0f);
  tgsim::Report c = dev.launch(cfg, cu_tile_float4, in.data(), out.data());
  for (const tgsim::Report* r : {&m, &c}) {
    EXPECT_TRUE(r->findings.empty()) << r->kernel;
    for (const AccessCounters* s : {&r->counters.shared_load, &r->counters.shared_store}) {
      EXPECT_EQ(s->thread_accesses, 256u) << r->kernel;
      EXPECT_EQ(s->instructions, 8u) << r->kernel;
      EXPECT_EQ(s->bytes, 4096u) << r->kernel;
      EXPECT_EQ(s->wavefronts, 32u) << r->kernel;
    }
    expect_counts(r->counters.global_load, 256, 8, 128, 4096, r->kernel.c_str());
  }
}

// The race of a thread reading its neighbour's element with no barrier, in a static threadgroup
// array and in a [[threadgroup(0)]] parameter given the same 256 bytes: the same counts and
// the same findings, naming `buf`.
TEST(MetalCounts, ThreadgroupParameterCountedAndCheckedAsAStaticArray) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(128, "out");
  tgsim::LaunchConfig cfg;
  cfg.grid = Dim3(2);
  cfg.block = Dim3(64);
  cfg.check = true;
  tgsim::Report st = dev.launch(cfg, mtl_neighbour_static, out.data());
  cfg.shared_bytes = 64 * sizeof(float);
  tgsim::Report pa = dev.launch(cfg, mtl_neighbour_param, out.data());
  for (const tgsim::Report* r : {&st, &pa}) {
    EXPECT_EQ(r->counters.shared_store.thread_accesses, 128u) << r->kernel;
    EXPECT_EQ(r->counters.shared_store.instructions, 4u) << r->kernel;
    EXPECT_EQ(r->counters.shared_load.thread_accesses, 128u) << r->kernel;
    EXPECT_EQ(r->counters.shared_load.instructions, 4u) << r->kernel;
  }
  EXPECT_EQ(st.counters.shared_load.wavefronts, pa.counters.shared_load.wavefronts);
  EXPECT_EQ(st.counters.shared_store.wavefronts, pa.counters.shared_store.wavefronts);
  ASSERT_FALSE(st.findings.empty());
  ASSERT_EQ(st.findings.size(), pa.findings.size());
  for (std::size_t i = 0; i < st.findings.size(); ++i) {
    const tgsim::Finding &a = st.findings[i], &b = pa.findings[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.object, "buf");
    EXPECT_EQ(b.object, "buf");
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.thread, b.thread);
    EXPECT_EQ(a.line + 6, b.line);  // the same statements, 6 lines further down
    EXPECT_EQ(a.line2 + 6, b.line2);
  }
  EXPECT_TRUE(st.findings[0].kind == tgsim::FindingKind::kRaw || st.findings[0].kind == tgsim::FindingKind::kWar);
}

// With the barrier, no finding; with fewer bytes than the kernel uses, its overrun is out of
// bounds (the parameter is sized by the launch's dynamic bytes, setThreadgroupMemoryLength's).
TEST(MetalCounts, ThreadgroupParameterSizedByTheLaunchsBytes) {
  tgsim::Device dev;
  auto out = dev.alloc<float>(64, "out");
  tgsim::LaunchConfig cfg;
  cfg.grid = Dim3(1);
  cfg.block = Dim3(64);
  cfg.check = true;
  cfg.shared_bytes = 64 * 16;
  tgsim::Report ok = dev.launch(cfg, mtl_neighbour_param_synced, out.data());
  EXPECT_TRUE(ok.findings.empty());
  EXPECT_EQ(out[5], 6.0f);
  EXPECT_EQ(out[63], 0.0f);
  EXPECT_EQ(ok.counters.shared_store.thread_accesses, 64u);
  EXPECT_EQ(ok.counters.shared_store.bytes, 64u * 16);
  EXPECT_EQ(ok.counters.shared_load.bytes, 64u * 4);
  cfg.shared_bytes = 32 * 16;
  tgsim::Report small = dev.launch(cfg, mtl_neighbour_param_synced, out.data());
  bool oob = false;
  for (const tgsim::Finding& f : small.findings) oob = oob || f.kind == tgsim::FindingKind::kOutOfBounds;
  EXPECT_TRUE(oob);
}

}  // namespace
