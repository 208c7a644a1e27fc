/// A `CodeResources` rule's key, a POSIX extended regular expression as Apple compiles it
/// (`regcomp(REG_EXTENDED | REG_NOSUB)`, case-sensitive, searched anywhere in the relative path),
/// matched by simulating its automaton one character at a time (a Pike VM).
///
/// Why not `NSRegularExpression` or `regcomp`: the patterns come from the file, and both can take
/// exponential time (ICU backtracks; glibc's back-references and nested counted repetitions blow
/// up), and they disagree between Linux and macOS at the edges. Here time is bounded by path
/// length × program size, every step is counted against the caller's budget, and the result is
/// the same everywhere. Accepted: literals, `.`, bracket expressions (ranges, `[:class:]`,
/// `[.c.]`, `[=c=]`), `^`, `$`, groups, `|` (empty branches too, as `|())` in Apple's own rules),
/// `*`, `+`, `?` and `{m}`, `{m,}`, `{m,n}`, `{,n}` up to 255. Refused, as nothing tells what
/// Apple's engine would do with them: back-references and other backslash-letter escapes, a
/// quantifier with nothing to repeat, unbalanced parentheses, an unterminated bracket.
package struct ResourceRulePattern: Sendable, Equatable {
    package let source: String
    private let program: [Instruction]
    private let sets: [ScalarSet]
    /// Whether every path through the program starts with `^`: then a match can only start at 0.
    private let anchoredAtStart: Bool

    /// Longest pattern compiled, in Unicode scalars.
    package static let maximumLength = 4096
    /// Largest program (counted repetitions are expanded), in instructions.
    package static let maximumInstructions = 4096
    /// Deepest parenthesis nesting.
    static let maximumNesting = 128
    /// POSIX's `RE_DUP_MAX`: the largest count in `{m,n}`.
    static let maximumCount = 255

    /// Compiles `source`; throws `DecodeError(.invalidValue)` saying what is wrong with it.
    package init(_ source: String) throws {
        self.source = source
        var parser = Parser(Array(source.unicodeScalars.map(\.value)))
        guard parser.input.count <= Self.maximumLength else {
            throw DecodeError(.invalidValue, "rule pattern longer than \(Self.maximumLength) characters")
        }
        let tree = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(tree)
        try compiler.append(.match)
        program = compiler.program
        sets = parser.sets
        anchoredAtStart = tree.anchoredAtStart
    }

    /// Whether the pattern matches somewhere in `path` (given as its Unicode scalars' values), or
    /// nil when that would take more than `budget` steps; the steps taken are subtracted from it.
    package func matches(_ path: [UInt32], budget: inout Int) -> Bool? {
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        // The generation a program counter was last added in; position i adds in generation i.
        var marks = [Int](repeating: -1, count: program.count)
        for position in 0...path.count {
            if position == 0 || !anchoredAtStart {
                if add(0, at: position, in: path, to: &current, marks: &marks) { return true }
            } else if current.count == 0 {
                return false
            }
            if position == path.count { break }
            budget -= current.count + 1
            if budget < 0 { return nil }
            let scalar = path[position]
            next.removeAll()
            for index in 0..<current.count {
                let pc = current.items[index]
                let advances: Bool
                switch program[pc] {
                case .scalar(let expected): advances = scalar == expected
                case .any: advances = true
                case .set(let set): advances = sets[set].contains(scalar)
                default: advances = false
                }
                if advances, add(pc + 1, at: position + 1, in: path, to: &next, marks: &marks) { return true }
            }
            swap(&current, &next)
        }
        return false
    }

    /// Adds the thread at `start` and every thread its empty moves reach to `list`, with an explicit
    /// stack (a program may be thousands of instructions deep); true once one of them matches.
    private func add(_ start: Int, at position: Int, in path: [UInt32], to list: inout ThreadList,
                     marks: inout [Int]) -> Bool {
        var stack = [start]
        while let pc = stack.popLast() {
            guard marks[pc] != position else { continue }
            marks[pc] = position
            switch program[pc] {
            case .match: return true
            case .jump(let target): stack.append(target)
            case .split(let first, let second):
                stack.append(second)
                stack.append(first)
            case .lineStart: if position == 0 { stack.append(pc + 1) }
            case .lineEnd: if position == path.count { stack.append(pc + 1) }
            case .scalar, .any, .set: list.append(pc)
            }
        }
        return false
    }

    private enum Instruction: Sendable, Equatable {
        case scalar(UInt32)
        case any
        case set(Int)
        case split(Int, Int)
        case jump(Int)
        case lineStart
        case lineEnd
        case match
    }

    /// Program counters waiting on the next character, in a buffer reused between positions.
    private struct ThreadList {
        var items: [Int]
        var count = 0

        init(capacity: Int) { items = [Int](repeating: 0, count: capacity) }

        mutating func append(_ pc: Int) {
            items[count] = pc
            count += 1
        }

        mutating func removeAll() { count = 0 }
    }

    private indirect enum Node {
        case empty
        case scalar(UInt32)
        case any
        case set(Int)
        case lineStart
        case lineEnd
        case sequence([Node])
        case alternatives([Node])
        case repetition(Node, minimum: Int, maximum: Int?)

        /// Whether every way through the node begins with `^`.
        var anchoredAtStart: Bool {
            switch self {
            case .lineStart: return true
            case .sequence(let nodes): return nodes.first?.anchoredAtStart ?? false
            case .alternatives(let nodes): return !nodes.isEmpty && nodes.allSatisfy(\.anchoredAtStart)
            default: return false
            }
        }
    }

    /// One bracket expression's members: ranges of scalars and named classes, maybe negated.
    private struct ScalarSet: Sendable, Equatable {
        var negated = false
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [NamedClass] = []

        func contains(_ scalar: UInt32) -> Bool {
            let member = ranges.contains { $0.contains(scalar) } || classes.contains { $0.contains(scalar) }
            return member != negated
        }
    }

    /// The POSIX character classes: ASCII as in the C locale, other scalars by their Unicode
    /// properties (what a UTF-8 locale's `isw*` functions answer).
    private enum NamedClass: String, Sendable, Equatable {
        case alnum, alpha, blank, cntrl, digit, graph, lower, print, punct, space, upper, xdigit

        func contains(_ value: UInt32) -> Bool {
            if value < 0x80 {
                let byte = UInt8(value)
                let isUpper = (0x41...0x5A).contains(byte), isLower = (0x61...0x7A).contains(byte)
                let isDigit = (0x30...0x39).contains(byte)
                let isGraph = (0x21...0x7E).contains(byte)
                switch self {
                case .alnum: return isUpper || isLower || isDigit
                case .alpha: return isUpper || isLower
                case .blank: return byte == 0x20 || byte == 0x09
                case .cntrl: return byte < 0x20 || byte == 0x7F
                case .digit: return isDigit
                case .graph: return isGraph
                case .lower: return isLower
                case .print: return isGraph || byte == 0x20
                case .punct: return isGraph && !(isUpper || isLower || isDigit)
                case .space: return byte == 0x20 || (0x09...0x0D).contains(byte)
                case .upper: return isUpper
                case .xdigit: return isDigit || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
                }
            }
            guard let scalar = Unicode.Scalar(value) else { return false }
            let properties = scalar.properties
            switch self {
            case .alnum, .alpha: return properties.isAlphabetic
            case .blank: return properties.generalCategory == .spaceSeparator
            case .cntrl: return properties.generalCategory == .control
            case .digit, .xdigit: return false
            case .graph: return !properties.isWhitespace && properties.generalCategory != .control
            case .print: return properties.generalCategory != .control
            case .lower: return properties.isLowercase
            case .upper: return properties.isUppercase
            case .punct:
                switch properties.generalCategory {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                     .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
                     .currencySymbol, .modifierSymbol, .otherSymbol: return true
                default: return false
                }
            case .space: return properties.isWhitespace
            }
        }
    }

    /// Recursive descent over the ERE grammar: regex = branch ('|' branch)*; branch = piece*;
    /// piece = atom quantifier*.
    private struct Parser {
        let input: [UInt32]
        var index = 0
        var depth = 0
        var sets: [ScalarSet] = []

        init(_ input: [UInt32]) { self.input = input }

        var atEnd: Bool { index >= input.count }
        var current: UInt32? { atEnd ? nil : input[index] }

        func fail(_ reason: String) -> DecodeError {
            DecodeError(.invalidValue, "rule pattern: \(reason) at character \(index)")
        }

        mutating func parseWhole() throws -> Node {
            let node = try parseAlternatives()
            if !atEnd { throw fail("unmatched )") }
            return node
        }

        mutating func parseAlternatives() throws -> Node {
            var branches = [try parseBranch()]
            while current == ascii("|") {
                index += 1
                branches.append(try parseBranch())
            }
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        mutating func parseBranch() throws -> Node {
            var pieces: [Node] = []
            while let scalar = current, scalar != ascii("|"), scalar != ascii(")") {
                var atom = try parseAtom()
                while let (minimum, maximum) = try parseQuantifier() {
                    switch atom {
                    case .lineStart, .lineEnd: throw fail("a quantifier after an anchor")
                    default: atom = .repetition(atom, minimum: minimum, maximum: maximum)
                    }
                }
                pieces.append(atom)
            }
            if pieces.isEmpty { return .empty }
            return pieces.count == 1 ? pieces[0] : .sequence(pieces)
        }

        mutating func parseAtom() throws -> Node {
            guard let scalar = current else { throw fail("pattern ends early") }
            index += 1
            switch scalar {
            case ascii("("):
                depth += 1
                guard depth <= ResourceRulePattern.maximumNesting else { throw fail("parentheses nested too deep") }
                let inner = try parseAlternatives()
                guard current == ascii(")") else { throw fail("unmatched (") }
                index += 1
                depth -= 1
                return inner
            case ascii("."): return .any
            case ascii("^"): return .lineStart
            case ascii("$"): return .lineEnd
            case ascii("["): return .set(try parseBracket())
            case ascii("*"), ascii("+"), ascii("?"), ascii("{"):
                index -= 1
                throw fail("a quantifier with nothing to repeat")
            case ascii("\\"):
                guard let escaped = current else { throw fail("a pattern ending in \\") }
                if isASCIIAlphanumeric(escaped) { throw fail("unsupported escape \\\(Character(Unicode.Scalar(UInt8(escaped))))") }
                index += 1
                return .scalar(escaped)
            default: return .scalar(scalar)
            }
        }

        /// `*`, `+`, `?` or `{m,n}` at the current position, consumed; nil when there is none.
        mutating func parseQuantifier() throws -> (Int, Int?)? {
            switch current {
            case ascii("*"): index += 1; return (0, nil)
            case ascii("+"): index += 1; return (1, nil)
            case ascii("?"): index += 1; return (0, 1)
            case ascii("{"):
                index += 1
                let written = try parseCount()
                var maximum = written
                if current == ascii(",") {
                    index += 1
                    maximum = try parseCount()
                    // `{,}` names no count at all.
                    if written == nil, maximum == nil { throw fail("a malformed {m,n}") }
                } else if written == nil {
                    throw fail("a malformed {m,n}")
                }
                guard current == ascii("}") else { throw fail("a malformed {m,n}") }
                index += 1
                let minimum = written ?? 0
                if let maximum, maximum < minimum { throw fail("{m,n} with m > n") }
                return (minimum, maximum)
            default: return nil
            }
        }

        mutating func parseCount() throws -> Int? {
            var value: Int?
            while let scalar = current, (ascii("0")...ascii("9")).contains(scalar) {
                value = (value ?? 0) * 10 + Int(scalar - ascii("0"))
                guard value! <= ResourceRulePattern.maximumCount else {
                    throw fail("a count above \(ResourceRulePattern.maximumCount)")
                }
                index += 1
            }
            return value
        }

        /// After `[`: members up to the closing `]` (a `]` first is a member); returns the set's index.
        mutating func parseBracket() throws -> Int {
            var set = ScalarSet()
            if current == ascii("^") {
                set.negated = true
                index += 1
            }
            var first = true
            while true {
                guard let scalar = current else { throw fail("unterminated [") }
                if scalar == ascii("]"), !first { index += 1; break }
                first = false
                if scalar == ascii("["), index + 1 < input.count, input[index + 1] == ascii(":") {
                    index += 2
                    let name = try parseBracketWord(closing: ascii(":"))
                    guard let named = NamedClass(rawValue: name) else { throw fail("unknown class [:\(name):]") }
                    set.classes.append(named)
                    try refuseRangeAfterMember()
                    continue
                }
                let low = try parseBracketScalar()
                if current == ascii("-"), index + 1 < input.count, input[index + 1] != ascii("]") {
                    index += 1
                    let high = try parseBracketScalar()
                    guard low <= high else { throw fail("a range whose end is before its start") }
                    set.ranges.append(low...high)
                    try refuseRangeAfterMember()
                } else {
                    set.ranges.append(low...low)
                }
            }
            sets.append(set)
            return sets.count - 1
        }

        /// A class or a range cannot start a range (`[a-c-e]`, `[[:alpha:]-z]`), as glibc says.
        func refuseRangeAfterMember() throws {
            if current == ascii("-"), index + 1 < input.count, input[index + 1] != ascii("]") {
                throw fail("a range starting at a class or another range")
            }
        }

        /// A single member: a scalar, or `[.c.]` / `[=c=]` naming one scalar.
        mutating func parseBracketScalar() throws -> UInt32 {
            guard let scalar = current else { throw fail("unterminated [") }
            if scalar == ascii("["), index + 1 < input.count, input[index + 1] == ascii(".") || input[index + 1] == ascii("=") {
                let closing = input[index + 1]
                index += 2
                let word = try parseBracketWord(closing: closing)
                guard word.unicodeScalars.count == 1, let only = word.unicodeScalars.first else {
                    throw fail("a collating element other than one character")
                }
                return only.value
            }
            if scalar == ascii("["), index + 1 < input.count, input[index + 1] == ascii(":") {
                throw fail("a class as a range end")
            }
            index += 1
            return scalar
        }

        /// The text of `[:word:]`, `[.word.]` or `[=word=]` after its opening, through its closing.
        mutating func parseBracketWord(closing: UInt32) throws -> String {
            var word = String.UnicodeScalarView()
            while index + 1 < input.count {
                if input[index] == closing, input[index + 1] == ascii("]") {
                    index += 2
                    return String(word)
                }
                guard let scalar = Unicode.Scalar(input[index]) else { throw fail("an invalid character") }
                word.append(scalar)
                index += 1
            }
            throw fail("unterminated [\(Character(Unicode.Scalar(UInt8(closing))))")
        }

        func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }

        func isASCIIAlphanumeric(_ value: UInt32) -> Bool {
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
    }

    /// Emits the program for a tree, refusing one larger than ``maximumInstructions``.
    private struct Compiler {
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) throws {
            guard program.count < ResourceRulePattern.maximumInstructions else {
                throw DecodeError(.invalidValue, "rule pattern: more than \(ResourceRulePattern.maximumInstructions) steps once its counts are expanded")
            }
            program.append(instruction)
        }

        mutating func emit(_ node: Node) throws {
            switch node {
            case .empty: break
            case .scalar(let value): try append(.scalar(value))
            case .any: try append(.any)
            case .set(let index): try append(.set(index))
            case .lineStart: try append(.lineStart)
            case .lineEnd: try append(.lineEnd)
            case .sequence(let nodes): for node in nodes { try emit(node) }
            case .alternatives(let nodes):
                // split L1, next; L1: first; jump end; next: split L2, … ; last
                var jumps: [Int] = []
                for (offset, branch) in nodes.enumerated() {
                    if offset < nodes.count - 1 {
                        let split = program.count
                        try append(.split(split + 1, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        try append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let inner, let minimum, let maximum):
                for _ in 0..<minimum { try emit(inner) }
                if let maximum {
                    // Each optional copy may be skipped, and skipping one skips the rest.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        try append(.split(program.count + 1, 0))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    try append(.split(loop + 1, 0))
                    try emit(inner)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
