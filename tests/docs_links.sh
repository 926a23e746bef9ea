#!/bin/bash
# The manual's links resolve: every relative link and image in README.md and docs/*.md names a
# file or folder of the repository, and every #anchor (in the same file or in another .md file)
# names one of that file's headings, slugged as GitHub slugs them. Links inside fenced code blocks
# and inline code are not links. Also: the README stays a manual, at most 300 lines (issue 33).
#   tests/docs_links.sh [REPOSITORY ROOT]     (default: the folder above this script's)
# Exits 1 listing each broken link as FILE:LINE: LINK (why).
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
python3 - README.md docs/*.md <<'PY'
import os, re, sys, unicodedata
from urllib.parse import unquote

def strip_code(line):
    return re.sub(r"(`+)(?:(?!\1).)*\1", "", line)

def slug(title):
    # GitHub: drop markup, lower-case, keep letters, digits, '_', '-' and spaces, spaces -> '-'.
    title = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", title)
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    title = re.sub(r"<[^>]+>", "", title).strip().lower()
    out = []
    for ch in title:
        cat = unicodedata.category(ch)
        if ch in "-_ " or cat[0] in "LN" or cat == "Mn" or cat == "Mc":
            out.append("-" if ch == " " else ch)
    return "".join(out)

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, found, fence = {}, set(), None
        for line in open(path, encoding="utf-8"):
            m = re.match(r"\s*(```+|~~~+)", line)
            if m:
                fence = None if fence and m.group(1)[0] == fence else (fence or m.group(1)[0])
                continue
            if fence:
                continue
            h = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                s = slug(h.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
            for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
                found.add(a)
        anchors_cache[path] = found
    return anchors_cache[path]

link = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
broken = []
for md in sys.argv[1:]:
    fence = None
    for no, line in enumerate(open(md, encoding="utf-8"), 1):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            fence = None if fence and m.group(1)[0] == fence else (fence or m.group(1)[0])
            continue
        if fence:
            continue
        for target in link.findall(strip_code(line)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto: ...
            path, _, anchor = target.partition("#")
            path = unquote(path)
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if path and not os.path.exists(dest):
                broken.append(f"{md}:{no}: {target} (no file {dest})")
                continue
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if unquote(anchor).lower() not in anchors(dest):
                    broken.append(f"{md}:{no}: {target} (no heading #{anchor} in {dest})")
lines = sum(1 for _ in open("README.md", encoding="utf-8"))
if lines > 300:
    broken.append(f"README.md: {lines} lines, more than 300 (the rest belongs in docs/)")
for b in broken:
    print(b)
if broken:
    print(f"docs_links: {len(broken)} broken", file=sys.stderr)
    sys.exit(1)
print(f"docs_links: every link of README.md and docs/*.md resolves ({lines} README lines)")
PY
