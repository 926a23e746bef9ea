"""tgsim for Python and pytest: a CUDA or Metal kernel file run on the CPU, with numpy arrays.

    r = tgsim.run("reduce.cu", "reduce", grid=64, block=256, args=[x, out, n])
    assert r.counters["shared.load.bank_conflicts"] == 0
    assert not r.findings

run() does what `tgsim run FILE --kernel K --grid G --block B ARG...` does (the file compiled
through tgsim's cache, each argument bound to the kernel's parameter by its C type, the report of
`--json`); check() what `tgsim check FILE ...` does (the checker on, under each schedule). A
pointer parameter takes a C-contiguous numpy array of its element type (float* a float32 array,
unsigned int* a uint32 array, float4* a float32 array of 4 x N values); its bytes are copied in
before the launch and the kernel's results copied back into it after. A scalar parameter takes
a Python int or float. Errors: TypeError for an argument of the wrong kind, ValueError for a bad
value (tgsim's usage errors), CompileError, LaunchError and Error with the message tgsim prints.
"""
import json
import numbers

import numpy as np

from ._tgsim import CompileError, Error, LaunchError, toolchain
from . import _tgsim

__all__ = ["run", "check", "toolchain", "Result", "Site", "Finding", "Error", "CompileError", "LaunchError"]

# numpy dtypes as tgsim's ARG element types (tgsim run FILE TYPE[COUNT]).
_ELEMENT = {np.dtype(t): name for t, name in [
    (np.int8, "char"), (np.uint8, "uchar"), (np.int16, "short"), (np.uint16, "ushort"),
    (np.int32, "int"), (np.uint32, "uint"), (np.int64, "long"), (np.uint64, "ulong"),
    (np.float32, "float"), (np.float64, "double"), (np.bool_, "bool")]}
_NUMPY = {name: str(dtype) for dtype, name in _ELEMENT.items()}
# An integer parameter's width (the pass's type) as the ARG types of a negative and other value.
_INTEGER = {"i1": ("char", "uchar"), "i8": ("char", "uchar"), "i16": ("short", "ushort"),
            "i32": ("int", "uint"), "i64": ("long", "ulong")}


def _dim(value, what):
    """An int or a tuple of 1 to 3 ints as tgsim's "X[,Y[,Z]]"."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (tuple, list)) and 1 <= len(value) <= 3 and all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in value):
        return ",".join(str(int(v)) for v in value)
    raise TypeError(f"{what} must be an int or a tuple of 1 to 3 ints, not {value!r}")


def _vector(arg_type):
    """'float4' -> ('float', 4); 'float' -> ('float', 1)."""
    if arg_type and arg_type[-1] in "234":
        return arg_type[:-1], int(arg_type[-1])
    return arg_type, 1


def _buffer(value, param, label):
    """A numpy array for a pointer parameter: its ARG text (TYPE[COUNT]=0, the bytes copied in)."""
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{label} is a pointer: give a numpy array, not {type(value).__name__}")
    element = _ELEMENT.get(value.dtype)
    if element is None:
        raise TypeError(f"{label}: numpy {value.dtype} arrays are not taken "
                        f"(int8 to uint64, float32, float64, bool)")
    if not value.flags.c_contiguous:
        raise TypeError(f"{label}: the array is not C-contiguous (numpy.ascontiguousarray makes one that is)")
    if value.size == 0:
        raise ValueError(f"{label}: the array is empty")
    want, count = param["arg_type"], value.size
    if want == "*":
        raise TypeError(f"{label} is a pointer to pointers: no array can fill it")
    if want and want != element:
        base, lanes = _vector(want)
        if base != element or lanes == 1 or value.size % lanes:
            wanted = _NUMPY.get(base, base) + (f" (a multiple of {lanes} values)" if lanes > 1 else "")
            raise TypeError(f"{label} wants a numpy {wanted} array, not {value.dtype}")
        element, count = want, value.size // lanes
    return f"{element}[{count}]=0"


def _scalar(value, param, label):
    """A Python int or float for a scalar parameter: its ARG text (TYPE:VALUE)."""
    kind = param["type"]
    if isinstance(value, np.ndarray):
        raise TypeError(f"{label} is a scalar: give an int or a float, not an array")
    if kind in ("f32", "f64"):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{label} is a floating-point scalar: give a float, not {type(value).__name__}")
        return ("float" if kind == "f32" else "double") + ":" + repr(float(value))
    if kind in _INTEGER:
        if not isinstance(value, numbers.Integral):
            raise TypeError(f"{label} is an integer scalar: give an int, not {type(value).__name__}")
        signed, unsigned = _INTEGER[kind]
        return f"{signed if int(value) < 0 else unsigned}:{int(value)}"
    raise TypeError(f"{label} is a struct passed by value, which tgsim.run does not take from Python "
                    f"(the command does: tgsim run FILE ... struct:FILE.bin)")


def _bind(kernel, args):
    """The ARG texts of the arguments and the arrays bound, by parameter index."""
    params = kernel["params"]
    text = ", ".join((p["c_type"] or p["type"]) + (" " + p["name"] if p["name"] else "") for p in params)
    if len(args) != len(params):
        raise TypeError(f"{kernel['name']} takes {len(params)} argument(s), {len(args)} given: "
                        f"{kernel['name']}({text})")
    texts, arrays = [], {}
    for i, (value, param) in enumerate(zip(args, params)):
        label = f"args[{i}] ({(param['c_type'] or param['type'])} {param['name']})".replace(" )", ")")
        if param["type"] == "ptr":
            texts.append(_buffer(value, param, label))
            arrays[i] = value
        else:
            texts.append(_scalar(value, param, label))
    return texts, arrays


def _options(file, kernel, grid, block, args, shared, threads, schedule, threads_in_grid, cache_model,
             profile, include_dirs, defines, constants, stack):
    o = {"file": str(file), "kernel": kernel or "", "grid": _dim(grid, "grid") if grid is not None else "",
         "block": _dim(block, "block"),
         "threads_in_grid": _dim(threads_in_grid, "threads_in_grid") if threads_in_grid is not None else "",
         "shared": int(shared), "stack": str(stack) if stack else "", "args": [],
         "include_dirs": [str(d) for d in include_dirs], "defines": list(defines), "constants": list(constants),
         "threads": int(threads), "schedule": schedule, "cache_model": bool(cache_model), "profile": profile}
    o["args"], arrays = _bind(_tgsim.params(o), list(args))
    return o, arrays


class Site:
    """One source site's counters: file, line, column, kind ("shared.load", ...) and counters,
    a dict of its counts ("wavefronts", "bank_conflicts", "sectors", ...) as `--json` names them."""

    def __init__(self, site):
        self.file, self.line, self.column, self.kind = site["file"], site["line"], site["column"], site["kind"]
        self.counters = {k: v for k, v in site.items() if k not in ("file", "line", "column", "kind", "also_line")}

    def __repr__(self):
        return f"Site({self.file}:{self.line}:{self.column} {self.kind} {self.counters})"


class Finding:
    """One finding: kind ("out-of-bounds", "raw-hazard", ...), message, file, line, and the first
    thread and block (tuples x, y, z) that showed it; the other fields of `--json` as attributes."""

    def __init__(self, finding):
        for key, value in finding.items():
            setattr(self, key, tuple(value) if key in ("block", "thread", "block2", "thread2") else value)

    def __repr__(self):
        return f"Finding({self.kind} at {self.file}:{self.line}, block {self.block}, thread {self.thread})"


def _flatten(tree, prefix=""):
    out = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(_flatten(value, prefix + key + "."))
        else:
            out[prefix + key] = value
    return out


class Result:
    """A launch's report. counters: {"global.load.sectors": 2048, "shared.load.bank_conflicts": 0,
    ...} (the counters of `--json`, their paths joined by dots); sites: [Site]; findings: [Finding];
    estimate: the JSON report's estimate, None where it has none; report: the whole `--json` object."""

    def __init__(self, report):
        self.report = report
        self.kernel, self.signature = report["kernel"], report.get("signature", "")
        self.counters = _flatten(report["counters"])
        self.sites = [Site(s) for s in report["sites"]]
        self.findings = [Finding(f) for f in report["findings"]]
        self.estimate = report.get("estimate")
        self.printed = report.get("printed", "")
        self.notes = report.get("notes", [])
        self.clean = report.get("clean", not self.findings)

    def site(self, where, kind=None):
        """The sites at "file:line" (file may be a suffix: "reduce.cu:15"), of `kind` ("shared.load", "global.store", ...) if given."""
        file, _, line = where.rpartition(":")
        return [s for s in self.sites if s.file.endswith(file) and s.line == int(line) and kind in (None, s.kind)]

    def __repr__(self):
        return f"Result({self.signature or self.kernel}: {len(self.findings)} finding(s))"


def run(file, kernel=None, *, grid=None, block, args=(), shared=0, threads=0, schedule="in-order",
        threads_in_grid=None, cache_model=True, profile="nvidia-h100", include_dirs=(), defines=(),
        constants=(), stack=None):
    """Runs `kernel` of `file` (.cu or .metal; the file's only kernel when None) on `grid`
    threadgroups of `block` threads, as `tgsim run FILE --json`. The arrays in `args` hold the
    kernel's results afterwards. threads: worker threads (0: all cores); shared: bytes of
    dynamic shared memory; schedule: "in-order", "reverse" or "shuffle[:SEED]"."""
    o, arrays = _options(file, kernel, grid, block, args, shared, threads, schedule, threads_in_grid,
                         cache_model, profile, include_dirs, defines, constants, stack)
    return Result(json.loads(_tgsim.run(o, arrays)))


def check(file, kernel=None, *, grid=None, block, args=(), shared=0, threads=0, schedule="both",
          threads_in_grid=None, profile="nvidia-h100", include_dirs=(), defines=(), constants=(), stack=None):
    """Runs `kernel` with the checker under each schedule ("both": in-order and reverse;
    "shuffle:N" ...), as `tgsim check FILE --json`: findings are the union of the schedules'
    (each with .schedules), clean is False on a finding or a result that depends on the schedule.
    The arrays hold the first schedule's results afterwards."""
    o, arrays = _options(file, kernel, grid, block, args, shared, threads, schedule, threads_in_grid,
                         True, profile, include_dirs, defines, constants, stack)
    return Result(json.loads(_tgsim.check(o, arrays)))
