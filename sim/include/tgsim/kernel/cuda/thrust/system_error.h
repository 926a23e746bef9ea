// <thrust/system_error.h>: tgsim's thrust subset, all of it (detail/all.h; written for tgsim).
#pragma once
#include "detail/all.h"
