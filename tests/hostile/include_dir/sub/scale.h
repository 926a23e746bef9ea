// For the -I/-D tests: found only through -I tests/hostile/include_dir.
#pragma once
#ifndef SCALE
#define SCALE 1
#endif
