// Instantiated CUDA graphs (cuda_graph.h): an exec is a copy of its graph as it was, with the
// order its nodes run in: dependencies first, ties in the order the nodes were added, so every
// launch runs the same sequence. A launch runs the whole graph before cudaGraphLaunch returns
// (streams are synchronous); on a captured stream it is recorded as a child graph instead.
// Graph allocations: a memalloc node's address is made when the node is added. Physical memory
// is modelled as CUDA's graph allocator keeps it: a launch that reaches the node backs its bytes
// (reusing memory that freed graph allocations left cached), a memfree node, cudaFree or
// cudaFreeAsync returns them to the cache, which stays associated with graphs (the footprint,
// cudaGraphMemAttrUsedMemCurrent) until cudaDeviceGraphMemTrim.
#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"

using namespace tgsim::detail::cuda;

namespace {

struct Exec {
  std::unique_ptr<Graph> graph;
  std::vector<const Node*> order;
  std::map<const Node*, Node*> from_original;  // the instantiated graph's nodes -> the copies
};
Exec* exec_of(cudaGraphExec_t e) { return reinterpret_cast<Exec*>(e); }

// The graph allocations: address -> bytes, and whether a launch has it in use now; the bytes
// backing allocations in use (live) and freed ones kept for reuse (cached).
struct GraphAllocs {
  std::mutex mu;
  std::map<const void*, std::pair<std::size_t, bool>> by_address;
  std::uint64_t live = 0, cached = 0, used_high = 0, reserved_high = 0;
  std::uint64_t used() const { return live + cached; }
};
GraphAllocs& graph_allocs() {
  static GraphAllocs a;
  return a;
}

// Each launch starts its conditional handles made with cudaGraphCondAssignDefault at their default.
void reset_handles(const Graph& g) {
  for (const auto& h : g.handles)
    if (h->assign_default) h->value = h->default_value;
  for (const auto& n : g.nodes)
    for (const auto& b : n->bodies) reset_handles(*b);
}

cudaError_t run_conditional(const Node& n) {
  const unsigned v = n.cond->value;
  switch (n.cond_type) {
    case cudaGraphCondTypeIf:
      if (v) return run_graph(*n.bodies[0]);
      return n.bodies.size() > 1 ? run_graph(*n.bodies[1]) : cudaSuccess;
    case cudaGraphCondTypeWhile:
      while (n.cond->value)
        if (cudaError_t e = run_graph(*n.bodies[0])) return e;
      return cudaSuccess;
    case cudaGraphCondTypeSwitch: return v < n.bodies.size() ? run_graph(*n.bodies[v]) : cudaSuccess;
  }
  return cudaSuccess;
}

cudaError_t run_node(const Node& n) {
  switch (n.type) {
    case cudaGraphNodeTypeKernel: {
      std::vector<void*> args;
      for (const auto& a : n.args) args.push_back(const_cast<unsigned char*>(a.data()));
      return tgsim_cuda_launch_kernel(n.func, n.grid, n.block, n.shared, args.data());
    }
    case cudaGraphNodeTypeMemcpy: return copy_3d(n.copy, "cudaGraphLaunch (a memcpy node)");
    case cudaGraphNodeTypeMemset: return fill_2d(n.set);
    case cudaGraphNodeTypeHost: n.host.fn(n.host.userData); return cudaSuccess;
    case cudaGraphNodeTypeGraph: return run_graph(*n.bodies[0]);
    case cudaGraphNodeTypeEventRecord: return cudaEventRecord(n.event, nullptr);
    case cudaGraphNodeTypeMemAlloc: use_graph_allocation(n.dptr); return cudaSuccess;
    case cudaGraphNodeTypeMemFree: free_graph_allocation(n.dptr); return cudaSuccess;
    case cudaGraphNodeTypeConditional: return run_conditional(n);
    default: return cudaSuccess;  // empty, event wait: the order alone
  }
}

}  // namespace

namespace tgsim::detail::cuda {

std::vector<const Node*> topological_order(const Graph& g, bool* ok) {
  // Kahn's algorithm, always taking the ready node added first.
  std::map<const Node*, std::size_t> waiting;
  std::map<const Node*, std::vector<const Node*>> users;
  for (const auto& n : g.nodes) {
    waiting[n.get()] = n->deps.size();
    for (const Node* d : n->deps) users[d].push_back(n.get());
  }
  std::map<unsigned, const Node*> ready;
  for (const auto& n : g.nodes)
    if (n->deps.empty()) ready.emplace(n->index, n.get());
  std::vector<const Node*> order;
  while (!ready.empty()) {
    const Node* n = ready.begin()->second;
    ready.erase(ready.begin());
    order.push_back(n);
    for (const Node* u : users[n])
      if (--waiting[u] == 0) ready.emplace(u->index, u);
  }
  *ok = order.size() == g.nodes.size();
  if (!*ok) order.clear();
  return order;
}

cudaError_t run_graph(const Graph& g) {
  bool ok = true;
  for (const Node* n : topological_order(g, &ok))
    if (cudaError_t e = run_node(*n)) return e;
  return ok ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaGraphLaunch: a graph with a cycle");
}

cudaError_t reserve_graph_allocation(Node& n, const char* call) {
  if (cudaError_t e = cudaMalloc(&n.dptr, n.bytes)) return fail(e, std::string(call) + ": out of memory");
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  a.by_address[n.dptr] = {n.bytes, false};
  return cudaSuccess;
}
std::size_t graph_allocation_bytes(const void* p) {
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  auto it = a.by_address.find(p);
  return it == a.by_address.end() ? 0 : it->second.first;
}
bool is_graph_allocation(const void* p) {
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  return a.by_address.count(p) != 0;
}
void use_graph_allocation(const void* p) {
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  auto it = a.by_address.find(p);
  if (it == a.by_address.end() || it->second.second) return;
  it->second.second = true;
  const std::uint64_t bytes = it->second.first, reused = std::min<std::uint64_t>(a.cached, bytes);
  a.cached -= reused;
  a.live += bytes;
  a.used_high = std::max(a.used_high, a.used());
  a.reserved_high = std::max(a.reserved_high, a.used());
}
bool free_graph_allocation(const void* p) {
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  auto it = a.by_address.find(p);
  if (it == a.by_address.end()) return false;
  if (it->second.second) a.live -= it->second.first, a.cached += it->second.first;
  it->second.second = false;
  return true;
}

}  // namespace tgsim::detail::cuda

extern "C" {

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, void*, char*, size_t) {
  return cudaGraphInstantiateWithFlags(exec, graph, 0);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (!exec || !graph) return fail(cudaErrorInvalidValue, "cudaGraphInstantiate: null exec or graph");
  auto x = std::make_unique<Exec>();
  std::vector<std::pair<const Node*, Node*>> map;
  x->graph = clone_graph(*graph_of(graph), &map);
  x->from_original.insert(map.begin(), map.end());
  bool ok = true;
  x->order = topological_order(*x->graph, &ok);
  if (!ok) return fail(cudaErrorInvalidValue, "cudaGraphInstantiate: the graph's dependencies form a cycle");
  *exec = reinterpret_cast<cudaGraphExec_t>(x.release());
  return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s) {
  if (!exec) return fail(cudaErrorInvalidValue, "cudaGraphLaunch: null exec");
  if (sticky_error() != cudaSuccess) return sticky_error();
  if (capturing(s)) {  // into the captured graph as a child graph
    auto n = std::make_unique<Node>();
    n->type = cudaGraphNodeTypeGraph;
    n->bodies.push_back(clone_graph(*exec_of(exec)->graph));
    n->body_handles.push_back(handle_of(n->bodies.back().get()));
    return capture(s, std::move(n));
  }
  reset_handles(*exec_of(exec)->graph);
  for (const Node* n : exec_of(exec)->order)
    if (cudaError_t e = run_node(*n)) return e;
  return cudaSuccess;
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  return exec ? cudaSuccess : fail(cudaErrorInvalidValue, "cudaGraphUpload: null exec");
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete exec_of(exec);
  return cudaSuccess;
}

}  // extern "C"

namespace {

// The exec's copy of `node` of the graph it was made from, of the type `type`.
Node* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type, const char* call) {
  if (!exec || !node) return fail(cudaErrorInvalidValue, std::string(call) + ": null exec or node"), nullptr;
  auto it = exec_of(exec)->from_original.find(node_of(node));
  if (it == exec_of(exec)->from_original.end() || it->second->type != type)
    return fail(cudaErrorInvalidValue, std::string(call) + ": not a node of the graph this exec was made from, "
                                                           "or a node of another type"),
           nullptr;
  return it->second;
}

// The exec update's check: the same nodes (types, kernels) with the same dependencies.
bool same_topology(const Graph& a, const Graph& b, cudaGraphExecUpdateResultInfo* info) {
  auto set = [&](cudaGraphExecUpdateResult r, const Node* n) {
    if (info) *info = {r, n ? handle_of(const_cast<Node*>(n)) : nullptr, nullptr};
    return false;
  };
  if (a.nodes.size() != b.nodes.size()) return set(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    const Node &x = *a.nodes[i], &y = *b.nodes[i];
    if (x.type != y.type) return set(cudaGraphExecUpdateErrorNodeTypeChanged, &y);
    if (x.deps.size() != y.deps.size()) return set(cudaGraphExecUpdateErrorTopologyChanged, &y);
    for (std::size_t d = 0; d < x.deps.size(); ++d)
      if (x.deps[d]->index != y.deps[d]->index) return set(cudaGraphExecUpdateErrorTopologyChanged, &y);
    if (x.type == cudaGraphNodeTypeKernel && x.func != y.func) return set(cudaGraphExecUpdateErrorFunctionChanged, &y);
    if (x.type == cudaGraphNodeTypeMemAlloc || x.type == cudaGraphNodeTypeMemFree || x.type == cudaGraphNodeTypeGraph ||
        x.type == cudaGraphNodeTypeConditional)
      if (x.dptr != y.dptr || x.bytes != y.bytes || x.bodies.size() != y.bodies.size())
        return set(cudaGraphExecUpdateErrorParametersChanged, &y);
  }
  return true;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  const char* call = "cudaGraphExecKernelNodeSetParams";
  Node* n = exec_node(exec, node, cudaGraphNodeTypeKernel, call);
  if (!n) return cudaErrorInvalidValue;
  if (!p || p->extra) return fail(cudaErrorInvalidValue, std::string(call) + ": null parameters, or `extra`");
  if (p->func != n->func)
    return fail(cudaErrorInvalidValue, std::string(call) + ": an exec's kernel node keeps its function");
  const unsigned g[3] = {p->gridDim.x, p->gridDim.y, p->gridDim.z}, b[3] = {p->blockDim.x, p->blockDim.y, p->blockDim.z};
  return set_kernel(*n, p->func, g, b, p->sharedMemBytes, p->kernelParams, call);
}
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
  Node* n = exec_node(exec, node, cudaGraphNodeTypeMemcpy, "cudaGraphExecMemcpyNodeSetParams");
  if (!n || !p) return cudaErrorInvalidValue;
  n->copy = *p;
  return cudaSuccess;
}
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemsetParams* p) {
  Node* n = exec_node(exec, node, cudaGraphNodeTypeMemset, "cudaGraphExecMemsetNodeSetParams");
  if (!n || !p) return cudaErrorInvalidValue;
  n->set = *p;
  return cudaSuccess;
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaHostNodeParams* p) {
  Node* n = exec_node(exec, node, cudaGraphNodeTypeHost, "cudaGraphExecHostNodeSetParams");
  if (!n || !p) return cudaErrorInvalidValue;
  n->host = *p;
  return cudaSuccess;
}
// The exec takes `graph`'s parameters when its topology is the exec's own.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
  if (!exec || !graph) return fail(cudaErrorInvalidValue, "cudaGraphExecUpdate: null exec or graph");
  Exec& x = *exec_of(exec);
  if (!same_topology(*x.graph, *graph_of(graph), info)) return cudaErrorGraphExecUpdateFailure;
  std::vector<std::pair<const Node*, Node*>> map;
  auto fresh = clone_graph(*graph_of(graph), &map);
  x.from_original.clear();
  for (auto& [original, copy] : map) x.from_original[original] = copy;
  bool ok = true;
  x.order = topological_order(*fresh, &ok);
  x.graph = std::move(fresh);
  if (info) *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
  return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (device != 0 || !value) return fail(cudaErrorInvalidValue, "cudaDeviceGetGraphMemAttribute: one device: 0");
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  const std::uint64_t v[] = {a.used(), a.used_high, a.used(), a.reserved_high};
  if (attr < 0 || attr > 3) return fail(cudaErrorInvalidValue, "cudaDeviceGetGraphMemAttribute: unknown attribute");
  *static_cast<std::uint64_t*>(value) = v[attr];
  return cudaSuccess;
}
// Resets a high-water mark to its current value (the value must be 0, as CUDA requires).
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (device != 0 || !value || *static_cast<std::uint64_t*>(value) != 0 ||
      (attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh))
    return fail(cudaErrorInvalidValue, "cudaDeviceSetGraphMemAttribute: only a high-water mark, reset to 0");
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  (attr == cudaGraphMemAttrUsedMemHigh ? a.used_high : a.reserved_high) = a.used();
  return cudaSuccess;
}
// The cached memory of freed graph allocations goes back; memory in use stays.
cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (device != 0) return fail(cudaErrorInvalidDevice, "cudaDeviceGraphMemTrim: one device: 0");
  GraphAllocs& a = graph_allocs();
  std::lock_guard lock(a.mu);
  a.cached = 0;
  return cudaSuccess;
}

}  // extern "C"
