// The Swift side of Fixtures/symbolication's app: built without the standard library (none exists
// for Apple targets on Linux), so its names are Swift-mangled in the binary and its dSYM as in any app.
@inline(never)
public func crash(_ x: Builtin.Int64) -> Builtin.Int64 {
    return x
}

@inline(never)
public func work(_ x: Builtin.Int64) -> Builtin.Int64 {
    return crash(x)
}
