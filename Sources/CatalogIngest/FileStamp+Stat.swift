import CatalogCore
import CatalogStore
import Foundation

extension CatalogWriter.FileStamp {
    /// Size and modification time (ns) of one file, or nil when it cannot be stat'ed.
    static func of(file path: String) -> CatalogWriter.FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let nanoseconds = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
        return CatalogWriter.FileStamp(size: Int64(info.st_size), mtimeNanoseconds: nanoseconds, status: .ok)
    }

    /// A bundle's stamp: the files that decide what it decodes to (its Info.plists and embedded
    /// profile) folded into one size and the newest mtime, so a change to any of them is seen.
    static func of(candidate: Candidate) -> CatalogWriter.FileStamp? {
        switch candidate.kind {
        case .profile, .ipa, .infoPlist, .zip:
            return of(file: candidate.path)
        case .dsym:
            let dwarf = candidate.path + "/Contents/Resources/DWARF"
            let parts = [of(file: candidate.path + "/Contents/Info.plist")] + FileBytes.children(of: dwarf).map { of(file: dwarf + "/" + $0) }
            return combined(parts) ?? CatalogWriter.FileStamp(size: 0, mtimeNanoseconds: 0, status: .ok)
        case .app:
            // The first layout whose Info.plist stats is the app's: one stat, not a check and a stat.
            for layout in AppBundleReader.possibleLayouts(of: candidate.path) {
                if let info = of(file: layout.infoPlist) { return combined([info, of(file: layout.profile)]) }
            }
            return nil
        case .xcarchive:
            var parts = [of(file: candidate.path + "/Info.plist")]
            for app in FileBytes.children(of: candidate.path + "/Products/Applications") where app.hasSuffix(".app") {
                if let layout = AppBundleReader.layout(of: candidate.path + "/Products/Applications/" + app) {
                    parts += [of(file: layout.infoPlist), of(file: layout.profile)]
                }
            }
            return combined(parts) ?? CatalogWriter.FileStamp(size: 0, mtimeNanoseconds: 0, status: .ok)
        }
    }

    private static func combined(_ parts: [CatalogWriter.FileStamp?]) -> CatalogWriter.FileStamp? {
        var result: CatalogWriter.FileStamp?
        for (index, part) in parts.enumerated() {
            guard let stamp = part else { continue }
            var total = result ?? CatalogWriter.FileStamp(size: 0, mtimeNanoseconds: 0, status: .ok)
            // Weight each part's size by its position so two parts swapping sizes still differ.
            total.size = total.size &+ stamp.size &* Int64(index + 1)
            total.mtimeNanoseconds = max(total.mtimeNanoseconds, stamp.mtimeNanoseconds)
            result = total
        }
        return result
    }
}
