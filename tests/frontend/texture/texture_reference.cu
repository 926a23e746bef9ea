// A CUDA 11 texture reference, which CUDA 12 removed: tgsim-nvcc must say so in one line
// (tests/CMakeLists.txt), not with a page of errors about tgsim's headers.
texture<float, 2, cudaReadModeElementType> tex_ref;

__global__ void old_style(float* out) { out[threadIdx.x] = tex2D(tex_ref, threadIdx.x + 0.5f, 0.5f); }

int main() { return 0; }
