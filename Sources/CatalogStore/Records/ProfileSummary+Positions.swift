import CatalogCore
import Foundation

extension ProfileSummary {
    /// Where each column of `CatalogQueries.profileColumns` sits in a result, looked up by name once
    /// per statement instead of once per column of every row, which `profiles --json` reads for
    /// every profile. A column the result lacks reads as NULL.
    /// Kept for speed: `profiles --json` rate (bench.py).
    struct Positions {
        /// The names these positions were found in; rows of another statement need their own.
        let names: ColumnNames
        let uuid, name, teamID, teamName, kind, platforms, bundleID, applicationIdentifier: Int
        let creationDate, expirationDate, effectiveExpirationDate, expiryCause, deviceCount: Int
        let provisionsAllDevices, apsEnvironment, getTaskAllow, xcodeManaged, signature, derProfile: Int
        let host, path, installed, supersededBy: Int

        init(_ names: ColumnNames) {
            func at(_ column: String) -> Int { names.position(of: column) ?? -1 }
            self.names = names
            uuid = at("uuid"); name = at("name"); teamID = at("team_id"); teamName = at("team_name")
            kind = at("kind"); platforms = at("platforms"); bundleID = at("bundle_id")
            applicationIdentifier = at("application_identifier"); creationDate = at("creation_date")
            expirationDate = at("expiration_date"); effectiveExpirationDate = at("effective_expiration_date")
            expiryCause = at("expiry_cause"); deviceCount = at("device_count")
            provisionsAllDevices = at("provisions_all_devices"); apsEnvironment = at("aps_environment")
            getTaskAllow = at("get_task_allow"); xcodeManaged = at("xcode_managed"); signature = at("signature")
            derProfile = at("der_profile"); host = at("host"); path = at("path"); installed = at("installed")
            supersededBy = at("superseded_by")
        }

        /// These positions when `row` comes from the statement they were found in, else new ones.
        static func of(_ row: Row, reusing known: Positions?) -> Positions {
            if let known, known.names === row.names { return known }
            return Positions(row.names)
        }
    }

    /// A row of `CatalogQueries.profileColumns`, its columns at `positions`.
    init(_ row: Row, at positions: Positions, json: inout StoredJSON) throws {
        func text(_ index: Int) -> String? { row[index].string }
        func flag(_ index: Int) -> Bool? { row[index].bool }
        func date(_ index: Int) -> Date? { row[index].date }
        self.init(
            uuid: text(positions.uuid) ?? "", name: text(positions.name) ?? "", teamID: text(positions.teamID),
            teamName: text(positions.teamName), kind: try row.value(at: positions.kind, "kind", as: ProfileKind.self),
            platforms: json.strings(text(positions.platforms)),
            bundleID: text(positions.bundleID), applicationIdentifier: text(positions.applicationIdentifier),
            creationDate: date(positions.creationDate), expirationDate: date(positions.expirationDate),
            effectiveExpirationDate: date(positions.effectiveExpirationDate),
            expiryCause: try row.optionalValue(at: positions.expiryCause, "expiry_cause", as: ProvisioningProfile.ExpiryCause.self),
            deviceCount: row[positions.deviceCount].int ?? 0,
            provisionsAllDevices: flag(positions.provisionsAllDevices) ?? false,
            apsEnvironment: text(positions.apsEnvironment), getTaskAllow: flag(positions.getTaskAllow),
            xcodeManaged: flag(positions.xcodeManaged),
            signature: try row.optionalValue(at: positions.signature, "signature", as: ProfileSignature.Status.self),
            derProfile: try row.optionalValue(at: positions.derProfile, "der_profile", as: DERProfileCheck.Status.self),
            host: text(positions.host), path: text(positions.path), installed: flag(positions.installed) ?? false,
            supersededBy: text(positions.supersededBy))
    }
}
