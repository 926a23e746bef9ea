// CUDA graphs and stream capture as whole programs use them (tests/CMakeLists.txt checks the
// last line): capture that records instead of running and replays, explicit graphs with a
// diamond, the deterministic order of independent nodes, exec updates, graph allocations,
// multi-stream capture, child graphs and conditional nodes. Each CHECK compares exact values.
#include <cstdio>
#include <cstring>
#include <vector>

#include "exact_checks.h"

constexpr int kN = 256;

__global__ void add_index(int* p, int k) { p[threadIdx.x] += static_cast<int>(threadIdx.x) * k; }
__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }
__global__ void combine(const int* a, const int* b, int* out, int ka, int kb) {
  out[threadIdx.x] = a[threadIdx.x] * ka + b[threadIdx.x] * kb;
}
// One WHILE iteration: counts down *left, counts *iterations, keeps looping while *left > 0.
__global__ void count_down(int* left, int* iterations, cudaGraphConditionalHandle h) {
  --*left;
  ++*iterations;
  cudaGraphSetConditional(h, *left > 0 ? 1u : 0u);
}
__global__ void set_flag(const int* v, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *v & 1); }

static std::vector<int> order;  // what the host nodes ran, in order
static void CUDART_CB push(void* id) { order.push_back(static_cast<int>(reinterpret_cast<size_t>(id))); }
static void* id(int i) { return reinterpret_cast<void*>(static_cast<size_t>(i)); }
static bool all_equal(const int* h, int (*f)(int)) {
  for (int i = 0; i < kN; ++i)
    if (h[i] != f(i)) return false;
  return true;
}

// Captured memset, kernel, host function and copy: nothing runs during capture; each replay runs all.
static void capture_and_replay(int* d, int* h) {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaMemset(d, 7, kN * sizeof(int)) == cudaSuccess);
  for (int i = 0; i < kN; ++i) h[i] = -1;
  order.clear();
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cudaStreamCaptureStatus st;
  CHECK(cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusActive);
  CHECK(cudaMemsetAsync(d, 0, kN * sizeof(int), s) == cudaSuccess);
  add_index<<<1, kN, 0, s>>>(d, 3);
  CHECK(cudaLaunchHostFunc(s, push, id(1)) == cudaSuccess);
  CHECK(cudaMemcpyAsync(h, d, kN * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  unsigned long long cid = 0;
  size_t ndeps = 0;
  const cudaGraphNode_t* deps = nullptr;
  CHECK(cudaStreamGetCaptureInfo(s, &st, &cid, nullptr, &deps, &ndeps) == cudaSuccess && cid != 0 && ndeps == 1);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
  CHECK(cudaStreamIsCapturing(s, &st) == cudaSuccess && st == cudaStreamCaptureStatusNone);
  CHECK(h[5] == -1 && order.empty() && d[5] == 0x07070707);  // recorded, not run
  size_t n = 0, edges = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n) == cudaSuccess && n == 4);
  CHECK(cudaGraphGetEdges(g, nullptr, nullptr, &edges) == cudaSuccess && edges == 3);
  cudaGraphNode_t nodes[4];
  cudaGraphNodeType t[4];
  CHECK(cudaGraphGetNodes(g, nodes, &n) == cudaSuccess);
  for (int i = 0; i < 4; ++i) cudaGraphNodeGetType(nodes[i], &t[i]);
  CHECK(t[0] == cudaGraphNodeTypeMemset && t[1] == cudaGraphNodeTypeKernel && t[2] == cudaGraphNodeTypeHost &&
        t[3] == cudaGraphNodeTypeMemcpy);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < kN; ++i) h[i] = -1;
    CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
    CHECK(all_equal(h, [](int i) { return 3 * i; }));
  }
  CHECK(order == std::vector<int>({1, 1, 1}));
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(x) == cudaSuccess && cudaGraphDestroy(g) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

// A diamond: memset -> (two kernels) -> kernel -> host node; and the order of independent nodes.
static void explicit_graph(int* x, int* y, int* z, int* w) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t a, b, c, d, e;
  cudaMemsetParams ms = {};
  ms.dst = x, ms.value = 5, ms.elementSize = 4, ms.width = kN, ms.height = 1;
  CHECK(cudaGraphAddMemsetNode(&a, g, nullptr, 0, &ms) == cudaSuccess);
  int kx = 2, ky = 0;
  void* args_b[] = {&x, &x, &y, &kx, &ky};  // y = 2x
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(combine), kp.gridDim = dim3(1), kp.blockDim = dim3(kN), kp.kernelParams = args_b;
  CHECK(cudaGraphAddKernelNode(&b, g, &a, 1, &kp) == cudaSuccess);
  kx = 99;  // the node copied the arguments when it was added
  int one = 1;
  void* args_c[] = {&x, &x, &z, &one, &ky};  // z = x
  kp.kernelParams = args_c;
  CHECK(cudaGraphAddKernelNode(&c, g, &a, 1, &kp) == cudaSuccess);
  const cudaGraphNode_t bc[] = {b, c};
  int three = 3;
  void* args_d[] = {&y, &z, &w, &one, &three};  // w = y + 3z = 10 + 15
  kp.kernelParams = args_d;
  CHECK(cudaGraphAddKernelNode(&d, g, bc, 2, &kp) == cudaSuccess);
  cudaHostNodeParams hp = {push, id(4)};
  CHECK(cudaGraphAddHostNode(&e, g, &d, 1, &hp) == cudaSuccess);
  cudaGraphExec_t xg;
  CHECK(cudaGraphInstantiateWithFlags(&xg, g, 0) == cudaSuccess);
  order.clear();
  CHECK(cudaGraphLaunch(xg, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess);
  CHECK(all_equal(w, [](int) { return 25; }) && y[0] == 10 && z[kN - 1] == 5 && order == std::vector<int>({4}));
  // The diamond in Graphviz's language: the last kernel after both others.
  CHECK(cudaGraphDebugDotPrint(g, "frontend_graph_main.dot", 0) == cudaSuccess);
  char dot[2048] = {};
  if (FILE* f = std::fopen("frontend_graph_main.dot", "r")) dot[std::fread(dot, 1, sizeof dot - 1, f)] = 0, std::fclose(f);
  CHECK(std::strstr(dot, "n1 -> n3;") && std::strstr(dot, "n2 -> n3;") && std::strstr(dot, "3: kernel combine"));
  CHECK(cudaGraphExecDestroy(xg) == cudaSuccess && cudaGraphDestroy(g) == cudaSuccess);

  // Independent nodes run in the order they were added; an added dependency comes first.
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaGraphNode_t h0, h1, h2;
  hp.userData = id(0);
  CHECK(cudaGraphAddHostNode(&h0, g, nullptr, 0, &hp) == cudaSuccess);
  hp.userData = id(1);
  CHECK(cudaGraphAddHostNode(&h1, g, nullptr, 0, &hp) == cudaSuccess);
  hp.userData = id(2);
  CHECK(cudaGraphAddHostNode(&h2, g, &h1, 1, &hp) == cudaSuccess);
  CHECK(cudaGraphAddDependencies(g, &h2, &h0, 1) == cudaSuccess);  // 1 -> 2 -> 0
  CHECK(cudaGraphInstantiate(&xg, g, 0) == cudaSuccess);
  order.clear();
  CHECK(cudaGraphLaunch(xg, 0) == cudaSuccess && cudaGraphLaunch(xg, 0) == cudaSuccess);
  CHECK(order == std::vector<int>({1, 2, 0, 1, 2, 0}));
  cudaGraphExecDestroy(xg);
  // A cycle cannot be instantiated.
  CHECK(cudaGraphAddDependencies(g, &h0, &h1, 1) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&xg, g, 0) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaGraphDestroy(g) == cudaSuccess);
}

// An exec's kernel parameters set directly, or from a graph of the same shape (cudaGraphExecUpdate).
static void exec_update(int* p) {
  auto one_fill = [&](int v, cudaGraph_t* g, cudaGraphNode_t* k) {
    void* args[] = {&p, &v};
    cudaKernelNodeParams kp = {reinterpret_cast<void*>(fill), dim3(1), dim3(kN), 0, args, nullptr};
    cudaGraphCreate(g, 0);
    return cudaGraphAddKernelNode(k, *g, nullptr, 0, &kp);
  };
  cudaGraph_t g, g3, g2;
  cudaGraphNode_t k, k3, k2a, k2b;
  CHECK(one_fill(1, &g, &k) == cudaSuccess);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  int two = 2;
  void* args[] = {&p, &two};
  cudaKernelNodeParams kp = {reinterpret_cast<void*>(fill), dim3(1), dim3(kN), 0, args, nullptr};
  CHECK(cudaGraphExecKernelNodeSetParams(x, k, &kp) == cudaSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && p[0] == 2 && p[kN - 1] == 2);
  cudaGraphExec_t x1;  // the graph itself still fills 1
  CHECK(cudaGraphInstantiate(&x1, g, 0) == cudaSuccess && cudaGraphLaunch(x1, 0) == cudaSuccess && p[7] == 1);
  CHECK(one_fill(3, &g3, &k3) == cudaSuccess);
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(x, g3, &info) == cudaSuccess && info.result == cudaGraphExecUpdateSuccess);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && p[9] == 3);
  CHECK(one_fill(4, &g2, &k2a) == cudaSuccess && cudaGraphAddEmptyNode(&k2b, g2, &k2a, 1) == cudaSuccess);
  CHECK(cudaGraphExecUpdate(x, g2, &info) == cudaErrorGraphExecUpdateFailure &&
        info.result == cudaGraphExecUpdateErrorTopologyChanged);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && p[9] == 3);
  for (cudaGraph_t each : {g, g3, g2}) cudaGraphDestroy(each);
  cudaGraphExecDestroy(x);
  cudaGraphExecDestroy(x1);
}

// Graph allocations: the address is fixed when the node is added; a launch backs the bytes, a
// free node (or cudaFree) keeps them cached for graphs (the footprint) until a trim;
// stream-ordered allocation in a capture becomes such nodes.
static void graph_memory(int* h) {
  cudaGraph_t g;
  cudaGraphNode_t al, k, cp, fr;
  CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location = {cudaMemLocationTypeDevice, 0};
  ap.bytesize = kN * sizeof(int);
  CHECK(cudaGraphAddMemAllocNode(&al, g, nullptr, 0, &ap) == cudaSuccess && ap.dptr != nullptr);
  int* p = static_cast<int*>(ap.dptr);
  int nine = 9;
  void* args[] = {&p, &nine};
  cudaKernelNodeParams kp = {reinterpret_cast<void*>(fill), dim3(1), dim3(kN), 0, args, nullptr};
  CHECK(cudaGraphAddKernelNode(&k, g, &al, 1, &kp) == cudaSuccess);
  CHECK(cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, h, p, kN * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(cudaGraphAddMemFreeNode(&fr, g, &cp, 1, p) == cudaSuccess);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
  unsigned long long used = 1, high = 1;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used) == cudaSuccess && used == 0);
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && all_equal(h, [](int) { return 9; }));
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess);  // the cached memory again: no growth
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high);
  CHECK(used == kN * sizeof(int) && high == kN * sizeof(int));
  CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  CHECK(used == 0);
  // After the free, an allocation of the same graph reuses the address; a parallel one does not.
  cudaGraphNode_t al2, al3;
  CHECK(cudaGraphAddMemAllocNode(&al2, g, &fr, 1, &ap) == cudaSuccess && ap.dptr == p);
  CHECK(cudaGraphAddMemAllocNode(&al3, g, &k, 1, &ap) == cudaSuccess && ap.dptr != p && ap.dptr != nullptr);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);

  // Captured: cudaMallocAsync and cudaFreeAsync become nodes; the memory outlives a graph without a free.
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* q = nullptr;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaMallocAsync(&q, kN * sizeof(int), s) == cudaSuccess && q != nullptr);
  fill<<<1, kN, 0, s>>>(q, 4);
  CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
  cudaGraphNode_t nodes[2];
  size_t n = 2;
  cudaGraphNodeType t0, t1;
  CHECK(cudaGraphGetNodes(g, nodes, &n) == cudaSuccess && n == 2);
  cudaGraphNodeGetType(nodes[0], &t0);
  cudaGraphNodeGetType(nodes[1], &t1);
  CHECK(t0 == cudaGraphNodeTypeMemAlloc && t1 == cudaGraphNodeTypeKernel);
  CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess && cudaGraphLaunch(x, s) == cudaSuccess);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  CHECK(used == kN * sizeof(int) && q[kN - 1] == 4);
  CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);  // in use: trimming keeps it
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  CHECK(used == kN * sizeof(int));
  CHECK(cudaFreeAsync(q, s) == cudaSuccess && cudaDeviceGraphMemTrim(0) == cudaSuccess);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  CHECK(used == 0);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  cudaStreamDestroy(s);
}

// Two streams forked and joined by events in one capture, and the captured graph as a child graph.
static void fork_join_child(int* a, int* b, int* out) {
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK(cudaEventRecord(fork, s1) == cudaSuccess && cudaStreamWaitEvent(s2, fork, 0) == cudaSuccess);
  fill<<<1, kN, 0, s1>>>(a, 6);
  fill<<<1, kN, 0, s2>>>(b, 1);
  CHECK(cudaEventRecord(join, s2) == cudaSuccess && cudaStreamWaitEvent(s1, join, 0) == cudaSuccess);
  combine<<<1, kN, 0, s1>>>(a, b, out, 1, 10);
  CHECK(cudaStreamEndCapture(s1, &g) == cudaSuccess);
  cudaGraphNode_t nodes[3], from[4], to[4];
  size_t n = 3, e = 4;
  CHECK(cudaGraphGetNodes(g, nodes, &n) == cudaSuccess && n == 3);
  CHECK(cudaGraphGetEdges(g, from, to, &e) == cudaSuccess && e == 2 && to[0] == nodes[2] && to[1] == nodes[2]);
  // The captured graph as a child of another, after an empty node.
  cudaGraph_t parent;
  cudaGraphNode_t empty, child;
  cudaGraphCreate(&parent, 0);
  CHECK(cudaGraphAddEmptyNode(&empty, parent, nullptr, 0) == cudaSuccess);
  CHECK(cudaGraphAddChildGraphNode(&child, parent, &empty, 1, g) == cudaSuccess);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, parent, 0) == cudaSuccess && cudaGraphLaunch(x, s1) == cudaSuccess);
  CHECK(all_equal(out, [](int) { return 16; }));
  cudaGraphExecDestroy(x);
  for (cudaGraph_t each : {g, parent}) cudaGraphDestroy(each);
  cudaEventDestroy(fork);
  cudaEventDestroy(join);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

// WHILE: the body runs until the kernel clears the handle.
static void while_node(int* counters) {
  cudaGraphExec_t x;
  cudaGraph_t w;
  cudaGraphCreate(&w, 0);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, w, 1, cudaGraphCondAssignDefault) == cudaSuccess);
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t loop;
  CHECK(cudaGraphAddNode(&loop, w, nullptr, 0, &cp) == cudaSuccess);
  cudaGraph_t body = cp.conditional.phGraph_out[0];
  cudaGraphNode_t step;
  int* left = counters;
  int* iterations = counters + 1;
  void* args[] = {&left, &iterations, &h};
  cudaKernelNodeParams kp = {reinterpret_cast<void*>(count_down), dim3(1), dim3(1), 0, args, nullptr};
  CHECK(cudaGraphAddKernelNode(&step, body, nullptr, 0, &kp) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&x, w, 0) == cudaSuccess);
  counters[0] = 5, counters[1] = 0;
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && counters[0] == 0 && counters[1] == 5);
  counters[0] = 2;
  CHECK(cudaGraphLaunch(x, 0) == cudaSuccess && counters[0] == 0 && counters[1] == 7);
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(w);
}

// IF with an else body, and SWITCH: the body the kernel's value selects.
static void if_and_switch(int* counters) {
  cudaGraphExec_t x;
  cudaGraphConditionalHandle h;
  cudaGraph_t f;
  cudaGraphCreate(&f, 0);
  CHECK(cudaGraphConditionalHandleCreate(&h, f) == cudaSuccess);
  cudaGraphNode_t setter, cond, then_node, else_node;
  int* value = counters + 2;
  void* set_args[] = {&value, &h};
  cudaKernelNodeParams kp = {reinterpret_cast<void*>(set_flag), dim3(1), dim3(1), 0, set_args, nullptr};
  CHECK(cudaGraphAddKernelNode(&setter, f, nullptr, 0, &kp) == cudaSuccess);
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeIf;
  cp.conditional.size = 2;
  CHECK(cudaGraphAddNode(&cond, f, &setter, nullptr, 1, &cp) == cudaSuccess);
  cudaHostNodeParams hp = {push, id(10)};
  CHECK(cudaGraphAddHostNode(&then_node, cp.conditional.phGraph_out[0], nullptr, 0, &hp) == cudaSuccess);
  hp.userData = id(20);
  CHECK(cudaGraphAddHostNode(&else_node, cp.conditional.phGraph_out[1], nullptr, 0, &hp) == cudaSuccess);
  CHECK(cudaGraphInstantiate(&x, f, 0) == cudaSuccess);
  order.clear();
  counters[2] = 3;
  cudaGraphLaunch(x, 0);
  counters[2] = 4;
  cudaGraphLaunch(x, 0);
  CHECK(order == std::vector<int>({10, 20}));
  cudaGraphExecDestroy(x);
  // SWITCH: body[value] runs.
  cudaGraph_t sw;
  cudaGraphCreate(&sw, 0);
  CHECK(cudaGraphConditionalHandleCreate(&h, sw) == cudaSuccess);
  kp = {reinterpret_cast<void*>(set_flag), dim3(1), dim3(1), 0, set_args, nullptr};
  CHECK(cudaGraphAddKernelNode(&setter, sw, nullptr, 0, &kp) == cudaSuccess);
  cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = h;
  cp.conditional.type = cudaGraphCondTypeSwitch;
  cp.conditional.size = 3;
  CHECK(cudaGraphAddNode(&cond, sw, &setter, nullptr, 1, &cp) == cudaSuccess);
  for (int b = 0; b < 3; ++b) {
    hp.userData = id(30 + b);
    cudaGraphAddHostNode(&then_node, cp.conditional.phGraph_out[b], nullptr, 0, &hp);
  }
  CHECK(cudaGraphInstantiate(&x, sw, 0) == cudaSuccess);
  order.clear();
  counters[2] = 1;  // set_flag sets value & 1
  cudaGraphLaunch(x, 0);
  counters[2] = 0;
  cudaGraphLaunch(x, 0);
  CHECK(order == std::vector<int>({31, 30}));
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(sw);
  cudaGraphDestroy(f);
}

int main() {
  int *d, *h, *x, *y, *z, *w, *counters;
  cudaMalloc(&d, kN * sizeof(int));
  cudaMallocHost(&h, kN * sizeof(int));
  cudaMalloc(&x, kN * sizeof(int));
  cudaMallocManaged(&y, kN * sizeof(int));
  cudaMallocManaged(&z, kN * sizeof(int));
  cudaMallocManaged(&w, kN * sizeof(int));
  cudaMallocManaged(&counters, 4 * sizeof(int));
  capture_and_replay(d, h);
  explicit_graph(x, y, z, w);
  exec_update(w);
  graph_memory(h);
  fork_join_child(x, y, w);
  while_node(counters);
  if_and_switch(counters);
  for (int* p : {d, x, y, z, w, counters}) cudaFree(p);
  cudaFreeHost(h);
  CHECK(cudaGetLastError() == cudaSuccess);
  std::printf("graphs: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
