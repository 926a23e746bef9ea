// The buffers of a front-end kernel's launch from its descriptor (kernel_args.cpp):
// kernel_arg_spans, declared in the command's interface (tgsim/internal/launch.hpp).
#pragma once
#include <tgsim/internal/launch.hpp>
