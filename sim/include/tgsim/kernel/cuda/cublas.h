// <cublas.h>: tgsim's cuBLAS is the v2 API (cublas_v2.h); the legacy handle-less API is not modelled.
#pragma once
#include "cublas_v2.h"
