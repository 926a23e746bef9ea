// What the files of CUDA graphs and stream capture share (cuda_host_graph.cpp: graphs and
// nodes; cuda_host_graph_exec.cpp: instantiation and launch; cuda_host_capture.cpp: capture).
// A node holds a copy of everything it needs (a kernel's argument values, a copy's
// parameters), as CUDA copies them when the node is added.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <tgsim/kernel/cuda_host_api.h>
#include <tgsim/kernel/cuda_graph.h>

namespace tgsim::detail::cuda {

struct Graph;

// A conditional node's handle: the value a kernel sets, and what a launch resets it to.
struct Conditional {
  unsigned value = 0;
  unsigned default_value = 0;
  bool assign_default = false;
};

struct Node {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  Graph* owner = nullptr;
  unsigned index = 0;         // in the order the owner's nodes were added
  std::vector<Node*> deps;    // nodes of the same graph that run first
  // Kernel: the function, configuration, and the argument values (one byte vector each).
  const void* func = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::size_t shared = 0;
  std::vector<std::vector<unsigned char>> args;
  cudaMemcpy3DParms copy{};
  cudaMemsetParams set{};
  cudaHostNodeParams host{};
  cudaEvent_t event = nullptr;
  void* dptr = nullptr;       // memalloc and memfree
  std::size_t bytes = 0;
  // A child graph (one body), or a conditional's bodies.
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<cudaGraph_t> body_handles;  // what phGraph_out points at
  std::shared_ptr<Conditional> cond;
  cudaGraphConditionalNodeType cond_type = cudaGraphCondTypeIf;
};

struct Graph {
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::shared_ptr<Conditional>> handles;  // made for this graph
};

inline Graph* graph_of(cudaGraph_t g) { return reinterpret_cast<Graph*>(g); }
inline cudaGraph_t handle_of(Graph* g) { return reinterpret_cast<cudaGraph_t>(g); }
inline Node* node_of(cudaGraphNode_t n) { return reinterpret_cast<Node*>(n); }
inline cudaGraphNode_t handle_of(Node* n) { return reinterpret_cast<cudaGraphNode_t>(n); }

// Adds `node` to `g` after `deps` (nodes of g); returns it.
Node* add_node(Graph& g, std::unique_ptr<Node> node, const cudaGraphNode_t* deps, std::size_t ndeps);
// A kernel node's fields from a launch: copies the argument values (their sizes from the
// kernel's descriptor); fails for a function the front end did not compile as a kernel.
cudaError_t set_kernel(Node& n, const void* func, const unsigned* grid, const unsigned* block, std::size_t shared,
                       void** args, const char* call);
// A memalloc node's allocation: a fresh address that every launch of the graph reuses.
cudaError_t reserve_graph_allocation(Node& n, const char* call);
// The same for a node of `g` after `deps`: the address of an allocation of g that those
// dependencies have freed, when one is large enough and no other node of g allocates it (as
// CUDA reuses virtual addresses within a graph), else a fresh one.
cudaError_t place_graph_allocation(Node& n, const Graph& g, const cudaGraphNode_t* deps, std::size_t ndeps,
                                   const char* call);
// A copy of `g` (bodies too); `map` gets, for each node of g, its copy.
std::unique_ptr<Graph> clone_graph(const Graph& g, std::vector<std::pair<const Node*, Node*>>* map = nullptr);
// Runs the nodes of `g` in topological order (dependencies first, ties by index).
cudaError_t run_graph(const Graph& g);
// The nodes of `g` in that order; empty with ok false when the graph has a cycle.
std::vector<const Node*> topological_order(const Graph& g, bool* ok);

// cudaMemcpy3D of linear memory (cuda_host_peer.cpp).
cudaError_t copy_3d(const cudaMemcpy3DParms& p, const char* call);
// A cudaMemcpy3D with a CUDA array on one side (cuda_host_texture.cpp).
cudaError_t array_copy_3d(const cudaMemcpy3DParms* p);
// A memset node's fill: height rows of width elements of elementSize bytes.
cudaError_t fill_2d(const cudaMemsetParams& p);
// Graph allocations (cudaGraphAddMemAllocNode, a captured cudaMallocAsync): whether p is one;
// free_graph_allocation ends its use (a memfree node, cudaFree, cudaFreeAsync).
bool is_graph_allocation(const void* p);
std::size_t graph_allocation_bytes(const void* p);  // 0: not one
void use_graph_allocation(const void* p);
bool free_graph_allocation(const void* p);

// Stream capture (cuda_host_capture.cpp): non-null while s is captured; the operation is then
// recorded as `node` after the stream's current dependencies.
struct Capture;
Capture* capturing(cudaStream_t s);
cudaError_t capture(cudaStream_t s, std::unique_ptr<Node> node);
// Event record and wait while captured (a fork or join of captured streams); false: s is not
// being captured and e carries no capture, run them as usual.
bool capture_event_record(cudaEvent_t e, cudaStream_t s);
bool capture_event_wait(cudaStream_t s, cudaEvent_t e);
// The stream operations of the memory API as nodes of the captured stream s.
cudaError_t capture_copy_2d(cudaStream_t s, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                            std::size_t width, std::size_t height, cudaMemcpyKind kind);
cudaError_t capture_set_2d(cudaStream_t s, void* p, std::size_t pitch, int value, std::size_t width,
                           std::size_t height);
cudaError_t capture_malloc(cudaStream_t s, void** p, std::size_t bytes);
cudaError_t capture_free(cudaStream_t s, void* p);

}  // namespace tgsim::detail::cuda
