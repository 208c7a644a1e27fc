/// The stack every thread that decodes is given. The parsers recurse once per nesting level, up to
/// their depth limits (``PropertyListReader/maximumDepth``, ``BERReader/defaultMaxDepth``), and a
/// debug build spends a few KiB a level: more than the 512 KiB macOS gives a thread by default, so
/// the size is set explicitly, as the main thread's 8 MiB.
package enum DecodingStack {
    package static let size = 8 << 20
}
