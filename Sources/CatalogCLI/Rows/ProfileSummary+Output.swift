import CatalogCore
import CatalogStore
import Foundation

extension ProfileSummary: StreamedRecord {
    /// The keys of ``output(now:)`` in order, without `bundle_id_match`: CSV's header, written
    /// before the first row (a test holds the two equal).
    static let outputKeys = [
        "type", "uuid", "name", "team_id", "team_name", "kind", "platforms", "os", "bundle_id", "application_identifier",
        "creation_date", "expiration_date", "effective_expiration_date", "expiry_cause", "days_left", "device_count",
        "provisions_all_devices", "aps_environment", "get_task_allow", "xcode_managed", "signature", "der_profile", "host",
        "path", "installed", "superseded_by",
    ]

    /// The profile row (docs/json-schema.md): every listing of profiles prints this.
    func output(now: Date) -> JSONValue {
        var object = JSONObjectBuilder(capacity: 28)
        output(now: now, into: &object)
        return object.object
    }

    /// The members of ``output(now:)``, in order, into `fields`: listings write JSON and NDJSON rows
    /// from here straight to bytes.
    func output<Fields: JSONFields>(now: Date, into fields: inout Fields) {
        fields.string("type", "profile")
        fields.string("uuid", uuid)
        fields.string("name", name)
        fields.optional("team_id", teamID)
        fields.optional("team_name", teamName)
        fields.string("kind", kind.rawValue)
        fields.strings("platforms", platforms)
        fields.string("os", os.rawValue)
        fields.optional("bundle_id", bundleID)
        fields.optional("application_identifier", applicationIdentifier)
        fields.optional("creation_date", creationDate)
        fields.optional("expiration_date", expirationDate)
        fields.optional("effective_expiration_date", effectiveExpirationDate)
        fields.optional("expiry_cause", expiryCause?.rawValue)
        fields.value("days_left", DaysLeft.json(until: effectiveExpirationDate, from: now))
        fields.int("device_count", Int64(deviceCount))
        fields.bool("provisions_all_devices", provisionsAllDevices)
        fields.optional("aps_environment", apsEnvironment)
        fields.optional("get_task_allow", getTaskAllow)
        fields.optional("xcode_managed", xcodeManaged)
        fields.optional("signature", signature?.rawValue)
        fields.optional("der_profile", derProfile?.rawValue)
        fields.optional("host", host)
        fields.optional("path", path)
        fields.bool("installed", installed)
        fields.optional("superseded_by", supersededBy)
        if let bundleIDMatch { fields.string("bundle_id_match", bundleIDMatch.rawValue) }
    }
}
