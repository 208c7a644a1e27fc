#!/usr/bin/env python3
"""Benchmark `catalog ingest` and the query commands against the issue's performance targets.

    python3 Benchmarks/bench.py [--profiles N --apps M --archives A --ipas K] [--catalog PATH]
                                [--json OUT.json] [--skip-queries] [--workdir DIR] ...

Generates (or reuses) a deterministic synthetic tree with make_tree.py, then measures, each as a
separate process with its own wall time and peak RSS (os.wait4 on exactly that child):
  floor      `find TREE -type f -print0 | xargs -0 cat > /dev/null` — reading every file once
  find floor `find TREE -type f -printf '%s %T@\\n'` — a walk that stats every file (what an unchanged
             re-ingest must do at least)
  baseline   Benchmarks/baseline.py into a fresh SQLite file
  cold       `catalog ingest TREE --db NEW --quiet`
  unchanged  the same again, nothing changed
  touched    the same after moving the mtime of 1% of the files (restored afterwards)
  queries    expiring/profiles/builds/devices/show on a large catalogue made by catalog-bench-fill,
             and `catalog decode` of one profile (median of --runs runs each)
  fleet      (issue 16; fleet.py) 8 concurrent host ingests of the tree into one PostgreSQL database vs
             into 8 SQLite files, and the queries on the large catalogue loaded into PostgreSQL; on
             when a server can be started (initdb/pg_ctl, or CATALOG_BENCH_POSTGRES_URL), else skipped
All runs see a warm page cache (the floor is run once unmeasured first). Python standard library only.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import math
import os
import platform
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fleet  # noqa: E402
import make_tree  # noqa: E402

# The bounds every check is held to: Benchmarks/Thresholds/targets.json (see Benchmarks/README.md).
THRESHOLDS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Thresholds", "targets.json")
with open(THRESHOLDS_PATH) as _f:
    THRESHOLDS = json.load(_f)
LARGE_TREE_PROFILES = THRESHOLDS["large_tree_profiles"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# MARK: - Measuring one process

RSS_WRAPPER_C = r"""
/* Runs argv[2..] as a child of this small process and writes that child's peak RSS (ru_maxrss from
   wait4) to the file argv[1]. Needed because a process forked from the Python harness inherits the
   harness's RSS high-water mark across exec, so os.wait4 on a direct child over-reports. */
#include <stdio.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/resource.h>
int main(int argc, char **argv) {
    if (argc < 3) return 125;
    pid_t pid = fork();
    if (pid < 0) return 126;
    if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
    int status; struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) return 126;
    FILE *f = fopen(argv[1], "w");
    if (f) { fprintf(f, "%ld\n", (long)ru.ru_maxrss); fclose(f); }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
"""
_wrapper: str | None = None


def setup_rss_wrapper(workdir: str) -> str | None:
    """Compiles the wrapper once (cc); without a C compiler, falls back to os.wait4 on a direct child."""
    global _wrapper
    src, exe = os.path.join(workdir, "rsswrap.c"), os.path.join(workdir, "rsswrap")
    if not os.path.exists(exe):
        with open(src, "w") as f:
            f.write(RSS_WRAPPER_C)
        cc = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
        if cc is None or subprocess.run([cc, "-O2", "-o", exe, src]).returncode != 0:
            log("warning: no C compiler; peak RSS includes the harness's own (forked) footprint")
            return None
    _wrapper = exe
    return exe


def measure(cmd: list[str], *, cwd: str | None = None, stdout_path: str | None = None,
            env: dict | None = None) -> dict:
    """Runs cmd; returns wall seconds, the peak RSS of that process tree and its exit status."""
    rss_file = None
    if _wrapper:
        fd, rss_file = tempfile.mkstemp(prefix="rss-")
        os.close(fd)
        cmd = [_wrapper, rss_file] + cmd
    with tempfile.TemporaryFile() as err, open(stdout_path or os.devnull, "wb") as out:
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                    env=None if env is None else {**os.environ, **env})
        except OSError as e:
            return {"wall_s": 0.0, "peak_rss_mb": 0.0, "rc": 127, "error": str(e)}
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped: keep Popen from waiting
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace").strip()
    maxrss = usage.ru_maxrss
    if rss_file:
        with open(rss_file) as f:
            text = f.read().strip()
        os.remove(rss_file)
        maxrss = int(text) if text else 0
    # Linux reports ru_maxrss in KiB, macOS in bytes.
    rss_mb = maxrss / (1 << 20) if sys.platform == "darwin" else maxrss / 1024
    result = {"wall_s": wall, "peak_rss_mb": rss_mb, "rc": proc.returncode}
    if proc.returncode != 0:
        result["error"] = tail.splitlines()[-1] if tail else f"exit status {proc.returncode}"
        if proc.returncode == 127 and not tail:
            result["error"] = f"cannot run {cmd[2] if _wrapper else cmd[0]}"
    return result


def first_row(cmd: list[str], runs: int) -> dict:
    """How soon a listing's first row reaches a pipe, and how fast the rest follows: the median over
    `runs` of the time to the first newline, and of output bytes / (end - first byte)."""
    firsts, rates, total = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        first_byte = first_line = None
        total = 0
        while True:
            chunk = proc.stdout.read1(1 << 16)
            if not chunk:
                break
            now = time.perf_counter()
            if first_byte is None:
                first_byte = now
            total += len(chunk)
            if first_line is None and b"\n" in chunk:
                first_line = now
        end = time.perf_counter()
        proc.wait()
        firsts.append(((first_line or end) - start) * 1000)
        if first_byte is not None and end > first_byte:
            rates.append(total / (end - first_byte) / 1e6)
    return {"first_row_ms": statistics.median(firsts), "mb_per_s": statistics.median(rates) if rates else None,
            "output_bytes": total, "runs": runs}


def repeat(cmd: list[str], runs: int, stdout_path: str | None = None) -> dict:
    results = [measure(cmd, stdout_path=stdout_path) for _ in range(runs)]
    r = {"wall_s": statistics.median(x["wall_s"] for x in results),
         "min_s": min(x["wall_s"] for x in results), "max_s": max(x["wall_s"] for x in results),
         "peak_rss_mb": max(x["peak_rss_mb"] for x in results), "rc": max(x["rc"] for x in results),
         "runs": runs}
    errors = [x["error"] for x in results if "error" in x]
    if errors:
        r["error"] = errors[0]
    if stdout_path and os.path.exists(stdout_path):
        r["output_bytes"] = os.path.getsize(stdout_path)
    return r


# MARK: - The tree

def tree_stats(root: str) -> tuple[list[str], int]:
    files, total = [], 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            files.append(p)
            total += os.lstat(p).st_size
    return files, total


def ensure_tree(args) -> tuple[str, dict]:
    with open(os.path.join(HERE, "make_tree.py"), "rb") as f:
        gen = hashlib.sha256(f.read()).hexdigest()[:10]
    key = f"tree-p{args.profiles}-a{args.apps}-x{args.archives}-i{args.ipas}-s{args.seed}-{gen}"
    out, marker = os.path.join(args.workdir, key), os.path.join(args.workdir, key + ".json")
    if os.path.exists(marker) and os.path.isdir(out):
        with open(marker) as f:
            info = json.load(f)
        info["cached"] = True
        log(f"tree: reusing {out}")
        return out, info
    shutil.rmtree(out, ignore_errors=True)
    log(f"tree: generating {out} …")
    info = make_tree.generate(out, profiles=args.profiles, apps=args.apps, archives=args.archives,
                              ipas=args.ipas, seed=args.seed)
    with open(marker, "w") as f:
        json.dump(info, f)
    log(f"tree: {info['files']} files, {info['bytes'] / 1e6:.1f} MB in {info['seconds']} s")
    info["cached"] = False
    return out, info


def touch_selection(tree: str, files: list[str], seed: int) -> list[str]:
    """1% of each kind of file (at least one of each), chosen deterministically."""
    groups: dict[str, list[str]] = {}
    for p in files:
        rel = os.path.relpath(p, tree)
        name = os.path.basename(rel)
        if rel.startswith("profiles/"):
            g = "profile"
        elif name.startswith("embedded."):
            g = "embedded-profile"
        elif name == "Info.plist" and (".app/" in rel or ".xcarchive/" in rel):
            g = "bundle-info-plist"
        elif name.endswith(".ipa"):
            g = "ipa"
        else:
            g = "other"
        groups.setdefault(g, []).append(p)
    rng = random.Random(f"{seed}/touch")
    chosen = []
    for g in sorted(groups):
        members = groups[g]
        chosen += rng.sample(members, max(1, math.ceil(len(members) / 100)))
    return chosen


def remove_db(path: str) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


# MARK: - Binaries

def find_catalog(args) -> tuple[str, str | None]:
    if args.catalog:
        cat = os.path.abspath(args.catalog) if os.sep in args.catalog else (shutil.which(args.catalog) or args.catalog)
    else:
        cat = os.path.join(REPO, ".build", "release", "catalog")
        # Always (re)build: SwiftPM is incremental, and a stale binary would measure old code.
        with open(os.path.join(REPO, "Package.swift")) as f:
            has_fill = "catalog-bench-fill" in f.read()
        # On Linux the binary the README installs: the Swift runtime and Foundation linked in
        # (--static-swift-stdlib), which also starts in half the time (README, "Installing on Linux").
        static = ["--static-swift-stdlib"] if platform.system() == "Linux" else []
        for product in ["catalog"] + (["catalog-bench-fill"] if has_fill else []):
            log(f"building {product} (release{', static Swift runtime' if static else ''}) …")
            subprocess.run(["swift", "build", "-c", "release", "--product", product] + static, cwd=REPO, check=True)
    fill = os.path.join(os.path.dirname(cat), "catalog-bench-fill")
    return cat, (fill if os.access(fill, os.X_OK) else None)


def schema_digest() -> str:
    """A short hash of Migrations/*.sql and the fill tool's source."""
    digest = hashlib.sha256()
    for folder in ["Migrations", os.path.join("Sources", "catalog-bench-fill")]:
        base = os.path.join(REPO, folder)
        for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            if not os.path.isfile(os.path.join(base, name)):
                continue  # Migrations/postgresql: not the SQLite catalogue's schema
            with open(os.path.join(base, name), "rb") as f:
                digest.update(name.encode() + f.read())
    return digest.hexdigest()[:10]


def query_values(qdb: str) -> dict:
    """Arguments for the query commands, read from the catalogue."""
    return {
        "team": first_value(qdb, ["SELECT team_id FROM profiles WHERE team_id IS NOT NULL LIMIT 1"]),
        "bundle": first_value(qdb, ["SELECT bundle_id FROM builds WHERE bundle_id IS NOT NULL LIMIT 1"]),
        "udid": first_value(qdb, ["SELECT d.udid FROM device_profiles dp JOIN devices d ON d.id = dp.device_id LIMIT 1",
                                    "SELECT udid FROM devices LIMIT 1"]),
        "uuid": first_value(qdb, ["SELECT uuid FROM profiles LIMIT 1"]),
    }


def first_value(db: str, queries: list[str]) -> str | None:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        for q in queries:
            try:
                row = con.execute(q).fetchone()
            except sqlite3.Error:
                continue
            if row and row[0] is not None:
                return str(row[0])
        return None
    finally:
        con.close()


# MARK: - Machine

def machine() -> dict:
    info = {"nproc": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()}
    try:
        info["usable_cpus"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    info["ram_gb"] = round(int(line.split()[1]) / (1 << 20), 1)
                    break
    except OSError:
        info["cpu"] = platform.processor()
    try:
        info["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    return info


# MARK: - Main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark catalog ingest and queries against the performance targets.")
    ap.add_argument("--profiles", type=int, default=10_000, help="standalone profiles in the tree (N, default 10000)")
    ap.add_argument("--apps", type=int, default=5_000, help=".app builds (M, default 5000)")
    ap.add_argument("--archives", type=int, default=None, help=".xcarchives (default M/10)")
    ap.add_argument("--ipas", type=int, default=500, help=".ipa files (K, default 500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--catalog", help="the catalog binary (default .build/release/catalog, built if missing)")
    ap.add_argument("--workdir", default=os.path.join(REPO, ".build", "bench"), help="trees and databases (default .build/bench)")
    ap.add_argument("--json", dest="json_out", help="also write the results as JSON to this file")
    ap.add_argument("--skip-queries", action="store_true", help="skip the large-catalogue queries")
    ap.add_argument("--skip-baseline", action="store_true", help="skip the Python baseline")
    ap.add_argument("--query-profiles", type=int, default=1_000_000)
    ap.add_argument("--query-builds", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=5, help="runs per query (median reported)")
    ap.add_argument("--ingest-runs", type=int, default=1,
                    help="runs of the baseline, the cold ingests (each into a fresh database) and the unchanged "
                         "re-ingest; the median wall time is reported and used in the ratios (default 1)")
    fleet_group = ap.add_mutually_exclusive_group()
    fleet_group.add_argument("--fleet", action="store_true",
                             help="require the fleet step (fail if no PostgreSQL server can be started)")
    fleet_group.add_argument("--skip-fleet", action="store_true", help="leave out the fleet step")
    ap.add_argument("--fleet-only", action="store_true",
                    help="only the fleet step (and the query catalogue it loads): no floors, baseline, single ingests")
    ap.add_argument("--fleet-hosts", type=int, default=8, help="concurrent hosts in the fleet step (default 8)")
    ap.add_argument("--fleet-query-timeout", type=float, default=60.0,
                    help="seconds before a fleet query run is stopped and reported as timed out (default 60)")
    args = ap.parse_args(argv)
    if args.archives is None:
        args.archives = args.apps // 10
    args.workdir = os.path.abspath(args.workdir)
    os.makedirs(args.workdir, exist_ok=True)
    run_dir = os.path.join(args.workdir, "run")
    os.makedirs(run_dir, exist_ok=True)

    setup_rss_wrapper(args.workdir)
    tree, tree_info = ensure_tree(args)
    files, total_bytes = tree_stats(tree)
    catalog, fill = find_catalog(args)
    steps: list[dict] = []

    def rounds(specs: list[dict], runs: int) -> list[dict]:
        """Runs every spec once per round, `runs` rounds, in the same order each round (removing its
        `fresh` database first), so that a host whose speed drifts over minutes (a shared VM) slows
        the steps of one round alike; then records one step per spec: the median wall time, every
        run's wall time in round order (`walls_s`, which ``ratio`` pairs within a `round_group`) and
        the highest peak RSS."""
        for spec in specs:
            log(f"{spec['name']}: {' '.join(spec['cmd'])}"
                + "".join(f" ({k}={v})" for k, v in (spec.get("env") or {}).items())
                + (f" ×{runs}, interleaved" if runs > 1 and len(specs) > 1 else (f" ×{runs}" if runs > 1 else "")))
        results: list[list[dict]] = [[] for _ in specs]
        failed = False
        for _ in range(max(1, runs)):
            for spec, done in zip(specs, results):
                if spec.get("fresh"):
                    remove_db(spec["fresh"])
                done.append(measure(spec["cmd"], env=spec.get("env")))
                failed = failed or done[-1]["rc"] != 0
            if failed:
                break
        made = []
        group = len(steps)  # a new id for this call's steps: there are more steps after each call
        for spec, done in zip(specs, results):
            r = dict(next((x for x in done if x["rc"] != 0), done[-1]))
            if len(done) > 1 and all(x["rc"] == 0 for x in done):
                r["wall_s"] = statistics.median(x["wall_s"] for x in done)
                r["walls_s"] = [round(x["wall_s"], 3) for x in done]
                r["peak_rss_mb"] = max(x["peak_rss_mb"] for x in done)
            r.update(step=spec["name"], files=len(files), bytes=total_bytes, round_group=group)
            steps.append(r)
            if r["rc"] != 0:
                log(f"  failed: {r.get('error')}")
            made.append(r)
        return made

    def step(name: str, cmd: list[str], env: dict | None = None, runs: int = 1, fresh: str | None = None,
             **extra) -> dict:
        """Measures cmd `runs` times (removing the database `fresh` before each run): one step of its
        own rounds, with `extra` recorded beside it."""
        r = rounds([{"name": name, "cmd": cmd, "env": env, "fresh": fresh}], runs)[0]
        r.update(**extra)
        return r

    floor = find_floor = baseline = unverified = unhashed = cold = unchanged = touched = round_floor = None
    floor_cmd = ["sh", "-c", 'find "$1" -type f -print0 | xargs -0 cat > /dev/null', "sh", tree]
    measure(floor_cmd)  # warm the page cache so every step reads from memory
    if not args.fleet_only:
        floor = step("floor (cat)", floor_cmd)
        # Informative, not a target: reading only what an ingester needs (profiles, Info.plists, .ipas).
        needed = [p for p in files if p.endswith((".mobileprovision", ".provisionprofile", ".ipa"))
                  or os.path.basename(p) == "Info.plist"]
        needed_cmd = ["sh", "-c", 'find "$1" -type f \\( -name "*.mobileprovision" -o -name "*.provisionprofile" '
                      '-o -name "*.ipa" -o -name Info.plist \\) -print0 | xargs -0 cat > /dev/null', "sh", tree]
        r = step("floor (needed files)", needed_cmd)
        r["files"], r["bytes"] = len(needed), sum(os.lstat(p).st_size for p in needed)
        # The baseline and the cold ingests run in rounds (baseline, unverified, unhashed, cold; again), and so
        # do the find floor and the unchanged re-ingest: the ratios are then taken within each round.
        specs = []
        if not args.skip_baseline:
            bdb = os.path.join(run_dir, "baseline.sqlite")
            specs.append({"name": "baseline (python)", "fresh": bdb,
                          "cmd": [sys.executable, os.path.join(HERE, "baseline.py"), bdb, tree]})
        db = os.path.join(run_dir, "catalog.sqlite")
        # Signature verification's cost (issue 13: on by default only if it adds at most 20%): the same
        # cold ingest with verification switched off, into its own catalogue, just before the real one.
        unverified_db = os.path.join(run_dir, "catalog-unverified.sqlite")
        specs.append({"name": "cold ingest, signatures not verified", "fresh": unverified_db,
                      "cmd": [catalog, "ingest", tree, "--db", unverified_db, "--quiet"],
                      "env": {"CATALOG_VERIFY_SIGNATURES": "0"}})
        # Issue 51's hashing (page hashes and resource seals) may add at most 25%: the same cold
        # ingest with it switched off, into its own catalogue.
        unhashed_db = os.path.join(run_dir, "catalog-unhashed.sqlite")
        specs.append({"name": "cold ingest, code and resources not hashed", "fresh": unhashed_db,
                      "cmd": [catalog, "ingest", tree, "--db", unhashed_db, "--quiet"],
                      "env": {"CATALOG_VERIFY_INTEGRITY": "0"}})
        ingest = [catalog, "ingest", tree, "--db", db, "--quiet"]
        # Issue 15's large-tree target (cold ingest of 100,000 profiles within 5× `cat`) compares each
        # cold ingest with a `cat` of the tree run just before it, in the same round: this host's page
        # cache gives back part of the tree within a minute, and both sides of a round see the same.
        large = args.profiles >= LARGE_TREE_PROFILES
        if large:
            specs.append({"name": "floor (cat), in the ingest rounds", "cmd": floor_cmd})
        specs.append({"name": "cold ingest", "cmd": ingest, "fresh": db})
        made = rounds(specs, args.ingest_runs)
        baseline = None if args.skip_baseline else made[0]
        # The last steps, in the order they were added: unverified, unhashed, the round's cat (large), cold.
        cold = made.pop()
        round_floor = made.pop() if large else None
        unhashed = made.pop()
        unverified = made.pop()
        cold["catalogue_bytes"] = sum(os.path.getsize(db + s) for s in ("", "-wal") if os.path.exists(db + s))
        # The floor of an unchanged re-ingest: walking the tree and stat-ing every file (size and mtime,
        # what the incremental index compares), reading nothing; each round beside a re-ingest of the
        # catalogue the last cold ingest made.
        find_floor, unchanged = rounds([
            {"name": "floor (find, stat every file)",
             "cmd": ["sh", "-c", 'find "$1" -type f -printf "%s %T@\\n" > /dev/null', "sh", tree]},
            {"name": "unchanged re-ingest", "cmd": ingest}], args.ingest_runs)
        touched_files = touch_selection(tree, files, args.seed)
        saved = {p: os.stat(p) for p in touched_files}
        new_time = make_tree.BASE_MTIME + 40 * 86400
        try:
            for p in touched_files:
                os.utime(p, (new_time, new_time))
            touched = step("1%-touched re-ingest", ingest, touched_files=len(touched_files))
        finally:
            for p, st in saved.items():
                os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))

    # Queries on a large catalogue.
    queries: list[dict] = []
    streaming: dict | None = None
    notes: list[str] = []
    qdb: str | None = None
    if not args.skip_queries:
        if fill is None:
            notes.append("queries skipped: catalog-bench-fill not built")
            log("skipped: catalog-bench-fill not built")
        else:
            # Keyed by the schema too: a catalogue filled under older migrations is filled again.
            qdb = os.path.join(args.workdir, f"query-p{args.query_profiles}-b{args.query_builds}-{schema_digest()}.sqlite")
            if not os.path.exists(qdb + ".done"):
                remove_db(qdb)
                r = step("fill (setup)", [fill, qdb, "--profiles", str(args.query_profiles),
                                          "--builds", str(args.query_builds)])
                r["files"], r["bytes"] = 0, 0
                if r["rc"] == 0:
                    open(qdb + ".done", "w").close()
            if not os.path.exists(qdb + ".done"):
                qdb = None
            elif not args.fleet_only:
                values = query_values(qdb)
                plan = [("expiring --days 30", ["expiring", "--days", "30"], True),
                        ("profiles --team", ["profiles", "--team", values["team"]], values["team"]),
                        ("builds BUNDLE", ["builds", values["bundle"]], values["bundle"]),
                        ("devices UDID", ["devices", values["udid"]], values["udid"]),
                        ("show UUID", ["show", values["uuid"]], values["uuid"])]
                out_path = os.path.join(run_dir, "query.out")
                for label, sub, ok in plan:
                    if not ok:
                        queries.append({"query": label, "skipped": "no value found in the catalogue"})
                        log(f"{label}: skipped (no value found in the catalogue)")
                        continue
                    cmd = [catalog] + sub + ["--db", qdb, "--json"]
                    log(f"query {label}: {' '.join(cmd)}")
                    r = repeat(cmd, args.runs, out_path)
                    r["query"], r["args"] = label, sub
                    queries.append(r)
                # Listings stream: the first row of `expiring` reaches a pipe before the query ends,
                # and JSON follows at the rate the writer keeps up.
                streaming = first_row([catalog, "expiring", "--days", "30", "--db", qdb, "--format", "ndjson"], args.runs)
                rate = first_row([catalog, "profiles", "--team", values["team"] or "", "--db", qdb, "--json"], args.runs)
                streaming["json_mb_per_s"] = rate["mb_per_s"]
                streaming["json_bytes"] = rate["output_bytes"]
                log(f"streaming: first row of expiring {streaming['first_row_ms']:.1f} ms; "
                    f"profiles --team JSON at {rate['mb_per_s'] or 0:.1f} MB/s")
    sample = sorted(p for p in files if p.endswith(".mobileprovision") and "/profiles/" in p)
    if sample and not args.fleet_only:
        log(f"decode: {catalog} decode {sample[0]}")
        r = repeat([catalog, "decode", sample[0]], args.runs, os.path.join(run_dir, "decode.out"))
        r["query"] = "decode PROFILE"
        queries.append(r)

    fleet_result = run_fleet(args, catalog, tree, len(files), total_bytes, qdb, run_dir, steps, notes)

    # Ratios and targets.
    def ratio(a, b):
        """a / b: when both ran in the same rounds, the median of each round's ratio (a drifting host
        slows both sides of a round alike); otherwise the ratio of their medians."""
        if not (a and b and b["wall_s"] > 0 and a["rc"] == 0 and b["rc"] == 0):
            return None
        walls_a, walls_b = a.get("walls_s"), b.get("walls_s")
        if walls_a and walls_b and a.get("round_group") == b.get("round_group") is not None \
                and len(walls_a) == len(walls_b) and all(w > 0 for w in walls_b):
            return statistics.median(x / y for x, y in zip(walls_a, walls_b))
        return a["wall_s"] / b["wall_s"]

    checks = []
    default_tree = all(getattr(args, k) == v for k, v in THRESHOLDS["default_tree"].items())

    def check(key, label, value, fmt, default_tree_only=False):
        """One figure against its bound in the thresholds file; `info` when the file has none, or when
        the bound was set on the default tree and this is another."""
        bound = THRESHOLDS["checks"].get(key)
        if bound is None:
            target, ok = "-", None
        elif "min" in bound:
            target, ok = f">= {bound['min']:g}", lambda v: v >= bound["min"]
        else:
            target, ok = f"<= {bound['max']:g}", lambda v: v <= bound["max"]
        if default_tree_only and not default_tree:
            ok = None
        result = "n/a" if value is None else ("info" if ok is None else ("PASS" if ok(value) else "MISS"))
        checks.append({"check": label, "key": key, "value": value, "target": target, "result": result, "format": fmt})

    check("cold_speedup_vs_baseline", "cold ingest vs baseline speedup", ratio(baseline, cold), "{:.2f}x")
    check("cold_over_floor", "cold ingest / floor (bound on the default tree only)", ratio(cold, floor), "{:.2f}",
          default_tree_only=True)
    large_ratio = ratio(cold, round_floor) if round_floor else None
    check("large_cold_over_cat", f"cold ingest / cat in the same round (needs --profiles >= {LARGE_TREE_PROFILES:,})",
          large_ratio, "{:.2f}x")
    extra = ratio(cold, unverified)
    check("verify_extra", "signature verification: extra cold-ingest time", None if extra is None else extra - 1, "{:+.1%}")
    hashed = ratio(cold, unhashed)
    check("integrity_extra", "code and resource hashing: extra cold-ingest time", None if hashed is None else hashed - 1,
          "{:+.1%}")
    check("unchanged_over_cold", "unchanged re-ingest / cold", ratio(unchanged, cold), "{:.1%}")
    check("unchanged_over_find", "unchanged re-ingest / find floor (stat every file; bound on the default tree only)",
          ratio(unchanged, find_floor), "{:.2f}x", default_tree_only=True)
    check("touched_over_cold", "1%-touched re-ingest / cold", ratio(touched, cold), "{:.1%}")
    catalogue_mb = cold["catalogue_bytes"] / 1e6 if cold and cold["rc"] == 0 and "catalogue_bytes" in cold else None
    check("catalogue_mb_default_tree", "catalogue size, MB (bound on the default tree only)", catalogue_mb, "{:.1f} MB",
          default_tree_only=True)
    if streaming:
        check("first_row_ms", "first row of expiring --days 30 (ms)", streaming["first_row_ms"], "{:.1f} ms")
        check("json_mb_per_s", "profiles --team JSON rate (MB/s)", streaming["json_mb_per_s"], "{:.1f}")
    for q in queries:
        value = None if "skipped" in q or q.get("rc") else q["wall_s"] * 1000
        check(f"query_ms:{q['query']}", f"{q['query']} (median ms)", value, "{:.1f} ms")
    rss = cold["peak_rss_mb"] if cold and cold["rc"] == 0 and args.profiles >= LARGE_TREE_PROFILES else None
    check("ingest_rss_mb_large_tree", f"cold ingest peak RSS (needs --profiles >= {LARGE_TREE_PROFILES:,})", rss, "{:.0f} MB")
    if fleet_result and "ingest" in fleet_result:
        f = fleet_result["ingest"]
        check("fleet_throughput_ratio", f"fleet: {f['hosts']} hosts, PostgreSQL / SQLite throughput (files/s)",
              f.get("throughput_ratio"), "{:.2f}x")
        check("fleet_errors", f"fleet: failed ingests + row mismatches ({f['hosts']} hosts, PostgreSQL)", f["errors"], "{:d}")

    if args.fleet_only:
        checks = [c for c in checks if c["check"].startswith("fleet")]

    result = {
        "generated_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "catalog": catalog,
        "parameters": {"profiles": args.profiles, "apps": args.apps, "archives": args.archives, "ipas": args.ipas,
                       "seed": args.seed, "query_profiles": args.query_profiles, "query_builds": args.query_builds,
                       "runs": args.runs},
        "tree": {"path": tree, "files": len(files), "bytes": total_bytes,
                 "generation_s": tree_info.get("seconds"), "cached": tree_info.get("cached")},
        "steps": steps, "queries": queries, "streaming": streaming, "fleet": fleet_result, "checks": checks,
        "notes": notes,
    }
    try:
        result["git"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                       text=True).stdout.strip()
    except OSError:
        pass
    print_report(result)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
        log(f"wrote {args.json_out}")
    missed = [c["check"] for c in checks if c["result"] == "MISS"]
    if missed:
        log(f"bench.py: {len(missed)} target(s) missed ({THRESHOLDS_PATH}): " + "; ".join(missed))
        return 1
    return 0


def run_fleet(args, catalog: str, tree: str, files: int, total_bytes: int, qdb: str | None, run_dir: str,
              steps: list[dict], notes: list[str]) -> dict | None:
    """The fleet step (fleet.py): its ingest rows join `steps`; returns what the JSON's "fleet" holds,
    None when left out. The server it starts is stopped before this returns, pass or fail."""
    if args.skip_fleet:
        return None
    available, reason = fleet.availability()
    if not available:
        if args.fleet:
            raise SystemExit(f"bench.py: --fleet: {reason}")
        notes.append(f"fleet step skipped: {reason}")
        log(f"fleet: skipped ({reason})")
        return {"skipped": reason}
    server = fleet.PostgresServer(args.workdir)
    result: dict = {"hosts": args.fleet_hosts}
    try:
        log("fleet: starting PostgreSQL …")
        server.start()
        result["server"] = {"description": server.description, "version": server.version,
                            "start_s": round(server.started_s, 2)}
        ingest = fleet.fleet_ingest(catalog, tree, files, total_bytes, args.fleet_hosts, server, run_dir, measure)
        steps.extend(ingest.pop("steps"))
        result["ingest"] = ingest
        if qdb is None:
            result["queries_skipped"] = "no query catalogue (--skip-queries, or catalog-bench-fill not built)"
        else:
            log(f"fleet: loading {qdb} into PostgreSQL …")
            url, load = fleet.load_query_catalogue(server, qdb, args.fleet_hosts, run_dir)
            result["load"] = load
            steps.append({"step": "fleet: COPY 1M into PG", "files": 0, "bytes": os.path.getsize(qdb),
                          "wall_s": load["load_s"], "peak_rss_mb": 0.0, "rc": 0,
                          "database_bytes": load["database_bytes"]})
            result["queries"] = fleet.fleet_queries(catalog, qdb, url, query_values(qdb), args.runs, run_dir,
                                                     args.fleet_query_timeout)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        result["error"] = str(e)
        notes.append(f"fleet step failed: {e}")
        log(f"fleet: failed: {e}")
    finally:
        server.stop()
    return result


def print_fleet(f: dict) -> None:
    if "skipped" in f:
        return  # in the notes
    print()
    server = f.get("server", {})
    print(f"fleet ({f['hosts']} hosts): PostgreSQL {server.get('version', '?')}, {server.get('description', '?')}")
    ingest = f.get("ingest")
    if ingest:
        rows = ingest.get("postgres_rows")
        one = ingest.get("one_host_rows")
        if rows and one:
            shared = ", ".join(f"{t} {rows['shared'][t]:,} (one host {one[t]:,})" for t in rows["shared"])
            hosts = f["hosts"]
            per_host = ", ".join(f"{t} {sum(v for k, v in c.items() if k != 'unexpected hosts'):,} "
                                 f"({hosts} × {one[t]:,} = {hosts * one[t]:,})" for t, c in rows["per_host"].items())
            print(f"  rows after: shared {shared}; per host (all hosts together): {per_host}")
        for m in ingest.get("row_mismatches", []):
            print(f"  MISMATCH: {m}")
        ratio = ingest.get("throughput_ratio")
        print(f"  throughput PostgreSQL / SQLite: {'-' if ratio is None else f'{ratio:.2f}x'}; "
              f"errors (failed ingests + row mismatches): {ingest['errors']}")
    load = f.get("load")
    if load:
        print(f"  query catalogue loaded in {load['load_s']:.1f} s (COPY {load['copy_s']:.1f} s, then VACUUM ANALYZE): "
              f"{sum(load['rows'].values()):,} rows, {load['database_bytes'] / 1e6:,.0f} MB on the server")
    if f.get("queries"):
        print(f"{'query on both engines':<24} {'SQLite ms':>10} {'PG ms':>8} {'PG/SQLite':>10} {'PG --host ms':>13}  status")
        for q in f["queries"]:
            if "skipped" in q:
                print(f"{q['query']:<24} {'-':>10} {'-':>8} {'-':>10} {'-':>13}  skipped: {q['skipped']}")
                continue
            s, p, h = q["sqlite"], q["postgresql"], q.get("postgresql_host")
            problems = [f"{e}: {x.get('error', 'failed')}" for e, x in (("SQLite", s), ("PG", p), ("PG --host", h or {}))
                        if x.get("rc")]
            status = "; ".join(problems) or "ok"
            if "host_skipped" in q:
                status += " (no --host option)"
            ratio = f"{q['ratio']:.2f}x" if "ratio" in q else "-"
            def ms(x):
                return f"{x['wall_s'] * 1000:.1f}" if x and "wall_s" in x and not x.get("rc") else "-"
            print(f"{q['query']:<24} {ms(s):>10} {ms(p):>8} {ratio:>10} {ms(h):>13}  {status}")
    elif f.get("queries_skipped"):
        print(f"  queries skipped: {f['queries_skipped']}")


def print_report(r: dict) -> None:
    m = r["machine"]
    print(f"machine: {m.get('cpu', '?')}, {m.get('nproc')} CPUs ({m.get('usable_cpus', '?')} usable), "
          f"{m.get('ram_gb', '?')} GB RAM, load {m.get('loadavg')}; {m['platform']}")
    t = r["tree"]
    made = "cached" if t.get("cached") else f"generated in {t.get('generation_s')} s"
    print(f"tree: {t['files']} files, {t['bytes'] / 1e6:.1f} MB ({made}; {t['path']})")
    print(f"catalog: {r['catalog']}")
    print()
    header = f"{'step':<24} {'files':>8} {'MB':>8} {'wall s':>9} {'files/s':>10} {'MB/s':>8} {'peak RSS MB':>12}  status"
    print(header)
    print("-" * len(header))
    for s in r["steps"]:
        w = s["wall_s"]
        fps = f"{s['files'] / w:,.0f}" if w > 0 and s["files"] else "-"
        mbs = f"{s['bytes'] / 1e6 / w:,.1f}" if w > 0 and s["bytes"] else "-"
        status = "ok" if s["rc"] == 0 else f"FAILED: {s.get('error', '')}"
        if "touched_files" in s:
            status += f" ({s['touched_files']} files touched)"
        if "catalogue_bytes" in s:
            status += f" (catalogue {s['catalogue_bytes'] / 1e6:.1f} MB)"
        if "walls_s" in s:
            status += f" (median of {', '.join(f'{w:.2f}' for w in s['walls_s'])} s)"
        print(f"{s['step']:<24} {s['files']:>8} {s['bytes'] / 1e6:>8.1f} {w:>9.3f} {fps:>10} {mbs:>8} "
              f"{s['peak_rss_mb']:>12.1f}  {status}")
    if r["queries"]:
        print()
        print(f"{'query (whole process)':<24} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'peak RSS MB':>12} {'out KB':>8}  status")
        for q in r["queries"]:
            if "skipped" in q:
                print(f"{q['query']:<24} {'-':>10} {'-':>8} {'-':>8} {'-':>12} {'-':>8}  skipped: {q['skipped']}")
                continue
            status = "ok" if q["rc"] == 0 else f"FAILED: {q.get('error', '')}"
            print(f"{q['query']:<24} {q['wall_s'] * 1000:>10.1f} {q['min_s'] * 1000:>8.1f} {q['max_s'] * 1000:>8.1f} "
                  f"{q['peak_rss_mb']:>12.1f} {q.get('output_bytes', 0) / 1024:>8.1f}  {status}")
    if r.get("fleet"):
        print_fleet(r["fleet"])
    for n in r["notes"]:
        print(n)
    print()
    print(f"{'target':<58} {'value':>12} {'goal':>10}  result")
    for c in r["checks"]:
        v = "-" if c["value"] is None else c["format"].format(c["value"])
        print(f"{c['check']:<58} {v:>12} {c['target']:>10}  {c['result']}")


if __name__ == "__main__":
    sys.exit(main())
