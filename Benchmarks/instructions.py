#!/usr/bin/env python3
"""Count the instructions of a cold `catalog ingest`, to compare binaries on a noisy machine.

    python3 Benchmarks/instructions.py [--runs N] [--profiles N --apps M --ipas K] [BINARY ...]

Wall time on a shared machine moves by more than the few per cent one change saves; the number of
instructions a run executes does not (two runs of one binary differ by 0.04-0.2 %). Each BINARY (by
default .build/release/catalog, built first) ingests a small deterministic tree (make_tree.py;
1,000 profiles, 500 apps and 50 IPAs unless told otherwise) into a new catalogue under valgrind's
callgrind, `--runs` times, the binaries taking turns; the median count of each is printed, with
its ratio to the first binary's.

What the count does not see: time in the kernel (reads, writes) and how fast an instruction runs.
And under valgrind libcrypto cannot use the SHA and AVX instructions it uses natively, so SHA-256
and RSA are about a third of the count against a tenth of a real run's time: a saving elsewhere is
a larger share of the real time than of the count. glibc's large memcpy and memset are `rep movsb`
and `rep stosb`, which valgrind counts once per repetition: those look bigger than they are.
Confirm a change in wall time with bench.py.

Needs valgrind (Debian: apt-get install valgrind); without it the script says so and exits 2.
Python standard library only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def count(binary: str, tree: str, scratch: str) -> int:
    """The instructions callgrind counted for one cold ingest of `tree` by `binary`."""
    db = os.path.join(scratch, "catalog.sqlite")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    out = os.path.join(scratch, "callgrind.out")
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                             binary, "ingest", tree, "--db", db, "--quiet"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{binary} failed under valgrind (exit {result.returncode}):\n{result.stderr[-2000:]}")
    for line in result.stderr.splitlines():
        # "==123== Collected : 3820975358"
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1].strip())
    sys.exit(f"no instruction count in valgrind's output for {binary}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="*", help="catalog binaries to compare (default: build and use .build/release/catalog)")
    ap.add_argument("--runs", type=int, default=2, help="runs of each binary, taking turns (default 2)")
    ap.add_argument("--profiles", type=int, default=1000)
    ap.add_argument("--apps", type=int, default=500)
    ap.add_argument("--ipas", type=int, default=50)
    ap.add_argument("--workdir", default=os.path.join(REPO, ".build", "bench"), help="where the tree is kept")
    args = ap.parse_args()

    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        sys.exit(2)
    binaries = [os.path.abspath(b) for b in args.binaries]
    if not binaries:
        subprocess.run(["swift", "build", "-c", "release", "--product", "catalog"], cwd=REPO, check=True)
        binaries = [os.path.join(REPO, ".build", "release", "catalog")]

    tree = os.path.join(args.workdir, f"instructions-tree-p{args.profiles}-a{args.apps}-i{args.ipas}")
    if not os.path.isdir(tree):
        # Made beside it and renamed: an interrupted generation is not taken for a tree later.
        partial = tree + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        os.makedirs(args.workdir, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(HERE, "make_tree.py"), "--profiles", str(args.profiles),
                        "--apps", str(args.apps), "--ipas", str(args.ipas), partial],
                       check=True, stdout=subprocess.DEVNULL)
        os.rename(partial, tree)

    counts: dict[str, list[int]] = {b: [] for b in binaries}
    with tempfile.TemporaryDirectory(prefix="catalog-instructions-") as scratch:
        for run in range(args.runs):
            for binary in binaries:
                n = count(binary, tree, scratch)
                counts[binary].append(n)
                print(f"run {run + 1}: {binary}: {n:,} instructions", file=sys.stderr, flush=True)

    first = statistics.median(counts[binaries[0]])
    for binary in binaries:
        median = statistics.median(counts[binary])
        spread = (max(counts[binary]) - min(counts[binary])) / median * 100
        print(f"{median:>16,.0f}  {median / first:6.4f}  spread {spread:.2f} %  {binary}")


if __name__ == "__main__":
    main()
