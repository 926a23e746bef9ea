// A struct parameter's ARG given field by field, {NAME=VALUE,...}: laid out from the fields the
// pass recorded from the kernel's debug info (tgsim_param_desc::fields in abi.h).
#pragma once
#include <string>
#include <vector>

#include <tgsim/kernel/abi.h>

namespace tgsim::cli {

// The struct's bytes (p.bytes, padding zero) from ARG `arg` ("{n=3,s=1.5,v=[1,2,3]}");
// `param` names the parameter in errors ("parameter 0 (Params p)"). Every field must be given
// once; an unknown field, a missing one, a value that does not fit its field's type, an array
// of another length, or a field no ARG can give (a bit-field, an array of structs) is a
// UsageError naming it.
std::vector<unsigned char> struct_from_fields(const std::string& arg, const tgsim_param_desc& p,
                                              const std::string& param);

}  // namespace tgsim::cli
