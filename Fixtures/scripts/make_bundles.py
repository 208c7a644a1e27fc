#!/usr/bin/env python3
"""Generate Info.plists (Fixtures/plists/), bundles (Fixtures/bundles/), the IPA (Fixtures/ipa/) and
the malformed bundle inputs (Fixtures/malformed/lying-size.ipa, empty-dir.xcarchive/).

Runs after make_profiles.py: bundles embed copies of Fixtures/profiles/*. Deterministic (fixed
dates, fixed seeds, fixed zip timestamps).
"""

import datetime as dt
import os
import plistlib
import random
import shutil
import struct
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # Fixtures/
PROFILES = os.path.join(HERE, "profiles")
PLISTS = os.path.join(HERE, "plists")
BUNDLES = os.path.join(HERE, "bundles")
IPA = os.path.join(HERE, "ipa")
MALFORMED = os.path.join(HERE, "malformed")
LENIENT = os.path.join(HERE, "lenient")
ZIP_TIME = (2026, 1, 20, 12, 0, 0)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def profile(name):
    with open(os.path.join(PROFILES, name), "rb") as f:
        return f.read()


def xml(d):
    return plistlib.dumps(d, fmt=plistlib.FMT_XML, sort_keys=True)


def binary(d):
    return plistlib.dumps(d, fmt=plistlib.FMT_BINARY, sort_keys=True)


def ios_info(bundle_id, short, build, name, executable, package="APPL", **extra):
    d = {
        "CFBundleIdentifier": bundle_id,
        "CFBundleShortVersionString": short,
        "CFBundleVersion": build,
        "CFBundleName": name,
        "CFBundleDisplayName": name,
        "CFBundlePackageType": package,
        "CFBundleExecutable": executable,
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
        "CFBundleInfoDictionaryVersion": "6.0",
        "MinimumOSVersion": "16.0",
        "UIDeviceFamily": [1, 2],
    }
    d.update(extra)
    return d


def fake_executable(seed, size):
    # Mach-O 64-bit magic followed by seeded noise: looks like a binary, decodes as nothing.
    rnd = random.Random(seed)
    return b"\xcf\xfa\xed\xfe" + bytes(rnd.getrandbits(8) for _ in range(size - 4))


def plists():
    app = ios_info("com.example.app", "1.2", "34", "Example", "Example")
    write(os.path.join(PLISTS, "app-xml.plist"), xml(app))
    write(os.path.join(PLISTS, "app-binary.plist"), binary(app))
    nover = dict(app)
    del nover["CFBundleShortVersionString"]
    del nover["CFBundleVersion"]
    nover["CFBundleIdentifier"] = "com.example.noversion"
    write(os.path.join(PLISTS, "no-version.plist"), xml(nover))
    ph = ios_info("$(PRODUCT_BUNDLE_IDENTIFIER)", "$(MARKETING_VERSION)", "$(CURRENT_PROJECT_VERSION)",
                  "$(PRODUCT_NAME)", "$(EXECUTABLE_NAME)", package="$(PRODUCT_BUNDLE_PACKAGE_TYPE)")
    ph["CFBundleDisplayName"] = "Example"
    write(os.path.join(PLISTS, "placeholder.plist"), xml(ph))
    fw = {
        "CFBundleIdentifier": "com.example.ExampleKit",
        "CFBundleShortVersionString": "3.1.0",
        "CFBundleVersion": "310",
        "CFBundleName": "ExampleKit",
        "CFBundlePackageType": "FMWK",
        "CFBundleExecutable": "ExampleKit",
        "CFBundleSupportedPlatforms": ["iPhoneOS"],
        "MinimumOSVersion": "16.0",
    }
    write(os.path.join(PLISTS, "framework.plist"), xml(fw))
    # A Go/Wails template named like an Info.plist: not a plist at all.
    # Like Wails' build/darwin/Info.plist: no XML declaration, template actions as text between
    # elements (CoreFoundation rejects non-whitespace text inside <dict>; plistlib rejects the file
    # because it does not start with <?xml or <plist).
    write(os.path.join(PLISTS, "not-a-plist.plist"), (
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
        '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        '<plist version="1.0">\n'
        '    <dict>\n'
        '        <key>CFBundleName</key>\n'
        '        <string>{{.Info.ProductName}}</string>\n'
        '        {{if .Info.FileAssociations}}\n'
        '        <key>CFBundleDocumentTypes</key>\n'
        '        <array>\n'
        '          {{range .Info.FileAssociations}}\n'
        '          <dict><key>CFBundleTypeExtensions</key><array><string>{{.Ext}}</string></array></dict>\n'
        '          {{end}}\n'
        '        </array>\n'
        '        {{end}}\n'
        '        <key>CFBundleVersion</key>\n'
        '        <string>{{.Info.ProductVersion}}</string>\n'
        '    </dict>\n'
        '</plist>\n').encode())


def app_bundle(root, short, build, profile_name, widget=True):
    write(os.path.join(root, "Info.plist"), binary(ios_info("com.example.app", short, build, "Example",
                                                            "Example")))
    write(os.path.join(root, "embedded.mobileprovision"), profile(profile_name))
    write(os.path.join(root, "Example"), fake_executable(1, 4096))
    if widget:
        w = os.path.join(root, "PlugIns", "Widget.appex")
        write(os.path.join(w, "Info.plist"), binary(ios_info(
            "com.example.app.widget", short, build, "Widget", "Widget", package="XPC!",
            NSExtension={"NSExtensionPointIdentifier": "com.apple.widgetkit-extension"})))
        write(os.path.join(w, "embedded.mobileprovision"), profile("ios-widget-adhoc.mobileprovision"))
        write(os.path.join(w, "Widget"), fake_executable(2, 2048))


def mac_info(bundle_id, name, package, **extra):
    d = {
        "CFBundleIdentifier": bundle_id,
        "CFBundleShortVersionString": "2.0",
        "CFBundleVersion": "200",
        "CFBundleName": name,
        "CFBundlePackageType": package,
        "CFBundleExecutable": name,
        "CFBundleSupportedPlatforms": ["MacOSX"],
        "CFBundleInfoDictionaryVersion": "6.0",
        "LSMinimumSystemVersion": "13.0",
    }
    d.update(extra)
    return d


def mac_host():
    """A macOS app carrying the two nested bundle kinds only macOS has: an ExtensionKit extension
    (Contents/Extensions/*.appex) and a system extension (Contents/Library/SystemExtensions/
    *.systemextension), each with its own Contents/embedded.provisionprofile. No Developer ID
    profile: it provisions every device, and the device tests count the builds a device can install."""
    host = os.path.join(BUNDLES, "ExampleMacHost.app", "Contents")
    write(os.path.join(host, "Info.plist"), xml(mac_info("com.example.machost", "ExampleMacHost", "APPL")))
    write(os.path.join(host, "embedded.provisionprofile"), profile("macos-development.provisionprofile"))
    write(os.path.join(host, "MacOS", "ExampleMacHost"), fake_executable(6, 2048))
    ext = os.path.join(host, "Extensions", "Share.appex", "Contents")
    write(os.path.join(ext, "Info.plist"), xml(mac_info(
        "com.example.machost.share", "Share", "XPC!",
        EXAppExtensionAttributes={"EXExtensionPointIdentifier": "com.apple.share-services"})))
    write(os.path.join(ext, "embedded.provisionprofile"), profile("macos-appstore.provisionprofile"))
    write(os.path.join(ext, "MacOS", "Share"), fake_executable(7, 1024))
    sysx = os.path.join(host, "Library", "SystemExtensions", "com.example.machost.filter.systemextension",
                        "Contents")
    write(os.path.join(sysx, "Info.plist"), xml(mac_info(
        "com.example.machost.filter", "com.example.machost.filter", "SYSX",
        NetworkExtension={"NEProviderClasses": {"com.apple.networkextension.filter-data": "FilterDataProvider"}})))
    write(os.path.join(sysx, "embedded.provisionprofile"), profile("catalyst.provisionprofile"))
    write(os.path.join(sysx, "MacOS", "com.example.machost.filter"), fake_executable(8, 1024))


def bundles():
    app_bundle(os.path.join(BUNDLES, "Example.app"), "1.2", "34", "ios-adhoc.mobileprovision")

    mac = os.path.join(BUNDLES, "ExampleMac.app", "Contents")
    write(os.path.join(mac, "Info.plist"), xml({
        "CFBundleIdentifier": "com.example.mac",
        "CFBundleShortVersionString": "4.5.6",
        "CFBundleVersion": "2025.0324.1016",
        "CFBundleName": "ExampleMac",
        "CFBundleDisplayName": "Example Mac",
        "CFBundlePackageType": "APPL",
        "CFBundleExecutable": "ExampleMac",
        "CFBundleSupportedPlatforms": ["MacOSX"],
        "CFBundleInfoDictionaryVersion": "6.0",
        "LSMinimumSystemVersion": "13.0",
    }))
    write(os.path.join(mac, "embedded.provisionprofile"), profile("macos-development.provisionprofile"))
    write(os.path.join(mac, "MacOS", "ExampleMac"), fake_executable(3, 4096))
    mac_host()

    arc = os.path.join(BUNDLES, "Example.xcarchive")
    write(os.path.join(arc, "Info.plist"), xml({
        "ApplicationProperties": {
            "ApplicationPath": "Applications/Example.app",
            "Architectures": ["arm64"],
            "CFBundleIdentifier": "com.example.app",
            "CFBundleShortVersionString": "1.3",
            "CFBundleVersion": "40",
            "SigningIdentity": "Apple Distribution: Example Corp (TEAM123456)",
            "Team": "TEAM123456",
        },
        "ArchiveVersion": 2,
        "CreationDate": dt.datetime(2026, 2, 3, 14, 5, 6),
        "Name": "Example",
        "SchemeName": "Example",
    }))
    app_bundle(os.path.join(arc, "Products", "Applications", "Example.app"), "1.3", "40",
               "ios-appstore.mobileprovision", widget=False)
    write(os.path.join(arc, "dSYMs", ".keep"), b"")

    noprops = os.path.join(BUNDLES, "NoProps.xcarchive")
    write(os.path.join(noprops, "Info.plist"), xml({
        "ArchiveVersion": 2,
        "CreationDate": dt.datetime(2026, 2, 10, 9, 30, 0),
        "Name": "NoProps",
        "SchemeName": "NoProps",
    }))
    np_app = os.path.join(noprops, "Products", "Applications", "NoProps.app")
    write(os.path.join(np_app, "Info.plist"), binary(ios_info("com.example.noprops", "0.9", "7",
                                                              "NoProps", "NoProps")))
    write(os.path.join(np_app, "embedded.mobileprovision"), profile("wildcard.mobileprovision"))
    write(os.path.join(np_app, "NoProps"), fake_executable(4, 2048))
    write(os.path.join(noprops, "dSYMs", ".keep"), b"")


def zinfo(name, compress):
    zi = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    zi.compress_type = compress
    zi.create_system = 3
    zi.external_attr = ((0o40755 if name.endswith("/") else 0o100644) << 16) | (0x10 if name.endswith("/") else 0)
    return zi


def ipa():
    os.makedirs(IPA, exist_ok=True)
    S, Z = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED
    app = "Payload/Example.app/"
    entries = [
        ("Payload/", b"", S),
        (app, b"", S),
        (app + "Info.plist", binary(ios_info("com.example.app", "2.0", "50", "Example", "Example")), S),
        (app + "embedded.mobileprovision", profile("ios-adhoc.mobileprovision"), Z),
        (app + "Example", fake_executable(5, 200 * 1024), Z),
        (app + "PlugIns/", b"", S),
        (app + "PlugIns/Widget.appex/", b"", S),
        (app + "PlugIns/Widget.appex/Info.plist", binary(ios_info(
            "com.example.app.widget", "2.0", "50", "Widget", "Widget", package="XPC!")), S),
        (app + "PlugIns/Widget.appex/embedded.mobileprovision",
         profile("ios-widget-adhoc.mobileprovision"), Z),
        (app + "Watch/", b"", S),
        (app + "Watch/ExampleWatch.app/", b"", S),
        (app + "Watch/ExampleWatch.app/Info.plist", binary(dict(ios_info(
            "com.example.app.watchkitapp", "2.0", "50", "ExampleWatch", "ExampleWatch"),
            CFBundleSupportedPlatforms=["WatchOS"], WKApplication=True,
            WKCompanionAppBundleIdentifier="com.example.app")), Z),
        ("Symbols/", b"", S),
    ]
    with zipfile.ZipFile(os.path.join(IPA, "Example.ipa"), "w") as z:
        for name, data, comp in entries:
            z.writestr(zinfo(name, comp), data)


def apple_double(name):
    """The AppleDouble header Finder stores under __MACOSX/ (magic, version, one Finder-info entry)."""
    return struct.pack(">II16sH", 0x00051607, 0x00020000, b"Mac OS X".ljust(16), 1) + \
        struct.pack(">III", 9, 38, 32) + (b"\0" * 32) + name.encode()


def finder_ipa():
    """What Finder's "Compress" makes of a folder holding Payload/: one top folder, __MACOSX/ beside it."""
    S, Z = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED
    top = "FinderCompressed/"
    app = top + "Payload/Example.app/"
    entries = [
        (top, b"", S),
        (top + "Payload/", b"", S),
        (app, b"", S),
        (app + "Info.plist", binary(ios_info("com.example.finder", "3.0", "7", "Example", "Example")), Z),
        (app + "embedded.mobileprovision", profile("ios-adhoc.mobileprovision"), Z),
        (app + "Example", fake_executable(6, 4096), Z),
        ("__MACOSX/", b"", S),
        ("__MACOSX/" + top, b"", S),
        ("__MACOSX/" + top + "Payload/", b"", S),
        ("__MACOSX/" + top + "._Payload", apple_double("Payload"), Z),
        ("__MACOSX/" + app, b"", S),
        ("__MACOSX/" + app + "._Info.plist", apple_double("Info.plist"), Z),
        ("__MACOSX/" + app + "._embedded.mobileprovision", apple_double("embedded.mobileprovision"), Z),
    ]
    with zipfile.ZipFile(os.path.join(LENIENT, "FinderCompressed.ipa"), "w") as z:
        for name, data, comp in entries:
            z.writestr(zinfo(name, comp), data)


def malformed():
    os.makedirs(MALFORMED, exist_ok=True)
    path = os.path.join(MALFORMED, "lying-size.ipa")
    info = binary(ios_info("com.example.liar", "1.0", "1", "Liar", "Liar"))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zinfo("Payload/", zipfile.ZIP_STORED), b"")
        z.writestr(zinfo("Payload/Liar.app/", zipfile.ZIP_STORED), b"")
        z.writestr(zinfo("Payload/Liar.app/Info.plist", zipfile.ZIP_DEFLATED), info)
    data = bytearray(open(path, "rb").read())
    # Patch the central directory header of Info.plist: uncompressed size := 3,000,000,000.
    name = b"Payload/Liar.app/Info.plist"
    i = data.find(b"PK\x01\x02" + b"")
    while i >= 0:
        n = struct.unpack_from("<H", data, i + 28)[0]
        if data[i + 46:i + 46 + n] == name:
            struct.pack_into("<I", data, i + 24, 3_000_000_000)
            break
        i = data.find(b"PK\x01\x02", i + 4)
    else:
        raise SystemExit("central directory entry not found")
    write(path, bytes(data))
    write(os.path.join(MALFORMED, "empty-dir.xcarchive", ".keep"), b"")


def main():
    for d in (PLISTS, BUNDLES, IPA):
        shutil.rmtree(d, ignore_errors=True)
    plists()
    bundles()
    ipa()
    os.makedirs(LENIENT, exist_ok=True)
    finder_ipa()
    malformed()


if __name__ == "__main__":
    main()
