import Foundation

/// Swift names as people read them (`Demo.crash(Builtin.Int64) -> Builtin.Int64`), through the
/// demangler the Swift runtime exports: `llvm-symbolizer` leaves Swift names mangled.
enum SwiftDemangler {
    /// `name` demangled, or `name` itself when it is not a Swift name.
    static func demangle(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S") || name.hasPrefix("_$S")
                || name.hasPrefix("_T0") || name.hasPrefix("$e") else { return name }
        let demangled: String? = name.withCString { pointer in
            guard let result = _swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return nil }
            defer { free(result) }
            return String(cString: result)
        }
        return demangled ?? name
    }
}

/// The runtime's C entry point (`swift/Demangling/Demangle.h`): a malloc'd string, or nil.
@_silgen_name("swift_demangle")
private func _swiftDemangle(_ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
                            _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
                            _ flags: UInt32) -> UnsafeMutablePointer<CChar>?
