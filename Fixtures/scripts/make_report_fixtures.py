#!/usr/bin/env python3
"""Generate the report's hostile-name fixture: a signed profile whose name, team name and app id
carry markup (`<script>`, an `<img onerror>`, quotes, `&`), which every output must show as text.

Outputs: Fixtures/report/hostile-names.mobileprovision. Uses make_profiles.py's keys, certificates
and signing, so it runs after it; deterministic like it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_profiles as mp  # noqa: E402

REPORT = os.path.join(mp.HERE, "report")


def main():
    os.makedirs(REPORT, exist_ok=True)
    c = mp.make_certs()
    plist = mp.profile(
        "hostile-names",
        name="<script>document.title='pwned'</script> & \"Quotes\" <b>bold</b>",
        team_name="Evil & <i>Co</i> \"Ltd\"",
        app_id="com.example.hostile<img src=x onerror=alert(1)>",
        certs=[c["dist"]], devices=[mp.udid(0)], entitlements={"get-task-allow": False},
        created=mp.D(2026, 6, 20, 10), expires=mp.D(2026, 12, 20, 10),
        signer=c["signer"], ca=c["ca"])
    mp.cms_sign(mp.xml(plist), c["signer"], c["ca"], os.path.join(REPORT, "hostile-names.mobileprovision"))


if __name__ == "__main__":
    main()
