// Everything a host program needs: Device, LaunchConfig, Buffer, Report and the explicit
// kernel API (ThreadCtx). Kernels are plain CUDA or Metal files compiled by tgsim's front end.
#pragma once
#include <tgsim/atomic.hpp>
#include <tgsim/constant.hpp>
#include <tgsim/dim.hpp>
#include <tgsim/errors.hpp>
#include <tgsim/launch.hpp>
#include <tgsim/memory.hpp>
#include <tgsim/models.hpp>
#include <tgsim/profile.hpp>
#include <tgsim/report.hpp>
#include <tgsim/thread.hpp>
#include <tgsim/warp.hpp>
