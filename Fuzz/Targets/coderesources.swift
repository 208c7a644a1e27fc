// libFuzzer target: a resource seal (`_CodeSignature/CodeResources`) read from the raw input, XML
// or binary plist, its rules compiled as POSIX expressions and asked about paths real bundles have.
import Foundation

private let paths = ["Info.plist", "PkgInfo", "Assets.car", "en.lproj/Main.strings", "Base.lproj/Main.storyboardc/Info.plist",
                     "Frameworks/Kit.framework", "PlugIns/Share.appex/Share", "_CodeSignature/CodeResources", ".DS_Store",
                     "a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p.png", String(repeating: "x", count: 300)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let seal = try ResourceSeal(bytes: bytes, path: "fuzz")
        if seal.rules.count > ResourceSeal.maximumRules { fatalError("more rules than are accepted") }
        for path in paths {
            var budget = 1_000_000
            if let rule = seal.rule(for: path), rule.expression.matches(path.unicodeScalars.map(\.value), budget: &budget) == false {
                fatalError("a rule chosen that does not match")
            }
        }
    } catch is DecodeError {
    } catch {
        fatalError("ResourceSeal threw a non-DecodeError: \(error)")
    }
    return 0
}
