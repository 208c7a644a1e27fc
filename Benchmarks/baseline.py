#!/usr/bin/env python3
"""The yardstick: what a user would write instead of `catalog ingest`.

    python3 Benchmarks/baseline.py DB ROOT...

Walks the roots with os.walk and stores profiles, their devices and builds in SQLite, in one
transaction. Profiles are read the way the original blog post does it: find `<plist` … `</plist>` in
the file's bytes and hand that slice to plistlib (no CMS parsing, no certificate parsing — only a
count). `.app`/`.appex` bundles: Info.plist plus embedded profile; `.xcarchive`: Info.plist
ApplicationProperties plus the archived app's profile; `.ipa`: zipfile, the shortest
Payload/*.app/Info.plist and its embedded.mobileprovision; loose Info.plists: read as builds when
they name a bundle. Python standard library only. It is meant to be honest and reasonably quick,
not robust: it skips what it cannot read.
"""

import json
import os
import plistlib
import sqlite3
import sys
import zipfile

PROFILE_EXTS = (".mobileprovision", ".provisionprofile")
SCHEMA = """
CREATE TABLE IF NOT EXISTS profiles (
    uuid TEXT PRIMARY KEY, path TEXT, name TEXT, app_id_name TEXT, team_id TEXT, team_name TEXT,
    platform TEXT, creation_date TEXT, expiration_date TEXT, application_identifier TEXT,
    entitlements TEXT, certificate_count INTEGER, device_count INTEGER, provisions_all_devices INTEGER);
CREATE TABLE IF NOT EXISTS devices (profile_uuid TEXT, udid TEXT, PRIMARY KEY (profile_uuid, udid));
CREATE TABLE IF NOT EXISTS builds (
    path TEXT PRIMARY KEY, kind TEXT, bundle_id TEXT, name TEXT, short_version TEXT, build TEXT,
    team_id TEXT, profile_uuid TEXT);
"""


def plist_from_profile(data: bytes):
    start = data.find(b"<?xml")
    if start < 0:
        start = data.find(b"<plist")
    end = data.find(b"</plist>", start)
    if start < 0 or end < 0:
        return None
    body = data[start:end + len(b"</plist>")]
    if not body.startswith(b"<?xml"):
        body = b'<?xml version="1.0" encoding="UTF-8"?>\n' + body
    try:
        return plistlib.loads(body)
    except Exception:
        return None


def iso(d):
    return d.isoformat() if hasattr(d, "isoformat") else None


class Baseline:
    def __init__(self, db):
        self.db = db
        self.profiles = self.builds = self.errors = 0

    def profile(self, path, data):
        pl = plist_from_profile(data)
        if not isinstance(pl, dict) or "UUID" not in pl:
            self.errors += 1
            return None
        ent = pl.get("Entitlements") or {}
        devices = pl.get("ProvisionedDevices") or []
        uuid = str(pl["UUID"]).upper()
        self.db.execute(
            "INSERT OR REPLACE INTO profiles VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (uuid, path, pl.get("Name"), pl.get("AppIDName"), (pl.get("TeamIdentifier") or [None])[0],
             pl.get("TeamName"), ",".join(pl.get("Platform") or ["iOS"]), iso(pl.get("CreationDate")),
             iso(pl.get("ExpirationDate")),
             ent.get("application-identifier") or ent.get("com.apple.application-identifier"),
             json.dumps(ent, default=str, sort_keys=True), len(pl.get("DeveloperCertificates") or []),
             len(devices), int(bool(pl.get("ProvisionsAllDevices")))))
        self.db.execute("DELETE FROM devices WHERE profile_uuid = ?", (uuid,))
        self.db.executemany("INSERT OR IGNORE INTO devices VALUES (?, ?)", ((uuid, d) for d in devices))
        self.profiles += 1
        return uuid

    def build(self, path, kind, info, team=None, profile_uuid=None):
        if not isinstance(info, dict):
            self.errors += 1
            return
        self.db.execute("INSERT OR REPLACE INTO builds VALUES (?,?,?,?,?,?,?,?)",
                        (path, kind, info.get("CFBundleIdentifier"), info.get("CFBundleName"),
                         str(info.get("CFBundleShortVersionString", "0.0")), str(info.get("CFBundleVersion", "0")),
                         team, profile_uuid))
        self.builds += 1

    @staticmethod
    def read(path):
        with open(path, "rb") as f:
            return f.read()

    def load_plist(self, path):
        try:
            return plistlib.loads(self.read(path))
        except Exception:
            self.errors += 1
            return None

    def bundle(self, path):
        info_path = os.path.join(path, "Info.plist")
        prof_path = os.path.join(path, "embedded.mobileprovision")
        if not os.path.exists(info_path):  # macOS layout
            info_path = os.path.join(path, "Contents", "Info.plist")
            prof_path = os.path.join(path, "Contents", "embedded.provisionprofile")
        if not os.path.exists(info_path):
            return
        uuid = self.profile(prof_path, self.read(prof_path)) if os.path.exists(prof_path) else None
        self.build(path, "app", self.load_plist(info_path), profile_uuid=uuid)

    def archive(self, path):
        info = self.load_plist(os.path.join(path, "Info.plist"))
        if not isinstance(info, dict):
            return
        props = info.get("ApplicationProperties")
        app_dir = os.path.join(path, "Products", props.get("ApplicationPath", "")) if props else None
        if not props:  # fall back to the archived app
            apps_dir = os.path.join(path, "Products", "Applications")
            apps = [a for a in os.listdir(apps_dir) if a.endswith(".app")] if os.path.isdir(apps_dir) else []
            if not apps:
                self.errors += 1
                return
            app_dir = os.path.join(apps_dir, apps[0])
            props = self.load_plist(os.path.join(app_dir, "Info.plist"))
        prof_path = os.path.join(app_dir, "embedded.mobileprovision")
        uuid = self.profile(prof_path, self.read(prof_path)) if os.path.exists(prof_path) else None
        self.build(path, "xcarchive", props, team=props.get("Team") if isinstance(props, dict) else None,
                   profile_uuid=uuid)

    def ipa(self, path):
        try:
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                infos = [n for n in names if n.startswith("Payload/") and n.endswith(".app/Info.plist")]
                if not infos:
                    self.errors += 1
                    return
                info_name = min(infos, key=len)
                app = info_name[: -len("Info.plist")]
                uuid = None
                if app + "embedded.mobileprovision" in names:
                    uuid = self.profile(path + "!" + app + "embedded.mobileprovision",
                                        z.read(app + "embedded.mobileprovision"))
                self.build(path, "ipa", plistlib.loads(z.read(info_name)), profile_uuid=uuid)
        except Exception:
            self.errors += 1

    def loose_info_plist(self, path):
        try:
            info = plistlib.loads(self.read(path))
        except Exception:
            return  # templates and other non-plists named Info.plist
        if isinstance(info, dict) and info.get("CFBundleIdentifier") and \
                info.get("CFBundlePackageType") not in ("FMWK", "BNDL", "dSYM"):
            self.build(path, "plist", info)

    def walk(self, root):
        for dirpath, dirnames, filenames in os.walk(root):
            base = os.path.basename(dirpath)
            if base.endswith(".xcarchive"):
                self.archive(dirpath)
                dirnames[:] = []
                continue
            in_bundle = base.endswith((".app", ".appex"))
            if in_bundle:
                self.bundle(dirpath)  # and keep walking: PlugIns/ and Watch/ hold more bundles
            for name in filenames:
                path = os.path.join(dirpath, name)
                if name.endswith(PROFILE_EXTS):
                    if not name.startswith("embedded."):
                        self.profile(path, self.read(path))
                elif name.endswith(".ipa"):
                    self.ipa(path)
                elif name == "Info.plist" and not in_bundle and not dirpath.endswith(".app/Contents"):
                    self.loose_info_plist(path)


def main(argv):
    if len(argv) < 2:
        print("usage: baseline.py DB ROOT...", file=sys.stderr)
        return 64
    db = sqlite3.connect(argv[0], isolation_level=None)
    db.executescript(SCHEMA)
    db.execute("BEGIN")
    b = Baseline(db)
    for root in argv[1:]:
        b.walk(root)
    db.execute("CREATE INDEX IF NOT EXISTS devices_udid ON devices (udid)")
    db.execute("CREATE INDEX IF NOT EXISTS profiles_team ON profiles (team_id)")
    db.execute("CREATE INDEX IF NOT EXISTS builds_bundle ON builds (bundle_id)")
    db.execute("COMMIT")
    db.close()
    print(f"baseline: {b.profiles} profiles, {b.builds} builds, {b.errors} skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
