# tgsim.run from pytest: numpy arrays in and out, counters, per-site counters, errors.
# PYTHONPATH is the build's python/ folder (tests/CMakeLists.txt registers this file).
import pathlib

import numpy as np
import pytest

import tgsim

HERE = pathlib.Path(__file__).parent


def shared_conflicts_oracle(block):
    """reduce.cu's bank conflicts per block, loads and stores, from the bank rule alone: a warp's
    4-byte shared access takes as many wavefronts as the most distinct words one of the 32 banks
    holds; a conflict is each wavefront past the first."""
    def conflicts(words):
        per_bank = {}
        for w in words:
            per_bank.setdefault(w % 32, set()).add(w)
        return max(len(v) for v in per_bank.values()) - 1
    loads = stores = 0
    step = 1
    while step < block:
        for warp in range(block // 32):
            index = [2 * step * t for t in range(warp * 32, warp * 32 + 32) if 2 * step * t < block]
            if index:  # s[index] and s[index + step] loaded, s[index] stored
                loads += conflicts(index) + conflicts([i + step for i in index])
                stores += conflicts(index)
        step *= 2
    return loads, stores


def test_vector_add_result_and_coalesced_counters():
    n = 4096
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    r = tgsim.run(HERE / "vector_add.cu", "vector_add", grid=n // 256, block=256, args=[a, b, c, n])
    np.testing.assert_array_equal(c, a + b)
    assert r.findings == []
    assert r.counters["global.load.sectors"] == 2 * n * 4 // 32  # two coalesced loads
    assert r.counters["global.store.sectors"] == n * 4 // 32
    assert r.counters["global.load.requests"] == 2 * n // 32
    (store,) = r.site("vector_add.cu:4", "global.store")
    assert store.counters["sectors"] == n * 4 // 32
    assert r.signature.startswith("vector_add(const float* a")


def test_reduce_sum_and_bank_conflicts():
    grid, block = 64, 256
    x = (np.arange(grid * block) % 7).astype(np.float32)
    out = np.zeros(grid, dtype=np.float32)
    r = tgsim.run(HERE / "reduce.cu", "reduce", grid=grid, block=block, args=[x, out, x.size])
    np.testing.assert_array_equal(out, x.reshape(grid, block).sum(axis=1))
    loads, stores = shared_conflicts_oracle(block)
    assert (loads, stores) == (70, 35)  # worked by hand in the kernel's comment's terms
    assert r.counters["shared.load.bank_conflicts"] == grid * loads
    assert r.counters["shared.store.bank_conflicts"] == grid * stores
    line10 = r.site("reduce.cu:10", "shared.load")
    assert sum(s.counters["bank_conflicts"] for s in line10) == grid * loads
    assert r.counters["barriers"] > 0


def test_grid_and_block_as_tuples_and_worker_count_agree():
    n = 64 * 64
    a = np.ones(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    one, two = np.zeros(n, dtype=np.float32), np.zeros(n, dtype=np.float32)
    r1 = tgsim.run(HERE / "vector_add.cu", grid=(16, 1), block=(256,), args=[a, b, one, n], threads=1)
    r2 = tgsim.run(HERE / "vector_add.cu", grid=16, block=256, args=[a, b, two, n], threads=2)
    assert r1.counters == r2.counters
    np.testing.assert_array_equal(one, two)


def test_arguments_of_the_wrong_kind_are_type_errors():
    n = 256
    f32 = np.zeros(n, dtype=np.float32)
    with pytest.raises(TypeError, match=r"args\[2\] \(float\* c\) wants a numpy float32 array, not float64"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=256, args=[f32, f32, np.zeros(n), n])
    with pytest.raises(TypeError, match=r"args\[3\] \(int n\) is an integer scalar: give an int, not float"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=256, args=[f32, f32, f32, 256.0])
    with pytest.raises(TypeError, match=r"args\[0\] \(const float\* a\) is a pointer: give a numpy array, not list"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=256, args=[[0.0] * n, f32, f32, n])
    with pytest.raises(TypeError, match=r"vector_add takes 4 argument\(s\), 3 given"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=256, args=[f32, f32, f32])
    with pytest.raises(TypeError, match=r"not C-contiguous"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=128, args=[f32[::2], f32, f32, 128])


def test_tgsim_errors_are_exceptions_with_tgsims_message():
    f32 = np.zeros(32, dtype=np.float32)
    with pytest.raises(tgsim.CompileError, match=r"(?s)broken.cu did not compile.*not_declared_anywhere"):
        tgsim.run(HERE / "broken.cu", grid=1, block=32, args=[f32])
    with pytest.raises(tgsim.LaunchError, match=r"launch error: .*block"):
        tgsim.run(HERE / "vector_add.cu", grid=1, block=(64, 64), args=[f32, f32, f32, 32])
    with pytest.raises(ValueError, match=r"no kernel 'nope' in .*vector_add.cu"):
        tgsim.run(HERE / "vector_add.cu", "nope", grid=1, block=32, args=[f32, f32, f32, 32])
    with pytest.raises(ValueError, match=r"bad --grid '0'"):
        tgsim.run(HERE / "vector_add.cu", grid=0, block=32, args=[f32, f32, f32, 32])
    with pytest.raises(ValueError, match=r"no such kernel file"):
        tgsim.run(HERE / "missing.cu", grid=1, block=32, args=[f32])


def test_vector_elements_from_flat_arrays():
    x = np.arange(4 * 128, dtype=np.float32)
    out = np.zeros_like(x)
    r = tgsim.run(HERE / "twice4.cu", grid=1, block=128, args=[x, out])
    np.testing.assert_array_equal(out, 2 * x)
    assert r.counters["global.load.thread_accesses"] == 128  # one float4 per thread
    assert r.counters["global.load.sectors"] == 128 * 16 // 32
    with pytest.raises(TypeError, match=r"wants a numpy float32 \(a multiple of 4 values\) array"):
        tgsim.run(HERE / "twice4.cu", grid=1, block=128, args=[x[:-1].copy(), out])


def test_metal_kernel_on_a_dispatch_threads_grid():
    x = np.arange(1000, dtype=np.float32)
    out = np.zeros_like(x)
    r = tgsim.run(HERE / "scale.metal", threads_in_grid=1000, block=256, args=[x, out, 1.5], profile="apple-m3")
    np.testing.assert_array_equal(out, 1.5 * x)
    assert r.counters["global.load.thread_accesses"] == 1000  # the 24 threads past the grid do not run
    assert r.findings == []


def test_the_report_is_the_commands_json(tmp_path):
    """tgsim.run's report is `tgsim run FILE --json`'s, for the same inputs (TGSIM_BIN: the command)."""
    import json, os, subprocess
    grid, block = 8, 256
    x = (np.arange(grid * block) % 5).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    out = np.zeros(grid, dtype=np.float32)
    r = tgsim.run(HERE / "reduce.cu", grid=grid, block=block, args=[x, out, x.size])
    cmd = [os.environ["TGSIM_BIN"], "run", str(HERE / "reduce.cu"), "--grid", str(grid), "--block", str(block),
           f"float[{x.size}]=@{tmp_path / 'x.bin'}", f"float[{grid}]=0", f"int:{x.size}", "--json"]
    report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    assert r.report == report
    assert r.counters == tgsim._flatten(report["counters"]) and len(r.counters) > 20
