// CUDA graphs as a program builds them (cuda_graph.h): nodes and their dependencies. A node
// copies what it needs when it is added (a kernel's argument values, as cudaGraphAddKernelNode
// copies them); a memalloc node gets its address then, and every launch reuses it.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "cuda_runtime/cuda_host_graph.hpp"
#include "cuda_runtime/cuda_host_internal.hpp"
#include "frontend/modules.hpp"

using namespace tgsim::detail;
using namespace tgsim::detail::cuda;

namespace tgsim::detail::cuda {

Node* add_node(Graph& g, std::unique_ptr<Node> node, const cudaGraphNode_t* deps, std::size_t ndeps) {
  node->owner = &g;
  node->index = static_cast<unsigned>(g.nodes.size());
  for (std::size_t i = 0; i < ndeps; ++i)
    if (deps[i] && std::find(node->deps.begin(), node->deps.end(), node_of(deps[i])) == node->deps.end())
      node->deps.push_back(node_of(deps[i]));
  g.nodes.push_back(std::move(node));
  return g.nodes.back().get();
}

cudaError_t set_kernel(Node& n, const void* func, const unsigned* grid, const unsigned* block, std::size_t shared,
                       void** args, const char* call) {
  const KernelRef k = find_kernel(func);
  if (!k.kernel)
    return fail(cudaErrorInvalidDeviceFunction,
                std::string(call) + ": a function that tgsim's front end did not compile as a __global__ kernel");
  if (k.kernel->nparams && !args)
    return fail(cudaErrorInvalidValue, std::string(call) + ": kernelParams is null for " + k.kernel->name);
  n.type = cudaGraphNodeTypeKernel;
  n.func = func;
  std::copy(grid, grid + 3, n.grid);
  std::copy(block, block + 3, n.block);
  n.shared = shared;
  n.args.assign(k.kernel->nparams, {});
  for (unsigned i = 0; i < k.kernel->nparams; ++i) {
    const auto* v = static_cast<const unsigned char*>(args[i]);
    n.args[i].assign(v, v + k.kernel->params[i].bytes);
  }
  return cudaSuccess;
}

cudaError_t place_graph_allocation(Node& n, const Graph& g, const cudaGraphNode_t* deps, std::size_t ndeps,
                                   const char* call) {
  // The nodes before the new one: its dependencies and theirs.
  std::set<const Node*> before;
  std::vector<const Node*> todo;
  for (std::size_t i = 0; i < ndeps; ++i) todo.push_back(node_of(deps[i]));
  while (!todo.empty()) {
    const Node* x = todo.back();
    todo.pop_back();
    if (x && before.insert(x).second) todo.insert(todo.end(), x->deps.begin(), x->deps.end());
  }
  // Per address: allocations and frees of g before the node, and allocations not before it.
  struct Uses {
    int allocs = 0, frees = 0;
    bool elsewhere = false;
  };
  std::map<void*, Uses> uses;
  for (const auto& x : g.nodes) {
    const bool earlier = before.count(x.get()) != 0;
    if (x->type == cudaGraphNodeTypeMemAlloc) earlier ? ++uses[x->dptr].allocs : (uses[x->dptr].elsewhere = true, 0);
    if (x->type == cudaGraphNodeTypeMemFree && earlier) ++uses[x->dptr].frees;
  }
  for (const auto& [address, u] : uses)
    if (u.allocs > 0 && u.allocs == u.frees && !u.elsewhere && graph_allocation_bytes(address) >= n.bytes) {
      n.dptr = address;
      return cudaSuccess;
    }
  return reserve_graph_allocation(n, call);
}

std::unique_ptr<Graph> clone_graph(const Graph& g, std::vector<std::pair<const Node*, Node*>>* map) {
  auto out = std::make_unique<Graph>();
  out->handles = g.handles;
  std::map<const Node*, Node*> to;
  for (const auto& n : g.nodes) {
    auto c = std::make_unique<Node>();
    // Every field but the owned bodies and the dependencies copies as it is.
    c->type = n->type, c->func = n->func, c->shared = n->shared, c->args = n->args;
    std::copy(n->grid, n->grid + 3, c->grid);
    std::copy(n->block, n->block + 3, c->block);
    c->copy = n->copy, c->set = n->set, c->host = n->host, c->event = n->event, c->dptr = n->dptr;
    c->bytes = n->bytes, c->cond = n->cond, c->cond_type = n->cond_type;
    for (const auto& b : n->bodies) c->bodies.push_back(clone_graph(*b));
    for (const auto& b : c->bodies) c->body_handles.push_back(handle_of(b.get()));
    Node* added = add_node(*out, std::move(c), nullptr, 0);
    to[n.get()] = added;
    if (map) map->emplace_back(n.get(), added);
  }
  // A dependency may point at a later node (cudaGraphAddDependencies): after every copy exists.
  for (const auto& n : g.nodes)
    for (const Node* d : n->deps) to.at(n.get())->deps.push_back(to.at(d));
  return out;
}

}  // namespace tgsim::detail::cuda

namespace {

// The checks every cudaGraphAdd*Node makes: a graph, a place for the node, dependencies of it.
cudaError_t check_add(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                      const char* call) {
  if (!node || !graph) return fail(cudaErrorInvalidValue, std::string(call) + ": null node or graph");
  if (ndeps && !deps) return fail(cudaErrorInvalidValue, std::string(call) + ": null dependencies");
  for (size_t i = 0; i < ndeps; ++i)
    if (!deps[i] || node_of(deps[i])->owner != graph_of(graph))
      return fail(cudaErrorInvalidValue, std::string(call) + ": dependency " + std::to_string(i) +
                                             " is not a node of this graph");
  return cudaSuccess;
}

cudaError_t add(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                std::unique_ptr<Node> n) {
  *node = handle_of(add_node(*graph_of(graph), std::move(n), deps, ndeps));
  return cudaSuccess;
}

std::unique_ptr<Node> node(cudaGraphNodeType type) {
  auto n = std::make_unique<Node>();
  n->type = type;
  return n;
}

cudaError_t kernel_node(Node& n, const cudaKernelNodeParams& p, const char* call) {
  if (p.extra) return fail(cudaErrorNotSupported, std::string(call) + ": kernel arguments through `extra` are not "
                                                                      "supported by tgsim; use kernelParams");
  const unsigned g[3] = {p.gridDim.x, p.gridDim.y, p.gridDim.z}, b[3] = {p.blockDim.x, p.blockDim.y, p.blockDim.z};
  return set_kernel(n, p.func, g, b, p.sharedMemBytes, p.kernelParams, call);
}

cudaError_t conditional_node(Node& n, cudaConditionalNodeParams& p) {
  const unsigned bodies = p.type == cudaGraphCondTypeSwitch ? p.size : std::max(1u, p.size);
  if (p.type == cudaGraphCondTypeWhile && bodies != 1)
    return fail(cudaErrorInvalidValue, "cudaGraphAddNode: a WHILE conditional node has one body");
  if (p.type == cudaGraphCondTypeIf && bodies > 2)
    return fail(cudaErrorInvalidValue, "cudaGraphAddNode: an IF conditional node has one or two bodies");
  n.cond = nullptr;
  n.cond_type = p.type;
  for (unsigned i = 0; i < bodies; ++i) n.bodies.push_back(std::make_unique<Graph>());
  for (const auto& b : n.bodies) n.body_handles.push_back(handle_of(b.get()));
  return cudaSuccess;
}

}  // namespace

namespace {
// An event record or wait node (cudaGraphAddEventRecordNode, cudaGraphAddEventWaitNode).
cudaError_t add_event_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t ndeps,
                           cudaEvent_t event, cudaGraphNodeType type, const char* call) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, call)) return e;
  auto n = ::node(type);
  n->event = event;
  return add(node, graph, deps, ndeps, std::move(n));
}
}  // namespace

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned) {
  if (!graph) return fail(cudaErrorInvalidValue, "cudaGraphCreate: null graph pointer");
  *graph = handle_of(new Graph);
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  delete graph_of(graph);
  return cudaSuccess;
}
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (!clone || !original) return fail(cudaErrorInvalidValue, "cudaGraphClone: null graph");
  *clone = handle_of(clone_graph(*graph_of(original)).release());
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t ndeps, const cudaKernelNodeParams* p) {
  const char* call = "cudaGraphAddKernelNode";
  if (cudaError_t e = check_add(node, graph, deps, ndeps, call)) return e;
  if (!p) return fail(cudaErrorInvalidValue, std::string(call) + ": null parameters");
  auto n = ::node(cudaGraphNodeTypeKernel);
  if (cudaError_t e = kernel_node(*n, *p, call)) return e;
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t ndeps, const cudaMemcpy3DParms* p) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddMemcpyNode")) return e;
  if (!p) return fail(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode: null parameters");
  auto n = ::node(cudaGraphNodeTypeMemcpy);
  n->copy = *p;
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t ndeps, void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  p.kind = kind;
  return cudaGraphAddMemcpyNode(node, graph, deps, ndeps, &p);
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                   size_t ndeps, const cudaMemsetParams* p) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddMemsetNode")) return e;
  if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
    return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode: null parameters or destination, or an elementSize "
                                       "other than 1, 2 or 4");
  auto n = ::node(cudaGraphNodeTypeMemset);
  n->set = *p;
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                 size_t ndeps, const cudaHostNodeParams* p) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddHostNode")) return e;
  if (!p || !p->fn) return fail(cudaErrorInvalidValue, "cudaGraphAddHostNode: null function");
  auto n = ::node(cudaGraphNodeTypeHost);
  n->host = *p;
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                  size_t ndeps) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddEmptyNode")) return e;
  return add(node, graph, deps, ndeps, ::node(cudaGraphNodeTypeEmpty));
}
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                       size_t ndeps, cudaGraph_t child) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddChildGraphNode")) return e;
  if (!child) return fail(cudaErrorInvalidValue, "cudaGraphAddChildGraphNode: null child graph");
  auto n = ::node(cudaGraphNodeTypeGraph);
  n->bodies.push_back(clone_graph(*graph_of(child)));  // a copy, as CUDA makes
  n->body_handles.push_back(handle_of(n->bodies.back().get()));
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                        size_t ndeps, cudaEvent_t event) {
  return add_event_node(node, graph, deps, ndeps, event, cudaGraphNodeTypeEventRecord, "cudaGraphAddEventRecordNode");
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t ndeps, cudaEvent_t event) {
  return add_event_node(node, graph, deps, ndeps, event, cudaGraphNodeTypeWaitEvent, "cudaGraphAddEventWaitNode");
}
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                     size_t ndeps, cudaMemAllocNodeParams* p) {
  const char* call = "cudaGraphAddMemAllocNode";
  if (cudaError_t e = check_add(node, graph, deps, ndeps, call)) return e;
  if (!p || !p->bytesize) return fail(cudaErrorInvalidValue, std::string(call) + ": null parameters or 0 bytes");
  auto n = ::node(cudaGraphNodeTypeMemAlloc);
  n->bytes = p->bytesize;
  if (cudaError_t e = place_graph_allocation(*n, *graph_of(graph), deps, ndeps, call)) return e;
  p->dptr = n->dptr;
  return add(node, graph, deps, ndeps, std::move(n));
}
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                    size_t ndeps, void* dptr) {
  if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddMemFreeNode")) return e;
  if (!is_graph_allocation(dptr))
    return fail(cudaErrorInvalidValue, "cudaGraphAddMemFreeNode: not the address of a graph's allocation");
  auto n = ::node(cudaGraphNodeTypeMemFree);
  n->dptr = dptr;
  return add(node, graph, deps, ndeps, std::move(n));
}

// cudaGraphAddNode: any kind of node from its parameters (CUDA 12.3+).
cudaError_t tgsim_cuda_graph_add_node(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps,
                                      size_t ndeps, cudaGraphNodeParams* p) {
  if (!p) return fail(cudaErrorInvalidValue, "cudaGraphAddNode: null parameters");
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k{p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes,
                                   p->kernel.kernelParams, p->kernel.extra};
      return cudaGraphAddKernelNode(node, graph, deps, ndeps, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphAddMemcpyNode(node, graph, deps, ndeps, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams s{p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize,
                               p->memset.width, p->memset.height};
      return cudaGraphAddMemsetNode(node, graph, deps, ndeps, &s);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h{p->host.fn, p->host.userData};
      return cudaGraphAddHostNode(node, graph, deps, ndeps, &h);
    }
    case cudaGraphNodeTypeGraph: return cudaGraphAddChildGraphNode(node, graph, deps, ndeps, p->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(node, graph, deps, ndeps);
    case cudaGraphNodeTypeWaitEvent: return cudaGraphAddEventWaitNode(node, graph, deps, ndeps, p->eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphAddEventRecordNode(node, graph, deps, ndeps, p->eventRecord.event);
    case cudaGraphNodeTypeMemAlloc: {
      cudaMemAllocNodeParams a{p->alloc.poolProps, p->alloc.accessDescs, p->alloc.accessDescCount,
                               p->alloc.bytesize, nullptr};
      const cudaError_t e = cudaGraphAddMemAllocNode(node, graph, deps, ndeps, &a);
      p->alloc.dptr = a.dptr;
      return e;
    }
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(node, graph, deps, ndeps, p->free.dptr);
    case cudaGraphNodeTypeConditional: {
      if (cudaError_t e = check_add(node, graph, deps, ndeps, "cudaGraphAddNode")) return e;
      auto* c = reinterpret_cast<Conditional*>(p->conditional.handle);
      std::shared_ptr<Conditional> handle;
      for (const auto& h : graph_of(graph)->handles)
        if (h.get() == c) handle = h;
      if (!handle)
        return fail(cudaErrorInvalidValue, "cudaGraphAddNode: the conditional handle was not made for this graph "
                                           "(cudaGraphConditionalHandleCreate)");
      auto n = ::node(cudaGraphNodeTypeConditional);
      if (cudaError_t e = conditional_node(*n, p->conditional)) return e;
      n->cond = handle;
      Node* added = add_node(*graph_of(graph), std::move(n), deps, ndeps);
      p->conditional.phGraph_out = added->body_handles.data();
      *node = handle_of(added);
      return cudaSuccess;
    }
    default:
      return fail(cudaErrorNotSupported, "cudaGraphAddNode: node type " + std::to_string(p->type) +
                                             " (external semaphores) is not supported by tgsim");
  }
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t n) {
  if (!graph || (n && (!from || !to))) return fail(cudaErrorInvalidValue, "cudaGraphAddDependencies: null argument");
  for (size_t i = 0; i < n; ++i) {
    Node* a = node_of(from[i]);
    Node* b = node_of(to[i]);
    if (!a || !b || a->owner != graph_of(graph) || b->owner != graph_of(graph))
      return fail(cudaErrorInvalidValue, "cudaGraphAddDependencies: a node that is not in this graph");
    if (std::find(b->deps.begin(), b->deps.end(), a) == b->deps.end()) b->deps.push_back(a);
  }
  return cudaSuccess;
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* handle, cudaGraph_t graph,
                                             unsigned default_value, unsigned flags) {
  if (!handle || !graph) return fail(cudaErrorInvalidValue, "cudaGraphConditionalHandleCreate: null argument");
  auto c = std::make_shared<Conditional>();
  c->default_value = c->value = default_value;
  c->assign_default = (flags & cudaGraphCondAssignDefault) != 0;
  graph_of(graph)->handles.push_back(c);
  *handle = reinterpret_cast<cudaGraphConditionalHandle>(c.get());
  return cudaSuccess;
}

// The conditional handle's value, set by a kernel (cudaGraphSetConditional): the handle is
// the address of its Conditional, which the graph and its execs keep alive.
void tgsim_cuda_graph_set_conditional(cudaGraphConditionalHandle handle, unsigned value) {
  if (handle) reinterpret_cast<Conditional*>(handle)->value = value;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph || !count) return fail(cudaErrorInvalidValue, "cudaGraphGetNodes: null argument");
  const auto& all = graph_of(graph)->nodes;
  if (nodes)
    for (size_t i = 0; i < std::min(*count, all.size()); ++i) nodes[i] = handle_of(all[i].get());
  *count = all.size();
  return cudaSuccess;
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph || !count) return fail(cudaErrorInvalidValue, "cudaGraphGetRootNodes: null argument");
  size_t n = 0;
  for (const auto& node : graph_of(graph)->nodes)
    if (node->deps.empty()) {
      if (nodes && n < *count) nodes[n] = handle_of(node.get());
      ++n;
    }
  *count = n;
  return cudaSuccess;
}
cudaError_t tgsim_cuda_graph_get_edges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, size_t* count) {
  if (!graph || !count) return fail(cudaErrorInvalidValue, "cudaGraphGetEdges: null argument");
  size_t n = 0;
  for (const auto& node : graph_of(graph)->nodes)
    for (Node* d : node->deps) {
      if (from && to && n < *count) from[n] = handle_of(d), to[n] = handle_of(node.get());
      ++n;
    }
  *count = n;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (!node || !type) return fail(cudaErrorInvalidValue, "cudaGraphNodeGetType: null argument");
  *type = node_of(node)->type;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* p) {
  if (!node || !p || node_of(node)->type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeGetParams: not a kernel node");
  Node& n = *node_of(node);
  static thread_local std::vector<void*> args;  // valid until the next call, as the node's values are
  args.clear();
  for (auto& a : n.args) args.push_back(a.data());
  *p = cudaKernelNodeParams{const_cast<void*>(n.func), dim3(n.grid[0], n.grid[1], n.grid[2]),
                            dim3(n.block[0], n.block[1], n.block[2]), static_cast<unsigned>(n.shared), args.data(),
                            nullptr};
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  if (!node || !p || node_of(node)->type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeSetParams: not a kernel node");
  return kernel_node(*node_of(node), *p, "cudaGraphKernelNodeSetParams");
}

// The graph in Graphviz's dot language: one vertex per node (its type, a kernel's name), one
// edge per dependency.
cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned) {
  if (!graph || !path) return fail(cudaErrorInvalidValue, "cudaGraphDebugDotPrint: null argument");
  static const char* const kNames[] = {"kernel", "memcpy", "memset", "host", "graph", "empty", "wait_event",
                                       "event_record", "sem_signal", "sem_wait", "mem_alloc", "mem_free", "",
                                       "conditional"};
  std::ofstream out(path);
  if (!out) return fail(cudaErrorInvalidValue, std::string("cudaGraphDebugDotPrint: cannot write ") + path);
  out << "digraph cudaGraph {\n";
  for (const auto& n : graph_of(graph)->nodes) {
    std::string label = kNames[n->type];
    if (n->type == cudaGraphNodeTypeKernel)
      if (const KernelRef k = find_kernel(n->func); k.kernel) label += std::string(" ") + k.kernel->name;
    out << "  n" << n->index << " [label=\"" << n->index << ": " << label << "\"];\n";
    for (const Node* d : n->deps) out << "  n" << d->index << " -> n" << n->index << ";\n";
  }
  out << "}\n";
  return cudaSuccess;
}

}  // extern "C"
