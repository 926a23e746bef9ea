#!/usr/bin/env bash
# Every C++, CUDA, Metal, CMake and Python code block of README.md, extracted and built or run
# against tgsim installed into a temporary prefix (what a reader does):
#  - a CMake block is a project's CMakeLists.txt (after cmake_minimum_required and project());
#    the C++ block right after it is the source its add_executable names, other files it names
#    come from tests/readme/ (the kernel files a reader has); the project is built and every
#    executable it makes is run (a GoogleTest binary: its tests must pass);
#  - any other C++ block is compiled against the installed headers;
#  - a CUDA or Metal block is compiled by `tgsim run` (the front end);
#  - a Python block is run (pytest when it defines test_ functions) with the tgsim module of the
#    build tree and tests/readme/'s files beside it; with no module built, the block is skipped
#    and the skip is printed.
# Usage: readme_blocks.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; echo "FAIL: install"; exit 1; }
tgsim=$work/prefix/bin/tgsim
# The blocks: NNN.LANG files, and NNN.after (the index of the CMake block a C++ block follows).
python3 - "$src/README.md" "$work/blocks" <<'PY'
import os, re, sys
text = open(sys.argv[1], encoding='utf-8').read().split('\n')
out = sys.argv[2]; os.makedirs(out)
langs = {'cpp': 'cpp', 'c++': 'cpp', 'cuda': 'cu', 'cu': 'cu', 'metal': 'metal', 'cmake': 'cmake',
         'python': 'py', 'py': 'py'}
i, n, last_end, last_cmake = 0, 0, -10, None
while i < len(text):
    m = re.match(r'^```\s*([A-Za-z+]*)\s*$', text[i])
    if not m:
        i += 1
        continue
    j = i + 1
    while j < len(text) and not text[j].startswith('```'):
        j += 1
    lang = langs.get(m.group(1).lower())
    if lang:
        name = os.path.join(out, '%03d.%s' % (n, lang))
        open(name, 'w').write('\n'.join(text[i + 1:j]) + '\n')
        if lang == 'cpp' and last_cmake is not None and last_end == i - 1:
            open(os.path.join(out, '%03d.after' % n), 'w').write(last_cmake)
        last_cmake = '%03d' % n if lang == 'cmake' else None
        n += 1
    last_end = j
    i = j + 1
print('%d block(s) of C++, CUDA, Metal, CMake or Python' % n)
PY
cd "$work/blocks" || exit 1
for f in $(ls | grep -v '\.after$'); do
  id=${f%%.*} lang=${f#*.}
  case $lang in
    cmake)
      p=$work/project_$id
      mkdir -p "$p"
      { echo "cmake_minimum_required(VERSION 3.25)"; echo "project(readme_$id LANGUAGES CXX)"; cat "$f"; } >"$p/CMakeLists.txt"
      cpp=$(grep -l "^$id\$" ./*.after 2>/dev/null | head -1)
      for name in $(grep -oE '[A-Za-z0-9_./-]+\.(cpp|cu|metal)' "$f" | sort -u); do
        if [ -n "$cpp" ] && [ "${name##*.}" = cpp ]; then cp "${cpp%.after}.cpp" "$p/$name"
        elif [ -f "$src/tests/readme/$name" ]; then cp "$src/tests/readme/$name" "$p/$name"
        else echo "FAIL: block $id names $name, which no block or tests/readme/ holds"; fail=1; fi
      done
      if cmake -S "$p" -B "$p/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >"$p/log" 2>&1 &&
         cmake --build "$p/build" >>"$p/log" 2>&1; then
        for exe in $(grep -oE 'add_executable\(\s*[A-Za-z0-9_]+' "$f" | sed 's/.*(\s*//'); do
          if "$p/build/$exe" >"$p/run.log" 2>&1; then echo "ok: block $id (CMake) built, $exe ran"
          else cat "$p/run.log"; echo "FAIL: block $id: $exe failed"; fail=1; fi
        done
      else
        tail -40 "$p/log"; echo "FAIL: block $id (CMake) did not build"; fail=1
      fi
      ;;
    cpp)
      [ -f "$id.after" ] && continue  # built with its CMake block
      if g++ -std=c++20 -fsyntax-only -I"$work/prefix/include" "$f" 2>"$id.log"; then echo "ok: block $id (C++) compiles"
      else cat "$id.log"; echo "FAIL: block $id (C++) does not compile"; fail=1; fi
      ;;
    cu|metal)
      "$tgsim" run "$f" --grid 1 --block 1 >"$id.log" 2>&1
      if grep -q "did not compile" "$id.log"; then cat "$id.log"; echo "FAIL: block $id ($lang) does not compile"; fail=1
      else echo "ok: block $id ($lang) compiles"; fi
      ;;
    py)
      mod=$(find "$build" -name 'tgsim*.so' -path '*python*' 2>/dev/null | head -1)
      if [ -z "$mod" ]; then
        echo "SKIPPED: block $id (Python): no tgsim Python module in the build tree"
        continue
      fi
      run=(python3 "$f")
      grep -q "^def test_" "$f" && python3 -c "import pytest" 2>/dev/null && run=(python3 -m pytest -q "$f")
      cp "$src"/tests/readme/* .
      if PYTHONPATH="$(dirname "$mod"):${PYTHONPATH:-}" "${run[@]}" >"$id.log" 2>&1; then echo "ok: block $id (Python) ran"
      else cat "$id.log"; echo "FAIL: block $id (Python) failed"; fail=1; fi
      ;;
  esac
done
[ $fail = 0 ] && echo "PASS: README code blocks" || exit 1
