import CatalogCore
import Foundation

/// A crash report's threads with their frames as function, file and line: each image with a
/// catalogued dSYM is symbolicated once, for all its addresses; the other frames keep what the
/// report says (a system image's symbol, or only its image and address).
struct CrashSymbolication {
    var report: CrashReport
    /// The DWARF file of each image UUID a catalogued dSYM has.
    var dwarfs: [String: String]
    /// Nil when none is installed: frames stay as the report has them.
    var symbolizer: Symbolizer?

    struct SymbolicatedFrame {
        var index: Int
        var image: String?
        var address: UInt64?
        var symbol: String?
        var file: String?
        var line: Int?
        /// Where the frame's image was loaded, for the `load + offset` an unsymbolicated line shows.
        var loadAddress: UInt64? = nil

        var json: JSONValue {
            .object([("index", .int(Int64(index))), ("image", .optional(image)),
                     ("address", .optional(address.map { "0x" + String($0, radix: 16) })),
                     ("symbol", .optional(symbol)), ("file", .optional(file)), ("line", .optional(line))])
        }
    }

    struct SymbolicatedThread {
        var index: Int
        var crashed: Bool
        var frames: [SymbolicatedFrame]

        var json: JSONValue { .object([("index", .int(Int64(index))), ("frames", .array(frames.map(\.json)))]) }
    }

    /// The crashed thread (every thread with `all`), symbolicated where a dSYM and a symbolizer
    /// allow; `warn` hears what could not be done (a dSYM unreadable, the tool failing).
    func threads(all: Bool, warn: (String) -> Void) -> [SymbolicatedThread] {
        let chosen = all ? report.threads : report.crashedThread.map { [$0] } ?? []
        func loadAddress(_ frame: CrashReport.Frame) -> UInt64? {
            guard let index = frame.imageIndex, report.images.indices.contains(index) else { return nil }
            return report.images[index].loadAddress
        }
        func address(_ frame: CrashReport.Frame) -> UInt64? {
            if let address = frame.address { return address }
            guard let base = loadAddress(frame), let offset = frame.imageOffset else { return nil }
            return base &+ offset
        }
        // Every address of each image, symbolicated in one run of the tool.
        var located: [Int: [UInt64: Symbolizer.Location]] = [:]
        if let symbolizer {
            var addresses: [Int: [UInt64]] = [:]
            for thread in chosen {
                for frame in thread.frames {
                    if let image = frame.imageIndex, let value = address(frame) { addresses[image, default: []].append(value) }
                }
            }
            for (index, list) in addresses.sorted(by: { $0.key < $1.key }) {
                let image = report.images[index]
                guard let uuid = image.uuid, let dwarf = dwarfs[uuid], let load = image.loadAddress else { continue }
                do {
                    let local = try DWARFFile(dwarf)
                    defer { local.close() }
                    let file = try MachOFile(contentsOf: URL(fileURLWithPath: local.path), trust: nil)
                    guard let slice = file.slices.first(where: { $0.uuid == uuid }), let text = slice.textAddress else {
                        warn("\(dwarf): no slice with UUID \(uuid) and a __TEXT segment; \(image.name) left unsymbolicated")
                        continue
                    }
                    located[index] = try symbolizer.symbolicate(list, dwarf: local.path, arch: slice.architecture, loadAddress: load,
                                                                textAddress: text)
                } catch {
                    warn("\(image.name) left unsymbolicated: \(error)")
                }
            }
        }
        return chosen.map { thread in
            SymbolicatedThread(index: thread.index, crashed: thread.crashed, frames: thread.frames.map { frame in
                let value = address(frame)
                let location = frame.imageIndex.flatMap { located[$0] }.flatMap { places in value.flatMap { places[$0] } }
                return SymbolicatedFrame(index: frame.index, image: frame.image, address: value,
                                         symbol: location?.symbol ?? frame.symbol.map(SwiftDemangler.demangle),
                                         file: location?.file, line: location?.line,
                                         loadAddress: loadAddress(frame))
            })
        }
    }

    /// The frames as a symbolicated crash report lists them, for people: `0  Demo  0x… crash() (demo.swift:5)`,
    /// or `0  Demo  0x… 0x102a38000 + 16424` where nothing names the frame.
    static func text(path: String, threads: [SymbolicatedThread]) -> String {
        var text = ""
        for thread in threads {
            text += "\(TextSanitizer.terminalSafe(path)): thread \(thread.index)\(thread.crashed ? " crashed" : ""):\n"
            let width = thread.frames.map { ($0.image ?? "???").count }.max() ?? 3
            for frame in thread.frames {
                let image = TextSanitizer.terminalSafe(frame.image ?? "???")
                var line = String(frame.index).padding(toLength: 4, withPad: " ", startingAt: 0)
                    + image.padding(toLength: max(width, image.count) + 2, withPad: " ", startingAt: 0)
                    + (frame.address.map { String(format: "0x%016llx", $0) } ?? "?")
                if let symbol = frame.symbol {
                    line += "  " + TextSanitizer.terminalSafe(symbol)
                } else if let load = frame.loadAddress, let address = frame.address, address >= load {
                    // As Apple writes a frame it could not name: what atos needs, by hand.
                    line += "  0x" + String(load, radix: 16) + " + " + String(address - load)
                }
                if let file = frame.file {
                    line += " (" + TextSanitizer.terminalSafe(file) + (frame.line.map { ":\($0)" } ?? "") + ")"
                }
                text += line + "\n"
            }
        }
        return text
    }
}
