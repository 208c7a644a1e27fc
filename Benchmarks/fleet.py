"""The fleet step of bench.py (issue 16): many build hosts, one PostgreSQL catalogue.

(a) N concurrent `catalog ingest TREE --db URL --host host-K` (K = 1…N) of the same tree into one fresh
    PostgreSQL database (the hosts share every profile: the contended case), then the rows checked:
    shared tables (profiles, certificates, devices) as one host's, per-host tables (locations, builds,
    the file index) N times one host's;
(b) the same N concurrent ingests into N separate SQLite files;
and the query catalogue that catalog-bench-fill made (SQLite) loaded into PostgreSQL with COPY, its
locations and builds spread over N host names, to time the query commands on both engines.

The server is a throwaway cluster (Scripts/postgres-test-server.sh, stopped at the end, pass or fail)
or, when CATALOG_BENCH_POSTGRES_URL names one, an existing server on which the step creates and drops
its own databases. psql talks to the server; the harness stays Python standard library only.
"""

from __future__ import annotations

import csv
import glob
import io
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SERVER_SCRIPT = os.path.join(REPO, "Scripts", "postgres-test-server.sh")
URL_VARIABLE = "CATALOG_BENCH_POSTGRES_URL"

# Per-host tables and the shared ones, as the host dimension of issue 16 divides them.
SHARED_TABLES = ["profiles", "certificates", "devices"]
HOST_TABLES = ["profile_locations", "builds", "files"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def redact(url: str) -> str:
    """A connection string without its password (issue 16: passwords are never printed)."""
    return re.sub(r"(://[^:/@?]*:)[^@/?]*@", r"\1***@", re.sub(r"(password=)[^&\s]*", r"\1***", url))


def find_server_binaries() -> str | None:
    """Where initdb and pg_ctl are, as the server script looks for them (PATH, then Debian's layout)."""
    if shutil.which("initdb") and shutil.which("pg_ctl"):
        return os.path.dirname(shutil.which("initdb"))
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                            key=lambda p: int(re.sub(r"\D", "", p.split("/")[-2]) or 0), reverse=True):
        if os.access(os.path.join(candidate, "initdb"), os.X_OK) and os.access(os.path.join(candidate, "pg_ctl"), os.X_OK):
            return candidate
    return None


def find_psql() -> str | None:
    found = shutil.which("psql")
    if found:
        return found
    binaries = find_server_binaries()
    candidate = os.path.join(binaries, "psql") if binaries else None
    return candidate if candidate and os.access(candidate, os.X_OK) else None


def availability() -> tuple[bool, str]:
    """Whether the fleet step can run here, and if not why (what the report prints as skipped)."""
    if find_psql() is None:
        return False, "psql not found (Debian: apt-get install postgresql-client)"
    if os.environ.get(URL_VARIABLE):
        return True, f"server from {URL_VARIABLE}"
    if find_server_binaries() is None:
        return False, f"no PostgreSQL server: initdb/pg_ctl not found (apt-get install postgresql) and {URL_VARIABLE} unset"
    if not os.path.exists(SERVER_SCRIPT):
        return False, f"{SERVER_SCRIPT} missing"
    return True, "throwaway cluster (initdb + pg_ctl)"


def with_database(url: str, database: str) -> str:
    """The same server and user, another database (libpq URIs: postgresql://user@host/db?params)."""
    if "://" not in url:  # key=value form
        return re.sub(r"dbname=\S+", "", url).strip() + f" dbname={database}"
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


class PostgresServer:
    """A server for the step: started here (and stopped by stop()) unless CATALOG_BENCH_POSTGRES_URL
    names one. Databases made by create_database are dropped by stop() either way."""

    def __init__(self, workdir: str):
        self.workdir = workdir
        self.psql = find_psql()
        self.cluster_dir: str | None = None
        self.url: str | None = None
        self.databases: list[str] = []
        self.started_s = 0.0
        self.description = ""

    def start(self) -> str:
        given = os.environ.get(URL_VARIABLE)
        t0 = time.perf_counter()
        if given:
            self.url = given
            self.description = f"{URL_VARIABLE} ({redact(given)})"
        else:
            # The socket lives in the cluster's folder: keep its path short (Unix sockets allow ~100 bytes).
            base = self.workdir if len(self.workdir) < 60 else None
            self.cluster_dir = tempfile.mkdtemp(prefix="pg-", dir=base)
            proc = subprocess.run(["sh", SERVER_SCRIPT, "start", self.cluster_dir, str(os.getpid())],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"postgres-test-server.sh start failed: {proc.stderr.strip()[-500:]}")
            self.url = proc.stdout.strip().splitlines()[-1]
            self.description = f"throwaway cluster in {self.cluster_dir} (fsync off, Unix socket)"
        self.started_s = time.perf_counter() - t0
        self.version = self.query(self.url, "SHOW server_version")
        return self.url

    def run(self, url: str, sql: str | None = None, *, stdin=None, capture: bool = True) -> str:
        """psql on one database: `sql` with -c, or a script on stdin (a file object or bytes)."""
        cmd = [self.psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", url]
        if sql is not None:
            cmd += ["-c", sql]
        proc = subprocess.run(cmd, input=stdin if isinstance(stdin, (bytes, type(None))) else None,
                              stdin=None if isinstance(stdin, (bytes, type(None))) else stdin,
                              capture_output=capture)
        if proc.returncode != 0:
            message = (proc.stderr or b"").decode("utf-8", "replace").strip()
            raise RuntimeError(f"psql failed on {redact(url)}: {message[-800:] or proc.returncode}")
        return (proc.stdout or b"").decode("utf-8", "replace").strip()

    def query(self, url: str, sql: str) -> str:
        return self.run(url, sql)

    def create_database(self, prefix: str) -> str:
        name = f"{prefix}_{os.getpid()}_{len(self.databases)}"
        self.run(self.url, f"DROP DATABASE IF EXISTS {name}")
        self.run(self.url, f"CREATE DATABASE {name}")
        self.databases.append(name)
        return with_database(self.url, name)

    def stop(self) -> None:
        if self.url and self.cluster_dir is None:
            for name in self.databases:
                try:
                    self.run(self.url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                except RuntimeError as e:
                    log(f"fleet: could not drop {name}: {e}")
        if self.cluster_dir:
            subprocess.run(["sh", SERVER_SCRIPT, "stop", self.cluster_dir])
            self.cluster_dir = None


def supports_option(catalog: str, command: str, option: str) -> bool:
    """Whether `catalog COMMAND --help` lists the option (--host arrives per command)."""
    try:
        proc = subprocess.run([catalog, command, "--help"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return re.search(rf"(^|[\s,\[]){re.escape(option)}(?![\w-])", proc.stdout + proc.stderr) is not None


# MARK: - (a) and (b): concurrent ingests

def concurrent(measure, commands: list[list[str]]) -> dict:
    """Starts every command at once (each measured on its own thread); the wall time is from the
    first start to the last exit."""
    results: list[dict | None] = [None] * len(commands)

    def one(i: int) -> None:
        results[i] = measure(commands[i])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(commands))]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    failed = [(i + 1, r.get("error", f"exit status {r['rc']}")) for i, r in enumerate(results) if r["rc"] != 0]
    out = {"wall_s": wall, "rc": 0 if not failed else 1, "exit_codes": [r["rc"] for r in results],
           "per_process_s": [round(r["wall_s"], 3) for r in results],
           "peak_rss_mb": max(r["peak_rss_mb"] for r in results), "failed": len(failed)}
    if failed:
        out["error"] = f"{len(failed)} of {len(commands)} failed; host-{failed[0][0]}: {failed[0][1]}"
    return out


def sqlite_counts(db: str) -> dict[str, int]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in SHARED_TABLES + HOST_TABLES}
    finally:
        con.close()


def postgres_counts(server: PostgresServer, url: str, hosts: list[str]) -> dict:
    shared = {t: int(server.query(url, f"SELECT count(*) FROM {t}")) for t in SHARED_TABLES}
    per_host = {}
    for t in HOST_TABLES:
        rows = server.query(url, f"SELECT host, count(*) FROM {t} GROUP BY host ORDER BY host")
        counts = dict(line.split("|") for line in rows.splitlines() if line)
        per_host[t] = {h: int(counts.get(h, 0)) for h in hosts}
        extra = sorted(set(counts) - set(hosts))
        if extra:
            per_host[t]["unexpected hosts"] = extra
    return {"shared": shared, "per_host": per_host}


def fleet_ingest(catalog: str, tree: str, files: int, total_bytes: int, hosts: int, server: PostgresServer,
                 run_dir: str, measure) -> dict:
    """(a) and (b); returns the two steps (bench.py's step rows) and the row check."""
    names = [f"host-{n}" for n in range(1, hosts + 1)]
    host_option = supports_option(catalog, "ingest", "--host")
    out: dict = {"hosts": hosts, "host_option": host_option, "steps": []}

    def host_args(name: str) -> list[str]:
        return ["--host", name] if host_option else []

    # (b) first: its first file is the one-host reference for (a)'s rows.
    dbs = [os.path.join(run_dir, f"fleet-{name}.sqlite") for name in names]
    for db in dbs:
        for suffix in ("", "-wal", "-shm", "-journal"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
    log(f"fleet: {hosts} concurrent ingests into {hosts} SQLite files …")
    sqlite_step = concurrent(measure, [[catalog, "ingest", tree, "--db", db, "--quiet"] + host_args(name)
                                       for db, name in zip(dbs, names)])
    sqlite_step.update(step=f"fleet: {hosts} hosts → SQLite", files=files * hosts, bytes=total_bytes * hosts)
    reference = sqlite_counts(dbs[0]) if sqlite_step["exit_codes"][0] == 0 else None

    url = server.create_database("catalog_bench_fleet")
    log(f"fleet: {hosts} concurrent ingests into one PostgreSQL database {redact(url)} …")
    if not host_option:
        pg_step = {"wall_s": 0.0, "rc": 1, "peak_rss_mb": 0.0, "failed": hosts, "exit_codes": [],
                   "error": "`catalog ingest` has no --host option in this binary"}
    else:
        pg_step = concurrent(measure, [[catalog, "ingest", tree, "--db", url, "--quiet", "--host", name] for name in names])
    pg_step.update(step=f"fleet: {hosts} hosts → PG", files=files * hosts, bytes=total_bytes * hosts)
    out["steps"] = [pg_step, sqlite_step]

    mismatches: list[str] = []
    if pg_step["exit_codes"] and any(rc == 0 for rc in pg_step["exit_codes"]):
        counts = postgres_counts(server, url, names)
        out["postgres_rows"] = counts
        out["one_host_rows"] = reference
        if reference is None:
            mismatches.append("no SQLite reference (host-1's SQLite ingest failed)")
        else:
            for t in SHARED_TABLES:
                if counts["shared"][t] != reference[t]:
                    mismatches.append(f"{t}: {counts['shared'][t]} on PostgreSQL, {reference[t]} for one host")
            for t in HOST_TABLES:
                for h in names:
                    if counts["per_host"][t][h] != reference[t]:
                        mismatches.append(f"{t} of {h}: {counts['per_host'][t][h]}, one host has {reference[t]}")
                if "unexpected hosts" in counts["per_host"][t]:
                    mismatches.append(f"{t}: rows of unexpected hosts {counts['per_host'][t]['unexpected hosts']}")
        out["rows_checked"] = True
    else:
        out["rows_checked"] = False
    out["row_mismatches"] = mismatches
    out["errors"] = pg_step.get("failed", hosts) + len(mismatches)
    if pg_step["rc"] == 0 and sqlite_step["rc"] == 0 and pg_step["wall_s"] > 0:
        # Both moved hosts × files: files per second total, PostgreSQL over SQLite.
        out["throughput_ratio"] = sqlite_step["wall_s"] / pg_step["wall_s"]
    for m in mismatches:
        log(f"fleet: MISMATCH {m}")
    return out


# MARK: - Query latency: the 1M catalogue on both engines

def migrate(server: PostgresServer, url: str) -> list[int]:
    """Migrations/postgresql/*.sql in order in one transaction, recorded in schema_migrations as
    PostgreSQLMigrator records them, so `catalog` sees a database at its schema."""
    files = sorted(glob.glob(os.path.join(REPO, "Migrations", "postgresql", "*.sql")))
    script = io.StringIO()
    script.write("BEGIN;\nCREATE TABLE schema_migrations (id integer PRIMARY KEY, name text COLLATE \"C\" NOT NULL, "
                 "applied_at text COLLATE \"C\" NOT NULL);\n")
    ids = []
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for path in files:
        match = re.match(r"(\d+)_(.+)\.sql$", os.path.basename(path))
        if not match:
            continue
        with open(path) as f:
            script.write(f.read() + "\n;\n")
        script.write(f"INSERT INTO schema_migrations VALUES ({int(match.group(1))}, '{match.group(2)}', '{now}');\n")
        ids.append(int(match.group(1)))
    script.write("COMMIT;\n")
    server.run(url, stdin=script.getvalue().encode())
    return ids


def load_query_catalogue(server: PostgresServer, qdb: str, hosts: int, run_dir: str) -> tuple[str, dict]:
    """The SQLite query catalogue into a fresh PostgreSQL database: one psql session of COPY … FROM
    STDIN (CSV) per table, fed from sqlite3, then VACUUM ANALYZE. SQLite's unnamed host '' becomes
    host-((id mod hosts) + 1) (a build's children follow their parent), spreading locations, builds
    and runs over the fleet. Returns the URL and what was loaded."""
    url = server.create_database("catalog_bench_query")
    t0 = time.perf_counter()
    migrate(server, url)
    con = sqlite3.connect(f"file:{qdb}?mode=ro", uri=True)
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name <> 'schema_migrations' ORDER BY rowid")]
    pg_columns: dict[str, list[tuple[str, str]]] = {}
    for line in server.query(url, "SELECT table_name, column_name, data_type FROM information_schema.columns "
                                  "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position").splitlines():
        table, column, data_type = line.split("|")
        pg_columns.setdefault(table, []).append((column, data_type))
    superuser = server.query(url, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user") == "t"
    # Secondary indexes (not those behind keys) are built once after the rows are in, not row by row.
    indexes = [line.split("|", 1) for line in server.query(url, """
        SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
        AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname""").splitlines() if line]
    rows: dict[str, int] = {}
    # One psql session reads the script and every table's rows from a pipe, while this process
    # writes them: the export and the load overlap.
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([server.psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err)
        script = io.TextIOWrapper(proc.stdin, encoding="utf-8", newline="", write_through=False)
        try:
            script.write("BEGIN;\n")
            if superuser:
                # Rows arrive table by table (SQLite's creation order is parents first anyway); skip
                # the per-row foreign-key triggers, as PostgreSQLQueriesTests.copy does.
                script.write("SET LOCAL session_replication_role = replica;\n")
            script.write("SET LOCAL maintenance_work_mem = '256MB';\n")
            for name, _ in indexes:
                script.write(f"DROP INDEX {name};\n")
            # NULL is an unquoted \N (each SQL NULL is selected as the text \N): the csv module
            # writes None and '' alike.
            writer = csv.writer(script, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
            for table in tables:
                sqlite_cols = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
                columns = [(c, t) for c, t in pg_columns.get(table, []) if c in sqlite_cols]
                if not columns:
                    continue
                names = {c for c, _ in columns}
                select = []
                for c, t in columns:
                    if t == "bytea":
                        select.append(f"CASE WHEN {c} IS NULL THEN '\\N' ELSE '\\x' || hex({c}) END")
                    elif c == "host":
                        key = "coalesce(parent_build_id, id)" if "parent_build_id" in names else ("id" if "id" in names else "0")
                        select.append(f"CASE WHEN host = '' THEN 'host-' || (({key}) % {hosts} + 1) ELSE host END")
                    else:
                        select.append(f"coalesce({c}, '\\N')")
                script.write(f"COPY {table} ({', '.join(c for c, _ in columns)}) FROM STDIN (FORMAT csv, NULL '\\N');\n")
                writer.writerows(con.execute(f"SELECT {', '.join(select)} FROM {table}"))
                script.write("\\.\n")
                rows[table] = con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for _, definition in indexes:
                script.write(definition + ";\n")
            # Identities continue after the copied ids, as if the rows had been inserted.
            for table, columns in pg_columns.items():
                if ("id", "bigint") in columns and table in rows:
                    script.write(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                 f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false);\n")
            script.write("COMMIT;\n")
            script.close()
        except BrokenPipeError:
            pass  # psql stopped at an error: its message follows
        finally:
            con.close()
        rc = proc.wait()
        err.seek(0)
        message = err.read().decode("utf-8", "replace").strip()
    if rc != 0:
        raise RuntimeError(f"loading {qdb} into {redact(url)} failed: {message[-800:] or rc}")
    copied = time.perf_counter() - t0
    server.run(url, "VACUUM ANALYZE")
    size = int(server.query(url, "SELECT pg_database_size(current_database())"))
    return url, {"load_s": time.perf_counter() - t0, "copy_s": copied, "rows": rows,
                 "database_bytes": size, "superuser_copy": superuser}


def timed_runs(cmd: list[str], runs: int, timeout: float, out_path: str) -> dict:
    """The median wall time of `runs` runs of cmd (stdout to out_path), each killed after `timeout`
    seconds: a query that does not finish in time is reported as such, and not run again."""
    walls = []
    for _ in range(runs):
        with open(out_path, "wb") as out, tempfile.TemporaryFile() as err:
            t0 = time.perf_counter()
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            try:
                rc = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                return {"rc": -9, "timed_out": True, "error": f"timed out after {timeout:g} s", "runs": len(walls)}
            walls.append(time.perf_counter() - t0)
            if rc != 0:
                err.seek(0)
                tail = err.read()[-2000:].decode("utf-8", "replace").strip()
                return {"rc": rc, "error": tail.splitlines()[-1] if tail else f"exit status {rc}", "runs": len(walls)}
    return {"rc": 0, "wall_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls), "runs": runs,
            "output_bytes": os.path.getsize(out_path)}


def fleet_queries(catalog: str, qdb: str, pg_url: str, values: dict, runs: int, run_dir: str,
                  timeout: float) -> list[dict]:
    """Each query command as a whole process on the SQLite file and on PostgreSQL (median of runs),
    and with `--host host-3` on PostgreSQL where the command has the option."""
    plan = [("expiring --days 30", ["expiring", "--days", "30"], True),
            ("profiles --team", ["profiles", "--team", values.get("team")], values.get("team")),
            ("builds BUNDLE", ["builds", values.get("bundle")], values.get("bundle")),
            ("devices UDID", ["devices", values.get("udid")], values.get("udid")),
            ("show UUID", ["show", values.get("uuid")], values.get("uuid")),
            ("stats", ["stats"], True)]
    out_path = os.path.join(run_dir, "fleet-query.out")
    results = []
    for label, sub, ok in plan:
        if not ok:
            results.append({"query": label, "skipped": "no value found in the catalogue"})
            continue
        row: dict = {"query": label, "args": sub}
        for engine, db in (("sqlite", qdb), ("postgresql", pg_url)):
            log(f"fleet query {label} on {engine}")
            row[engine] = timed_runs([catalog] + sub + ["--db", db, "--json"], runs, timeout, out_path)
        command = sub[0]
        if supports_option(catalog, command, "--host"):
            log(f"fleet query {label} --host host-3 on postgresql")
            row["postgresql_host"] = timed_runs([catalog] + sub + ["--host", "host-3", "--db", pg_url, "--json"],
                                                runs, timeout, out_path)
        else:
            row["host_skipped"] = f"`catalog {command}` has no --host option in this binary"
        s, p = row["sqlite"], row["postgresql"]
        if s["rc"] == 0 and p["rc"] == 0 and s["wall_s"] > 0:
            row["ratio"] = p["wall_s"] / s["wall_s"]
        results.append(row)
    return results
