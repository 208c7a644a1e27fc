#!/usr/bin/env python3
"""Generate Fixtures/crash/: crash reports of both formats Apple writes, for the fixture builds (their
real LC_UUIDs, read from the committed Mach-O files at generation time), plus truncated and hostile ones.

- `signed.ips`: iOS 16 JSON report of Fixtures/codesign/Signed.app (header line + JSON body), the crashed
  thread's frames in the app, its widget and a system library.
- `signed-ios14.crash`: a text report from iOS 14, whose `Version:` is `BUILD (SHORT)`, main image marked `+`.
- `signed-ios16.crash`: a text report from iOS 16, `Version:` as `SHORT (BUILD)`.
- `signed-mac.crash`: a macOS 13 text report of SignedMac.app under Rosetta: images named by bundle id with a
  version in parentheses or `(*)`, no architecture (the `Code Type:` line has it), the x86_64 slice's UUID.
- `header-then-text.ips`: a JSON header line followed by a text report.
- `trailer.ips`: a JSON body followed by a `System Profile:` text block.
- `rebuilt.ips`: Signed.app's bundle id and version with a UUID no catalogued build has.
- `Signed.xccrashpoint/DistributionInfos/all/Logs/…crash`: Xcode Organizer's bundle around a text report.
- `malformed/truncated.ips` (cut inside the body), `malformed/truncated.crash` (cut before Binary Images),
  `malformed/deep.ips` (JSON nested 10,000 deep), `malformed/bad-image-line.crash`.
Python standard library only; deterministic.
"""

import json
import os
import shutil
import struct
import sys

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
OUT = os.path.join(HERE, "crash")
CODESIGN = os.path.join(HERE, "codesign")


def slices(path):
    """(arch, uuid hex) of each slice of a Mach-O file."""
    data = open(path, "rb").read()
    found = []

    def thin(offset):
        magic = struct.unpack_from("<I", data, offset)[0]
        is64 = magic == 0xFEEDFACF
        cputype, _ = struct.unpack_from("<II", data, offset + 4)
        ncmds = struct.unpack_from("<I", data, offset + 16)[0]
        position = offset + (32 if is64 else 28)
        arch = {0x0100000C: "arm64", 0x01000007: "x86_64"}.get(cputype, "arm64")
        for _ in range(ncmds):
            cmd, size = struct.unpack_from("<II", data, position)
            if cmd == 0x1B:
                found.append((arch, data[position + 8:position + 24].hex()))
            position += size

    if struct.unpack_from(">I", data, 0)[0] == 0xCAFEBABE:
        for index in range(struct.unpack_from(">I", data, 4)[0]):
            thin(struct.unpack_from(">I", data, 8 + index * 20 + 8)[0])
    else:
        thin(0)
    return found


def dashed(hex32):
    h = hex32.upper()
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def write(relative, text):
    path = os.path.join(OUT, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


APP = slices(os.path.join(CODESIGN, "Signed.app/Signed"))[0][1]
WIDGET = slices(os.path.join(CODESIGN, "Signed.app/PlugIns/Widget.appex/Widget"))[0][1]
MAC = dict(slices(os.path.join(CODESIGN, "SignedMac.app/Contents/MacOS/SignedMac")))
LIBSYSTEM = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
BUNDLE_PATH = "/private/var/containers/Bundle/Application/5E1A2B3C-0000-4000-8000-000000000001/Signed.app"
APP_BASE, WIDGET_BASE, SYSTEM_BASE = 0x100E6C000, 0x101200000, 0x1C09E6000


def ips(slice_uuid, *, os_version="iPhone OS 16.1 (20B82)", version=("9.0", "900"), trailer=""):
    header = {"app_name": "Signed", "timestamp": "2026-11-20 10:46:10.00 +0100", "app_version": version[0],
              "slice_uuid": dashed(slice_uuid).lower(), "build_version": version[1], "platform": 2,
              "bundleID": "com.example.app", "share_with_app_devs": 0, "is_first_party": 0, "bug_type": "309",
              "os_version": os_version, "incident_id": "7D3C1A2B-1111-4222-8333-444455556666", "name": "Signed"}
    body = {
        "uptime": 1200, "procRole": "Foreground", "version": 2, "userID": 501, "deployVersion": 210, "modelCode": "iPhone14,5",
        "procStartAbsTime": 1, "coalitionID": 1, "osVersion": {"isEmbedded": True, "train": "iPhone OS 16.1", "releaseType": "User",
                                                               "build": "20B82"},
        "captureTime": "2026-11-20 10:46:10.1234 +0100", "incident": "7D3C1A2B-1111-4222-8333-444455556666", "pid": 1234,
        "cpuType": "ARM-64", "procName": "Signed", "procPath": BUNDLE_PATH + "/Signed",
        "bundleInfo": {"CFBundleShortVersionString": version[0], "CFBundleVersion": version[1], "CFBundleIdentifier": "com.example.app"},
        "exception": {"codes": "0x0000000000000001, 0x0000000100e6f9a4", "type": "EXC_BREAKPOINT", "signal": "SIGTRAP"},
        "faultingThread": 0,
        "threads": [
            {"triggered": True, "id": 100, "queue": "com.apple.main-thread", "frames": [
                {"imageOffset": 14756, "imageIndex": 0},
                {"imageOffset": 2048, "imageIndex": 1},
                {"imageOffset": 164884, "symbol": "__pthread_kill", "symbolLocation": 8, "imageIndex": 2}]},
            {"id": 101, "frames": [{"imageOffset": 4096, "imageIndex": 2}]}],
        "usedImages": [
            {"source": "P", "arch": "arm64", "base": APP_BASE, "size": 32768, "uuid": dashed(APP).lower(),
             "path": BUNDLE_PATH + "/Signed", "name": "Signed"},
            {"source": "P", "arch": "arm64", "base": WIDGET_BASE, "size": 16384, "uuid": dashed(WIDGET).lower(),
             "path": BUNDLE_PATH + "/PlugIns/Widget.appex/Widget", "name": "Widget"},
            {"source": "P", "arch": "arm64e", "base": SYSTEM_BASE, "size": 229376, "uuid": dashed(LIBSYSTEM).lower(),
             "path": "/usr/lib/system/libsystem_kernel.dylib", "name": "libsystem_kernel.dylib"}],
    }
    return json.dumps(header, sort_keys=True) + "\n" + json.dumps(body, indent=2, sort_keys=True) + "\n" + trailer


def text_report(os_version, version_line, *, marker="+", header=True):
    lines = []
    if header:
        lines += ["Incident Identifier: 9A8B7C6D-1111-4222-8333-444455556666", "CrashReporter Key:   0123456789abcdef",
                  "Hardware Model:      iPhone12,1", "Process:             Signed [1234]",
                  "Path:                %s/Signed" % BUNDLE_PATH, "Identifier:          com.example.app",
                  "Version:             %s" % version_line, "Code Type:           ARM-64 (Native)", "Role:                Foreground",
                  "Parent Process:      launchd [1]", "", "Date/Time:           2026-11-20 10:46:10.1234 +0100",
                  "Launch Time:         2026-11-20 10:40:00.0000 +0100", "OS Version:          %s" % os_version,
                  "Release Type:        User", "Report Version:      104", ""]
    lines += ["Exception Type:  EXC_BREAKPOINT (SIGTRAP)", "Triggered by Thread:  0", "",
              "Thread 0 name:  Dispatch queue: com.apple.main-thread", "Thread 0 Crashed:",
              "0   Signed                        \t0x%016x 0x%x + 14756" % (APP_BASE + 14756, APP_BASE),
              "1   Widget                        \t0x%016x 0x%x + 2048" % (WIDGET_BASE + 2048, WIDGET_BASE),
              "2   libsystem_kernel.dylib        \t0x%016x __pthread_kill + 8" % (SYSTEM_BASE + 164884), "",
              "Thread 1:", "0   libsystem_kernel.dylib        \t0x%016x 0x%x + 4096" % (SYSTEM_BASE + 4096, SYSTEM_BASE), "",
              "Binary Images:",
              "0x%x - 0x%x %sSigned arm64  <%s> %s/Signed" % (APP_BASE, APP_BASE + 32767, marker, APP, BUNDLE_PATH),
              "0x%x - 0x%x Widget arm64  <%s> %s/PlugIns/Widget.appex/Widget" % (WIDGET_BASE, WIDGET_BASE + 16383, WIDGET, BUNDLE_PATH),
              "0x%x - 0x%x libsystem_kernel.dylib arm64e  <%s> /usr/lib/system/libsystem_kernel.dylib"
              % (SYSTEM_BASE, SYSTEM_BASE + 229375, LIBSYSTEM), "", "EOF", ""]
    return "\n".join(lines)


def mac_report():
    base = 0x10F3D5000
    lines = ["Process:               SignedMac [4321]", "Path:                  /Applications/SignedMac.app/Contents/MacOS/SignedMac",
             "Identifier:            com.example.mac", "Version:               9.0 (900)", "Code Type:             X86-64 (Translated)",
             "Parent Process:        launchd [1]", "", "Date/Time:             2026-11-20 10:46:10.123 +0100",
             "OS Version:            macOS 13.2 (22D49)", "", "Crashed Thread:        0  Dispatch queue: com.apple.main-thread", "",
             "Thread 0 Crashed::  Dispatch queue: com.apple.main-thread",
             "0   com.example.mac               \t0x%016x 0x%x + 4096" % (base + 4096, base), "", "Binary Images:",
             "       0x%x -        0x%x com.example.mac (9.0 - 900) <%s> /Applications/SignedMac.app/Contents/MacOS/SignedMac"
             % (base, base + 65535, dashed(MAC["x86_64"])),
             "    0x7ff80ee2c000 -     0x7ff80ee63fff libsystem_kernel.dylib (*) <%s> /usr/lib/system/libsystem_kernel.dylib"
             % dashed(LIBSYSTEM), ""]
    return "\n".join(lines)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    write("signed.ips", ips(APP))
    write("signed-ios14.crash", text_report("iPhone OS 14.4 (18D52)", "900 (9.0)"))
    write("signed-ios16.crash", text_report("iOS 16.1 (20B82)", "9.0 (900)", marker=""))
    write("signed-mac.crash", mac_report())
    header = json.loads(ips(APP).split("\n", 1)[0])
    write("header-then-text.ips", json.dumps(header, sort_keys=True) + "\n" + text_report("iOS 16.1 (20B82)", "9.0 (900)"))
    write("trailer.ips", ips(APP, trailer="\nSystem Profile:\nModel: iPhone14,5, BootROM 8419.40.112\n"))
    write("rebuilt.ips", ips("00112233445566778899aabbccddeeff").replace(dashed(APP).lower(), dashed("00112233445566778899aabbccddeeff").lower()))
    write("Signed.xccrashpoint/DistributionInfos/all/Logs/LocalLog_2026-11-20_Signed.crash",
          text_report("iOS 16.1 (20B82)", "9.0 (900)"))
    full = ips(APP)
    write("malformed/truncated.ips", full[:len(full) // 2])
    whole = text_report("iOS 16.1 (20B82)", "9.0 (900)")
    write("malformed/truncated.crash", whole[:whole.index("Binary Images:")])
    write("malformed/deep.ips", full.split("\n", 1)[0] + "\n" + "[" * 10000 + "]" * 10000 + "\n")
    write("malformed/bad-image-line.crash", whole.replace("0x%x - 0x%x Widget" % (WIDGET_BASE, WIDGET_BASE + 16383), "0xZZ - Widget"))


if __name__ == "__main__":
    main()
