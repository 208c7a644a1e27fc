extension StoredPlist {
    /// The preset dictionary of a profile with `devices`: ``dictionary`` followed by each device as
    /// Apple lays out a `ProvisionedDevices` entry, so each identifier, random text zlib cannot
    /// shrink, is stored once in the catalogue (`devices.udid`) instead of once per profile.
    static func dictionary(devices: [String]) -> [UInt8] {
        var out = dictionary
        for udid in devices {
            out.append(contentsOf: "\t\t<string>".utf8)
            out.append(contentsOf: udid.utf8)
            out.append(contentsOf: "</string>\n".utf8)
        }
        return out
    }

    /// zlib's preset dictionary of formats 3 and 4: text most profile plists hold (Apple's layout,
    /// keys and common entitlements), so each row need not spell it out. Part of the format, the
    /// same bytes as `DICTIONARY` in `docs/raw_plist.py`: changing one byte needs a new format number.
    static let dictionary: [UInt8] = Array("""
        <key>com.apple.developer.associated-domains</key><key>com.apple.developer.applesignin</key>\
        <key>com.apple.developer.icloud-container-identifiers</key><key>com.apple.developer.icloud-services</key>\
        <key>com.apple.developer.ubiquity-kvstore-identifier</key><key>com.apple.developer.networking.wifi-info</key>\
        <key>com.apple.developer.in-app-payments</key><key>com.apple.developer.healthkit</key>\
        <key>com.apple.developer.siri</key><key>com.apple.developer.game-center</key>\
        <key>com.apple.developer.default-data-protection</key><string>NSFileProtectionComplete</string>\
        <key>com.apple.security.application-groups</key><key>com.apple.application-identifier</key>\
        <key>com.apple.security.get-task-allow</key><key>beta-reports-active</key><key>ProvisionsAllDevices</key>\
        <string>Default</string><string>xrOS</string><string>visionOS</string><string>OSX</string>\
        <string>production</string><string>Mac Team Provisioning Profile: </string>\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>AppIDName</key>
        \t<string>XC </string>
        \t<key>ApplicationIdentifierPrefix</key>
        \t<array>
        \t<string></string>
        \t</array>
        \t<key>CreationDate</key>
        \t<date>2025-01-01T00:00:00Z</date>
        \t<key>Platform</key>
        \t<array>
        \t\t<string>iOS</string>
        \t</array>
        \t<key>IsXcodeManaged</key>
        \t<false/>
        \t<key>DeveloperCertificates</key>
        \t<array>
        \t\t<data></data>
        \t</array>

        \t<key>DER-Encoded-Profile</key>
        \t<data>MIIOFgYJKoZIhvcNAQcCoIIOBzCCDgMCAQExDzAN</data>
        \t\t\t\t\t\t\t\t\t\t\t\t
        \t\t\t<key>PPQCheck</key>
        \t<false/>

        \t<key>Entitlements</key>
        \t<dict>
        \t\t\t\t
        \t\t\t\t<key>aps-environment</key>
        \t\t<string>development</string>
        \t\t\t\t
        \t\t\t\t<key>application-identifier</key>
        \t\t<string></string>
        \t\t\t\t
        \t\t\t\t<key>keychain-access-groups</key>
        \t\t<array>
        \t\t\t\t<string>.*</string>
        \t\t\t\t<string>com.apple.token</string>
        \t\t</array>
        \t\t\t\t
        \t\t\t\t<key>get-task-allow</key>
        \t\t<true/>
        \t\t\t\t
        \t\t\t\t<key>com.apple.developer.team-identifier</key>
        \t\t<string></string>

        \t</dict>
        \t<key>ExpirationDate</key>
        \t<date>2026-01-01T00:00:00Z</date>
        \t<key>Name</key>
        \t<string>iOS Team Provisioning Profile: </string>
        \t<key>ProvisionedDevices</key>
        \t<array>
        \t\t<string>00008030-</string>
        \t\t<string></string>
        \t</array>
        \t<key>TeamIdentifier</key>
        \t<array>
        \t\t<string></string>
        \t</array>
        \t<key>TeamName</key>
        \t<string></string>
        \t<key>TimeToLive</key>
        \t<integer>365</integer>
        \t<key>UUID</key>
        \t<string></string>
        \t<key>Version</key>
        \t<integer>1</integer>
        </dict>
        </plist>
        """.utf8)
}
