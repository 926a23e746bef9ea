// A kernel written with tabs, a long name and long lines (tests/frontend/source_layout/source_layout_test.sh).
__global__ void a_kernel_with_a_rather_long_descriptive_name_for_the_listing(const float* in, float* out, int n) {
	__shared__ float tile[32][32];
	int tx = threadIdx.x, ty = threadIdx.y;
	for (int r = 0; r < 32; ++r) {
		tile[tx][r] = in[(blockIdx.x * 32 + r) * 32 + tx] * 2.0f + in[(blockIdx.x * 32 + r) * 32 + tx] * 3.0f;
	}
	__syncthreads();
	if (ty == 0)	out[blockIdx.x * 32 + tx] = tile[tx][0] + tile[0][tx] + tile[tx][1] + tile[1][tx] + tile[tx][2] + tile[2][tx];
}
