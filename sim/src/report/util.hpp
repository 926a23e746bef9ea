// The text helpers (numbers, paths, XML escapes) live in the command's interface, which the
// library shares (tgsim/internal/text.hpp).
#pragma once
#include <tgsim/internal/text.hpp>
