#!/usr/bin/env python3
"""Dump an .ncu-rep report through Nsight Compute's own Python module (ncu_report).

    PYTHONPATH=<ncu install>/extras/python python3 ncu_report_dump.py report.ncu-rep [METRIC...]

Prints JSON: one entry per profiled kernel, in profile order, with the mangled name, the
scalar value of each requested metric (and launch__*), and for instanced metrics (such as
sass__inst_executed_per_opcode) every instance as {label: value}, labels taken from the
correlation ids. Best effort: ncu_to_json.py falls back on the CSV export when this fails.
Only the standard library and ncu_report are used.
"""
import json
import sys


def value_of(metric, index=None):
    """The metric's value (or instance `index`) as int/float/str."""
    getters = []
    kind = None
    try:
        kind = metric.kind()
    except Exception:
        pass
    try:
        import ncu_report
        if kind == ncu_report.IMetric.ValueKind_STRING:
            getters.append("as_string")
    except Exception:
        pass
    getters += ["as_uint64", "as_double", "as_string"]
    for g in getters:
        try:
            fn = getattr(metric, g)
            v = fn() if index is None else fn(index)
        except Exception:
            continue
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        return v
    return None


def label_of(ids, i):
    for g in ("as_string", "as_uint64"):
        try:
            v = getattr(ids, g)(i)
        except Exception:
            continue
        if v is not None and v != "":
            return str(v)
    return str(i)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    import ncu_report

    wanted = set(sys.argv[2:])
    report = ncu_report.load_report(sys.argv[1])
    out = []
    for ri in range(report.num_ranges()):
        rng = report.range_by_idx(ri)
        for ai in range(rng.num_actions()):
            action = rng.action_by_idx(ai)
            entry = {"range": ri, "action": ai}
            for key, base in (("mangled", "NameBase_MANGLED"), ("function", "NameBase_FUNCTION"),
                              ("demangled", "NameBase_DEMANGLED")):
                try:
                    entry[key] = action.name(getattr(ncu_report.IAction, base))
                except Exception:
                    try:
                        entry.setdefault("name", action.name())
                    except Exception:
                        pass
            metrics = {}
            instances = {}
            for name in sorted(action.metric_names()):
                base = name.split(".")[0]
                if wanted and name not in wanted and base not in wanted and not name.startswith("launch__"):
                    continue
                m = action[name]
                metrics[name] = value_of(m)
                try:
                    count = m.num_instances()
                except Exception:
                    count = 0
                if count:
                    inst = {}
                    try:
                        ids = m.correlation_ids() if m.has_correlation_ids() else None
                    except Exception:
                        ids = None
                    for i in range(count):
                        label = label_of(ids, i) if ids is not None else str(i)
                        inst[label] = value_of(m, i)
                    instances[name] = inst
            entry["metrics"] = metrics
            entry["instances"] = instances
            out.append(entry)
    json.dump({"kernels": out}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
