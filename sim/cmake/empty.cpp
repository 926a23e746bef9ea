// tgsim_add_cuda_executable's main() is in the user's .cu file.
