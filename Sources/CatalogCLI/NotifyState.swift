import Foundation

/// What `expiring --notify-at` has already announced, kept in a small JSON file the cron user owns
/// (never in the catalogue, so a reader with read-only rights to a shared catalogue can use it).
///
/// Each item (a profile by UUID, a certificate by SHA-1, a build by its path and version) is
/// remembered with its expiry and the most urgent stage announced: the smallest threshold its days
/// left had reached, or expired. An item is announced again only when it reaches a more urgent
/// stage; one no longer in the listing (renewed, removed, out of the window) is forgotten, so a
/// renewal clears what it renews. Listings with other filters (team, kind, builds, host, catalogue)
/// keep their own sections of the file.
struct NotifyState {
    /// A stage: a threshold in days, or -1 once expired.
    typealias Stage = Int
    static let expired: Stage = -1

    struct Item: Codable, Equatable {
        var expires: Date
        var stage: Stage
    }

    private struct File: Codable {
        var version = 1
        var scopes: [String: [String: Item]] = [:]
    }

    let path: String
    let scope: String
    let thresholds: [Int]
    private var file: File
    /// This run's items, which replace the scope's when saved.
    private var seen: [String: Item] = [:]

    /// The default file: `$XDG_STATE_HOME/catalog/notified.json` (`~/.local/state/…`; on macOS
    /// `~/Library/Application Support/catalog/notified.json`).
    static func defaultPath(_ environment: [String: String]) -> String {
        UserFolder.state.path(environment) + "/notified.json"
    }

    /// Reads the file at `path` (none yet: nothing announced). A file that is not this state is an
    /// error: overwriting it could lose what someone else keeps there.
    init(path: String, scope: String, thresholds: [Int]) throws {
        self.path = path
        self.scope = scope
        self.thresholds = thresholds.sorted(by: >)
        guard FileManager.default.fileExists(atPath: path) else {
            file = File()
            return
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            file = try decoder.decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CLIError("\(path): not a catalog notification state file (\(error.localizedDescription)); "
                                   + "move it away or give another --state")
        }
    }

    /// The stage of something with `daysLeft` days left: the smallest threshold it has reached
    /// (nil: beyond the largest), or ``expired``.
    func stage(daysLeft: Int) -> Stage? {
        if daysLeft < 0 { return Self.expired }
        return thresholds.last { daysLeft <= $0 }
    }

    /// Whether the item is announced this run (and remembers it either way). `key` names it,
    /// `expires` is its date; an item whose date changed is a new one. Something already expired
    /// when first met is announced only when `expiredWhenNew` (`--include-expired`): otherwise a
    /// first run would announce everything that ever expired.
    mutating func announce(_ key: String, expires: Date, daysLeft: Int, expiredWhenNew: Bool) -> Bool {
        guard let stage = stage(daysLeft: daysLeft) else { return false }
        let before = file.scopes[scope]?[key].flatMap { $0.expires == expires ? $0.stage : nil }
        let announce = before.map { stage < $0 } ?? (stage != Self.expired || expiredWhenNew)
        seen[key] = Item(expires: expires, stage: min(stage, before ?? stage))
        return announce
    }

    /// Writes the file atomically, readable by its owner only; this scope becomes this run's items.
    mutating func save() throws {
        file.scopes[scope] = seen
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let temporary = path + ".tmp-\(getpid())"
            guard FileManager.default.createFile(atPath: temporary, contents: try encoder.encode(file),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw CLIError("\(temporary): cannot be written")
            }
            if rename(temporary, path) != 0 {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw CLIError("\(path): cannot be replaced: \(reason)")
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(path): \(error.localizedDescription)")
        }
    }
}
