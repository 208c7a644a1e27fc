/// What the incremental index recorded for a file (`files.status`): decoded, failed (read again
/// next run), or skipped on purpose (a placeholder or non-app Info.plist).
package enum FileStatus: String, Sendable {
    case ok
    case error
    case skipped
}
