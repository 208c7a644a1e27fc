/// What a provisioning profile is for, derived from its devices, entitlements and platform
/// (TN3125): `ProvisionsAllDevices` → enterprise (iOS family) or developer-id (macOS);
/// `ProvisionedDevices` → development on macOS, else development when get-task-allow is true and
/// ad-hoc otherwise; neither → app-store.
public enum ProfileKind: String, Sendable, CaseIterable, Codable {
    case development
    case adHoc = "ad-hoc"
    case appStore = "app-store"
    case enterprise
    case developerID = "developer-id"

    public static func derive(provisionsAllDevices: Bool, hasDevices: Bool, isMacOS: Bool,
                              getTaskAllow: Bool?) -> ProfileKind {
        if provisionsAllDevices { return isMacOS ? .developerID : .enterprise }
        if hasDevices {
            if isMacOS { return .development }
            return getTaskAllow == true ? .development : .adHoc
        }
        return .appStore
    }
}
