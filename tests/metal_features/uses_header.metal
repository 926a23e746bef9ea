// Kernels defined in a header found through -I and instantiated here by host name.
#include "ops/scaled.h"
#include "ops/scaled.h"

template [[host_name("scaled_sum_int")]] [[kernel]] decltype(scaled_sum<int>) scaled_sum<int>;
