# tgsim.check from pytest: the checker's findings as Python objects.
import pathlib

import numpy as np

import tgsim

HERE = pathlib.Path(__file__).parent


def test_out_of_bounds_read_is_a_finding_with_thread_block_and_line():
    n = 4 * 128
    x = np.arange(n, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    r = tgsim.check(HERE / "shift.cu", "shift", grid=4, block=128, args=[x, out, n])
    assert not r.clean
    (f,) = r.findings
    assert f.kind == "out-of-bounds"
    assert f.file.endswith("shift.cu") and f.line == 4
    assert f.block == (3, 0, 0) and f.thread == (127, 0, 0)
    assert "arg 0 (in)" in f.message
    assert f.schedules == ["in-order", "reverse"]
    np.testing.assert_array_equal(out[:-1], x[1:])  # the first schedule's results, copied back


def test_a_correct_kernel_is_clean_under_both_schedules():
    n = 1024
    a = np.arange(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    r = tgsim.check(HERE / "vector_add.cu", grid=4, block=256, args=[a, a, c, n])
    assert r.clean and r.findings == []
    assert r.report["schedules"] == ["in-order", "reverse"]
    np.testing.assert_array_equal(c, 2 * a)


def test_read_only_arrays_are_inputs():
    n = 256
    a = np.ones(n, dtype=np.float32)
    a.flags.writeable = False
    c = np.zeros(n, dtype=np.float32)
    r = tgsim.check(HERE / "vector_add.cu", grid=1, block=256, args=[a, a, c, n], schedule="in-order")
    assert r.clean
    np.testing.assert_array_equal(c, 2 * a)
