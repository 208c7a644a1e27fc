#!/usr/bin/env python3
"""Writes Fixtures/symbolication/'s plists and crash reports around the app make_symbolication.sh
linked: an .ips and a text .crash whose frames point into the app's Swift and C functions at a
slid load address, so `catalog crash --symbolicate` has known answers (README of Fixtures)."""
import json
import os
import plistlib
import struct
import subprocess
import sys

out, binary, dwarf = sys.argv[1], sys.argv[2], sys.argv[3]


def load_commands(path):
    """The LC_UUID and the __TEXT segment's vmaddr of a thin 64-bit Mach-O."""
    data = open(path, "rb").read()
    magic, _, _, _, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
    assert magic == 0xFEEDFACF, "a thin 64-bit Mach-O"
    offset, uuid, text = 32, None, None
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if cmd == 0x1B:
            uuid = data[offset + 8:offset + 24].hex().upper()
        elif cmd == 0x19 and data[offset + 8:offset + 24].rstrip(b"\0") == b"__TEXT":
            text = struct.unpack_from("<Q", data, offset + 24)[0]
        offset += size
    return uuid, text


def symbols(path):
    nm = next(p for p in ("llvm-nm", "/usr/lib/llvm-14/bin/llvm-nm") if subprocess.run(["sh", "-c", f"command -v {p}"],
                                                                                        capture_output=True).returncode == 0)
    table = {}
    for line in subprocess.run([nm, path], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


uuid, text = load_commands(binary)
assert (uuid, text) == load_commands(dwarf), "the dSYM describes the binary"
names = symbols(binary)
BASE, SIZE = 0x102A38000, 0x8000
SYSTEM_BASE, SYSTEM_UUID = 0x1C09E6000, "0F1E2D3C4B5A69788796A5B4C3D2E1F0"
BUNDLE = "/private/var/containers/Bundle/Application/5E1A2B3C-0000-4000-8000-00000000D3E0/Demo.app"


def offset(symbol, delta):
    return names[symbol] - text + delta


# The crashed thread: crash() (the faulting PC), work() and the C caller (return addresses), start.
CRASHED = [offset("_$s4Demo5crashyBi64_Bi64_F", 0xC), offset("_$s4Demo4workyBi64_Bi64_F", 0x18),
           offset("_handle_request", 4), offset("_start", 0x10)]
OTHER = [offset("_start", 0x10)]


def dashed(hex32):
    return "-".join((hex32[:8], hex32[8:12], hex32[12:16], hex32[16:20], hex32[20:]))


def write(name, content, binary_mode=False):
    path = os.path.join(out, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if binary_mode else "w", **({} if binary_mode else {"encoding": "utf-8", "newline": "\n"})) as f:
        f.write(content)


info = {"CFBundleIdentifier": "com.example.demo", "CFBundleShortVersionString": "3.1", "CFBundleVersion": "310",
        "CFBundleExecutable": "Demo", "CFBundleName": "Demo", "CFBundlePackageType": "APPL", "MinimumOSVersion": "15.0",
        "CFBundleSupportedPlatforms": ["iPhoneOS"]}
write("Demo.xcarchive/Products/Applications/Demo.app/Info.plist", plistlib.dumps(info), True)
write("Demo.xcarchive/dSYMs/Demo.app.dSYM/Contents/Info.plist", plistlib.dumps({
    "CFBundleIdentifier": "com.apple.xcode.dsym.com.example.demo", "CFBundlePackageType": "dSYM",
    "CFBundleShortVersionString": "3.1", "CFBundleVersion": "310", "CFBundleDevelopmentRegion": "English",
    "CFBundleInfoDictionaryVersion": "6.0", "CFBundleSignature": "????"}), True)
write("Demo.xcarchive/Info.plist", plistlib.dumps({
    "ApplicationProperties": {"ApplicationPath": "Applications/Demo.app", "Architectures": ["arm64"],
                              "CFBundleIdentifier": "com.example.demo", "CFBundleShortVersionString": "3.1",
                              "CFBundleVersion": "310"},
    "ArchiveVersion": 2, "CreationDate": __import__("datetime").datetime(2026, 4, 1, 9, 0, 0), "Name": "Demo",
    "SchemeName": "Demo"}), True)

header = {"app_name": "Demo", "timestamp": "2026-11-21 08:15:42.00 +0000", "app_version": "3.1", "build_version": "310",
          "slice_uuid": dashed(uuid).lower(), "platform": 2, "bundleID": "com.example.demo", "bug_type": "309",
          "os_version": "iPhone OS 17.1 (21B74)", "incident_id": "0D3E0C2A-5B1F-4C6D-9E7A-8B9C0D1E2F30", "name": "Demo"}
body = {
    "procName": "Demo", "procPath": BUNDLE + "/Demo", "cpuType": "ARM-64", "modelCode": "iPhone15,2",
    "incident": header["incident_id"], "captureTime": "2026-11-21 08:15:42.5000 +0000",
    "osVersion": {"isEmbedded": True, "train": "iPhone OS 17.1", "build": "21B74"},
    "bundleInfo": {"CFBundleShortVersionString": "3.1", "CFBundleVersion": "310", "CFBundleIdentifier": "com.example.demo"},
    "exception": {"type": "EXC_BAD_ACCESS", "signal": "SIGSEGV", "subtype": "KERN_INVALID_ADDRESS at 0x0"},
    "faultingThread": 0,
    "threads": [
        {"triggered": True, "id": 7001, "queue": "com.apple.main-thread",
         "frames": [{"imageOffset": o, "imageIndex": 0} for o in CRASHED]},
        {"id": 7002, "frames": [{"imageOffset": 4096, "symbol": "__workq_kernreturn", "symbolLocation": 8, "imageIndex": 1}]
         + [{"imageOffset": o, "imageIndex": 0} for o in OTHER]}],
    "usedImages": [
        {"source": "P", "arch": "arm64", "base": BASE, "size": SIZE, "uuid": dashed(uuid).lower(), "path": BUNDLE + "/Demo",
         "name": "Demo"},
        {"source": "P", "arch": "arm64e", "base": SYSTEM_BASE, "size": 229376, "uuid": dashed(SYSTEM_UUID).lower(),
         "path": "/usr/lib/system/libsystem_kernel.dylib", "name": "libsystem_kernel.dylib"}],
}
write("demo.ips", json.dumps(header, sort_keys=True) + "\n" + json.dumps(body, indent=2, sort_keys=True) + "\n")

lines = ["Incident Identifier: " + header["incident_id"], "Hardware Model:      iPhone15,2", "Process:             Demo [4242]",
         "Path:                " + BUNDLE + "/Demo", "Identifier:          com.example.demo", "Version:             3.1 (310)",
         "Code Type:           ARM-64 (Native)", "", "Date/Time:           2026-11-21 08:15:42.5000 +0000",
         "OS Version:          iPhone OS 17.1 (21B74)", "", "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)", "Triggered by Thread:  0", "",
         "Thread 0 name:  Dispatch queue: com.apple.main-thread", "Thread 0 Crashed:"]
for index, o in enumerate(CRASHED):
    lines.append(f"{index:<4}Demo                          \t0x{BASE + o:016x} 0x{BASE:x} + {o}")
lines += ["", "Thread 1:", f"0   libsystem_kernel.dylib        \t0x{SYSTEM_BASE + 4096:016x} __workq_kernreturn + 8",
          f"1   Demo                          \t0x{BASE + OTHER[0]:016x} 0x{BASE:x} + {OTHER[0]}", "", "Binary Images:",
          f"       0x{BASE:x} -        0x{BASE + SIZE - 1:x} Demo arm64  <{uuid.lower()}> {BUNDLE}/Demo",
          f"       0x{SYSTEM_BASE:x} -        0x{SYSTEM_BASE + 229375:x} libsystem_kernel.dylib arm64e  <{SYSTEM_UUID.lower()}> "
          "/usr/lib/system/libsystem_kernel.dylib", "", "EOF", ""]
write("demo.crash", "\n".join(lines))
json.dump({"uuid": dashed(uuid), "text_address": hex(text), "load_address": hex(BASE),
           "crashed_frames": [hex(BASE + o) for o in CRASHED]}, open(os.path.join(out, "expected.json"), "w"), indent=2, sort_keys=True)
