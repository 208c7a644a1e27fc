import Foundation

/// Moves a file to the user's trash, where the desktop can restore it: `~/.Trash` through the
/// system on macOS, the freedesktop.org trash (`$XDG_DATA_HOME/Trash`, else
/// `~/.local/share/Trash`, with a `.trashinfo` record of where it came from) elsewhere.
enum Trash {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Returns where the file went.
    static func move(_ path: String, environment: [String: String], now: Date = Date()) throws -> String {
        #if CATALOG_TEST_HOOKS
        // Tests name the trash: the system's call on macOS uses the real ~/.Trash whatever HOME says.
        if let trash = environment["CATALOG_TEST_TRASH"], trash.hasPrefix("/") {
            return try moveToFreedesktopTrash(path, trash: trash, now: now)
        }
        #endif
        #if os(macOS)
        // The system's own trash call puts the file in the right trash (per volume) and lets
        // Finder's "Put Back" work.
        var result: NSURL?
        try FileManager.default.trashItem(at: URL(fileURLWithPath: path), resultingItemURL: &result)
        return result?.path ?? path
        #else
        return try moveToFreedesktopTrash(path, environment: environment, now: now)
        #endif
    }

    /// The freedesktop.org Trash specification 1.0, home trash only: `info/NAME.trashinfo` is
    /// created first with O_EXCL (it reserves NAME), then the file is renamed into `files/NAME`. A
    /// file on another file system is copied into the home trash and then removed.
    static func moveToFreedesktopTrash(_ path: String, environment: [String: String], now: Date) throws -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        try? FileManager.default.createDirectory(atPath: dataHome, withIntermediateDirectories: true)
        return try moveToFreedesktopTrash(path, trash: dataHome + "/Trash", now: now)
    }

    /// The same, into the trash folder `trash` (its `files` and `info` made as needed).
    static func moveToFreedesktopTrash(_ path: String, trash: String, now: Date) throws -> String {
        for folder in [trash, trash + "/files", trash + "/info"] {
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create the trash folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        let base = (path as NSString).lastPathComponent
        let stem = (base as NSString).deletingPathExtension
        let suffix = (base as NSString).pathExtension.isEmpty ? "" : "." + (base as NSString).pathExtension
        let record = "[Trash Info]\nPath=\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)\n"
            + "DeletionDate=\(localTimestamp(now))\n"
        for attempt in 1...1_000 {
            let name = attempt == 1 ? base : "\(stem) \(attempt)\(suffix)"
            let info = trash + "/info/" + name + ".trashinfo"
            let descriptor = open(info, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw Failure(description: "cannot write \(info): \(String(cString: strerror(errno)))")
            }
            let destination = trash + "/files/" + name
            if FileManager.default.fileExists(atPath: destination) {
                close(descriptor)
                unlink(info)
                continue
            }
            let bytes = Array(record.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            guard written == bytes.count else {
                unlink(info)
                throw Failure(description: "cannot write \(info)")
            }
            if rename(path, destination) == 0 { return destination }
            let renameError = errno
            if renameError == EXDEV {
                do {
                    try FileManager.default.copyItem(atPath: path, toPath: destination)
                    if unlink(path) == 0 { return destination }
                    let unlinkError = errno
                    unlink(destination)
                    unlink(info)
                    throw Failure(description: String(cString: strerror(unlinkError)))
                } catch let failure as Failure {
                    throw failure
                } catch {
                    unlink(info)
                    throw Failure(description: "cannot copy into the trash: \(error.localizedDescription)")
                }
            }
            unlink(info)
            throw Failure(description: String(cString: strerror(renameError)))
        }
        throw Failure(description: "the trash already holds 1000 files named \(base)")
    }

    /// `YYYY-MM-DDThh:mm:ss` in local time, as the specification asks.
    static func localTimestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
