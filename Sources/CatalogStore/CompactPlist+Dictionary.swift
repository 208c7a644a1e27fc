extension CompactPlist {
    /// zlib's preset dictionary for format 1: the text every profile plist repeats (the XML prologue,
    /// Apple's keys and common entitlements), so a small template does not pay for it each time.
    /// Part of the stored format: changing one byte makes every format-1 value unreadable, so a
    /// different dictionary needs a new format number.
    static let dictionary: [UInt8] = Array("""
        <string>iOS</string><string>xrOS</string><string>visionOS</string><string>OSX</string>\
        <key>com.apple.developer.associated-domains</key><key>com.apple.developer.icloud-container-identifiers</key>\
        <key>com.apple.developer.icloud-services</key><key>com.apple.developer.ubiquity-kvstore-identifier</key>\
        <key>com.apple.developer.networking.wifi-info</key><key>com.apple.developer.in-app-payments</key>\
        <key>com.apple.security.application-groups</key><key>com.apple.developer.healthkit</key>\
        <key>com.apple.application-identifier</key><key>com.apple.developer.siri</key>\
        <key>com.apple.developer.game-center</key><key>com.apple.developer.default-data-protection</key>\
        <string>NSFileProtectionComplete</string><string>com.apple.token</string>\
        <key>beta-reports-active</key>\
        <key>ProvisionsAllDevices</key>\
        <key>PPQCheck</key>\
        <key>LocalProvision</key>\
        <string>development</string><string>production</string>\
        <string>iOS Team Provisioning Profile: </string><string>Mac Team Provisioning Profile: </string>\
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>AppIDName</key>
        \t<string>XC </string>
        \t<key>ApplicationIdentifierPrefix</key>
        \t<array>
        \t\t<string></string>
        \t</array>
        \t<key>CreationDate</key>
        \t<date>2025-01-01T00:00:00Z</date>
        \t<key>DER-Encoded-Profile</key>
        \t<data>
        \t</data>
        \t<key>DeveloperCertificates</key>
        \t<array>
        \t\t<data>
        \t\t</data>
        \t</array>
        \t<key>Entitlements</key>
        \t<dict>
        \t\t<key>aps-environment</key>
        \t\t<string>development</string>
        \t\t<key>application-identifier</key>
        \t\t<string></string>
        \t\t<key>com.apple.developer.team-identifier</key>
        \t\t<string></string>
        \t\t<key>get-task-allow</key>
        \t\t<true/>
        \t\t<key>keychain-access-groups</key>
        \t\t<array>
        \t\t\t<string>.*</string>
        \t\t\t<string>com.apple.token</string>
        \t\t</array>
        \t</dict>
        \t<key>ExpirationDate</key>
        \t<date>2026-01-01T00:00:00Z</date>
        \t<key>IsXcodeManaged</key>
        \t<false/>
        \t<key>Name</key>
        \t<string></string>
        \t<key>Platform</key>
        \t<array>
        \t\t<string>iOS</string>
        \t</array>
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
