#!/usr/bin/env python3
"""Generate renewal fixtures: profiles that supersede others (or do not), for `expiring` and
`profiles --superseded`.

A profile is superseded by another present profile of the same team, application identifier
(wildcards included), kind and platform whose effective expiry is later (README, "Renewals").

Outputs: Fixtures/renewals/*.mobileprovision. Uses make_profiles.py's keys, certificates and
signing, so it runs after it; deterministic like it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_profiles as mp  # noqa: E402

RENEWALS = os.path.join(mp.HERE, "renewals")


def main():
    os.makedirs(RENEWALS, exist_ok=True)
    c = mp.make_certs()
    common = dict(signer=c["signer"], ca=c["ca"])
    devices = [mp.udid(i) for i in range(3)]
    adhoc = dict(app_id="com.example.renew", certs=[c["dist"]], devices=devices,
                 entitlements={"get-task-allow": False}, **common)
    development = dict(certs=[c["dev_jane"]], devices=devices, entitlements={"get-task-allow": True}, **common)
    specs = {
        # An ad-hoc profile expiring soon, and its renewal a year later: the old one is superseded.
        "renew-adhoc-old": mp.profile("renew-adhoc-old", name="Example Renew AdHoc", created=mp.D(2025, 12, 1, 10),
                                      expires=mp.D(2026, 12, 1, 10), **adhoc),
        "renew-adhoc-new": mp.profile("renew-adhoc-new", name="Example Renew AdHoc", created=mp.D(2026, 11, 15, 10),
                                      expires=mp.D(2027, 11, 15, 10), **adhoc),
        # Same app id and team, later expiry, but another kind: supersedes nothing.
        "renew-development": mp.profile("renew-development", name="Example Renew Development",
                                        app_id="com.example.renew", created=mp.D(2026, 11, 16, 10),
                                        expires=mp.D(2027, 11, 16, 10), **development),
        # A wildcard app id renewed: the same wildcard supersedes.
        "renew-wildcard-old": mp.profile("renew-wildcard-old", name="Example Renew Wildcard",
                                         app_id="com.example.renew.*", created=mp.D(2025, 12, 3, 10),
                                         expires=mp.D(2026, 12, 3, 10), **development),
        "renew-wildcard-new": mp.profile("renew-wildcard-new", name="Example Renew Wildcard",
                                         app_id="com.example.renew.*", created=mp.D(2026, 11, 17, 10),
                                         expires=mp.D(2027, 11, 17, 10), **development),
    }
    for label, plist in specs.items():
        mp.cms_sign(mp.xml(plist), c["signer"], c["ca"], os.path.join(RENEWALS, label + ".mobileprovision"))


if __name__ == "__main__":
    main()
